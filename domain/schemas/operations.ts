import { z } from "zod";
import { FirmwareStatus } from "../ocpp/schemas";
import { pageQuery, recordStatus } from "./account-service";
import { powerKw } from "./equipment";
import { recordId, wholeNumber } from "./numbers";

/**
 * Operations that reach the chargers (docs/rules/operations.md): load balancing, firmware
 * rollouts, the fault-code catalogue and the failures built on it. One set of field rules for the
 * console forms and the API; messages are catalogue keys (domain/i18n/locales/<lang>/operations.json).
 */

const v = (key: string) => ({ error: `operations.validation.${key}` });

// ── load balancing ──────────────────────────────────────────────────────────────────────────

/** Stack levels the console offers: 0 low, 1 middle, 2 high (OCPP 1.6 §7.8 stackLevel). */
export const STACK_LEVELS = [0, 1, 2] as const;
export const REPEATS = ["Absolute", "Daily", "Weekly"] as const;
/**
 * ChargePointMaxProfile: the limit is the station's, shared evenly over its points;
 * TxDefaultProfile: the limit is each point's, the default of every transaction on it
 * (docs/decisions/0028-load-balancing-as-charging-profiles.md).
 */
export const PROFILE_PURPOSES = ["ChargePointMaxProfile", "TxDefaultProfile"] as const;
export type ProfilePurpose = (typeof PROFILE_PURPOSES)[number];

/** Delivery of a configuration to one point, as the detail screen follows it. */
export const DELIVERY_STATUSES = ["NotSent", "Queued", "Sent", "Accepted", "Rejected", "Offline", "Failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `HH:mm` in the station's local time; `24:00` ends a day. */
const clock = z
  .string(v("slotTime"))
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, v("slotTime"));

export const minuteOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const slot = z
  .object({ start: clock, end: clock, limitKw: powerKw })
  .refine((s) => minuteOfDay(s.start) < minuteOfDay(s.end), { ...v("slotOrder"), path: ["end"] });
export type Slot = z.infer<typeof slot>;

const instant = z.iso.datetime({ offset: true, ...v("dateTime") });

export const loadBalancingInput = z
  .object({
    name: z.string(v("nameRequired")).trim().min(1, v("nameRequired")).max(50, v("nameLength")),
    stationId: recordId("operations.validation.stationRequired"),
    pointIds: z.array(recordId("operations.validation.pointsRequired"), v("pointsRequired")).min(1, v("pointsRequired")).max(500, v("pointsTooMany")),
    /** kW with two decimals, as the station's own load power (docs/rules/operations.md). */
    powerLimit: powerKw,
    purpose: z.enum(PROFILE_PURPOSES, v("purpose")).default("ChargePointMaxProfile"),
    stackLevel: z.union([z.literal(0), z.literal(1), z.literal(2)], v("stackLevel")),
    repeat: z.enum(REPEATS, v("repeat")),
    slots: z.array(slot, v("slots")).max(48, v("slots")).default([]),
    validFrom: instant.optional(),
    validTo: instant.optional(),
  })
  .superRefine((d, ctx) => {
    if (d.validFrom && d.validTo && Date.parse(d.validFrom) >= Date.parse(d.validTo)) {
      ctx.addIssue({ code: "custom", path: ["validTo"], message: "operations.validation.validOrder" });
    }
    const sorted = [...d.slots].sort((a, b) => minuteOfDay(a.start) - minuteOfDay(b.start));
    for (let i = 1; i < sorted.length; i++) {
      if (minuteOfDay(sorted[i].start) < minuteOfDay(sorted[i - 1].end)) {
        ctx.addIssue({ code: "custom", path: ["slots"], message: "operations.validation.slotOverlap" });
        break;
      }
    }
    d.slots.forEach((s, i) => {
      if (s.limitKw > d.powerLimit) ctx.addIssue({ code: "custom", path: ["slots", i, "limitKw"], message: "operations.validation.slotAboveLimit" });
    });
    if (new Set(d.pointIds).size !== d.pointIds.length) ctx.addIssue({ code: "custom", path: ["pointIds"], message: "operations.validation.pointsRepeated" });
  });
export type LoadBalancingInput = z.infer<typeof loadBalancingInput>;

