import { useTranslation } from "react-i18next";
import { data, useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { firstLeafUrl } from "../../tenants/permissions";
import { OPERATOR_COOKIE, readCookie } from "../../workers/http/cookies";
import { AppShell } from "~/components/shell/app-shell";
import { StatusPage } from "~/components/shell/status-page";
import { optionalCtx } from "../lib/ctx.server";
import { shellData } from "./console/shell.server";

const MESSAGES = new Set(["guard.insufficient", "guard.noMenu", "guard.operatorNoMenu", "guard.noLogin"]);

/**
 * The 404 page ('you are lost, click here'); the guard also lands here with its message, and a
 * user whose role may not see a screen gets the insufficient-permissions page. A logged-in user
 * sees it inside the console shell.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await optionalCtx(request, context);
  const code = readCookie(request, OPERATOR_COOKIE);
  const home = ctx ? (firstLeafUrl(ctx.actor.menu) ?? "/homePage") : code ? `/${code}/login` : "/homePage";
  const shell = ctx && !ctx.actor.mustChangePassword ? await shellData(request, ctx) : null;
  // A path that names nothing answers 404; the /404 page itself is a normal page.
  return data({ home, shell }, { status: new URL(request.url).pathname === "/404" ? 200 : 404 });
}

export default function NotFound() {
  const { home, shell } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const msg = params.get("msg");
  const forbidden = msg === "guard.insufficient";
  const page = (
    <StatusPage
      status={forbidden ? 403 : 404}
      home={home}
      owner={shell?.operator.name}
      notice={msg && MESSAGES.has(msg) && !forbidden ? t(msg) : undefined}
      className={shell ? "min-h-[60vh]" : "min-h-screen"}
    />
  );
  return shell ? <AppShell data={shell}>{page}</AppShell> : <main>{page}</main>;
}
