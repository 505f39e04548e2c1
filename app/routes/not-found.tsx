import { useTranslation } from "react-i18next";
import { data, Link, useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { firstLeafUrl } from "../../tenants/permissions";
import { OPERATOR_COOKIE, readCookie } from "../../workers/http/cookies";
import { optionalCtx } from "../lib/ctx.server";

const MESSAGES = new Set(["guard.insufficient", "guard.noMenu", "guard.operatorNoMenu", "guard.noLogin"]);

/** The 404 page ('you are lost, click here'); the guard also lands here with its message. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await optionalCtx(request, context);
  const code = readCookie(request, OPERATOR_COOKIE);
  const home = ctx ? (firstLeafUrl(ctx.actor.menu) ?? "/homePage") : code ? `/${code}/login` : "/homePage";
  // A path that names nothing answers 404; the /404 page itself is a normal page.
  return data({ home }, { status: new URL(request.url).pathname === "/404" ? 200 : 404 });
}

export default function NotFound() {
  const { home } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const msg = params.get("msg");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-8 text-center">
      <p className="text-8xl font-bold tracking-tight text-primary">404</p>
      {msg && MESSAGES.has(msg) && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {t(msg)}
        </p>
      )}
      <Link to={home} className="text-lg text-primary underline-offset-4 hover:underline">
        {t("notFound.lost")}
      </Link>
    </main>
  );
}
