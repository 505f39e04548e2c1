/**
 * Connector and device states as the console shows them
 * (docs/rules/monitoring.md "Connector states", "Device states"). Pure rules: the live view, the
 * monitoring lists and the remote-control panel all ask here, so a status is shown and acted on the
 * same way everywhere.
 */

/**
 * OCPP 1.6 §7.7 ChargePointStatus: what a charger reports of a connector. The wire schema
 * (domain/ocpp/schemas.ts `ChargePointStatus`) is built from this list; it lives here, beside the
 * rules that read it, so that the console does not load the OCPP schemas to show a status.
 */
export const CHARGE_POINT_STATUSES = [
  "Available",
  "Preparing",
  "Charging",
  "SuspendedEVSE",
  "SuspendedEV",
  "Finishing",
  "Reserved",
  "Unavailable",
  "Faulted",
] as const;

/**
 * Connector statuses (OCPP 1.6 ChargePointStatus, plus OtherError;
 * docs/rules/monitoring.md "Connector states").
 */
export const CONNECTOR_STATUSES = [...CHARGE_POINT_STATUSES, "OtherError"] as const;

export type ConnectorStatus = (typeof CONNECTOR_STATUSES)[number];

/** How a status is drawn: success (green), danger (red) or info (blue, offline). */
export type DisplayClass = "success" | "danger" | "info";

const SUCCESS = new Set<string>(["Available", "Preparing", "Charging", "Finishing", "Reserved"]);

export const isConnectorStatus = (value: unknown): value is ConnectorStatus =>
  typeof value === "string" && (CONNECTOR_STATUSES as readonly string[]).includes(value);

/**
 * An empty status means the connector (its point) is offline
 * (docs/rules/monitoring.md "Connector states").
 */
export const isOffline = (status: string | null | undefined): boolean => !status;

/**
 * Display class (docs/rules/monitoring.md "Connector states"). SuspendedEVSE, SuspendedEV,
 * Unavailable and Faulted are danger; OtherError, being an error, is drawn as one too.
 */
export function displayClass(status: string | null | undefined): DisplayClass {
  if (isOffline(status)) return "info";
  return SUCCESS.has(status as string) ? "success" : "danger";
}

/**
 * A remote start is offered only from Available or Preparing
 * (docs/rules/monitoring.md "Connector states").
 */
export const canStart = (status: string | null | undefined): boolean => status === "Available" || status === "Preparing";

/** A remote stop is offered only while Charging (docs/rules/monitoring.md "Connector states"). */
export const canStop = (status: string | null | undefined): boolean => status === "Charging";

/** Device status (docs/rules/monitoring.md "Device states"). */
export const DEVICE_STATES = ["online", "offline", "fault"] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

/**
 * A point's device state: offline when its socket is gone, fault when it is online and the
 * point itself (connector 0) or any connector reports Faulted, online otherwise.
 */
export function deviceState(online: boolean, statuses: Iterable<string | null | undefined>): DeviceState {
  if (!online) return "offline";
  for (const status of statuses) if (status === "Faulted") return "fault";
  return "online";
}

/**
 * The status a connector shows: none (offline) when its point is offline
 * (docs/rules/monitoring.md "Connector states").
 */
export const shownStatus = (pointOnline: boolean, status: string | null | undefined): string | null =>
  pointOnline && status ? status : null;

/** Cashier states of a connector (docs/rules/records.md "Cashier"). */
export const CASHIER_STATES = ["charging", "waiting", "fault", "offline", "free"] as const;
export type CashierState = (typeof CASHIER_STATES)[number];

/**
 * What an attendant needs to know of a connector: offline (no status, its point is offline),
 * fault (Faulted, Unavailable or OtherError: it cannot serve), charging (a session runs, also
 * while suspended), waiting (a car is plugged in before or after its session, or the connector
 * is held by a reservation), free (Available).
 */
export function cashierState(shown: string | null | undefined): CashierState {
  switch (shown) {
    case null:
    case undefined:
    case "":
      return "offline";
    case "Charging":
    case "SuspendedEV":
    case "SuspendedEVSE":
      return "charging";
    case "Preparing":
    case "Finishing":
    case "Reserved":
      return "waiting";
    case "Available":
      return "free";
    default:
      return "fault";
  }
}
