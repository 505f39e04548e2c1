import { changePasswordInput } from "../../../domain/schemas/account-service";
import { changePassword } from "../../services/auth/session-verbs";
import { personInfo } from "../../services/auth/user-info";
import { areaCodes, operatorInfo, supportedCurrency } from "../../services/operators/public-info";
import { route } from "../app";

const tag = "Account service: person";

export const routes = [
  route({ method: "get", path: "/user-service/person/operator", summary: "The logged-in account", tag, verb: personInfo }, (ctx) => personInfo(ctx)),

  route({ method: "get", path: "/user-service/person/operator/info", summary: "Logo and operator info", tag, verb: operatorInfo }, (ctx) =>
    operatorInfo(ctx),
  ),

  route(
    {
      method: "get",
      path: "/user-service/person/operator/support/currency",
      summary: "The operator's currency (code, sign, decimals)",
      tag,
      verb: supportedCurrency,
    },
    (ctx) => supportedCurrency(ctx),
  ),

  route({ method: "get", path: "/user-service/person/operator/area-code", summary: "Telephone area codes", tag, verb: areaCodes }, (ctx) =>
    areaCodes(ctx),
  ),

  route(
    {
      method: "put",
      path: "/user-service/person/operator/password",
      summary: "Change the password (old, new, confirm); every session ends",
      tag,
      verb: changePassword,
      body: changePasswordInput,
    },
    (ctx, { body }) => changePassword(ctx, body),
  ),
];
