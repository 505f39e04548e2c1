import { Wifi, WifiOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";

/** Online or offline, as the live view or the last known state says. */
export function OnlineBadge({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant={online ? "success" : "muted"}>
      {online ? <Wifi aria-hidden className="size-3" /> : <WifiOff aria-hidden className="size-3" />}
      {t(online ? "points.online" : "points.offline")}
    </Badge>
  );
}

/** A point's push status per item: NotIssue, Issued, NotSupport (docs/rules/equipment.md "Point pages"). */
export function PushStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Badge variant={status === "Issued" ? "success" : status === "NotSupport" ? "muted" : "warning"}>{t(`points.pushStatuses.${status}`)}</Badge>;
}

interface QuotaEntry {
  authorized: number;
  used: number;
  remaining: number;
}

/** The authorised AC and DC connector counts and what is used of them (docs/rules/equipment.md "Authorised connectors"). */
export function QuotaSummary({ quota }: { quota: Record<"AC" | "DC", QuotaEntry> }) {
  const { t } = useTranslation();
  const { number } = useFormat();
  return (
    <span className="flex flex-wrap gap-x-4 gap-y-1" data-testid="connector-quota">
      {(["AC", "DC"] as const).map((kind) => (
        <span key={kind} className={quota[kind].remaining === 0 ? "text-destructive" : undefined}>
          {t("points.quota", { kind, used: number(quota[kind].used, 0), authorized: number(quota[kind].authorized, 0) })}
        </span>
      ))}
    </span>
  );
}
