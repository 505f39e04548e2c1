import { z } from "zod";
import { pageQuery } from "./account-service";
import { recordId } from "./numbers";

/**
 * Bodies and queries of maintenance (docs/rules/maintenance.md): maintainers, work orders and
 * their transitions, the automatic work-order setting, and drivers' account deletion requests.
 */

const v = (key: string) => ({ error: `maintenance.validation.${key}` });
const instant = z.iso.datetime({ offset: true, ...v("dateTime") });
const optionalText = (max: number) => z.string(v("textLength")).trim().max(max, v("textLength")).optional();
const ids = (key: string) => z.array(recordId(`maintenance.validation.${key}`), v(key)).max(500, v(key));

export const WORK_ORDER_STATUSES = ["ALREADY", "PASS", "CLOSE"] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];
export const AUDIT_RESULTS = ["PASS", "NO_PASS"] as const;

/** A maintainer: an account of a MAINTAINER role, its fault codes, stations and points. */
export const maintainerInput = z.object({
  accountId: recordId("maintenance.validation.accountRequired"),
  manufacturer: optionalText(100),
  wardenAccount: optionalText(100),
  faultCodes: z.array(z.string(v("faultCodes")).trim().min(1, v("faultCodes")).max(50, v("faultCodes")), v("faultCodes")).max(100, v("faultCodes")).default([]),
  stationIds: ids("stationIds").default([]),
  pointIds: ids("pointIds").default([]),
});
export type MaintainerInput = z.infer<typeof maintainerInput>;

export const maintainerListQuery = pageQuery.extend({ keyword: z.string().trim().max(64).optional() });

/** A work order by hand, or from an alarm (`alarmId`: the rest is taken from the alarm). */
export const workOrderCreateInput = z.union([
  z.object({
    alarmId: recordId("maintenance.validation.alarmRequired"),
    cause: optionalText(500),
    remarks: optionalText(500),
    maintainerId: recordId("maintenance.validation.maintainer").optional(),
  }),
  z.object({
    faultCode: z.string(v("faultCodeRequired")).trim().min(1, v("faultCodeRequired")).max(50, v("faultCodeRequired")),
    serialNumber: z.string(v("serialNumberRequired")).trim().min(1, v("serialNumberRequired")).max(64, v("serialNumberRequired")),
    abnormalTime: instant,
    cause: optionalText(500),
    remarks: optionalText(500),
    maintainerId: recordId("maintenance.validation.maintainer").optional(),
  }),
]);

/** Editing a pending order: its cause, remarks and handler (`maintainerId` null unassigns). */
export const workOrderUpdateInput = z.object({
  cause: optionalText(500),
  remarks: optionalText(500),
  abnormalTime: instant.optional(),
  maintainerId: recordId("maintenance.validation.maintainer").nullable().optional(),
});

const required = (key: string, max: number) => z.string(v(key)).trim().min(1, v(key)).max(max, v("textLength"));

export const workOrderProcessInput = z.object({ handlingProcess: required("handlingProcessRequired", 2000), opinion: required("opinionRequired", 2000) });

export const workOrderAuditInput = z.object({
  result: z.enum(AUDIT_RESULTS, v("auditResult")),
  opinion: required("opinionRequired", 2000),
});

export const workOrderListQuery = pageQuery
  .extend({
    status: z.enum(WORK_ORDER_STATUSES, v("status")).optional(),
    faultCode: z.string().trim().max(50).optional(),
    serialNumber: z.string().trim().max(64).optional(),
    maintainerId: recordId("maintenance.validation.maintainer").optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { ...v("timeRange"), path: ["to"] });

export const maintenanceSettingsInput = z.object({ autoOpen: z.boolean(v("autoOpen")) });

/** The public deletion request: the operator's code and the driver's e-mail or phone. */
export const accountDeletionInput = z.object({
  operatorCode: z.string(v("operatorRequired")).trim().min(1, v("operatorRequired")).max(32, v("operatorRequired")),
  contact: z
    .string(v("contactRequired"))
    .trim()
    .min(1, v("contactRequired"))
    .max(100, v("contactRequired"))
    .regex(/^([^\s@]+@[^\s@]+\.[^\s@]+|\+?[0-9 ()-]{5,20})$/, v("contactRule")),
  reason: optionalText(500),
});

/** The second step of the public page: the code mailed to the customer (docs/rules/maintenance.md "Account deletion"). */
export const accountDeletionConfirmInput = z.object({
  ticket: z.string({ error: "mail.validation.ticket" }).regex(/^[0-9a-f]{32}$/, { error: "mail.validation.ticket" }),
  code: z.string({ error: "mail.validation.code" }).trim().regex(/^[0-9]{6}$/, { error: "mail.validation.code" }),
});

export const DELETION_STATUSES = ["PENDING", "DONE", "REJECTED"] as const;
export const accountDeletionListQuery = pageQuery.extend({ status: z.enum(DELETION_STATUSES, v("deletionStatus")).optional() });
export const accountDeletionDecision = z.object({
  result: z.enum(["DONE", "REJECTED"], v("deletionStatus")),
  /**
   * How the operator confirmed the requester's identity (a phone call, in person…): required to
   * complete a request no mailed code confirmed (docs/rules/maintenance.md "Account deletion").
   */
  identityConfirmedBy: optionalText(200),
});

/** Banners (docs/rules/maintenance.md "Banners and images"). */
export const BANNER_TYPES = ["POINT", "STATION"] as const;
export const BANNER_AUDIT = ["UNAUDITED", "AUDITED"] as const;
export const bannerUploadQuery = z.object({ type: z.enum(BANNER_TYPES, v("bannerType")) });
export const bannerListQuery = pageQuery.extend({
  type: z.enum(BANNER_TYPES, v("bannerType")).optional(),
  auditStatus: z.enum(BANNER_AUDIT, v("auditStatus")).optional(),
});
export const bannerStatusInput = z.object({ enabled: z.boolean(v("enabled")) });
export const bannerOrderInput = z.object({ ids: z.array(recordId("maintenance.validation.bannerOrder"), v("bannerOrder")).min(1, v("bannerOrder")).max(100, v("bannerOrder")) });

/** Files (docs/rules/maintenance.md "File management"). */
export const fileListQuery = pageQuery.extend({ name: z.string().trim().max(100).optional() });
