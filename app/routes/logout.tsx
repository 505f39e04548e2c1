import { redirect, type ActionFunctionArgs } from "react-router";
import { OPERATOR_COOKIE, readCookie } from "../../workers/http/cookies";
import { logout } from "../../workers/services/auth/session-verbs";
import { publicCtx, sessionCookie } from "../lib/ctx.server";

/** The console logs out through this action: its cookie session ends (ARCHITECTURE.md §4). */
export async function action({ request, context }: ActionFunctionArgs) {
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
