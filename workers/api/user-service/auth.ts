import { accessTokenParam, loginInput } from "../../../domain/schemas/account-service";
import { operatorByHost } from "../../../tenants/resolve";
import { issueCaptcha } from "../../services/auth/captcha";
import { login } from "../../services/auth/login";
import { logout, refreshToken } from "../../services/auth/session-verbs";
import { route } from "../app";
import { resource } from "../resource";

const tag = "Account service: auth";
const auth = resource(tag, "/user-service/auth");
const token = resource(tag, "/user-service/auth/token", accessTokenParam);

export const routes = [
  auth.get("/captcha", "A new captcha (SVG drawn as paths)", issueCaptcha),

  route(
    {
      method: "post",
      path: "/user-service/auth/login/operator",
      summary: "Log in to an operator with username, password and captcha",
      tag,
      verb: login,
      body: loginInput,
    },
    async (ctx, { body }, c) => login(ctx, body, await operatorByHost(ctx.db, new URL(c.req.url).host)),
  ),

  route(
    {
      method: "get",
      path: "/user-service/auth/token/refresh",
      summary: "A new access token; the old one ends",
      tag,
      verb: refreshToken,
      // A token that can no longer be refreshed says so (docs/rules/sessions.md "Session messages").
      refusedAs: "errors.refreshFailed",
    },
    (ctx) => refreshToken(ctx),
  ),

  token.remove("Log out: end the session of this token", logout),
];
