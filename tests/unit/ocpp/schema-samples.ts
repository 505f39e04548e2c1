/**
 * Sample payloads for every OCPP 1.6J schema (28 actions and the security extension's 11, each
 * request and response), validated both by the official JSON schemas and by
 * domain/ocpp/schemas.ts in schemas.test.ts. Each invalid sample
 * breaks exactly one rule, named by its kind, so that the error code it earns is known too.
 */
import type { OcppAction } from "../../../domain/ocpp";

export type InvalidKind =
  | "notObject"
  | "missing"
  | "wrongType"
  | "badEnum"
  | "tooLong"
  | "badDateTime"
  | "badUri"
  | "notMultipleOf"
  | "extra";

export interface SampleTable {
  /** Must include "minimal" and "full" (the latter uses every property the schema defines). */
  valid: ReadonlyArray<readonly [label: string, payload: unknown]>;
  invalid: ReadonlyArray<readonly [kind: InvalidKind, payload: unknown]>;
}

/** A string of exactly `length` characters, to probe CiString limits at the boundary. */
const text = (length: number) => "A".repeat(length);

/** The object without one property: JSON has no `undefined`, so a sample never carries one. */
function omit<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _omitted, ...rest } = value;
  return rest;
}

const T = "2026-11-21T10:00:00Z";
const T_OFFSET = "2026-11-21T12:00:00+02:00";
const T_FRACTION = "2026-11-21T10:00:00.123456-03:30";

const idTagInfoFull = { expiryDate: T_FRACTION, parentIdTag: text(20), status: "Accepted" };

const chargingScheduleFull = {
  duration: 3600,
  startSchedule: T,
  chargingRateUnit: "A",
  chargingSchedulePeriod: [
    { startPeriod: 0, limit: 16.3, numberPhases: 3 },
    { startPeriod: 1800, limit: 32 },
  ],
  minChargingRate: 6.1,
};

const chargingProfileMinimal = {
  chargingProfileId: 1,
  stackLevel: 0,
  chargingProfilePurpose: "ChargePointMaxProfile",
  chargingProfileKind: "Absolute",
  chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] },
};

const chargingProfileFull = {
  chargingProfileId: 7,
  transactionId: 123,
  stackLevel: 2,
  chargingProfilePurpose: "TxProfile",
  chargingProfileKind: "Recurring",
  recurrencyKind: "Daily",
  validFrom: T,
  validTo: "2027-01-01T00:00:00+01:00",
  chargingSchedule: chargingScheduleFull,
};

const sampledValueFull = {
  value: "12.345",
  context: "Transaction.End",
  format: "Raw",
  measurand: "Energy.Active.Import.Register",
  phase: "L1-N",
  location: "Outlet",
  unit: "kWh",
};

const meterValueFull = [
  { timestamp: T_OFFSET, sampledValue: [sampledValueFull, { value: "7400", measurand: "Power.Active.Import", unit: "W" }] },
  { timestamp: T, sampledValue: [{ value: "AbCdEf==", format: "SignedData", context: "Sample.Clock" }] },
];

/** A status-only answer: `{ status }` with the values the schema lists. */
function statusTable(accepted: string, other: string, misspelt: string): SampleTable {
  return {
    valid: [
      ["minimal", { status: accepted }],
      ["full", { status: other }],
    ],
    invalid: [
      ["notObject", accepted],
      ["missing", {}],
      ["wrongType", { status: 1 }],
      ["badEnum", { status: misspelt }],
      ["extra", { status: accepted, reason: "none" }],
    ],
  };
}

/** Schemas without properties: StatusNotification.conf, Heartbeat.req and the like. */
const EMPTY: SampleTable = {
  valid: [
    ["minimal", {}],
    ["full", {}],
  ],
  invalid: [
    ["notObject", []],
    ["notObject", null],
    ["extra", { status: "Accepted" }],
  ],
};

