import { redirect, type ActionFunctionArgs } from "react-router";
import { readCookie } from "../../workers/http/cookies";
import { logout } from "../../workers/services/auth/session-verbs";
import { publicCtx, rememberedOperator, requireConsoleOrigin, sessionCookie } from "../lib/ctx.server";

/** Ends the cookie's session, clears the cookie and goes back to the operator's login page. */
export async function logoutAction({ request, context }: ActionFunctionArgs) {
  requireConsoleOrigin(request);
  const token = readCookie(request, context.cloudflare.env.SESSION_COOKIE);
  if (token) await logout(publicCtx(request, context), token);
  const code = rememberedOperator(request);
  return redirect(code ? `/${code}/login` : "/homePage", {
    headers: { "Set-Cookie": sessionCookie(request, context, "") },
  });
}
