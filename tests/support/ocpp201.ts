import type { EventDataType, IdTokenType, Ocpp201Request, SampledValueType } from "../../domain/ocpp/v201";

/**
 * What a 2.0.1 test charger sends (OCPP 2.0.1 Part 2, E01–E13 and N07): the time of a message, a
 * reading of the energy register, the first event of a transaction and an alerting event. Plain
 * objects and no runtime import, so the integration tests, the unit tests and the bench build the
 * same frames.
 */
type TransactionEvent = Ocpp201Request<"TransactionEvent">;
type ReadingContext = NonNullable<SampledValueType["context"]>;
type ChargingState = NonNullable<TransactionEvent["transactionInfo"]["chargingState"]>;

/** The WebSocket subprotocol a 2.0.1 charger offers (OCPP 2.0.1 Part 4 §3.1.2). */
export const OCPP201 = "ocpp2.0.1";

/** Now, or `offsetS` seconds from now, as a charger writes its timestamps. */
export const at = (offsetS = 0) => new Date(Date.now() + offsetS * 1000).toISOString();

/** The energy register at `wh` (Energy.Active.Import.Register, in Wh). */
export const energySample = (wh: number, context: ReadingContext): SampledValueType => ({
  value: wh,
  context,
  measurand: "Energy.Active.Import.Register",
  unitOfMeasure: { unit: "Wh" },
});

/** The energy register at `wh` as a TransactionEvent's `meterValue`: one reading at `timestamp`. */
export const energy = (wh: number, context: ReadingContext, timestamp = at()) => [{ timestamp, sampledValue: [energySample(wh, context)] }];

/** An RFID card's id token. */
export const card = (idTag: string): IdTokenType => ({ idToken: idTag, type: "ISO14443" });

/**
 * The first event of a transaction the driver's `idToken` started on the first connector of an
 * EVSE (E03, the token first), with the register's reading at the start.
 */
export const startedBy = (
  idToken: IdTokenType,
  transactionId: string,
  start: { evseId?: number; timestamp?: string; meterWh?: number; chargingState?: ChargingState } = {},
): TransactionEvent => {
  const { evseId = 1, timestamp = at(), meterWh = 0, chargingState = "Charging" } = start;
  return {
    eventType: "Started",
    timestamp,
    triggerReason: "Authorized",
    seqNo: 0,
    transactionInfo: { transactionId, chargingState },
    idToken,
    evse: { id: evseId, connectorId: 1 },
    meterValue: energy(meterWh, "Transaction.Begin", timestamp),
  };
};

/** A NotifyEvent's event (N07): `component`'s `variable` reports `actualValue` as an alert. */
export const alertingEvent = (
  eventId: number,
  component: EventDataType["component"],
  variable: string,
  actualValue: string,
  extra: Partial<EventDataType> = {},
): EventDataType => ({
  eventId,
  timestamp: at(),
  trigger: "Alerting",
  actualValue,
  component,
  variable: { name: variable },
  eventNotificationType: "HardWiredNotification",
  ...extra,
});