export const SCHEMA_SAMPLES: Record<OcppAction, { request: SampleTable; response: SampleTable }> = {
  Authorize: {
    request: {
      valid: [
        ["minimal", { idTag: "04E91C5A" }],
        ["full", { idTag: text(20) }],
      ],
      invalid: [
        ["notObject", ["04E91C5A"]],
        ["missing", {}],
        ["wrongType", { idTag: 4711 }],
        ["tooLong", { idTag: text(21) }],
        ["extra", { idTag: "04E91C5A", idTagType: "ISO14443" }],
      ],
    },
    response: {
      valid: [
        ["minimal", { idTagInfo: { status: "Accepted" } }],
        ["full", { idTagInfo: idTagInfoFull }],
        ["ConcurrentTx, expiry with an offset", { idTagInfo: { status: "ConcurrentTx", expiryDate: T_OFFSET } }],
      ],
      invalid: [
        ["notObject", null],
        ["missing", {}],
        ["missing", { idTagInfo: {} }],
        ["wrongType", { idTagInfo: "Accepted" }],
        ["badEnum", { idTagInfo: { status: "accepted" } }],
        ["tooLong", { idTagInfo: { status: "Accepted", parentIdTag: text(21) } }],
        ["badDateTime", { idTagInfo: { status: "Accepted", expiryDate: "2026-12-31" } }],
        ["extra", { idTagInfo: { status: "Accepted", reason: "ok" } }],
        ["extra", { idTagInfo: { status: "Accepted" }, transactionId: 1 }],
      ],
    },
  },

  BootNotification: {
    request: {
      valid: [
        ["minimal", { chargePointVendor: "Alfen", chargePointModel: "Eve Single" }],
        [
          "full",
          {
            chargePointVendor: text(20),
            chargePointModel: text(20),
            chargePointSerialNumber: text(25),
            chargeBoxSerialNumber: "ACE0123456",
            firmwareVersion: text(50),
            iccid: "89314404000123456789",
            imsi: "204043212345678",
            meterType: text(25),
            meterSerialNumber: "SDM-0042",
          },
        ],
      ],
      invalid: [
        ["notObject", "Alfen"],
        ["missing", { chargePointVendor: "Alfen" }],
        ["wrongType", { chargePointVendor: "Alfen", chargePointModel: null }],
        ["tooLong", { chargePointVendor: text(21), chargePointModel: "Eve" }],
        ["tooLong", { chargePointVendor: "Alfen", chargePointModel: "Eve", firmwareVersion: text(51) }],
        ["tooLong", { chargePointVendor: "Alfen", chargePointModel: "Eve", meterSerialNumber: text(26) }],
        ["extra", { chargePointVendor: "Alfen", chargePointModel: "Eve", serialNumber: "ACE0123456" }],
      ],
    },
    response: {
      valid: [
        ["minimal", { status: "Accepted", currentTime: T, interval: 300 }],
        ["full", { status: "Pending", currentTime: T_FRACTION, interval: 0 }],
      ],
      invalid: [
        ["notObject", []],
        ["missing", { status: "Accepted", currentTime: T }],
        ["wrongType", { status: "Accepted", currentTime: T, interval: "300" }],
        ["wrongType", { status: "Accepted", currentTime: T, interval: 300.5 }],
        ["badEnum", { status: "accepted", currentTime: T, interval: 300 }],
        ["badDateTime", { status: "Accepted", currentTime: "2026-11-21T25:00:00Z", interval: 300 }],
        ["extra", { status: "Accepted", currentTime: T, interval: 300, heartbeatInterval: 300 }],
      ],
    },
  },

  StartTransaction: {
    request: {
      valid: [
        ["minimal", { connectorId: 1, idTag: "04E91C5A", meterStart: 0, timestamp: T }],
        ["full", { connectorId: 2, idTag: text(20), meterStart: 1234567, reservationId: 42, timestamp: T_FRACTION }],
        ["no minimum on integers", { connectorId: 0, idTag: "04E91C5A", meterStart: -1, timestamp: T }],
      ],
      invalid: [
        ["notObject", "start"],
        ["missing", { connectorId: 1, idTag: "04E91C5A", meterStart: 0 }],
        ["wrongType", { connectorId: 1, idTag: "04E91C5A", meterStart: "0", timestamp: T }],
        ["wrongType", { connectorId: 1.5, idTag: "04E91C5A", meterStart: 0, timestamp: T }],
        ["tooLong", { connectorId: 1, idTag: text(21), meterStart: 0, timestamp: T }],
        ["badDateTime", { connectorId: 1, idTag: "04E91C5A", meterStart: 0, timestamp: "yesterday" }],
        ["extra", { connectorId: 1, idTag: "04E91C5A", meterStart: 0, timestamp: T, meterStartKwh: 0 }],
      ],
    },
    response: {
      valid: [
        ["minimal", { idTagInfo: { status: "Invalid" }, transactionId: 1 }],
        ["full", { idTagInfo: idTagInfoFull, transactionId: 2147483647 }],
      ],
      invalid: [
        ["notObject", 1],
        ["missing", { idTagInfo: { status: "Accepted" } }],
        ["wrongType", { idTagInfo: { status: "Accepted" }, transactionId: "1" }],
        ["badEnum", { idTagInfo: { status: "Rejected" }, transactionId: 1 }],
        ["tooLong", { idTagInfo: { status: "Accepted", parentIdTag: text(21) }, transactionId: 1 }],
        ["badDateTime", { idTagInfo: { status: "Accepted", expiryDate: "2026-02-30T10:00:00Z" }, transactionId: 1 }],
        ["extra", { idTagInfo: { status: "Accepted" }, transactionId: 1, reservationId: 1 }],
      ],
    },
  },

  StopTransaction: {
    request: {
      valid: [
        ["minimal", { meterStop: 1500, timestamp: T, transactionId: 1 }],
        [
          "full",
          {
            idTag: text(20),
            meterStop: 15000,
            timestamp: T_OFFSET,
            transactionId: 1,
            reason: "EVDisconnected",
            transactionData: meterValueFull,
          },
        ],
        ["empty transactionData", { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: [] }],
      ],
      invalid: [
        ["notObject", [1500]],
        ["missing", { meterStop: 1500, timestamp: T }],
        ["missing", { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: [{ timestamp: T }] }],
        [
          "missing",
          { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: [{ timestamp: T, sampledValue: [{ unit: "Wh" }] }] },
        ],
        ["wrongType", { meterStop: 1500.5, timestamp: T, transactionId: 1 }],
        ["wrongType", { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: {} }],
        ["badEnum", { meterStop: 1500, timestamp: T, transactionId: 1, reason: "EvDisconnected" }],
        [
          "badEnum",
          { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: [{ timestamp: T, sampledValue: [{ value: "1", unit: "kwh" }] }] },
        ],
        ["tooLong", { idTag: text(21), meterStop: 1500, timestamp: T, transactionId: 1 }],
        [
          "badDateTime",
          { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: [{ timestamp: "1732183200", sampledValue: [{ value: "0" }] }] },
        ],
        [
          "extra",
          {
            meterStop: 1500,
            timestamp: T,
            transactionId: 1,
            transactionData: [{ timestamp: T, sampledValue: [{ value: "1", signedMeterValue: "x" }] }],
          },
        ],
        ["extra", { meterStop: 1500, timestamp: T, transactionId: 1, connectorId: 1 }],
      ],
    },
    response: {
      valid: [
        ["minimal", {}],
        ["full", { idTagInfo: idTagInfoFull }],
      ],
      invalid: [
        ["notObject", "Accepted"],
        ["missing", { idTagInfo: {} }],
        ["wrongType", { idTagInfo: [] }],
        ["badEnum", { idTagInfo: { status: "Unknown" } }],
        ["tooLong", { idTagInfo: { status: "Accepted", parentIdTag: text(21) } }],
        ["badDateTime", { idTagInfo: { status: "Accepted", expiryDate: "31.12.2026 23:59" } }],
        ["extra", { idTagInfo: { status: "Accepted" }, transactionId: 1 }],
      ],
    },
  },

  StatusNotification: {
    request: {
      valid: [
        ["minimal", { connectorId: 0, errorCode: "NoError", status: "Available" }],
        [
          "full",
          {
            connectorId: 1,
            errorCode: "GroundFailure",
            info: text(50),
            status: "Faulted",
            timestamp: T_OFFSET,
            vendorId: text(255),
            vendorErrorCode: text(50),
          },
        ],
      ],
      invalid: [
        ["notObject", null],
        ["missing", { connectorId: 1, errorCode: "NoError" }],
        ["wrongType", { connectorId: "1", errorCode: "NoError", status: "Available" }],
        ["badEnum", { connectorId: 1, errorCode: "NoError", status: "Offline" }],
        ["badEnum", { connectorId: 1, errorCode: "NoErrors", status: "Available" }],
        ["tooLong", { connectorId: 1, errorCode: "NoError", status: "Available", info: text(51) }],
        ["tooLong", { connectorId: 1, errorCode: "NoError", status: "Available", vendorId: text(256) }],
        ["badDateTime", { connectorId: 1, errorCode: "NoError", status: "Available", timestamp: "2026-11-21" }],
        ["extra", { connectorId: 1, errorCode: "NoError", status: "Available", evseId: 1 }],
      ],
    },
    response: EMPTY,
  },

  MeterValues: {
    request: {
      valid: [
        ["minimal", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0" }] }] }],
        ["full", { connectorId: 1, transactionId: 7, meterValue: meterValueFull }],
        ["lower-case t and z (RFC 3339 §5.6)", { connectorId: 1, meterValue: [{ timestamp: "2026-11-21t10:00:00.5z", sampledValue: [{ value: "0" }] }] }],
        ["Celcius, the schema's own misspelling", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "21", measurand: "Temperature", unit: "Celcius" }] }] }],
      ],
      invalid: [
        ["notObject", "1234"],
        ["missing", { connectorId: 1 }],
        ["missing", { connectorId: 1, meterValue: [{ sampledValue: [{ value: "0" }] }] }],
        ["missing", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ measurand: "SoC" }] }] }],
        ["wrongType", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: 1234 }] }] }],
        ["wrongType", { connectorId: 1, meterValue: { timestamp: T, sampledValue: [{ value: "0" }] } }],
        ["badEnum", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0", measurand: "Energy.Active.Import" }] }] }],
        ["badEnum", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0", phase: "L4" }] }] }],
        ["badEnum", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0", context: "Sample.Hourly" }] }] }],
        ["badEnum", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0", format: "Signed" }] }] }],
        ["badEnum", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0", location: "Grid" }] }] }],
        ["badEnum", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0", unit: "MWh" }] }] }],
        ["badDateTime", { connectorId: 1, meterValue: [{ timestamp: "2026-11-21T10:00Z", sampledValue: [{ value: "0" }] }] }],
        ["extra", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0" }], connectorId: 1 }] }],
        ["extra", { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "0" }] }], evseId: 1 }],
      ],
    },
    response: EMPTY,
  },

  FirmwareStatusNotification: {
    request: statusTable("Installed", "InstallationFailed", "InstallFailed"),
    response: EMPTY,
  },

  DiagnosticsStatusNotification: {
    request: statusTable("Uploaded", "Idle", "UploadFailure"),
    response: EMPTY,
  },

  DataTransfer: {
    request: {
      valid: [
        ["minimal", { vendorId: "com.alfen" }],
        ["full", { vendorId: text(255), messageId: text(50), data: JSON.stringify({ any: "length", n: 1 }) }],
      ],
      invalid: [
        ["notObject", []],
        ["missing", { messageId: "Ping" }],
        ["wrongType", { vendorId: "com.alfen", data: { any: "object" } }],
        ["tooLong", { vendorId: text(256) }],
        ["tooLong", { vendorId: "com.alfen", messageId: text(51) }],
        ["extra", { vendorId: "com.alfen", payload: "x" }],
      ],
    },
    response: {
      valid: [
        ["minimal", { status: "Accepted" }],
        ["full", { status: "UnknownMessageId", data: "" }],
      ],
      invalid: [
        ["notObject", "Accepted"],
        ["missing", { data: "x" }],
        ["wrongType", { status: "Accepted", data: 5 }],
        ["badEnum", { status: "UnknownVendor" }],
        ["extra", { status: "Accepted", vendorId: "com.alfen" }],
      ],
    },
  },

  RemoteStartTransaction: {
    request: {
      valid: [
        ["minimal", { idTag: "04E91C5A" }],
        ["full", { connectorId: 1, idTag: text(20), chargingProfile: chargingProfileFull }],
        ["minimal charging profile", { idTag: "04E91C5A", chargingProfile: chargingProfileMinimal }],
        ["limits that are float-inexact multiples of 0.1", {
          idTag: "04E91C5A",
          chargingProfile: {
            ...chargingProfileMinimal,
            chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 0.3 }, { startPeriod: 60, limit: 7400.7 }] },
          },
        }],
      ],
      invalid: [
        ["notObject", null],
        ["missing", { connectorId: 1 }],
        ["missing", { idTag: "A", chargingProfile: omit(chargingProfileFull, "chargingSchedule") }],
        [
          "missing",
          {
            idTag: "A",
            chargingProfile: { ...chargingProfileMinimal, chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0 }] } },
          },
        ],
        ["wrongType", { connectorId: "1", idTag: "04E91C5A" }],
        [
          "wrongType",
          {
            idTag: "A",
            chargingProfile: {
              ...chargingProfileMinimal,
              chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0.5, limit: 16 }] },
            },
          },
        ],
        ["badEnum", { idTag: "A", chargingProfile: { ...chargingProfileFull, chargingProfilePurpose: "TxProfiles" } }],
        ["badEnum", { idTag: "A", chargingProfile: { ...chargingProfileFull, chargingProfileKind: "Once" } }],
        ["badEnum", { idTag: "A", chargingProfile: { ...chargingProfileFull, recurrencyKind: "Monthly" } }],
        [
          "badEnum",
          { idTag: "A", chargingProfile: { ...chargingProfileMinimal, chargingSchedule: { chargingRateUnit: "kW", chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] } } },
        ],
        ["tooLong", { idTag: text(21) }],
        ["badDateTime", { idTag: "A", chargingProfile: { ...chargingProfileFull, validFrom: "2026-11-21T10:00:00.Z" } }],
        [
          "notMultipleOf",
          {
            idTag: "A",
            chargingProfile: {
              ...chargingProfileMinimal,
              chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 16.35 }] },
            },
          },
        ],
        [
          "notMultipleOf",
          {
            idTag: "A",
            chargingProfile: { ...chargingProfileFull, chargingSchedule: { ...chargingScheduleFull, minChargingRate: 6.05 } },
          },
        ],
        [
          "extra",
          {
            idTag: "A",
            chargingProfile: {
              ...chargingProfileMinimal,
              chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 16, phaseToUse: 1 }] },
            },
          },
        ],
        ["extra", { idTag: "A", chargingProfile: { ...chargingProfileMinimal, profileName: "night" } }],
        ["extra", { idTag: "A", evseId: 1 }],
      ],
    },
    response: statusTable("Accepted", "Rejected", "Accept"),
  },

  RemoteStopTransaction: {
    request: {
      valid: [
        ["minimal", { transactionId: 5 }],
        ["full", { transactionId: 2147483647 }],
      ],
      invalid: [
        ["notObject", 5],
        ["missing", {}],
        ["wrongType", { transactionId: "5" }],
        ["extra", { transactionId: 5, connectorId: 1 }],
      ],
    },
    response: statusTable("Accepted", "Rejected", "rejected"),
  },

  Reset: {
    request: {
      valid: [
        ["minimal", { type: "Soft" }],
        ["full", { type: "Hard" }],
      ],
      invalid: [
        ["notObject", "Hard"],
        ["missing", {}],
        ["wrongType", { type: true }],
        ["badEnum", { type: "hard" }],
        ["extra", { type: "Hard", connectorId: 1 }],
      ],
    },
    response: statusTable("Accepted", "Rejected", "Scheduled"),
  },

  ClearCache: {
    request: EMPTY,
    response: statusTable("Accepted", "Rejected", "Cleared"),
  },

  GetLocalListVersion: {
    request: EMPTY,
    response: {
      valid: [
        ["minimal", { listVersion: 0 }],
        ["full", { listVersion: -1 }],
      ],
      invalid: [
        ["notObject", 3],
        ["missing", {}],
        ["wrongType", { listVersion: "3" }],
        ["wrongType", { listVersion: 3.5 }],
        ["extra", { listVersion: 3, status: "Accepted" }],
      ],
    },
  },

  SendLocalList: {
    request: {
      valid: [
        ["minimal", { listVersion: 1, updateType: "Full" }],
        [
          "full",
          {
            listVersion: 2,
            updateType: "Differential",
            localAuthorizationList: [{ idTag: text(20), idTagInfo: idTagInfoFull }, { idTag: "REMOVED01" }],
          },
        ],
        ["empty list", { listVersion: 3, updateType: "Full", localAuthorizationList: [] }],
      ],
      invalid: [
        ["notObject", []],
        ["missing", { listVersion: 1 }],
        ["missing", { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTagInfo: { status: "Accepted" } }] }],
        ["missing", { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTag: "A", idTagInfo: {} }] }],
        ["wrongType", { listVersion: "1", updateType: "Full" }],
        ["wrongType", { listVersion: 1, updateType: "Full", localAuthorizationList: { idTag: "A" } }],
        ["badEnum", { listVersion: 1, updateType: "Partial" }],
        ["badEnum", { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTag: "A", idTagInfo: { status: "Lost" } }] }],
        ["tooLong", { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTag: text(21) }] }],
        [
          "tooLong",
          { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTag: "A", idTagInfo: { status: "Accepted", parentIdTag: text(21) } }] },
        ],
        [
          "badDateTime",
          { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTag: "A", idTagInfo: { status: "Accepted", expiryDate: "never" } }] },
        ],
        ["extra", { listVersion: 1, updateType: "Full", localAuthorizationList: [{ idTag: "A", name: "Anna" }] }],
        ["extra", { listVersion: 1, updateType: "Full", hash: "x" }],
      ],
    },
    response: statusTable("Accepted", "VersionMismatch", "Mismatch"),
  },

  ChangeAvailability: {
    request: {
      valid: [
        ["minimal", { connectorId: 0, type: "Inoperative" }],
        ["full", { connectorId: 2, type: "Operative" }],
      ],
      invalid: [
        ["notObject", "Operative"],
        ["missing", { connectorId: 0 }],
        ["wrongType", { connectorId: "0", type: "Operative" }],
        ["badEnum", { connectorId: 0, type: "Inoperable" }],
        ["extra", { connectorId: 0, type: "Operative", evseId: 0 }],
      ],
    },
    response: statusTable("Accepted", "Scheduled", "Pending"),
  },

  ChangeConfiguration: {
    request: {
      valid: [
        ["minimal", { key: "HeartbeatInterval", value: "300" }],
        ["full", { key: text(50), value: text(500) }],
      ],
      invalid: [
        ["notObject", ["HeartbeatInterval", "300"]],
        ["missing", { key: "HeartbeatInterval" }],
        ["wrongType", { key: "HeartbeatInterval", value: 300 }],
        ["tooLong", { key: text(51), value: "300" }],
        ["tooLong", { key: "AuthorizationKey", value: text(501) }],
        ["extra", { key: "HeartbeatInterval", value: "300", readonly: false }],
      ],
    },
    response: statusTable("Accepted", "RebootRequired", "Reboot"),
  },

  GetConfiguration: {
    request: {
      valid: [
        ["minimal", {}],
        ["full", { key: ["HeartbeatInterval", text(50)] }],
        ["empty key list", { key: [] }],
      ],
      invalid: [
        ["notObject", "HeartbeatInterval"],
        ["wrongType", { key: "HeartbeatInterval" }],
        ["wrongType", { key: [300] }],
        ["tooLong", { key: [text(51)] }],
        ["extra", { keys: ["HeartbeatInterval"] }],
      ],
    },
    response: {
      valid: [
        ["minimal", {}],
        [
          "full",
          {
            configurationKey: [
              { key: "HeartbeatInterval", readonly: false, value: "300" },
              { key: text(50), readonly: true, value: text(500) },
              { key: "AuthorizationKey", readonly: false },
            ],
            unknownKey: ["Foo", text(50)],
          },
        ],
      ],
      invalid: [
        ["notObject", []],
        ["missing", { configurationKey: [{ key: "HeartbeatInterval", value: "300" }] }],
        ["wrongType", { configurationKey: [{ key: "HeartbeatInterval", readonly: "false" }] }],
        ["wrongType", { unknownKey: "Foo" }],
        ["tooLong", { configurationKey: [{ key: "HeartbeatInterval", readonly: false, value: text(501) }] }],
        ["tooLong", { unknownKey: [text(51)] }],
        ["extra", { configurationKey: [{ key: "HeartbeatInterval", readonly: false, type: "integer" }] }],
        ["extra", { configurationKey: [], status: "Accepted" }],
      ],
    },
  },

  TriggerMessage: {
    request: {
      valid: [
        ["minimal", { requestedMessage: "BootNotification" }],
        ["full", { requestedMessage: "StatusNotification", connectorId: 1 }],
      ],
      invalid: [
        ["notObject", "Heartbeat"],
        ["missing", { connectorId: 1 }],
        ["wrongType", { requestedMessage: "MeterValues", connectorId: "1" }],
        ["badEnum", { requestedMessage: "StartTransaction" }],
        ["extra", { requestedMessage: "Heartbeat", evse: 1 }],
      ],
    },
    response: statusTable("Accepted", "NotImplemented", "NotSupported"),
  },

  UnlockConnector: {
    request: {
      valid: [
        ["minimal", { connectorId: 1 }],
        ["full", { connectorId: 2 }],
      ],
      invalid: [
        ["notObject", 1],
        ["missing", {}],
        ["wrongType", { connectorId: 1.5 }],
        ["extra", { connectorId: 1, force: true }],
      ],
    },
    response: statusTable("Unlocked", "UnlockFailed", "Accepted"),
  },

  ClearChargingProfile: {
    request: {
      valid: [
        ["minimal", {}],
        ["full", { id: 7, connectorId: 1, chargingProfilePurpose: "TxDefaultProfile", stackLevel: 0 }],
      ],
      invalid: [
        ["notObject", null],
        ["wrongType", { id: "7" }],
        ["badEnum", { chargingProfilePurpose: "TxMaxProfile" }],
        ["extra", { id: 7, chargingProfileId: 7 }],
      ],
    },
    response: statusTable("Accepted", "Unknown", "Cleared"),
  },

  SetChargingProfile: {
    request: {
      valid: [
        ["minimal", { connectorId: 0, csChargingProfiles: chargingProfileMinimal }],
        ["full", { connectorId: 1, csChargingProfiles: chargingProfileFull }],
      ],
      invalid: [
        ["notObject", "profile"],
        ["missing", { connectorId: 1 }],
        ["missing", { connectorId: 1, csChargingProfiles: omit(chargingProfileFull, "chargingProfileId") }],
        ["wrongType", { connectorId: 1, csChargingProfiles: { ...chargingProfileFull, stackLevel: "0" } }],
        ["badEnum", { connectorId: 1, csChargingProfiles: { ...chargingProfileFull, chargingProfilePurpose: "TxDefault" } }],
        ["badDateTime", { connectorId: 1, csChargingProfiles: { ...chargingProfileFull, validTo: "2027-01-01T00:00:00+0100x" } }],
        [
          "notMultipleOf",
          {
            connectorId: 1,
            csChargingProfiles: {
              ...chargingProfileFull,
              chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 7.25 }] },
            },
          },
        ],
        [
          "extra",
          {
            connectorId: 1,
            csChargingProfiles: { ...chargingProfileFull, chargingSchedule: { ...chargingScheduleFull, randomizedDelay: 0 } },
          },
        ],
        ["extra", { connectorId: 1, csChargingProfiles: chargingProfileMinimal, chargingProfile: chargingProfileMinimal }],
      ],
    },
    response: statusTable("Accepted", "NotSupported", "Scheduled"),
  },

  GetCompositeSchedule: {
    request: {
      valid: [
        ["minimal", { connectorId: 1, duration: 3600 }],
        ["full", { connectorId: 0, duration: 86400, chargingRateUnit: "W" }],
      ],
      invalid: [
        ["notObject", [1, 3600]],
        ["missing", { connectorId: 1 }],
        ["wrongType", { connectorId: 1, duration: "3600" }],
        ["badEnum", { connectorId: 1, duration: 3600, chargingRateUnit: "kW" }],
        ["extra", { connectorId: 1, duration: 3600, evseId: 1 }],
      ],
    },
    response: {
      valid: [
        ["minimal", { status: "Rejected" }],
        ["full", { status: "Accepted", connectorId: 1, scheduleStart: T, chargingSchedule: chargingScheduleFull }],
        ["no limit: an empty period list", { status: "Accepted", connectorId: 0, scheduleStart: T, chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [] } }],
      ],
      invalid: [
        ["notObject", "Accepted"],
        ["missing", { connectorId: 1 }],
        ["missing", { status: "Accepted", chargingSchedule: { chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] } }],
        ["wrongType", { status: "Accepted", connectorId: "1" }],
        ["badEnum", { status: "Unknown" }],
        ["badDateTime", { status: "Accepted", scheduleStart: "2026-11-21T10:00:00+02:00:00" }],
        ["notMultipleOf", { status: "Accepted", chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 10.01 }] } }],
        ["extra", { status: "Accepted", chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 10, end: 60 }] } }],
        ["extra", { status: "Accepted", evseId: 1 }],
      ],
    },
  },

  UpdateFirmware: {
    request: {
      valid: [
        ["minimal", { location: "https://fw.example.com/eve-6.2.bin", retrieveDate: T }],
        [
          "full",
          {
            location: "ftp://user:secret@files.example.com:2121/fw/eve%206.2.bin?token=abc#part",
            retries: 3,
            retrieveDate: T_OFFSET,
            retryInterval: 60,
          },
        ],
        ["IPv6 host", { location: "http://[2001:db8::1]:8080/fw.bin", retrieveDate: T }],
        ["URN", { location: "urn:example:firmware:6.2", retrieveDate: T }],
      ],
      invalid: [
        ["notObject", "https://fw.example.com/eve-6.2.bin"],
        ["missing", { location: "https://fw.example.com/eve-6.2.bin" }],
        ["wrongType", { location: "https://fw.example.com/eve-6.2.bin", retrieveDate: T, retries: "3" }],
        ["badUri", { location: "fw.example.com/eve-6.2.bin", retrieveDate: T }],
        ["badUri", { location: "https://fw.example.com/eve 6.2.bin", retrieveDate: T }],
        ["badUri", { location: "https://fw.example.com/eve%zz.bin", retrieveDate: T }],
        ["badDateTime", { location: "https://fw.example.com/eve-6.2.bin", retrieveDate: "tomorrow" }],
        ["extra", { location: "https://fw.example.com/eve-6.2.bin", retrieveDate: T, signature: "x" }],
      ],
    },
    response: EMPTY,
  },

  GetDiagnostics: {
    request: {
      valid: [
        ["minimal", { location: "ftp://diag.example.com/uploads/" }],
        [
          "full",
          { location: "sftp://diag.example.com/uploads/", retries: 2, retryInterval: 30, startTime: T_FRACTION, stopTime: T },
        ],
      ],
      invalid: [
        ["notObject", []],
        ["missing", { retries: 1 }],
        ["wrongType", { location: "ftp://diag.example.com/", retryInterval: 1.5 }],
        ["badUri", { location: "/uploads" }],
        ["badDateTime", { location: "ftp://diag.example.com/", startTime: "2026-11-21T10:00:00ZZ" }],
        ["extra", { location: "ftp://diag.example.com/", logType: "DiagnosticsLog" }],
      ],
    },
    response: {
      valid: [
        ["minimal", {}],
        ["full", { fileName: text(255) }],
      ],
      invalid: [
        ["notObject", "diag.zip"],
        ["wrongType", { fileName: 42 }],
        ["tooLong", { fileName: text(256) }],
        ["extra", { fileName: "diag.zip", status: "Accepted" }],
      ],
    },
  },

  ReserveNow: {
    request: {
      valid: [
        ["minimal", { connectorId: 1, expiryDate: T, idTag: "04E91C5A", reservationId: 9 }],
        ["full", { connectorId: 0, expiryDate: T_FRACTION, idTag: text(20), parentIdTag: text(20), reservationId: 9 }],
      ],
      invalid: [
        ["notObject", null],
        ["missing", { connectorId: 1, expiryDate: T, idTag: "04E91C5A" }],
        ["wrongType", { connectorId: 1, expiryDate: T, idTag: "04E91C5A", reservationId: "9" }],
        ["tooLong", { connectorId: 1, expiryDate: T, idTag: text(21), reservationId: 9 }],
        ["tooLong", { connectorId: 1, expiryDate: T, idTag: "A", parentIdTag: text(21), reservationId: 9 }],
        ["badDateTime", { connectorId: 1, expiryDate: "in 15 minutes", idTag: "A", reservationId: 9 }],
        ["extra", { connectorId: 1, expiryDate: T, idTag: "A", reservationId: 9, evseId: 1 }],
      ],
    },
    response: statusTable("Accepted", "Occupied", "Reserved"),
  },

  CancelReservation: {
    request: {
      valid: [
        ["minimal", { reservationId: 9 }],
        ["full", { reservationId: 0 }],
      ],
      invalid: [
        ["notObject", 9],
        ["missing", {}],
        ["wrongType", { reservationId: "9" }],
        ["extra", { reservationId: 9, connectorId: 1 }],
      ],
    },
    response: statusTable("Accepted", "Rejected", "Canceled"),
  },

  Heartbeat: {
    request: EMPTY,
    response: {
      valid: [
        ["minimal", { currentTime: T }],
        ["full", { currentTime: T_FRACTION }],
      ],
      invalid: [
        ["notObject", T],
        ["missing", {}],
        ["wrongType", { currentTime: 1732183200 }],
        ["badDateTime", { currentTime: "2026-11-21T10:00:00 UTC" }],
        ["extra", { currentTime: T, interval: 300 }],
      ],
    },
  },

  SecurityEventNotification: {
    request: {
      valid: [
        ["minimal", { type: "StartupOfTheDevice", timestamp: T }],
        ["full", { type: text(50), timestamp: T_OFFSET, techInfo: text(255) }],
        ["an event type outside the appendix (the list is open)", { type: "VendorTamperSwitch", timestamp: T }],
      ],
      invalid: [
        ["notObject", "StartupOfTheDevice"],
        ["missing", { timestamp: T }],
        ["missing", { type: "StartupOfTheDevice" }],
        ["wrongType", { type: 1, timestamp: T }],
        ["tooLong", { type: text(51), timestamp: T }],
        ["tooLong", { type: "ResetOrReboot", timestamp: T, techInfo: text(256) }],
        ["badDateTime", { type: "ResetOrReboot", timestamp: "yesterday" }],
        ["extra", { type: "ResetOrReboot", timestamp: T, critical: true }],
      ],
    },
    response: EMPTY,
  },

  LogStatusNotification: {
    request: {
      valid: [
        ["minimal", { status: "Idle" }],
        ["full", { status: "Uploaded", requestId: 42 }],
      ],
      invalid: [
        ["notObject", "Uploaded"],
        ["missing", { requestId: 42 }],
        ["wrongType", { status: "Uploading", requestId: "42" }],
        ["badEnum", { status: "UploadFailed" }],
        ["extra", { status: "Uploading", fileName: "log.zip" }],
      ],
    },
    response: EMPTY,
  },

  SignedFirmwareStatusNotification: {
    request: {
      valid: [
        ["minimal", { status: "Downloading" }],
        ["full", { status: "SignatureVerified", requestId: 7 }],
      ],
      invalid: [
        ["notObject", "Installed"],
        ["missing", { requestId: 7 }],
        ["wrongType", { status: "Installed", requestId: 7.5 }],
        ["badEnum", { status: "SignatureInvalid" }],
        ["extra", { status: "Installed", firmwareVersion: "2.0" }],
      ],
    },
    response: EMPTY,
  },

  SignCertificate: {
    request: {
      valid: [
        ["minimal", { csr: "" }],
        ["full", { csr: text(5500) }],
      ],
      invalid: [
        ["notObject", "-----BEGIN CERTIFICATE REQUEST-----"],
        ["missing", {}],
        ["wrongType", { csr: 1 }],
        ["tooLong", { csr: text(5501) }],
        ["extra", { csr: "x", certificateType: "ChargePointCertificate" }],
      ],
    },
    response: statusTable("Accepted", "Rejected", "Pending"),
  },

  ExtendedTriggerMessage: {
    request: {
      valid: [
        ["minimal", { requestedMessage: "SignChargePointCertificate" }],
        ["full", { requestedMessage: "StatusNotification", connectorId: 2 }],
        ["the log's notification", { requestedMessage: "LogStatusNotification" }],
      ],
      invalid: [
        ["notObject", "Heartbeat"],
        ["missing", { connectorId: 1 }],
        ["wrongType", { requestedMessage: "MeterValues", connectorId: "1" }],
        ["badEnum", { requestedMessage: "DiagnosticsStatusNotification" }],
        ["extra", { requestedMessage: "Heartbeat", evseId: 1 }],
      ],
    },
    response: statusTable("Accepted", "NotImplemented", "NotSupported"),
  },

  GetLog: {
    request: {
      valid: [
        ["minimal", { log: { remoteLocation: "ftp://logs.example.com/" }, logType: "DiagnosticsLog", requestId: 1 }],
        [
          "full",
          {
            log: { remoteLocation: `https://logs.example.com/${text(487)}`, oldestTimestamp: T, latestTimestamp: T_FRACTION },
            logType: "SecurityLog",
            requestId: 2,
            retries: 3,
            retryInterval: 60,
          },
        ],
      ],
      invalid: [
        ["notObject", "SecurityLog"],
        ["missing", { logType: "DiagnosticsLog", requestId: 1 }],
        ["missing", { log: { oldestTimestamp: T }, logType: "DiagnosticsLog", requestId: 1 }],
        ["wrongType", { log: { remoteLocation: "ftp://x/" }, logType: "DiagnosticsLog", requestId: "1" }],
        ["badEnum", { log: { remoteLocation: "ftp://x/" }, logType: "AuditLog", requestId: 1 }],
        ["tooLong", { log: { remoteLocation: `https://${text(505)}` }, logType: "DiagnosticsLog", requestId: 1 }],
        ["badDateTime", { log: { remoteLocation: "ftp://x/", oldestTimestamp: "2026-11-21" }, logType: "DiagnosticsLog", requestId: 1 }],
        ["extra", { log: { remoteLocation: "ftp://x/", format: "zip" }, logType: "DiagnosticsLog", requestId: 1 }],
      ],
    },
    response: {
      valid: [
        ["minimal", { status: "Accepted" }],
        ["full", { status: "AcceptedCanceled", filename: text(255) }],
      ],
      invalid: [
        ["notObject", "Accepted"],
        ["missing", { filename: "log.zip" }],
        ["wrongType", { status: "Accepted", filename: 1 }],
        ["badEnum", { status: "Canceled" }],
        ["tooLong", { status: "Accepted", filename: text(256) }],
        ["extra", { status: "Accepted", fileName: "log.zip" }],
      ],
    },
  },

  SignedUpdateFirmware: {
    request: {
      valid: [
        ["minimal", { requestId: 1, firmware: { location: "https://fw.example.com/2.0.bin", retrieveDateTime: T, signingCertificate: "PEM", signature: "c2ln" } }],
        [
          "full",
          {
            retries: 2,
            retryInterval: 30,
            requestId: 9,
            firmware: { location: text(512), retrieveDateTime: T_OFFSET, installDateTime: T_FRACTION, signingCertificate: text(5500), signature: text(800) },
          },
        ],
      ],
      invalid: [
        ["notObject", []],
        ["missing", { firmware: { location: "https://x/", retrieveDateTime: T, signingCertificate: "PEM", signature: "c2ln" } }],
        ["missing", { requestId: 1, firmware: { location: "https://x/", retrieveDateTime: T, signingCertificate: "PEM" } }],
        ["wrongType", { requestId: 1, firmware: "https://x/" }],
        ["tooLong", { requestId: 1, firmware: { location: "https://x/", retrieveDateTime: T, signingCertificate: "PEM", signature: text(801) } }],
        ["badDateTime", { requestId: 1, firmware: { location: "https://x/", retrieveDateTime: "now", signingCertificate: "PEM", signature: "c2ln" } }],
        ["extra", { requestId: 1, firmware: { location: "https://x/", retrieveDateTime: T, signingCertificate: "PEM", signature: "c2ln", hash: "abc" } }],
      ],
    },
    response: statusTable("Accepted", "InvalidCertificate", "Scheduled"),
  },

  InstallCertificate: {
    request: {
      valid: [
        ["minimal", { certificateType: "CentralSystemRootCertificate", certificate: "-----BEGIN CERTIFICATE-----" }],
        ["full", { certificateType: "ManufacturerRootCertificate", certificate: text(5500) }],
      ],
      invalid: [
        ["notObject", "-----BEGIN CERTIFICATE-----"],
        ["missing", { certificateType: "CentralSystemRootCertificate" }],
        ["wrongType", { certificateType: "CentralSystemRootCertificate", certificate: ["PEM"] }],
        ["badEnum", { certificateType: "CSMSRootCertificate", certificate: "PEM" }],
        ["tooLong", { certificateType: "CentralSystemRootCertificate", certificate: text(5501) }],
        ["extra", { certificateType: "CentralSystemRootCertificate", certificate: "PEM", certificateGroup: "root" }],
      ],
    },
    response: statusTable("Accepted", "Failed", "NotSupported"),
  },

  GetInstalledCertificateIds: {
    request: {
      valid: [
        ["minimal", { certificateType: "CentralSystemRootCertificate" }],
        ["full", { certificateType: "ManufacturerRootCertificate" }],
      ],
      invalid: [
        ["notObject", "CentralSystemRootCertificate"],
        ["missing", {}],
        ["wrongType", { certificateType: 1 }],
        ["badEnum", { certificateType: "V2GRootCertificate" }],
        ["extra", { certificateType: "CentralSystemRootCertificate", all: true }],
      ],
    },
    response: {
      valid: [
        ["minimal", { status: "NotFound" }],
        [
          "full",
          {
            certificateHashData: [
              { hashAlgorithm: "SHA256", issuerNameHash: text(128), issuerKeyHash: text(128), serialNumber: text(40) },
              { hashAlgorithm: "SHA512", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: "01" },
            ],
            status: "Accepted",
          },
        ],
      ],
      invalid: [
        ["notObject", "Accepted"],
        ["missing", {}],
        ["missing", { status: "Accepted", certificateHashData: [{ hashAlgorithm: "SHA256", issuerNameHash: "ab", issuerKeyHash: "cd" }] }],
        ["wrongType", { status: "Accepted", certificateHashData: { hashAlgorithm: "SHA256", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: "01" } }],
        ["badEnum", { status: "Accepted", certificateHashData: [{ hashAlgorithm: "MD5", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: "01" }] }],
        ["tooLong", { status: "Accepted", certificateHashData: [{ hashAlgorithm: "SHA256", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: text(41) }] }],
        ["extra", { status: "Accepted", certificateHashData: [{ hashAlgorithm: "SHA256", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: "01", subject: "CN=x" }] }],
      ],
    },
  },

  DeleteCertificate: {
    request: {
      valid: [
        ["minimal", { certificateHashData: { hashAlgorithm: "SHA256", issuerNameHash: "", issuerKeyHash: "", serialNumber: "" } }],
        ["full", { certificateHashData: { hashAlgorithm: "SHA384", issuerNameHash: text(128), issuerKeyHash: text(128), serialNumber: text(40) } }],
      ],
      invalid: [
        ["notObject", null],
        ["missing", {}],
        ["missing", { certificateHashData: { hashAlgorithm: "SHA256", issuerKeyHash: "cd", serialNumber: "01" } }],
        ["wrongType", { certificateHashData: { hashAlgorithm: "SHA256", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: 1 } }],
        ["badEnum", { certificateHashData: { hashAlgorithm: "SHA1", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: "01" } }],
        ["tooLong", { certificateHashData: { hashAlgorithm: "SHA256", issuerNameHash: text(129), issuerKeyHash: "cd", serialNumber: "01" } }],
        ["extra", { certificateHashData: { hashAlgorithm: "SHA256", issuerNameHash: "ab", issuerKeyHash: "cd", serialNumber: "01" }, certificateType: "CentralSystemRootCertificate" }],
      ],
    },
    response: statusTable("Accepted", "NotFound", "Rejected"),
  },

  CertificateSigned: {
    request: {
      valid: [
        ["minimal", { certificateChain: "-----BEGIN CERTIFICATE-----" }],
        ["full", { certificateChain: text(10000) }],
      ],
      invalid: [
        ["notObject", "-----BEGIN CERTIFICATE-----"],
        ["missing", {}],
        ["wrongType", { certificateChain: 1 }],
        ["tooLong", { certificateChain: text(10001) }],
        ["extra", { certificateChain: "PEM", certificateType: "ChargingStationCertificate" }],
      ],
    },
    response: statusTable("Accepted", "Rejected", "Failed"),
  },
};

