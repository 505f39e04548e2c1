import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useArea } from "./area";

/**
 * A monitoring row's charger, linked to its point page in the same area (docs/rules/monitoring.md
 * "Links to the charger"), with a second line under the serial number.
 */
export function PointCell({ pointId, serialNumber, subtitle }: { pointId: number; serialNumber: string; subtitle?: ReactNode }) {
  return (
    <div className="flex flex-col">
      <PointLink pointId={pointId} serialNumber={serialNumber} />
      {subtitle && <span className="text-xs text-muted-foreground">{subtitle}</span>}
    </div>
  );
}

/** A charger's serial number, linked to its point page. */
export function PointLink({ pointId, serialNumber }: { pointId: number; serialNumber: string }) {
  const area = useArea();
  return (
    <Link to={area.pointPage(pointId)} className="font-mono text-xs font-medium underline-offset-4 hover:underline" data-testid="point-link">
      {serialNumber}
    </Link>
  );
}

/** A monitoring row's connector, linked to the live connector list narrowed to its charger. */
export function ConnectorLink({ serialNumber, connectorId, children }: { serialNumber: string; connectorId: number; children?: ReactNode }) {
  const area = useArea();
  const { t } = useTranslation();
  return (
    <Link to={area.connectorList(serialNumber)} className="underline-offset-4 hover:underline" data-testid="connector-link">
      {children ?? t("monitoring.common.connectorNo", { no: connectorId })}
    </Link>
  );
}
