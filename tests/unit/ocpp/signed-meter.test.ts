import { describe, expect, it } from "vitest";
import { keptSigned, ocpiSignedData, signedReadings16, signedReadings201 } from "../../../domain/ocpp/signed-meter";

/** Signed meter values carried to the CDR (docs/rules/ocpi.md "Sessions and CDRs we send"). */
describe("signed meter values", () => {
  it("reads 1.6 SignedData values with the raw reading beside them, and 2.0.1 signedMeterValue with its encoding and key", () => {
    const at = "2026-11-29T07:00:00Z";
    expect(
      signedReadings16([
        {
          timestamp: at,
          sampledValue: [
            { value: "1000", context: "Transaction.Begin", measurand: "Energy.Active.Import.Register" },
            { value: "OCMF|a|b", context: "Transaction.Begin", format: "SignedData", measurand: "Energy.Active.Import.Register" },
            { value: "230", measurand: "Voltage" },
          ],
        },
      ]),
    ).toEqual([{ context: "Transaction.Begin", signed: "OCMF|a|b", plain: "1000" }]);
    expect(
      signedReadings201([
        { timestamp: at, sampledValue: [{ value: 5, context: "Transaction.End", signedMeterValue: { signedMeterData: "U0lH", signingMethod: "ECDSA", encodingMethod: "EDL", publicKey: "KEY" } }, { value: 3 }] },
      ]),
    ).toEqual([{ context: "Transaction.End", signed: "U0lH", plain: "5", encodingMethod: "EDL", publicKey: "KEY" }]);
  });

  it("keeps the first reading as the start and the newest as the end, and drops blobs longer than OCPI carries", () => {
    const r = (signed: string, context = "Sample.Periodic") => ({ context, signed, plain: "1" });
    // A Transaction.Begin reading is the start even when another comes first in the message.
    expect(keptSigned(undefined, [r("periodic"), r("begin", "Transaction.Begin")])).toEqual({ start: r("begin", "Transaction.Begin") });
    let kept = keptSigned(undefined, [r("begin", "Transaction.Begin"), r("periodic")]);
    expect(kept).toEqual({ start: r("begin", "Transaction.Begin"), end: r("periodic") });
    kept = keptSigned(kept, [r("x".repeat(5001))]);
    expect(kept?.end).toEqual(r("periodic"));
    kept = keptSigned(kept, [r("end", "Transaction.End")]);
    expect(ocpiSignedData(kept)).toEqual({
      encoding_method: "UNKNOWN",
      signed_values: [
        { nature: "Start", plain_data: "1", signed_data: "begin" },
        { nature: "End", plain_data: "1", signed_data: "end" },
      ],
    });
    expect(ocpiSignedData(null)).toBeUndefined();
    expect(keptSigned(undefined, [])).toBeUndefined();
  });
});