/**
 * Where the two validators part ways, on purpose. `ajv` is the official schema under ajv 8 and
 * ajv-formats 2, configured as ocpp-rpc (the peer tests' client) configures it; `zod` is ours.
 */
export const KNOWN_DIVERGENCES: ReadonlyArray<{
  why: string;
  action: OcppAction;
  side: "request" | "response";
  payload: unknown;
  ajv: boolean;
  zod: boolean;
}> = [
  {
    why: "ajv-formats 2.1.1 takes a date-time without offset (its time-zone check lets an absent zone through); RFC 3339 requires one",
    action: "Heartbeat",
    side: "response",
    payload: { currentTime: "2026-11-21T10:00:00" },
    ajv: true,
    zod: false,
  },
  {
    why: "an offset without colon (+0200) is ISO 8601 basic format, not RFC 3339",
    action: "Heartbeat",
    side: "response",
    payload: { currentTime: "2026-11-21T12:00:00+0200" },
    ajv: true,
    zod: false,
  },
  {
    why: "errata v4.0 adds the unit Hertz (for Frequency), which the shipped 1.6 schema lacks",
    action: "MeterValues",
    side: "request",
    payload: { connectorId: 1, meterValue: [{ timestamp: T, sampledValue: [{ value: "50.01", measurand: "Frequency", unit: "Hertz" }] }] },
    ajv: false,
    zod: true,
  },
  {
    why: "meterValue is 1..* in OCPP 1.6 §6.31; the shipped JSON schema sets no minItems",
    action: "MeterValues",
    side: "request",
    payload: { connectorId: 1, meterValue: [] },
    ajv: true,
    zod: false,
  },
  {
    why: "sampledValue is 1..* in OCPP 1.6 §7 MeterValue; the shipped JSON schema sets no minItems",
    action: "StopTransaction",
    side: "request",
    payload: { meterStop: 1500, timestamp: T, transactionId: 1, transactionData: [{ timestamp: T, sampledValue: [] }] },
    ajv: true,
    zod: false,
  },
  {
    why: "chargingSchedulePeriod is 1..* in OCPP 1.6 §7 ChargingSchedule; the shipped JSON schema sets no minItems",
    action: "SetChargingProfile",
    side: "request",
    payload: { connectorId: 1, csChargingProfiles: { ...chargingProfileMinimal, chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [] } } },
    ajv: true,
    zod: false,
  },
  {
    why: "a space instead of T is allowed by an RFC 3339 note for readability, not in its grammar",
    action: "Heartbeat",
    side: "response",
    payload: { currentTime: "2026-11-21 10:00:00Z" },
    ajv: true,
    zod: false,
  },
  {
    why: "leap second 23:59:60: valid RFC 3339, refused by z.iso.datetime",
    action: "Heartbeat",
    side: "response",
    payload: { currentTime: "2016-12-31T23:59:60Z" },
    ajv: true,
    zod: false,
  },
  {
    why: "integers beyond 2^53 lose precision in JavaScript; zod keeps to the safe-integer range",
    action: "RemoteStopTransaction",
    side: "request",
    payload: { transactionId: 2 ** 60 },
    ajv: true,
    zod: false,
  },
  {
    why: "ocpp-rpc's multipleOf tolerates 1e-6 of float noise; zod checks the decimal digits exactly",
    action: "GetCompositeSchedule",
    side: "response",
    payload: { status: "Accepted", chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 16.30000001 }] } },
    ajv: true,
    zod: false,
  },
  {
    why: "our URI check reads an IPv6 literal for its alphabet only",
    action: "UpdateFirmware",
    side: "request",
    payload: { location: "http://[:::::]/fw.bin", retrieveDate: "2026-11-21T10:00:00Z" },
    ajv: false,
    zod: true,
  },
];
