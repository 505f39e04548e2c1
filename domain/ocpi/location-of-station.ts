import { ocpiFormatOf, ocpiPowerTypeOf, ocpiStandardOf } from "./connector-standard";
import { CONNECTOR_ID, evseIdOf, evseUidOf } from "./cpo-evse";
import { ocpiTime } from "./wire";
import type { ConnectorStandard } from "../schemas/equipment";
import type { EVSE_STATUSES, OcpiConnector, OcpiEvse, OcpiLocation } from "../schemas/ocpi/locations";

/**
 * A published station as partners read it: the OCPI 2.2.1 Location (§8.3.1) with an EVSE per
 * connector of its public points (docs/rules/ocpi.md "Locations we publish"). Pure: the service
 * reads the rows, this writes the object.
 */

export interface StationFacts {
  id: number;
  name: string;
  address: string;
  lat: string | null;
  lng: string | null;
  timeZone: string | null;
  businessHours: string | null;
  updatedAt: number;
}

export interface ConnectorFacts {
  pointId: number;
  connectorNo: number;
  standard: ConnectorStandard;
  powerW: number;
  /** The charger's last status (OCPP 1.6 ChargePointStatus or 2.0.1 ConnectorStatus); null offline. */
  status: string | null;
  statusAt: number | null;
  createdAt: number;
  pointUpdatedAt: number;
  pointEnabled: boolean;
  pointOnline: boolean;
  /** The tariff (the point's charging strategy) partners are charged by. */
  tariffId: string | null;
}

export interface Publisher {
  countryCode: string;
  partyId: string;
  /** ISO 3166-1 alpha-3 of the country the operator's stations are in. */
  country: string;
  /** The operator's zone, for a station without its own. */
  timeZone: string;
}

type EvseStatus = (typeof EVSE_STATUSES)[number];

/**
 * OCPP's connector states in OCPI's words (OCPI 2.2.1 §8.4.22 Status): what a driver at the
 * charger would find. A connector being prepared or finishing is taken (CHARGING); a disabled
 * point is INOPERATIVE whatever it reports; an offline charger is UNKNOWN.
 */
const STATUS_OF: Record<string, EvseStatus> = {
  Available: "AVAILABLE",
  Preparing: "CHARGING",
  Charging: "CHARGING",
  SuspendedEV: "CHARGING",
  SuspendedEVSE: "CHARGING",
  Finishing: "CHARGING",
  Occupied: "CHARGING",
  Reserved: "RESERVED",
  Unavailable: "INOPERATIVE",
  Faulted: "OUTOFORDER",
};

export function evseStatusOf(c: Pick<ConnectorFacts, "status" | "pointEnabled" | "pointOnline">): EvseStatus {
  if (!c.pointEnabled) return "INOPERATIVE";
  if (!c.pointOnline || !c.status) return "UNKNOWN";
  return STATUS_OF[c.status] ?? "UNKNOWN";
}

/**
 * Voltage and current from the connector's power, which is all we store of it: AC at 230 V per
 * phase (line to neutral, as §8.3.3 asks for AC_3_PHASE), DC at 500 V up to 100 kW and 920 V
 * above (the CCS ranges); the current is what gives the power, rounded up.
 */
export function electricsOf(standard: ConnectorStandard, powerW: number) {
  const powerType = ocpiPowerTypeOf(standard, powerW);
  const voltage = powerType === "DC" ? (powerW > 100_000 ? 920 : 500) : 230;
  const phases = powerType === "AC_3_PHASE" ? 3 : 1;
  return { power_type: powerType, max_voltage: voltage, max_amperage: Math.ceil(powerW / (voltage * phases)), max_electric_power: powerW };
}

/** A coordinate with at least five decimals, as §8.4.13 asks, written from its text without floats. */
export function coordinateOf(value: string | null): string {
  const text = (value ?? "0").trim();
  const [whole, decimals = ""] = text.split(".");
  return `${whole || "0"}.${decimals.padEnd(5, "0").slice(0, 7)}`;
}

