/**
 * OCPP 2.0.1 words in the charger model's terms (docs/decisions/0078-one-charger-model-two-protocols.md):
 * meter values, id-token answers, connector states and stop reasons, translated once here so that
 * records, billing and the live view see what they see for a 1.6 charger.
 */
import type { IdTagInfo, MeterValue } from "../schemas";
import type { ChargingStateEnumType, ConnectorStatusEnumType, IdTokenEnumType, IdTokenInfoType, MeterValueType, ReasonEnumType } from "./schemas";

/** The units the 1.6 reader scales (domain/ocpp/meter-values.ts); a reading in another is dropped, not guessed. */
const KNOWN_UNITS = new Set(["Wh", "kWh", "varh", "kvarh", "W", "kW", "VA", "kVA", "var", "kvar", "A", "V", "K", "Celsius", "Fahrenheit", "Percent"]);

/**
 * 2.0.1 meter values (J01–J02; Part 2 "MeterValueType") as 1.6 readings: the value is a number with
 * a power-of-ten `multiplier` on its unit (default Wh, multiplier 0), written here as a decimal in
 * exponent form so that the 1.6 reader scales it without a binary rounding. A signed value keeps
 * its plain reading (the signature is the charger's evidence, not ours to check).
 */
export function meterValuesAs16(meterValue: readonly MeterValueType[]): MeterValue[] {
  const readings: MeterValue[] = [];
  for (const { timestamp, sampledValue } of meterValue) {
    const sampled = sampledValue.flatMap((s) => {
      const unit = s.unitOfMeasure?.unit ?? (s.measurand === undefined || s.measurand.startsWith("Energy.Active") ? "Wh" : undefined);
      if (unit !== undefined && !KNOWN_UNITS.has(unit)) return [];
      const multiplier = s.unitOfMeasure?.multiplier ?? 0;
      return [
        {
          value: multiplier === 0 ? String(s.value) : `${s.value}e${multiplier}`,
          ...(s.context && { context: s.context }),
          ...(s.measurand && { measurand: s.measurand }),
          ...(s.phase && { phase: s.phase }),
          ...(s.location && { location: s.location }),
          ...(unit && { unit }),
        } as MeterValue["sampledValue"][number],
      ];
    });
    if (sampled.length > 0) readings.push({ timestamp, sampledValue: sampled as MeterValue["sampledValue"] });
  }
  return readings;
}

/** The energy register of a reading with this context (Transaction.Begin / .End), in Wh, if the message has one. */
export function energyRegisterWh(meterValue: readonly MeterValueType[], context?: string): number | undefined {
  for (const { sampledValue } of meterValue) {
    for (const s of sampledValue) {
      if ((s.measurand ?? "Energy.Active.Import.Register") !== "Energy.Active.Import.Register" || s.phase) continue;
      if (context && s.context !== context) continue;
      const unit = s.unitOfMeasure?.unit ?? "Wh";
      const power = (s.unitOfMeasure?.multiplier ?? 0) + (unit === "kWh" ? 3 : unit === "Wh" ? 0 : Number.NaN);
      const wh = Number(`${s.value}e${power}`);
      if (Number.isFinite(wh)) return Math.round(wh);
    }
  }
  return undefined;
}

/**
 * The 2.0.1 type of the tag a command names (RequestStartTransaction's and ReserveNow's
 * `idToken`; Part 2 IdTokenEnumType), found where the command is made: 1.6's words carry a bare
 * id tag. Absent, a tag is Central, as the CSMS issued it; so is a reservation's group token
 * (the holder's group code).
 */
export interface CommandTokens {
  idToken?: IdTokenEnumType;
}

/**
 * A tag's 2.0.1 type by what the registry knows of it (docs/rules/ocpp.md "Two protocols"): an RFID
 * card is ISO14443, as the charger reads it from the card, so that a charger comparing type as
 * well as value knows the card when it is presented for the reserved or started session; every
 * other tag (the operator's remote tag, an app's or an ad-hoc session's, one the registry does
 * not know) is Central. A roaming partner's token is typed by its OCPI type (RFID or not).
 */
export function idTokenTypeOfTag(tag: { card: boolean } | { ocpiType: string }): IdTokenEnumType {
  return ("card" in tag ? tag.card : tag.ocpiType === "RFID") ? "ISO14443" : "Central";
}

/**
 * The registry's answer in 2.0.1 terms (C01, E05): the same statuses, the cache expiry for 1.6's
 * expiry date, the parent tag as the group token (Central, as our registry knows it).
 */
export function idTokenInfoOf(info: IdTagInfo): IdTokenInfoType {
  return {
    status: info.status,
    ...(info.expiryDate && { cacheExpiryDateTime: info.expiryDate }),
    ...(info.parentIdTag && { groupIdToken: { idToken: info.parentIdTag, type: "Central" as const } }),
  };
}

/**
 * A connector's 2.0.1 state (G01) as the product's status: Occupied is Preparing until a
 * transaction's charging state says more (`chargingStatus`); Faulted carries an error code so that
 * it raises the fault alarm a 1.6 charger's does (docs/rules/maintenance.md).
 */
export function connectorStatusOf(status: ConnectorStatusEnumType, running?: string): { status: string; errorCode: string } {
  if (status === "Faulted") return { status, errorCode: "OtherError" };
  if (status === "Occupied") return { status: running ?? "Preparing", errorCode: "NoError" };
  return { status, errorCode: "NoError" };
}

/**
 * Which report of an EVSE's connectors speaks for the EVSE (G01; docs/decisions/0078-one-charger-model-two-protocols.md):
 * a connector in use makes the whole EVSE busy (2.0.1 reports its siblings Unavailable meanwhile),
 * then a reservation, then one free plug makes it free; a fault outranks plain Unavailable.
 */
const EVSE_RANK: readonly ConnectorStatusEnumType[] = ["Occupied", "Reserved", "Available", "Faulted", "Unavailable"];

/** The status of an EVSE from the last status of each of its connectors (connectorId → status). */
export function evseStatusOf(connectors: Record<string, ConnectorStatusEnumType>): ConnectorStatusEnumType {
  const reported = new Set(Object.values(connectors));
  return EVSE_RANK.find((status) => reported.has(status)) ?? "Unavailable";
}

/** A transaction's charging state (E01–E13) as the product's connector status. */
export function chargingStatus(state: ChargingStateEnumType): string | undefined {
  switch (state) {
    case "Charging":
      return "Charging";
    case "EVConnected":
      return "Preparing";
    case "SuspendedEV":
      return "SuspendedEV";
    case "SuspendedEVSE":
      return "SuspendedEVSE";
    case "Idle":
      return undefined;
  }
}

/**
 * 2.0.1's stop reason (E07, ReasonEnumType) as recorded: the 1.6 word where one means the same
 * (billing and the records read those), else the 2.0.1 word itself.
 */
export function stopReasonOf(reason: ReasonEnumType | undefined): string {
  switch (reason) {
    case undefined:
      return "Local";
    case "ImmediateReset":
      return "HardReset";
    default:
      return reason;
  }
}
