import { STANDARD_CURRENT, type ConnectorStandard } from "../schemas/equipment";
import type { CONNECTOR_FORMATS, CONNECTOR_TYPES, POWER_TYPES } from "../schemas/ocpi/locations";

/**
 * Our nine connector standards (docs/rules/equipment.md "Connectors") as OCPI 2.2.1 names a
 * connector (§8.4.4 ConnectorType, §8.4.5 ConnectorFormat, §8.4.7 PowerType): the one mapping the
 * public charger page and the OCPI locations we publish share
 * (docs/rules/public-charger.md "Connector standards").
 */

export type OcpiConnectorType = (typeof CONNECTOR_TYPES)[number];
export type OcpiConnectorFormat = (typeof CONNECTOR_FORMATS)[number];
export type OcpiPowerType = (typeof POWER_TYPES)[number];

/**
 * SAE1 is CCS1 and IEC1 CCS2 (the combo plugs, always on a cable); SAE2 is SAE J1772, IEC 62196
 * Type 1; IEC2 is Type 2 on the charger's cable and IEC3 the Type 2 socket the driver brings a
 * cable to; GB/T keeps its own names.
 */
const OCPI_CONNECTORS: Record<ConnectorStandard, { standard: OcpiConnectorType; format: OcpiConnectorFormat }> = {
  SAE1: { standard: "IEC_62196_T1_COMBO", format: "CABLE" },
  SAE2: { standard: "IEC_62196_T1", format: "CABLE" },
  IIS: { standard: "CHADEMO", format: "CABLE" },
  IEC1: { standard: "IEC_62196_T2_COMBO", format: "CABLE" },
  IEC2: { standard: "IEC_62196_T2", format: "CABLE" },
  IEC3: { standard: "IEC_62196_T2", format: "SOCKET" },
  GBT1: { standard: "GBT_DC", format: "CABLE" },
  GBT2: { standard: "GBT_AC", format: "CABLE" },
  GBT3: { standard: "GBT_AC", format: "SOCKET" },
};

/** OCPI 2.2.1 ConnectorType of one of our standards. */
export const ocpiStandardOf = (standard: ConnectorStandard): OcpiConnectorType => OCPI_CONNECTORS[standard].standard;

/** OCPI 2.2.1 ConnectorFormat: whether the charger brings the cable or the driver does. */
export const ocpiFormatOf = (standard: ConnectorStandard): OcpiConnectorFormat => OCPI_CONNECTORS[standard].format;

/** Above this an AC connector draws three phases: one phase carries at most 32 A × 230 V. */
const SINGLE_PHASE_MAX_W = 7_400;

/**
 * OCPI 2.2.1 PowerType. DC standards are DC. Type 1 and GB/T AC are single-phase plugs; a Type 2
 * connector is single-phase up to 7.4 kW and three-phase above, its power being all we know of
 * its wiring.
 */
export function ocpiPowerTypeOf(standard: ConnectorStandard, powerW: number): OcpiPowerType {
  if (STANDARD_CURRENT[standard] === "DC") return "DC";
  if (standard === "IEC2" || standard === "IEC3") return powerW > SINGLE_PHASE_MAX_W ? "AC_3_PHASE" : "AC_1_PHASE";
  return "AC_1_PHASE";
}
