import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Input } from "~/components/ui/input";

/**
 * The `from` and `to` fields of a list's toolbar, typed in the operator's time zone
 * (docs/rules/lists.md "Filters and sorting"); the loader turns them into instants.
 */
export function TimeRangeFilter() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <>
      <label className="flex items-center gap-2">
        <span className="shrink-0 text-xs text-muted-foreground">{t("monitoring.common.from")}</span>
        <Input name="from" type="datetime-local" defaultValue={params.get("from") ?? ""} />
      </label>
      <label className="flex items-center gap-2">
        <span className="shrink-0 text-xs text-muted-foreground">{t("monitoring.common.to")}</span>
        <Input name="to" type="datetime-local" defaultValue={params.get("to") ?? ""} />
      </label>
    </>
  );
}

/** The message of a filter the verb refused, shown above the (empty) table. */
export function FilterError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
      {message}
    </p>
  );
}