export const loadBalancingListQuery = pageQuery.extend({
  stationId: recordId("operations.validation.stationRequired").optional(),
  name: z.string().trim().max(50).optional(),
  status: recordStatus.optional(),
});

export const loadBalancingStatusInput = z.object({ status: recordStatus });

/** GetCompositeSchedule of one point of the configuration (OCPP 1.6 §5.7), on demand. */
export const compositeScheduleQuery = z.object({
  pointId: recordId("operations.validation.pointsRequired"),
  duration: wholeNumber("operations.validation.duration", (n) => n.min(60, v("duration")).max(604_800, v("duration"))).default(86_400),
});

// ── firmware ────────────────────────────────────────────────────────────────────────────────

/** Where a charger fetches firmware: an FTP address, `ftp://` or `ftps://` ('FTP address requested'). */
export const ftpLocation = z
  .string(v("ftp"))
  .trim()
  .max(500, v("ftp"))
  .regex(/^ftps?:\/\/[^\s/]+\S*$/i, v("ftp"));

export const firmwareInput = z.object({
  version: z
    .string(v("versionRequired"))
    .trim()
    .min(1, v("versionRequired"))
    .max(50, v("versionLength"))
    .regex(/^[A-Za-z0-9._+-]+$/, v("versionRule")),
  location: ftpLocation,
  retries: wholeNumber("operations.validation.retries", (n) => n.min(0, v("retries")).max(10, v("retries"))).optional(),
  retryIntervalS: wholeNumber("operations.validation.retryInterval", (n) => n.min(0, v("retryInterval")).max(3600, v("retryInterval"))).optional(),
  /** When the charger should fetch it; a date in the past means at once. */
  retrieveDate: instant.optional(),
  description: z.string().trim().max(500, v("descriptionLength")).optional(),
  /**
   * A signed version (OCPP 2.0.1 L02; the 1.6 security extension's SignedUpdateFirmware): the PEM
   * certificate that signed the file and the base64 signature, both or neither, within the
   * message's own limits (5 500 and 800 characters).
   */
  signingCertificate: z
    .string(v("signingCertificate"))
    .trim()
    .max(5500, v("signingCertificate"))
    .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/, v("signingCertificate"))
    .optional(),
  signature: z
    .string(v("signature"))
    .trim()
    .max(800, v("signature"))
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, v("signature"))
    .optional(),
}).superRefine((input, issues) => {
  if (!input.signingCertificate !== !input.signature) {
    issues.addIssue({ code: "custom", path: [input.signingCertificate ? "signature" : "signingCertificate"], message: "operations.validation.signedPair" });
  }
});
export type FirmwareInput = z.infer<typeof firmwareInput>;

export const firmwareListQuery = pageQuery.extend({
  version: z.string().trim().max(50).optional(),
  issued: z.enum(["true", "false"], v("issued")).optional(),
});

export const firmwareIssueInput = z.object({
  pointIds: z.array(recordId("operations.validation.pointsRequired"), v("pointsRequired")).min(1, v("pointsRequired")).max(1000, v("pointsTooMany")),
  /** Points per wave; the next wave goes once the chargers of this one have answered. */
  waveSize: wholeNumber("operations.validation.waveSize", (n) => n.min(1, v("waveSize")).max(100, v("waveSize"))).optional(),
});

/**
 * A point's rollout status: `Issued` from the issue until the charger's first
 * FirmwareStatusNotification, then what the charger last reported (OCPP 1.6 §7.25).
 */
export const ROLLOUT_STATUSES = ["Issued", ...FirmwareStatus.options] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];
/** Statuses a rollout ends in; an Idle report no longer moves it. */
export const FINAL_ROLLOUT_STATUSES: readonly RolloutStatus[] = ["Installed", "DownloadFailed", "InstallationFailed"];
/** The UpdateFirmware call of one point: waiting for its wave, sent and answered, or not delivered. */
export const ROLLOUT_DELIVERIES = ["Queued", "Sent", "Offline", "Failed"] as const;

// ── fault codes ─────────────────────────────────────────────────────────────────────────────

/**
 * The 14 fault types of the catalogue: OCPP 1.6 §7.6 ChargePointErrorCode without NoError and
 * EVCommunicationError (not a fault: the charger goes SuspendedEVSE, not Faulted).
 */
