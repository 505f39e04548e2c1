import { homepageQuery, operatorCodeParam } from "../../../domain/schemas/account-service";
import { homepageOperators, loginInfo } from "../../services/operators/public-info";
import { route } from "../app";

const tag = "Account service: operators";

export const routes = [
  route(
    {
      method: "get",
      path: "/user-service/operator/login/info/{operatorCode}",
      summary: "What the login page shows of an operator",
      tag,
      verb: loginInfo,
      params: operatorCodeParam,
    },
    (ctx, { params }) => loginInfo(ctx, params.operatorCode),
  ),

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