/** Street, postal code and city from our one address line: `street, [postal code] city` (45 characters each, §8.3.1). */
export function addressOf(address: string, fallbackCity: string) {
  const parts = address.split(",").map((p) => p.trim()).filter(Boolean);
  const last = parts.length > 1 ? parts.pop()! : "";
  const postal = /^([0-9][0-9A-Z -]{2,9}?)\s+(.+)$/i.exec(last);
  return {
    address: (parts.join(", ") || address || fallbackCity).slice(0, 45),
    city: ((postal ? postal[2] : last) || fallbackCity).slice(0, 45),
    ...(postal ? { postal_code: postal[1].slice(0, 10) } : {}),
  };
}

/**
 * Opening times from the station's business hours: every day `HH:MM-HH:MM` as regular hours,
 * round the clock when it says 24 hours (or nothing); none when it is free text we cannot read
 * (opening_times is optional in §8.3.1).
 */
export function openingTimesOf(businessHours: string | null): OcpiLocation["opening_times"] {
  const text = (businessHours ?? "").trim();
  if (!text || /^(24\s*\/\s*7|24\s*h|00:00\s*[-–]\s*(24:00|23:59))$/i.test(text)) return { twentyfourseven: true };
  const span = /^([01][0-9]|2[0-3]):([0-5][0-9])\s*[-–]\s*([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(text);
  if (!span) return undefined;
  const begin = `${span[1]}:${span[2]}`;
  const end = `${span[3]}:${span[4]}`;
  return { twentyfourseven: false, regular_hours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, period_begin: begin, period_end: end })) };
}

/** What a driver may do at each of our EVSEs: present a card, be started and stopped remotely, reserve (OCPP 1.6 and 2.0.1 all offer it). */
export const EVSE_CAPABILITIES = ["RFID_READER", "REMOTE_START_STOP_CAPABLE", "RESERVABLE"] as const;

export function connectorOf(c: ConnectorFacts): OcpiConnector {
  return {
    id: CONNECTOR_ID,
    standard: ocpiStandardOf(c.standard),
    format: ocpiFormatOf(c.standard),
    ...electricsOf(c.standard, c.powerW),
    ...(c.tariffId ? { tariff_ids: [c.tariffId] } : {}),
    last_updated: ocpiTime(Math.max(c.createdAt, c.pointUpdatedAt)),
  };
}

export function evseOf(publisher: Publisher, c: ConnectorFacts): OcpiEvse {
  return {
    uid: evseUidOf(c.pointId, c.connectorNo),
    evse_id: evseIdOf(publisher.countryCode, publisher.partyId, c.pointId, c.connectorNo),
    status: evseStatusOf(c),
    capabilities: [...EVSE_CAPABILITIES],
    connectors: [connectorOf(c)],
    last_updated: ocpiTime(Math.max(c.createdAt, c.pointUpdatedAt, c.statusAt ?? 0)),
  };
}

export function locationOfStation(publisher: Publisher, station: StationFacts, connectors: readonly ConnectorFacts[]): OcpiLocation {
  const evses = [...connectors].sort((a, b) => a.pointId - b.pointId || a.connectorNo - b.connectorNo).map((c) => evseOf(publisher, c));
  const changed = Math.max(station.updatedAt, ...connectors.map((c) => Math.max(c.createdAt, c.pointUpdatedAt, c.statusAt ?? 0)));
  const opening = openingTimesOf(station.businessHours);
  return {
    country_code: publisher.countryCode,
    party_id: publisher.partyId,
    id: String(station.id),
    publish: true,
    name: station.name.slice(0, 255),
    ...addressOf(station.address, station.name),
    country: publisher.country,
    coordinates: { latitude: coordinateOf(station.lat), longitude: coordinateOf(station.lng) },
    evses,
    time_zone: station.timeZone || publisher.timeZone,
    ...(opening ? { opening_times: opening } : {}),
    last_updated: ocpiTime(changed),
  };
}
