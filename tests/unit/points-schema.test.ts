import { describe, expect, it } from "vitest";
import { diagnoseInput, pointImportRow, pointInput, powerKw, quotaKind, standardFits } from "../../domain/schemas/equipment";

const base = { stationId: 1, name: "Gate", serialNumber: "GATE-1", pointNo: "1", type: "AC", ratedPower: 22, connectorCount: 2 };
const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("point rules", () => {
  it.each([
    [22, true],
    [0.29, true],
    [7.4, true],
    [120.55, true],
    [7.123, false],
    [0, false],
    [-1, false],
  ])("power %s kW is %s", (power, ok) => {
    expect(powerKw.safeParse(power).success).toBe(ok);
  });

  it("fits AC standards to AC points, DC standards to DC points, both to mixed ones", () => {
    expect(standardFits("AC", "IEC2")).toBe(true);
    expect(standardFits("AC", "IEC1")).toBe(false);
    expect(standardFits("DC", "IIS")).toBe(true);
    expect(standardFits("DC", "GBT3")).toBe(false);
    expect(standardFits("MIXED", "SAE1")).toBe(true);
    expect(standardFits("MIXED", "SAE2")).toBe(true);
  });

  it("counts AC points against the AC quota and DC and mixed ones against the DC quota", () => {
    expect([quotaKind("AC"), quotaKind("DC"), quotaKind("MIXED")]).toEqual(["AC", "DC", "DC"]);
  });

  it("wants connectors 1..count once each, fitting the type and not stronger than the point", () => {
    const result = pointInput.safeParse({
      ...base,
      connectors: [
        { connectorId: 2, standard: "IEC1", power: 11, chargeSpeed: "SLOW" },
        { connectorId: 2, standard: "IEC2", power: 30, chargeSpeed: "SLOW" },
      ],
    });
    expect(messages(result)).toEqual({
      connectors: "points.validation.connectorIds",
      "connectors.0.standard": "points.validation.standardForType",
      "connectors.1.power": "points.validation.connectorPower",
    });
  });

  it("refuses unknown values instead of falling back to defaults", () => {
    expect(messages(pointInput.safeParse({ ...base, type: "PLASMA", privateType: "Secret" }))).toMatchObject({
      type: "validation.pointType",
      privateType: "validation.privateType",
    });
    expect(pointInput.parse(base).privateType).toBe("Public");
  });

  it("reads an import row with numbers as the sheet gives them", () => {
    expect(pointImportRow.parse({ stationName: "Centrum", name: "A", serialNumber: "A-1", pointNo: 7, type: "DC", ratedPower: "60", connectorCount: 1 }).pointNo).toBe("7");
  });

  it("wants an upload address (ftp, ftps, sftp, http or https) and a start not later than the stop for diagnostics", () => {
    for (const location of ["https://x.example.com/upload", "http://x.example.com/logs?token=abc", "FTPS://x.example.com/", "ftp://x.example.com/"]) {
      expect(diagnoseInput.safeParse({ location }).success, location).toBe(true);
    }
    for (const location of ["file:///var/log", "sftps://x.example.com/", "mailto:ops@example.com", "https://", "x.example.com/upload"]) {
      expect(messages(diagnoseInput.safeParse({ location })), location).toEqual({ location: "validation.uploadLocation" });
    }
    expect(
      messages(diagnoseInput.safeParse({ location: "ftp://x.example.com/", startTime: "2025-05-02T00:00:00Z", stopTime: "2025-05-01T00:00:00Z" })),
    ).toEqual({ stopTime: "points.validation.startAfterStop" });
    expect(diagnoseInput.safeParse({ location: "sftp://user:pw@x.example.com/logs" }).success).toBe(true);
  });
});
