import { accountInput, accountListQuery, accountUpdateInput, enableInput } from "../../../domain/schemas/account-service";
import { createAccount, getAccount, listAccounts, setAccountStatus, updateAccount } from "../../services/accounts/accounts";
import { idParam, route } from "../app";

const tag = "Account service: accounts";
const access = { menu: "carrier.carrierAcount" };

route(
  { method: "get", path: "/user-service/account", summary: "Accounts, paged and filtered", tag, access, query: accountListQuery },
  (ctx, { query }) => listAccounts(ctx, query),
);
route(
  { method: "post", path: "/user-service/account", summary: "Create an account; answers its initial password once", tag, access, body: accountInput },
  (ctx, { body }) => createAccount(ctx, body),
);
route({ method: "get", path: "/user-service/account/{id}", summary: "One account", tag, access, params: idParam }, (ctx, { params }) =>
  getAccount(ctx, params.id),
);
route(
  { method: "put", path: "/user-service/account/{id}", summary: "Update an account", tag, access, params: idParam, body: accountUpdateInput },
  (ctx, { params, body }) => updateAccount(ctx, params.id, body),
);
route(
  { method: "put", path: "/user-service/account/{id}/enable", summary: "Enable or disable an account", tag, access, params: idParam, body: enableInput },
  (ctx, { params, body }) => setAccountStatus(ctx, params.id, body),
);
