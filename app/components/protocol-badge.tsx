import { useTranslation } from "react-i18next";
import type { ConnectedVersion, OcppVersion } from "../../domain/schemas/equipment";
import { Badge } from "~/components/ui/badge";

/** The setting that names each connected version, so both read with the same words. */
const SETTING_OF: Record<ConnectedVersion, OcppVersion> = { "1.6": "OCPP16", "2.0.1": "OCPP201" };

export interface PointProtocol {
  ocppVersion: OcppVersion;
  connectedVersion: ConnectedVersion | null;
}

/**
 * A point's protocol (docs/rules/equipment.md "Points"): the version its charger is connected with
 * while it is online, else the point's setting, muted. The tooltip says which of the two it is.
 */
export function ProtocolBadge({ point, online }: { point: PointProtocol; online: boolean }) {
  const { t } = useTranslation();
  const connected = online ? point.connectedVersion : null;
  if (connected) {
    const label = t(`points.ocppVersions.${SETTING_OF[connected]}`);
    return (
      <Badge variant="info" title={t("points.protocolConnected", { version: label })} data-testid="protocol" data-version={connected}>
        {label}
      </Badge>
    );
  }
  const label = t(`points.ocppVersions.${point.ocppVersion}`);
  return (
    <Badge variant="muted" title={t("points.protocolSetting", { version: label })} data-testid="protocol" data-version={point.ocppVersion}>
      {label}
    </Badge>
  );
}

/** The connected version in the catalogue's words, or "Not connected". */
export function useConnectedVersionLabel() {
  const { t } = useTranslation();
  return (version: ConnectedVersion | null) => (version ? t(`points.ocppVersions.${SETTING_OF[version]}`) : t("points.notConnected"));
}
