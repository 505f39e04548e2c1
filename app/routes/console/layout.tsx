import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Outlet, useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { decimalSeparatorOf } from "../../../domain/format";
import { settingsOf } from "../../../tenants/resolve";
import { requestLanguage } from "../../../workers/i18n";
import { AppShell } from "~/components/shell/app-shell";
import type { ShellData } from "~/components/shell/types";
import { toast } from "~/components/ui/toast";
import { LiveProvider } from "~/lib/live";
import { requireCtx, sessionCookie } from "../../lib/ctx.server";

/** The console layout: guard on every navigation, then the shell built from the user's menu. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  // Sliding sessions: when the server pushed the expiry out, the cookie follows.
  const headers: HeadersInit = ctx.session.renewed ? { "Set-Cookie": sessionCookie(request, context, ctx.token, ctx.session.expiresAt) } : {};
  const shell: ShellData = {
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
    decimalSeparator: decimalSeparatorOf(settings.document),
    lang: requestLanguage(request),
  };
  return data(shell, { headers });
}

/** The guard must see every navigation, not only those that change this layout's params. */
export const shouldRevalidate = () => true;

export default function ConsoleLayout() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  useEffect(() => {
    const msg = params.get("msg");
    if (msg?.startsWith("guard.")) toast.warning(t(msg));
  }, [params, t]);
  return (
    <LiveProvider>
      <AppShell data={data}>
        <Outlet />
      </AppShell>
    </LiveProvider>
  );
}
