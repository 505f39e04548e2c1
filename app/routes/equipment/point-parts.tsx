import { Wifi, WifiOff, type LucideIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { WithTooltip } from "~/components/ui/tooltip";
import { cn } from "~/lib/cn";

/** A row action as an icon with its name as tooltip and accessible name, so the list stays narrow. */
export function IconAction({
  label,
  icon: Icon,
  to,
  onClick,
  destructive,
  disabled,
}: {
  label: string;
  icon: LucideIcon;
  to?: string;
  onClick?: () => void;
  destructive?: boolean;
  disabled?: boolean;
}) {
  const className = cn(destructive && "text-destructive hover:text-destructive");
  const button = to ? (
    <Button asChild variant="ghost" size="icon-sm" className={className}>
      <Link to={to} aria-label={label}>
        <Icon aria-hidden />
      </Link>
    </Button>
  ) : (
    <Button variant="ghost" size="icon-sm" className={className} onClick={onClick} aria-label={label} aria-disabled={disabled || undefined} data-disabled={disabled || undefined}>
      <Icon aria-hidden className={cn(disabled && "opacity-40")} />
    </Button>
  );
  return <WithTooltip label={label}>{button}</WithTooltip>;
}

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
