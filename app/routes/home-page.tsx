import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { useOperatorSearch } from "~/components/public/operator-search";
import { DocumentTitle, PRODUCT_NAME } from "~/components/shell/document-title";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { showHandedMessage } from "~/components/ui/toast";
import { applyGuard, optionalCtx } from "../lib/ctx.server";

/** /homePage and /carrierList: the fallback when no operator code is known (docs/rules/console.md "Route guard"). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await applyGuard(request, context, await optionalCtx(request, context));
  return null;
}

export default function HomePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState("");
  const choices = useOperatorSearch(keyword);

  useEffect(() => {
    showHandedMessage(t, params.get("msg"));
  }, [params, t]);

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-primary/10 via-background to-background p-4">
      <DocumentTitle screen={t("homePage.title")} />
      <div className="w-full max-w-md rounded-2xl border bg-card p-8 shadow-lg">
        <h1 className="text-2xl font-semibold">{PRODUCT_NAME}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{t("homePage.intro")}</p>
        <form
          className="mt-6 flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (keyword.trim()) navigate(`/${encodeURIComponent(keyword.trim())}/login`);
          }}
        >
          <Input
            aria-label={t("homePage.operatorCode")}
            placeholder={t("homePage.operatorCode")}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            autoFocus
          />
          <Button type="submit">{t("homePage.go")}</Button>
        </form>
        {choices.length > 0 && (
          <ul className="mt-4 divide-y rounded-lg border">
            {choices.map((o) => (
              <li key={o.operatorCode}>
                <Link to={`/${o.operatorCode}/login`} className="flex items-center justify-between px-4 py-3 hover:bg-muted">
                  <span className="font-medium">{o.name}</span>
                  <span className="font-mono text-sm text-muted-foreground">{o.operatorCode}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </main>
  );
}
