import type { AppLoadContext } from "react-router";
import { settingsOf } from "../../../tenants/resolve";
import { requestLanguage } from "../../../workers/i18n";
import type { Ctx } from "../../../workers/services/context";
import type { ShellData } from "~/components/shell/types";
import { sessionCookie } from "../../lib/ctx.server";

/** What the console shell shows for the logged-in user: operator, menu, formats, language. */
export async function shellData(request: Request, ctx: Ctx): Promise<ShellData> {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  return {
    user: {
      account: ctx.actor.username,
      name: ctx.actor.name,
      type: ctx.actor.adminType,
      sub: ctx.actor.sub,
      timeZone: settings.timeZone,
      operatorCode: ctx.operator.code,
    },
    operator: {
      code: ctx.operator.code,
      name: ctx.operator.name,
      logoUrl: ctx.operator.logoKey ? `/user-service/file/show?key=${encodeURIComponent(ctx.operator.logoKey)}` : null,
    },
    menu: ctx.actor.menu,
    currency: { code: settings.currencyCode, sign: settings.currencySign, decimals: settings.currencyDecimals },
    lang: requestLanguage(request),
  };
}

/** Sliding sessions: when the server pushed the session's expiry out, the cookie follows. */
export function renewedSessionHeaders(request: Request, context: AppLoadContext, ctx: Ctx): HeadersInit {
  return ctx.session.renewed ? { "Set-Cookie": sessionCookie(request, context, ctx.token, ctx.session.expiresAt) } : {};
}
