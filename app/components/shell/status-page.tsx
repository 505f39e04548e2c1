import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { cn } from "~/lib/cn";
import { DocumentTitle } from "./document-title";

const TITLE_KEYS: Record<number, string> = { 403: "statusPage.forbidden", 404: "statusPage.notFound" };

/**
 * What the console shows instead of a page: 404 (no such page, or not this tenant's), 403 (the
 * user's role may not see it) or any other failure; with the guard's message when it sent the
 * user here, and a way back.
 */
export function StatusPage({
  status,
  home,
  owner,
  notice,
  className,
}: {
  status: number;
  /** Where the way back leads. */
  home: string;
  /** Whose console this is, for the document title. */
  owner?: string;
  notice?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const title = t(TITLE_KEYS[status] ?? "statusPage.error");
  return (
    <section className={cn("flex flex-col items-center justify-center gap-5 p-8 text-center", className)}>
      <DocumentTitle screen={title} owner={owner} />
      <p className="text-8xl font-bold tracking-tight text-primary" aria-hidden>
        {status}
      </p>
      <h1 className="text-xl font-semibold">{title}</h1>
      {notice && (
        <p role="alert" className="rounded-md border border-warning/30 bg-warning/10 px-4 py-2 text-warning">
          {notice}
        </p>
      )}
      <Link to={home} className="text-lg text-primary underline underline-offset-4">
        {t(status === 404 ? "notFound.lost" : "notFound.back")}
      </Link>
    </section>
  );
}
