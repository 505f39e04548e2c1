import { z } from "zod";
import { pageQuery } from "./account-service";
import { idToken } from "./drivers";
import { pathId, recordId, wholeNumber } from "./numbers";

/**
 * Services around drivers: vehicles, offline authorisation lists (the chargers' local lists) and
 * reservations (docs/rules/driver-services.md). Enums are shared by the database schema, the
 * API's bodies and the console's forms.
 */

/** Which of the listed customers' tags go on the list: all, their RFID cards, or their app tokens. */
export const CHARGEABLE_TYPES = ["ALL", "RFID", "APP"] as const;
export type ChargeableType = (typeof CHARGEABLE_TYPES)[number];

/** One point's delivery of a list: waiting for the queue, accepted by the charger, or not. */
export const PUSH_STATUSES = ["PENDING", "SUCCESS", "FAIL"] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];

/** OCPP 1.6 §5.15 SendLocalList: the first push to a point replaces its list, later ones change it. */
export const UPDATE_TYPES = ["Full", "Differential"] as const;
export type UpdateType = (typeof UPDATE_TYPES)[number];

/** docs/rules/driver-services.md "Reservations": reserved → finished, or canceling → canceled. */
export const RESERVATION_STATUSES = ["reserved", "finished", "canceling", "canceled"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

const requiredText = (key: string, max: number) =>
  z.string({ error: key }).trim().min(1, { error: key }).max(max, { error: "driverServices.validation.tooLong" });

const optionalText = (max: number) =>
  z
    .string({ error: "validation.invalid" })
    .trim()
    .max(max, { error: "driverServices.validation.tooLong" })
    .nullish()
    .transform((v) => (v ? v : null));

const idList = (key: string, max = 500) =>
  z
    .array(recordId(key), { error: key })
    .max(max, { error: key })
    .default([])
    .transform((ids) => [...new Set(ids)]);

/**
 * An instant: ISO 8601 with an offset on the wire. A Date passes as it is, since the route parses
 * the body and the verb parses what it is given again.
 */
const instant = (key: string) => z.union([z.date(), z.iso.datetime({ offset: true, error: key }).transform((v) => new Date(v))], { error: key });

// ── vehicles ──────────────────────────────────────────────────────────────────────────────────

/** POST and PUT /customer-service/vehicle: `default` makes it the customer's one default vehicle. */
export const vehicleInput = z.object({
  name: requiredText("driverServices.validation.vehicleName", 40),
  customerId: recordId("driverServices.validation.customer"),
  plate: requiredText("driverServices.validation.plate", 16),
  brand: optionalText(40),
  model: optionalText(40),
  default: z.boolean({ error: "driverServices.validation.default" }).default(false),
  remark: optionalText(200),
});
export type VehicleInput = z.infer<typeof vehicleInput>;
export type VehicleFormValues = z.input<typeof vehicleInput>;

export const vehicleListQuery = pageQuery.extend({
  name: z.string().trim().max(40).optional(),
  plate: z.string().trim().max(16).optional(),
  customerId: recordId("driverServices.validation.customer").optional(),
  /** The owner's name, contained. */
  customer: z.string().trim().max(80).optional(),
});

// ── offline authorisation lists ───────────────────────────────────────────────────────────────

export const chargeableType = z.enum(CHARGEABLE_TYPES, { error: "driverServices.validation.chargeableType" });

/**
 * POST and PUT /customer-service/offline-list: at least one customer or group, and the chargeable
 * type, are required. The effective time, when set, is when the list may reach chargers: a push
 * before it waits (docs/rules/driver-services.md "Offline lists").
 */
export const offlineListInput = z
  .object({
    name: requiredText("driverServices.validation.listName", 40),
    customerIds: idList("driverServices.validation.members"),
    groupIds: idList("driverServices.validation.members", 100),
    chargeableType,
    effectiveTime: instant("driverServices.validation.effectiveTime")
      .nullish()
      .transform((v) => v ?? null),
  })
  .refine((l) => l.customerIds.length + l.groupIds.length > 0, { error: "driverServices.validation.members", path: ["customerIds"] });
export type OfflineListInput = z.infer<typeof offlineListInput>;
export type OfflineListFormValues = z.input<typeof offlineListInput>;

export const offlineListQuery = pageQuery.extend({
  name: z.string().trim().max(40).optional(),
  chargeableType: chargeableType.optional(),
});

/** POST /customer-service/offline-list/{id}/push: the points, and every point of the stations, named. */
export const offlineListPushInput = z
  .object({
    pointIds: idList("driverServices.validation.pushTargets", 1000),
    stationIds: idList("driverServices.validation.pushTargets", 200),
  })
  .refine((p) => p.pointIds.length + p.stationIds.length > 0, { error: "driverServices.validation.pushTargets", path: ["pointIds"] });
export type OfflineListPushInput = z.infer<typeof offlineListPushInput>;

/** The list's push items, newest first. */
export const pushItemQuery = pageQuery.extend({
  status: z.enum(PUSH_STATUSES, { error: "validation.status" }).optional(),
});

export const pushItemParams = z.object({ id: pathId, itemId: pathId });

/** The queue message of one push item (docs/architecture.md "Jobs"). */
export const localListPush = z.object({ kind: z.literal("localList"), itemId: recordId(), operatorId: recordId(), operatorCode: z.string().min(1).max(20) });
export type LocalListPush = z.infer<typeof localListPush>;

// ── reservations ──────────────────────────────────────────────────────────────────────────────

/**
 * POST /station-service/reservation (OCPP 1.6 §5.13 ReserveNow): the tag, or a customer whose
 * valid card is used, and an expiry in the future.
 */
export const reservationInput = z
  .object({
    pointId: recordId("driverServices.validation.point"),
    connectorId: wholeNumber("validation.connectorRequired", (n) => n.min(0, { error: "validation.connectorRequired" }).max(99, { error: "validation.connectorRequired" })),
    idTag: idToken("driverServices.validation.idTagOrCustomer").optional(),
    customerId: recordId("driverServices.validation.idTagOrCustomer").optional(),
    expiryDate: instant("driverServices.validation.expiryDate"),
  })
  .refine((r) => (r.idTag === undefined) !== (r.customerId === undefined), { error: "driverServices.validation.idTagOrCustomer", path: ["idTag"] });
export type ReservationInput = z.infer<typeof reservationInput>;
export type ReservationFormValues = z.input<typeof reservationInput>;

export const reservationListQuery = pageQuery
  .extend({
    pointId: recordId("driverServices.validation.point").optional(),
    status: z.enum(RESERVATION_STATUSES, { error: "validation.status" }).optional(),
    /** Reservations whose expiry falls within [from, to]. */
    from: instant("driverServices.validation.timeRange").optional(),
    to: instant("driverServices.validation.timeRange").optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { error: "driverServices.validation.timeRange", path: ["from"] });

/** The largest reservation id a charger keeps (OCPP 1.6 integer: int32). */
export const MAX_RESERVATION_ID = 2_147_483_647;

/** Pickers: customers or groups matching a keyword, capped (docs/rules/lists.md "Pickers"). */
export const choicesQuery = z.object({ keyword: z.string().trim().max(80).optional() });
