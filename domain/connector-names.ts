import type { ConnectorStandard } from "./schemas/equipment";

/**
 * The one name of each connector standard (docs/rules/console.md "Names"): the plug's own name
 * from IEC 62196 / SAE J1772 / CHAdeMO / GB/T 20234, the same in every language, so the point
 * form, the point page, monitoring, the public charger page and the settings' order all say the
 * same words. A socket (the driver brings the cable) adds a translated word after the name.
 */
export const CONNECTOR_NAMES: Record<ConnectorStandard, string> = {
  SAE1: "CCS1",
  SAE2: "Type 1",
  IIS: "CHAdeMO",
  IEC1: "CCS2",
  IEC2: "Type 2",
  IEC3: "Type 2",
  GBT1: "GB/T DC",
  GBT2: "GB/T AC",
  GBT3: "GB/T AC",
};

/** Standards the driver plugs a cable of their own into (OCPI 2.2.1 §8.4.5 ConnectorFormat SOCKET). */
export const SOCKET_STANDARDS: ReadonlySet<ConnectorStandard> = new Set(["IEC3", "GBT3"]);
