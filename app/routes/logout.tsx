import { redirect, type ActionFunctionArgs } from "react-router";
import { OPERATOR_COOKIE, readCookie } from "../../workers/http/cookies";
import { logout } from "../../workers/services/auth/session-verbs";
import { publicCtx, requireConsoleOrigin, sessionCookie } from "../lib/ctx.server";

/**
 * The console logs out through this action: its cookie session ends. Ending a session is a
 * change, so a cross-site form cannot log anyone out (docs/rules/sessions.md).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  requireConsoleOrigin(request);
  const token = readCookie(request, context.cloudflare.env.SESSION_COOKIE);
  if (token) await logout(publicCtx(request, context), token);
  const code = readCookie(request, OPERATOR_COOKIE);
  return redirect(code ? `/${code}/login` : "/homePage", {
    headers: { "Set-Cookie": sessionCookie(request, context, "") },
  });
}

export function loader() {
  return redirect("/");
}
