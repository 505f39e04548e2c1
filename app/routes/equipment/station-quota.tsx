import { useTranslation } from "react-i18next";
import { cn } from "~/lib/cn";

interface QuotaLine {
  authorized: number;
  used: number;
  remaining: number;
  enabled: number;
}

/**
 * The operator's authorised AC and DC connectors (its price package) against those its points
 * use and have enabled (docs/rules/equipment.md "Authorised connectors"). A bar per kind: used of
 * authorised, enabled within used.
 */
export function ConnectorQuota({ quota }: { quota: { ac: QuotaLine; dc: QuotaLine } }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t("stations.quota.title")} className="grid gap-3 sm:grid-cols-2">
      {(["ac", "dc"] as const).map((kind) => {
        const line = quota[kind];
        const full = line.used >= line.authorized && line.authorized > 0;
        const share = (n: number) => (line.authorized > 0 ? Math.min(100, (n / line.authorized) * 100) : 0);
        return (
          <div key={kind} data-testid={`quota-${kind}`} className="rounded-xl border bg-card px-4 py-3 shadow-xs">
            <div className="flex items-baseline justify-between gap-2">
              <h2 className="text-sm font-medium">{t(`stations.quota.${kind}`)}</h2>
              <span className="text-xs text-muted-foreground">{t("stations.quota.title")}</span>
            </div>
            <dl className="mt-2 grid grid-cols-4 gap-2">
              {(["authorized", "used", "remaining", "enabled"] as const).map((key) => (
                <div key={key} className="min-w-0">
                  <dt className="truncate text-xs text-muted-foreground">{t(`stations.quota.${key}`)}</dt>
                  <dd className={cn("text-lg font-semibold tabular-nums", key === "remaining" && full && "text-warning")}>{line[key]}</dd>
                </div>
              ))}
            </dl>
            <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden>
              <div className="relative h-full rounded-full bg-primary/30" style={{ width: `${share(line.used)}%` }}>
                <div
                  className="absolute inset-y-0 left-0 rounded-full bg-primary"
                  style={{ width: line.used > 0 ? `${(line.enabled / line.used) * 100}%` : 0 }}
                />
              </div>
            </div>
          </div>
        );
      })}
    </section>
  );
}
