import { z } from "zod";
import { chosenKeyBytes, KEY_FORMATS } from "../ocpp/authorization-key";
import { pageQuery, recordStatus } from "./account-service";
import { decimalNumber, recordId, wholeNumber } from "./numbers";

/**
 * Connector standards, each with an image in the console (docs/rules/equipment.md "Connectors").
 */
export const CONNECTOR_STANDARDS = ["SAE1", "SAE2", "IIS", "IEC1", "IEC2", "IEC3", "GBT1", "GBT2", "GBT3"] as const;
export type ConnectorStandard = (typeof CONNECTOR_STANDARDS)[number];
export const connectorStandard = z.enum(CONNECTOR_STANDARDS, { error: "validation.connectorStandard" });

/**
 * Which current each standard carries (docs/rules/equipment.md "Connectors": SAE1 CCS1 DC, SAE2
 * J1772, IIS CHAdeMO DC, IEC1 CCS2 DC, IEC2 Type 2, IEC3 Type 2 socket, GBT1 GB/T DC, GBT2 GB/T AC,
 * GBT3 GB/T AC socket).
 */
export const STANDARD_CURRENT: Record<ConnectorStandard, "AC" | "DC"> = {
  SAE1: "DC",
  SAE2: "AC",
  IIS: "DC",
  IEC1: "DC",
  IEC2: "AC",
  IEC3: "AC",
  GBT1: "DC",
  GBT2: "AC",
  GBT3: "AC",
};

export const POINT_TYPES = ["DC", "AC", "MIXED"] as const;
export type PointType = (typeof POINT_TYPES)[number];
export const pointType = z.enum(POINT_TYPES, { error: "validation.pointType" });

export const PRIVATE_TYPES = ["Public", "Private", "PrivateHidden"] as const;
export const privateType = z.enum(PRIVATE_TYPES, { error: "validation.privateType" });

/**
 * Which OCPP versions a point's charger may connect with (docs/rules/equipment.md "Points",
 * docs/rules/ocpp.md "Two protocols"): AUTO takes what the charger offers, 2.0.1 first; OCPP16 or
 * OCPP201 refuse the other.
 */
export const OCPP_VERSIONS = ["AUTO", "OCPP16", "OCPP201"] as const;
export type OcppVersion = (typeof OCPP_VERSIONS)[number];
export const ocppVersion = z.enum(OCPP_VERSIONS, { error: "points.validation.ocppVersion" });

/** The version a connected charger speaks, as the API names it. */
export type ConnectedVersion = "1.6" | "2.0.1";

/**
 * A point's protocol as the API shows it: the setting, and the version of its connection while it
 * is online. The column may outlive a connection the offline check closed, so `online` decides.
 */
export const pointProtocol = (p: { ocppVersion: OcppVersion; connectedVersion: ConnectedVersion | null; online: boolean }) => ({
  ocppVersion: p.ocppVersion,
  connectedVersion: p.online ? p.connectedVersion : null,
});

/**
 * A point's quarantine as the API shows it (docs/rules/ocpp.md "A charger that keeps
 * reconnecting"): `quarantinedUntil` an ISO instant while it lasts, else null (a past one in the
 * column is a quarantine that ran out); `quarantineConnections` the count that began it.
 */
export const pointQuarantine = (p: { quarantinedUntil: Date | null; quarantineConnections: number | null }, now: number) => {
  const on = p.quarantinedUntil !== null && p.quarantinedUntil.getTime() > now;
  return { quarantinedUntil: on ? p.quarantinedUntil!.toISOString() : null, quarantineConnections: on ? p.quarantineConnections : null };
};

/** Whether a point speaks OCPP 2.0.1: set to it, or connected in it. */
export const speaks201 = (p: { ocppVersion: OcppVersion; connectedVersion: ConnectedVersion | null }) =>
  p.ocppVersion === "OCPP201" || p.connectedVersion === "2.0.1";

export const CHARGE_SPEEDS = ["QUICK", "SLOW"] as const;
export const chargeSpeed = z.enum(CHARGE_SPEEDS, { error: "validation.chargeSpeed" });

/** A standard fits a point when it carries the point's current; a MIXED point takes both. */
export const standardFits = (type: PointType, standard: ConnectorStandard) => type === "MIXED" || STANDARD_CURRENT[standard] === type;

/** The connector a new point gets by default: Type 2 slow for AC, CCS2 fast otherwise. */
export const defaultConnector = (type: PointType) =>
  type === "AC" ? { standard: "IEC2" as const, chargeSpeed: "SLOW" as const } : { standard: "IEC1" as const, chargeSpeed: "QUICK" as const };

/**
 * Which authorised connector count a point uses (docs/rules/equipment.md "Authorised connectors"):
 * AC points count as AC, DC and MIXED points as DC.
 */
export const quotaKind = (type: PointType): "AC" | "DC" => (type === "AC" ? "AC" : "DC");

