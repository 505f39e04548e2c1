import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";

/** SPEC.md §4 connector statuses; an empty status means the point is offline. */
export const CONNECTOR_STATUSES = [
  "Available",
  "Preparing",
  "Charging",
  "SuspendedEVSE",
  "SuspendedEV",
  "Finishing",
  "Reserved",
  "Unavailable",
  "Faulted",
  "OtherError",
] as const;
export type ConnectorStatus = (typeof CONNECTOR_STATUSES)[number];

const SUCCESS = new Set(["Available", "Preparing", "Charging", "Finishing", "Reserved"]);

/** SPEC.md §4 display class: success for the usable states, danger for the others, info when offline. */
export function connectorVariant(status: string | null): "success" | "destructive" | "info" {
  if (!status) return "info";
  return SUCCESS.has(status) ? "success" : "destructive";
}

/** SPEC.md §4: a remote start is offered only from Available or Preparing. */
export const startable = (status: string | null) => status === "Available" || status === "Preparing";

const known = (status: string): status is ConnectorStatus => (CONNECTOR_STATUSES as readonly string[]).includes(status);

export function connectorStatusLabel(t: (key: string) => string, status: string | null) {
  if (!status) return t("stations.connectorStatus.offline");
  return known(status) ? t(`stations.connectorStatus.${status}`) : status;
}

export function ConnectorStatusBadge({ no, status }: { no?: number; status: string | null }) {
  const { t } = useTranslation();
  return (
    <Badge variant={connectorVariant(status)}>
      {no !== undefined && <span className="font-mono">#{no}</span>}
      {connectorStatusLabel(t, status)}
    </Badge>
  );
}
