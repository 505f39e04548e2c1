import { homepageQuery, operatorCodeParam } from "../../../domain/schemas/account-service";
import { homepageOperators, loginInfo } from "../../services/operators/public-info";
import { route } from "../app";
import { resource } from "../resource";

const tag = "Account service: operators";
const loginOperator = resource(tag, "/user-service/operator/login/info", operatorCodeParam);

export const routes = [
  loginOperator.detail("What the login page shows of an operator", loginInfo),

  route(
    {
      method: "get",
      path: "/user-service/operator/homepage",
      summary: "Operators matching a code or name prefix (the operator picker)",
      tag,
      verb: homepageOperators,
      query: homepageQuery,
    },
    (ctx, { query }) => homepageOperators(ctx, query.keyword),
  ),
];