/** Power, numbers only, at most two decimals (kW; docs/rules/equipment.md "Points"). */
export const powerKw = decimalNumber("validation.power", (n) => n.positive({ error: "validation.power" }).max(10_000, { error: "validation.power" })).refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { error: "validation.powerDecimals" });

/** The chargeBoxId: it travels in the OCPP URL, so only URL-safe characters. */
export const serialNumber = z
  .string({ error: "validation.serialRequired" })
  .trim()
  .min(1, { error: "validation.serialRequired" })
  .max(48, { error: "validation.serialRule" })
  .regex(/^[A-Za-z0-9._-]+$/, { error: "validation.serialRule" });

/** Connector count is an integer of at most two digits (docs/rules/equipment.md "Points"). */
export const connectorCount = wholeNumber("validation.connectorCount", (n) =>
  n.min(1, { error: "validation.connectorCount" }).max(99, { error: "validation.connectorCount" }),
);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: "points.validation.tooLong" })
    .optional()
    .transform((v) => (v === "" ? undefined : v));

export const connectorInput = z.object({
  connectorId: wholeNumber("validation.connectorRequired", (n) => n.min(1, { error: "validation.connectorRequired" }).max(99, { error: "validation.connectorRequired" })),
  standard: connectorStandard,
  power: powerKw,
  chargeSpeed,
  name: optionalText(64),
});
export type ConnectorInput = z.infer<typeof connectorInput>;

/**
 * The fields of a point (docs/rules/equipment.md "Points"); vendor, model, firmware and SIM data
 * come from its boot.
 */
export const pointFields = z.object({
  stationId: recordId("validation.stationRequired"),
  name: z.string({ error: "formsHelp.validation.name" }).trim().min(1, { error: "formsHelp.validation.name" }).max(64, { error: "points.validation.tooLong" }),
  serialNumber,
  pointNo: z.string({ error: "validation.required" }).trim().min(1, { error: "validation.required" }).max(32, { error: "points.validation.tooLong" }),
  code: optionalText(32),
  type: pointType,
  ratedPower: powerKw,
  connectorCount,
  privateType: privateType.default("Public"),
  stationType: optionalText(32),
  /** AUTO when a point is created without it; an edit without it keeps the point's setting. */
  ocppVersion: ocppVersion.optional(),
  connectors: z.array(connectorInput).max(99).optional(),
});

/**
 * The connector list, when given, names connectors 1..count once each, with standards that fit the
 * point's type and no connector stronger than the point (docs/rules/equipment.md "Connectors").
 */
function checkConnectors(point: z.output<typeof pointFields>, ctx: z.RefinementCtx) {
  const list = point.connectors;
  if (!list) return;
  if (list.length !== point.connectorCount) {
    ctx.addIssue({ code: "custom", message: "validation.connectorList", path: ["connectors"] });
    return;
  }
  const ids = new Set(list.map((c) => c.connectorId));
  if (ids.size !== list.length || list.some((c) => c.connectorId > point.connectorCount)) {
    ctx.addIssue({ code: "custom", message: "points.validation.connectorIds", path: ["connectors"] });
  }
  list.forEach((c, index) => {
    if (!standardFits(point.type, c.standard)) {
      ctx.addIssue({ code: "custom", message: "points.validation.standardForType", path: ["connectors", index, "standard"] });
    }
    if (c.power > point.ratedPower) {
      ctx.addIssue({ code: "custom", message: "points.validation.connectorPower", path: ["connectors", index, "power"] });
    }
  });
}

/** Create and edit a point (POST and PUT /station-service/point). */
export const pointInput = pointFields.superRefine(checkConnectors);
export type PointInput = z.infer<typeof pointInput>;
export type PointFormValues = z.input<typeof pointInput>;

/** PUT /station-service/point/valid/points: enable several points at once. */
export const pointBatchEnableInput = z.object({
  ids: z
    .array(recordId("points.validation.ids"), { error: "points.validation.ids" })
    .min(1, { error: "points.validation.ids" })
    .max(100, { error: "points.validation.ids" })
    .transform((ids) => [...new Set(ids)]),
});

/**
 * One row of a point import (Excel files only; the browser reads the workbook and sends its rows;
 * docs/rules/equipment.md "Import and export"). The location is named, as an operator knows it;
 * every connector gets the row's standard and charge speed and an even share of the rated power.
 */
/** A spreadsheet cell of a text column may hold a number (point number 7, serial 1001). */
const sheetText = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === "number" ? String(value) : value), schema);

export const pointImportRow = z.object({
  line: recordId().optional(),
  stationName: sheetText(z.string({ error: "points.validation.stationName" }).trim().min(1, { error: "points.validation.stationName" }).max(64)),
  name: sheetText(pointFields.shape.name),
  serialNumber: sheetText(serialNumber),
  pointNo: sheetText(pointFields.shape.pointNo),
  code: sheetText(optionalText(32)),
  type: pointType,
  ratedPower: powerKw,
  connectorCount,
  standard: connectorStandard.optional(),
  chargeSpeed: chargeSpeed.optional(),
  privateType: privateType.default("Public"),
});
export type PointImportRow = z.infer<typeof pointImportRow>;

