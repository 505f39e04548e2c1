import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/**
 * The flag a monitoring screen shows while sessions look stuck, linking to their list
 * (docs/rules/monitoring.md "Suspect sessions"); nothing when there are none or no list to open.
 */
export function SuspectFlag({ count, to }: { count: number; to: string | null }) {
  const { t } = useTranslation();
  if (count === 0 || !to) return null;
  return (
    <div role="status" data-testid="suspect-flag" className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <TriangleAlert className="size-4" aria-hidden />
      <span>{t("resilience.suspect.flag", { count })}</span>
      <Link to={to} className="font-medium underline underline-offset-2">
        {t("resilience.suspect.review")}
      </Link>
    </div>
  );
}