export const OCPP_FAULT_CODES = [
  "ConnectorLockFailure",
  "GroundFailure",
  "HighTemperature",
  "InternalError",
  "LocalListConflict",
  "OverCurrentFailure",
  "OverVoltage",
  "PowerMeterFailure",
  "PowerSwitchFailure",
  "ReaderFailure",
  "ResetFailure",
  "UnderVoltage",
  "WeakSignal",
  "OtherError",
] as const;
export const isOcppFaultCode = (code: string) => (OCPP_FAULT_CODES as readonly string[]).includes(code);

/** OCPP 1.6 §7.6 error codes raised as ERROR alarms (else WARN unless Faulted; docs/rules/monitoring.md "Alarms"). */
export const OCPP_ERROR_LEVEL: ReadonlySet<string> = new Set([
  "ConnectorLockFailure",
  "GroundFailure",
  "HighTemperature",
  "InternalError",
  "OverCurrentFailure",
  "OverVoltage",
  "PowerMeterFailure",
  "PowerSwitchFailure",
  "UnderVoltage",
]);

/** Occurrences in the period after which a failure counts as repeated, unless the operator sets it. */
export const DEFAULT_FAULT_COUNT = 3;

/** A fault code as it travels in a path: what vendors put in vendorErrorCode, kept URL-safe. */
export const faultCodeParam = z.object({
  code: z
    .string(v("faultCodeRule"))
    .min(1, v("faultCodeRule"))
    .max(50, v("faultCodeRule"))
    .regex(/^[A-Za-z0-9._-]+$/, v("faultCodeRule")),
});

/** Counts are positive whole numbers, digits only (docs/rules/operations.md "Fault codes"). */
const faultCount = wholeNumber("operations.validation.count", (n) => n.min(1, v("count")).max(10_000, v("count")));

const faultFields = {
  name: z.string(v("faultNameRequired")).trim().min(1, v("faultNameRequired")).max(100, v("faultNameLength")),
  level: z.enum(["ERROR", "WARN"], v("level")),
  count: faultCount,
  description: z.string().trim().max(500, v("descriptionLength")).optional(),
};

/** A vendor code: its own code, never one of OCPP's. */
export const faultCodeInput = z.object({ code: faultCodeParam.shape.code, ...faultFields });
/** Editing keeps the code. */
export const faultCodeUpdate = z.object(faultFields);

export const faultCodeListQuery = pageQuery.extend({
  keyword: z.string().trim().max(50).optional(),
  source: z.enum(["OCPP", "VENDOR"], v("source")).optional(),
});

// ── failures ────────────────────────────────────────────────────────────────────────────────

export const failureListQuery = pageQuery
  .extend({
    stationId: recordId("operations.validation.stationRequired").optional(),
    serialNumber: z.string().trim().max(48).optional(),
    faultCode: z.string().trim().max(50).optional(),
    from: instant.optional(),
    to: instant.optional(),
    repeated: z.enum(["true", "false"], v("repeated")).optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { ...v("rangeOrder"), path: ["to"] });

// ── queue messages (docs/architecture.md "Jobs") ────────────────────────────────────────────

const operatorRef = { operatorId: z.number().int().positive(), operatorCode: z.string().min(1) };

/** One SetChargingProfile or ClearChargingProfile for one point, on the push queue. */
export const chargingProfilePush = z.object({
  kind: z.literal("chargingProfile"),
  action: z.enum(["set", "clear"]),
  ...operatorRef,
  loadBalancingId: z.number().int().positive(),
  pointId: z.number().int().positive(),
  /** Whether a progress row follows this delivery (a deleted configuration has none). */
  tracked: z.boolean(),
});
export type ChargingProfilePush = z.infer<typeof chargingProfilePush>;

/** One wave of an UpdateFirmware rollout; `rest` waits for the next waves. */
export const firmwareWaveMessage = z.object({
  ...operatorRef,
  firmwareId: z.number().int().positive(),
  wave: z.number().int().min(0),
  pointIds: z.array(z.number().int().positive()),
  rest: z.array(z.number().int().positive()),
  waveSize: z.number().int().min(1).max(100),
});
export type FirmwareWaveMessage = z.infer<typeof firmwareWaveMessage>;
