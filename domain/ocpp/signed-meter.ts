import type { MeterValue } from "./schemas";
import type { MeterValueType } from "./v201/schemas";

/**
 * Signed meter values (docs/rules/ocpi.md "Sessions and CDRs we send"): the charger's own evidence
 * of a reading, carried to the eMSP in the CDR's `signed_data` (OCPI 2.2.1 §10.4.7). Only a
 * transaction's first and latest signed readings are kept, so its start and end travel, not every
 * sample. The signature is the charger's: we pass it on, we do not check it.
 */
export interface SignedReading {
  /** The reading's context (1.6 ReadingContext, the same words in 2.0.1). */
  context: string;
  /** The signed blob as the charger sent it. */
  signed: string;
  /** The plain reading it signs, when the message carries it. */
  plain?: string;
  /** 2.0.1 only (SignedMeterValueType); a 1.6 charger's OCMF blob names its own. */
  encodingMethod?: string;
  publicKey?: string;
}

/** A transaction's kept signed readings: its first and its latest. */
export interface SignedPair {
  start: SignedReading;
  end?: SignedReading;
}

/** OCPI 2.2.1 §10.4.7–10.4.8: `signed_data` at most 5000 characters, `plain_data` 512, `public_key` 512, `encoding_method` 36. */
const SIGNED_MAX = 5000;
const PLAIN_MAX = 512;
const KEY_MAX = 512;
const METHOD_MAX = 36;

/** The signed readings of 1.6 MeterValues: sampled values in format `SignedData` (OCPP 1.6 §7.45), with the raw value of the same measurand beside them. */
export function signedReadings16(meterValue: readonly MeterValue[]): SignedReading[] {
  const readings: SignedReading[] = [];
  for (const { sampledValue } of meterValue) {
    for (const s of sampledValue) {
      if (s.format !== "SignedData" || !s.value) continue;
      const plain = sampledValue.find((p) => p.format !== "SignedData" && p.measurand === s.measurand && p.context === s.context && p.phase === s.phase);
      readings.push({ context: s.context ?? "Sample.Periodic", signed: s.value, ...(plain && { plain: plain.value }) });
    }
  }
  return readings;
}

/** The signed readings of 2.0.1 meter values: `signedMeterValue` of a sampled value (J01–J02, E01–E07; Part 2 "SignedMeterValueType"). */
export function signedReadings201(meterValue: readonly MeterValueType[]): SignedReading[] {
  return meterValue.flatMap(({ sampledValue }) =>
    sampledValue.flatMap((s) =>
      s.signedMeterValue
        ? [
            {
              context: s.context ?? "Sample.Periodic",
              signed: s.signedMeterValue.signedMeterData,
              plain: String(s.value),
              encodingMethod: s.signedMeterValue.encodingMethod,
              publicKey: s.signedMeterValue.publicKey,
            },
          ]
        : [],
    ),
  );
}

/** The pair after new readings: the first kept as the start (a Transaction.Begin one if that comes first), the newest as the end. */
export function keptSigned(kept: SignedPair | undefined, readings: readonly SignedReading[]): SignedPair | undefined {
  const usable = readings.filter((r) => r.signed.length <= SIGNED_MAX);
  if (usable.length === 0) return kept;
  const start = kept?.start ?? usable.find((r) => r.context === "Transaction.Begin") ?? usable[0];
  const last = usable.at(-1)!;
  return last === start ? { start } : { start, end: last };
}

/** The encoding an OCMF blob declares by its own header; otherwise the charger did not say. */
const encodingOf = (r: SignedReading) => (r.encodingMethod || (r.signed.startsWith("OCMF|") ? "OCMF" : "UNKNOWN")).slice(0, METHOD_MAX);

/** The CDR's `signed_data` (OCPI 2.2.1 §10.4.7 SignedData) of a transaction's kept readings, with natures Start and End. */
export function ocpiSignedData(pair: SignedPair | null | undefined) {
  if (!pair) return undefined;
  const value = (r: SignedReading, nature: "Start" | "End") => ({ nature, plain_data: (r.plain ?? "").slice(0, PLAIN_MAX), signed_data: r.signed });
  const publicKey = pair.start.publicKey ?? pair.end?.publicKey;
  return {
    encoding_method: encodingOf(pair.start),
    ...(publicKey && publicKey.length <= KEY_MAX && { public_key: publicKey }),
    signed_values: [value(pair.start, "Start"), ...(pair.end ? [value(pair.end, "End")] : [])],
  };
}
