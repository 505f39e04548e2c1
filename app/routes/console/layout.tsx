import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Outlet, useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { AppShell } from "~/components/shell/app-shell";
import { showHandedMessage } from "~/components/ui/toast";
import { LiveProvider } from "~/lib/live";
import { mayListenLive } from "../../../tenants/permissions";
import { requireCtx } from "../../lib/ctx.server";
import { renewedSessionHeaders, shellData } from "./shell.server";

/** The console layout: guard on every navigation, then the shell built from the user's menu. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return data({ ...(await shellData(request, ctx)), live: mayListenLive(ctx.actor.menu) }, { headers: renewedSessionHeaders(request, context, ctx) });
}

/** The guard must see every navigation, not only those that change this layout's params. */
export const shouldRevalidate = () => true;

export default function ConsoleLayout() {
  const data = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  useEffect(() => {
    showHandedMessage(t, params.get("msg"));
  }, [params, t]);
  return (
    <LiveProvider enabled={data.live}>
      <AppShell data={data}>
        <Outlet />
      </AppShell>
    </LiveProvider>
  );
}
