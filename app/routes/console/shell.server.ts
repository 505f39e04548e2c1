import type { AppLoadContext } from "react-router";
import type { ShellData } from "~/components/shell/types";
import { requestLanguage } from "../../../workers/i18n";
import { consoleShell } from "../../../workers/services/auth/user-info";
import type { UserCtx } from "../../../workers/services/context";
import { sessionCookie } from "../../lib/ctx.server";

/** What the console shell shows for the logged-in user: operator, menu, formats, language. */
export async function shellData(request: Request, ctx: UserCtx): Promise<ShellData> {
  return { ...(await consoleShell(ctx)), lang: requestLanguage(request) };
}

/** Sliding sessions: when the server pushed the session's expiry out, the cookie follows. */
export function renewedSessionHeaders(request: Request, context: AppLoadContext, ctx: UserCtx): HeadersInit {
  return ctx.session.renewed ? { "Set-Cookie": sessionCookie(request, context, ctx.token, ctx.session.expiresAt) } : {};
}
