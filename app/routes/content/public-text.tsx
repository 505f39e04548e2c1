import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, type LoaderFunctionArgs } from "react-router";
import { useFormat } from "~/components/format";
import { DocumentTitle } from "~/components/shell/document-title";
import { StatusPage } from "~/components/shell/status-page";
import { loadPublishedText } from "./content-text.server";

/**
 * The public mobile pages /disclaimer/mobile and /privacy/mobile (docs/rules/content.md
 * "Disclaimer and privacy policy"): the operator's text in the language asked for, without a
 * login, mobile first. An unknown operator is the not-found page with HTTP 404.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPublishedText(args, new URL(args.request.url).pathname.startsWith("/privacy/") ? "PRIVACY_POLICY" : "DISCLAIMER");
}

export default function PublicText() {
  const { text } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { dateTime } = useFormat();
  if (!text) return <StatusPage status={404} home="/homePage" className="min-h-screen" />;
  const title = t(pathname.startsWith("/privacy/") ? "content.texts.privacyTitle" : "content.texts.disclaimerTitle");
  return (
    <main className="min-h-screen bg-muted/40 px-3 py-4 sm:py-10">
      <DocumentTitle screen={title} owner={text.operatorName} />
      <article lang={text.lang.replace("_", "-")} className="mx-auto w-full max-w-2xl rounded-2xl border bg-card p-5 shadow-sm">
        <header className="mb-4 flex flex-col gap-0.5 border-b pb-3">
          <p className="text-sm text-muted-foreground">{text.operatorName}</p>
          <h1 className="text-xl font-semibold">{title}</h1>
          {text.updatedAt && <p className="text-xs text-muted-foreground">{t("content.texts.updatedAt", { time: dateTime(text.updatedAt) })}</p>}
        </header>
        {text.content ? (
          <div className="text-base leading-relaxed break-words whitespace-pre-wrap">{text.content}</div>
        ) : (
          <p className="text-sm text-muted-foreground">{t("content.texts.notPublished")}</p>
        )}
      </article>
    </main>
  );
}
