import { z } from "zod";
import { CONNECTOR_STATUSES, DEVICE_STATES } from "../connector-status";
import { pageQuery } from "./account-service";
import { recordId } from "./numbers";

/** Queries of the real-time monitoring screens (operators and sub-operators alike). */

const stationFilter = recordId("monitoring.validation.stationId").optional();

export const chargingListQuery = pageQuery.extend({
  stationId: stationFilter,
  serialNumber: z.string().trim().max(64).optional(),
  idTag: z.string().trim().max(20, { error: "validation.idTagLength" }).optional(),
});

export const transactionParam = z.object({ transactionId: recordId("monitoring.validation.transactionId") });

export const pileListQuery = pageQuery.extend({
  stationId: stationFilter,
  serialNumber: z.string().trim().max(64).optional(),
  state: z.enum(DEVICE_STATES, { error: "monitoring.validation.deviceState" }).optional(),
});

/** A connector's status filter: one of the connector statuses, or `offline` (empty status). */
export const connectorListQuery = pageQuery.extend({
  stationId: stationFilter,
  serialNumber: z.string().trim().max(64).optional(),
  status: z.enum([...CONNECTOR_STATUSES, "offline"], { error: "monitoring.validation.connectorStatus" }).optional(),
});

const stationId = recordId("monitoring.validation.stationRequired");
export const stationPickerQuery = z.object({ name: z.string().trim().max(64).optional() });
export const loadQuery = z.object({ stationId });
/** Without a station, the panel opens on the first one (docs/rules/monitoring.md "Remote-control panel"). */
export const panelQuery = pageQuery.extend({ stationId: stationId.optional() });

/** Alarms: Undisposed → AutoRecovery or ManualDisposed. */
export const ALARM_STATUSES = ["Undisposed", "AutoRecovery", "ManualDisposed"] as const;
export const ALARM_LEVELS = ["ERROR", "WARN"] as const;

const instant = z.iso.datetime({ offset: true, error: "monitoring.validation.dateTime" });

export const alarmListQuery = pageQuery
  .extend({
    status: z.enum(ALARM_STATUSES, { error: "monitoring.validation.alarmStatus" }).optional(),
    level: z.enum(ALARM_LEVELS, { error: "monitoring.validation.alarmLevel" }).optional(),
    pointId: recordId("monitoring.validation.pointId").optional(),
    serialNumber: z.string().trim().max(64).optional(),
    type: z.string().trim().max(50).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  // The start time must not be later than the end time.
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: "monitoring.validation.timeRange", path: ["to"] });

export const disposeInput = z.object({
  comment: z
    .string({ error: "monitoring.validation.commentRequired" })
    .trim()
    .min(1, { error: "monitoring.validation.commentRequired" })
    .max(500, { error: "monitoring.validation.commentLength" }),
});
