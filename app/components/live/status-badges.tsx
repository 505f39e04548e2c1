import { useTranslation } from "react-i18next";
import { displayClass, type DeviceState } from "../../../domain/connector-status";
import { Badge } from "~/components/ui/badge";
import { liveStatus } from "~/components/live/live-state";
import type { PointLive } from "~/lib/live";
import { cn } from "~/lib/cn";

/** Display class → badge colour: success green, danger red, info (offline) blue (docs/rules/monitoring.md "Connector states"). */
const VARIANT = { success: "success", danger: "destructive", info: "info" } as const;

/**
 * A connector's status with its display class (docs/rules/monitoring.md "Connector states"); an
 * empty status reads Offline. `no` names the connector.
 */
export function ConnectorStatusBadge({ status, no, className }: { status: string | null | undefined; no?: number; className?: string }) {
  const { t } = useTranslation();
  const shown = status || "offline";
  return (
    <Badge variant={VARIANT[displayClass(status)]} className={className} data-status={shown}>
      <span className={cn("size-1.5 rounded-full bg-current", shown === "Charging" && "animate-pulse")} aria-hidden />
      {no !== undefined && <span className="font-mono">#{no}</span>}
      {t(`monitoring.connectorStatus.${shown}`, { defaultValue: shown })}
    </Badge>
  );
}

/**
 * Each connector of a point in a list row: its number and status, live where the point's live
 * values say more than the page loaded (docs/rules/monitoring.md "Live values").
 */
export function LiveConnectorStatuses({
  point,
  live,
}: {
  point: { online: boolean; connectors: readonly { connectorId: number; status: string | null }[] };
  live: PointLive | undefined;
}) {
  return (
    <div className="flex flex-wrap gap-1">
      {point.connectors.map((c) => (
        <span key={c.connectorId} className="inline-flex items-center gap-1 text-xs">
          <span className="text-muted-foreground">{c.connectorId}</span>
          <ConnectorStatusBadge status={liveStatus(live, point.online, c.connectorId, c.status)} />
        </span>
      ))}
    </div>
  );
}

const DEVICE_VARIANT: Record<DeviceState, "success" | "muted" | "destructive"> = { online: "success", offline: "muted", fault: "destructive" };

/** A point's device state: online, offline or fault (docs/rules/monitoring.md "Device states"). */
export function DeviceStateBadge({ state, className }: { state: DeviceState; className?: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant={DEVICE_VARIANT[state]} className={className} data-state={state}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden />
      {t(`monitoring.deviceState.${state}`)}
    </Badge>
  );
}

/** Alarm level: ERROR red, WARN amber. */
export function AlarmLevelBadge({ level }: { level: "ERROR" | "WARN" }) {
  const { t } = useTranslation();
  return <Badge variant={level === "ERROR" ? "destructive" : "warning"}>{t(`monitoring.alarms.levels.${level}`)}</Badge>;
}

const ALARM_VARIANT = { Undisposed: "destructive", AutoRecovery: "success", ManualDisposed: "secondary" } as const;

/** Alarm status: Undisposed → AutoRecovery or ManualDisposed (docs/rules/monitoring.md "Alarms"). */
export function AlarmStatusBadge({ status }: { status: keyof typeof ALARM_VARIANT }) {
  const { t } = useTranslation();
  return <Badge variant={ALARM_VARIANT[status]}>{t(`monitoring.alarms.statuses.${status}`)}</Badge>;
}
