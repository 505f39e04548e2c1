import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { AppShell } from "~/components/shell/app-shell";
import { StatusPage } from "~/components/shell/status-page";
import { loadNotFound } from "./not-found.server";

const MESSAGES = new Set(["guard.insufficient", "guard.noMenu", "guard.operatorNoMenu", "guard.noLogin"]);

/**
 * The 404 page ('you are lost, click here'); the guard also lands here with its message, and a
 * user whose role may not see a screen gets the insufficient-permissions page. A logged-in user
 * sees it inside the console shell.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadNotFound(args);
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
