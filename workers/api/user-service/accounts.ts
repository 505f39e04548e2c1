import { accountInput, accountListQuery, accountUpdateInput, enableInput } from "../../../domain/schemas/account-service";
import { createAccount, getAccount, listAccounts, setAccountStatus, updateAccount } from "../../services/accounts/accounts";
import { idParam, route } from "../app";

const tag = "Account service: accounts";

export const routes = [
  route(
    { method: "get", path: "/user-service/account", summary: "Accounts, paged and filtered", tag, verb: listAccounts, query: accountListQuery },
    (ctx, { query }) => listAccounts(ctx, query),
  ),
  route(
    {
      method: "post",
      path: "/user-service/account",
      summary: "Create an account with a role the actor may give; answers its initial password once",
      tag,
      verb: createAccount,
      body: accountInput,
    },
    (ctx, { body }) => createAccount(ctx, body),
  ),
  route({ method: "get", path: "/user-service/account/{id}", summary: "One account", tag, verb: getAccount, params: idParam }, (ctx, { params }) =>
    getAccount(ctx, params.id),
  ),
  route(
    {
      method: "put",
      path: "/user-service/account/{id}",
      summary: "Update an account (not one's own role; a SUPER account only by a SUPER; never the owner's role)",
      tag,
      verb: updateAccount,
      params: idParam,
      body: accountUpdateInput,
    },
    (ctx, { params, body }) => updateAccount(ctx, params.id, body),
  ),
  route(
    {
      method: "put",
      path: "/user-service/account/{id}/enable",
      summary: "Enable or disable an account (not one's own; a SUPER only by a SUPER; never the owner)",
      tag,
      verb: setAccountStatus,
      params: idParam,
      body: enableInput,
    },
    (ctx, { params, body }) => setAccountStatus(ctx, params.id, body),
  ),
];
