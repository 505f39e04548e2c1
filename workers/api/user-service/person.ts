import { changePasswordInput } from "../../../domain/schemas/account-service";
import { userInfo } from "../../services/auth/user-info";
import { changePassword } from "../../services/auth/session-verbs";
import { areaCodes, operatorInfo, supportedCurrency } from "../../services/operators/public-info";
import { route } from "../app";

const tag = "Account service: person";

route(
  { method: "get", path: "/user-service/person/operator", summary: "The logged-in account", tag, access: "session", scope: "person.read" },
  (ctx) => userInfo(ctx),
);

route(
  { method: "get", path: "/user-service/person/operator/info", summary: "Logo and operator info", tag, access: "session", scope: "person.read" },
  (ctx) => operatorInfo(ctx),
);

route(
  {
    method: "get",
    path: "/user-service/person/operator/support/currency",
    summary: "The operator's currency (code, sign, decimals)",
    tag,
    access: "session",
    scope: "person.read",
  },
  (ctx) => supportedCurrency(ctx),
);

route(
  { method: "get", path: "/user-service/person/operator/area-code", summary: "Telephone area codes", tag, access: "session", scope: "person.read" },
  (ctx) => areaCodes(ctx),
);

route(
  {
    method: "put",
    path: "/user-service/person/operator/password",
    summary: "Change the password (old, new, confirm); every session ends",
    tag,
    access: "session",
    scope: "person.password",
    body: changePasswordInput,
  },
  async (ctx, { body }) => {
    await changePassword(ctx, body);
    return null;
  },
);