/** POST /station-service/point/import: all rows or none, at most 200 a file (each row is two statements of one D1 batch). */
export const pointImportInput = z.object({
  rows: z.array(z.unknown(), { error: "points.validation.importEmpty" }).min(1, { error: "points.validation.importEmpty" }).max(200, { error: "points.validation.importTooMany" }),
});

/**
 * Where a charger uploads its diagnostics: OCPP 1.6 §6.25 allows any URI; the schemes chargers
 * upload to are FTP (ftp, ftps, sftp) and HTTP (http, https, a PUT or POST of the file), with a host
 * (docs/rules/ocpp.md "Diagnostics").
 */
export const diagnosticsLocation = z
  .string({ error: "validation.uploadLocation" })
  .trim()
  .max(500, { error: "validation.uploadLocation" })
  .regex(/^(?:ftp|ftps|sftp|http|https):\/\/[^\s/?#]+\S*$/i, { error: "validation.uploadLocation" });

/** A diagnostics request: its upload address, and a start not later than its stop (docs/rules/ocpp.md "Diagnostics"). */
export const diagnoseInput = z
  .object({
    location: diagnosticsLocation,
    startTime: z.iso.datetime({ offset: true, error: "points.validation.dateTime" }).optional(),
    stopTime: z.iso.datetime({ offset: true, error: "points.validation.dateTime" }).optional(),
    retries: wholeNumber("points.validation.retries", (n) => n.min(0, { error: "points.validation.retries" }).max(10, { error: "points.validation.retries" })).optional(),
    retryInterval: wholeNumber("points.validation.retryInterval", (n) =>
      n.min(0, { error: "points.validation.retryInterval" }).max(3600, { error: "points.validation.retryInterval" }),
    ).optional(),
    /** Diagnosis type: 1 normal, 2 the '1768' type (docs/rules/ocpp.md "Diagnostics"). */
    type: z.union([z.literal(1), z.literal(2)], { error: "points.validation.diagnosisType" }).default(1),
  })
  .refine((d) => !d.startTime || !d.stopTime || Date.parse(d.startTime) <= Date.parse(d.stopTime), {
    error: "points.validation.startAfterStop",
    path: ["stopTime"],
  });
export type DiagnoseInput = z.input<typeof diagnoseInput>;

/**
 * Diagnosis upload status: -1 failed, 1 waiting, 2 uploading, 3 uploaded
 * (docs/rules/ocpp.md "Diagnostics").
 */
export const DIAGNOSIS_STATUSES = [-1, 1, 2, 3] as const;

/** DiagnosticsStatusNotification status → upload status (OCPP 1.6 §6.17); Idle changes nothing. */
export const DIAGNOSIS_STATUS_OF: Partial<Record<string, (typeof DIAGNOSIS_STATUSES)[number]>> = {
  Uploading: 2,
  Uploaded: 3,
  UploadFailed: -1,
};

/** reportMonth as YYYY-MM (docs/rules/equipment.md "Point pages"). */
export const reportMonth = z
  .string({ error: "points.validation.reportMonth" })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "points.validation.reportMonth" });

export const pointStatusInput = z.object({ status: recordStatus });


/** GET /station-service/point: paged, filtered by serial number, name, station, status, type, online. */
export const pointListQuery = pageQuery.extend({
  serialNumber: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  stationId: recordId().optional(),
  status: recordStatus.optional(),
  type: pointType.optional(),
  online: z.enum(["true", "false"], { error: "validation.online" }).optional(),
});

/**
 * POST /station-service/point/{id}/key: `push` first sends the new key to the connected charger.
 * Without `key` a key is generated; with it, the operator's chosen key is set, given as `keyFormat`
 * hex or text (docs/rules/equipment.md "Charger keys").
 */
export const keyInput = z
  .object({
    push: z.boolean({ error: "points.validation.push" }).default(false),
    key: z.string({ error: "points.validation.keyText" }).trim().optional(),
    keyFormat: z.enum(KEY_FORMATS, { error: "points.validation.keyFormat" }).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.key === undefined) return;
    if (!input.keyFormat) ctx.addIssue({ code: "custom", path: ["keyFormat"], message: "points.validation.keyFormat" });
    else if (!chosenKeyBytes(input.key, input.keyFormat)) {
      ctx.addIssue({ code: "custom", path: ["key"], message: input.keyFormat === "hex" ? "points.validation.keyHex" : "points.validation.keyText" });
    }
  });

/** GET /station-service/diagnosis: for one point or all, by upload status. */
export const diagnosisListQuery = pageQuery.extend({
  pointId: recordId("points.validation.pointId").optional(),
  status: wholeNumber("points.validation.diagnosisStatus")
    .refine((s) => (DIAGNOSIS_STATUSES as readonly number[]).includes(s), { error: "points.validation.diagnosisStatus" })
    .optional(),
});

/** GET /station-service/point/{serialNumber}/ocpp/operationLog: paged, by action. */
export const ocppLogQuery = pageQuery.extend({ action: z.string().max(40).optional() });
