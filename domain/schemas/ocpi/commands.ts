import { z } from "zod";
import { pageQuery } from "../account-service";
import { recordId } from "../numbers";
import { ciString, dateTime, displayText } from "./common";
import { WALL_CLOCK } from "./console";
import { token } from "./tokens";

/**
 * Commands, of which we are the sender (OCPI 2.2.1 §13 "Commands module"; docs/rules/ocpi.md
 * "Commands"): the objects we POST to the CPO's commands receiver, its synchronous
 * CommandResponse, the asynchronous CommandResult it POSTs to our `response_url`, and the bodies
 * and queries of `/ocpi-service/command`.
 */

/** CommandType (OCPI 2.2.1 §13.4.3). */
export const COMMAND_TYPES = ["START_SESSION", "STOP_SESSION", "RESERVE_NOW", "CANCEL_RESERVATION", "UNLOCK_CONNECTOR"] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** CommandResponseType (OCPI 2.2.1 §13.4.1): the CPO's own answer, before the charger's. */
export const COMMAND_RESPONSE_TYPES = ["ACCEPTED", "REJECTED", "NOT_SUPPORTED", "UNKNOWN_SESSION"] as const;
/** CommandResultType (OCPI 2.2.1 §13.4.2): the charger's result, posted later. */
export const COMMAND_RESULT_TYPES = [
  "ACCEPTED",
  "CANCELED_RESERVATION",
  "EVSE_OCCUPIED",
  "EVSE_INOPERATIVE",
  "FAILED",
  "NOT_SUPPORTED",
  "REJECTED",
  "TIMEOUT",
  "UNKNOWN_RESERVATION",
] as const;
export type CommandResultType = (typeof COMMAND_RESULT_TYPES)[number];

const responseUrl = z.url({ protocol: /^https?$/ }).max(255);
const id36 = ciString(36);

/** StartSession (OCPI 2.2.1 §13.3.5, sent by us: strict): `evse_uid` is required when `connector_id` is set. */
export const startSession = z
  .strictObject({
    response_url: responseUrl,
    token,
    location_id: id36,
    evse_uid: id36.optional(),
    connector_id: id36.optional(),
    authorization_reference: id36.optional(),
  })
  .refine((s) => !s.connector_id || s.evse_uid, { message: "evse_uid is required when connector_id is set", path: ["evse_uid"] });

/** StopSession (OCPI 2.2.1 §13.3.6). */
export const stopSession = z.strictObject({ response_url: responseUrl, session_id: id36 });

/** ReserveNow (OCPI 2.2.1 §13.3.4). */
export const reserveNow = z.strictObject({
  response_url: responseUrl,
  token,
  expiry_date: dateTime,
  reservation_id: id36,
  location_id: id36,
  evse_uid: id36.optional(),
  authorization_reference: id36.optional(),
});

/** CancelReservation (OCPI 2.2.1 §13.3.1). */
export const cancelReservation = z.strictObject({ response_url: responseUrl, reservation_id: id36 });

/** UnlockConnector (OCPI 2.2.1 §13.3.7). */
export const unlockConnector = z.strictObject({ response_url: responseUrl, location_id: id36, evse_uid: id36, connector_id: id36 });

/** The object each command carries. */
export const COMMAND_OBJECTS = {
  START_SESSION: startSession,
  STOP_SESSION: stopSession,
  RESERVE_NOW: reserveNow,
  CANCEL_RESERVATION: cancelReservation,
  UNLOCK_CONNECTOR: unlockConnector,
} as const;

/**
 * The `timeout` of a CommandResponse without one (2.1.1's had none, and 2.1.1-era CPOs still
 * answer so): long enough for a charger on a slow link to start a session.
 */
export const DEFAULT_COMMAND_TIMEOUT_S = 120;

/**
 * CommandResponse (OCPI 2.2.1 §13.3.2): `timeout` in seconds, within which the result should
 * come; the default when the CPO leaves it out. What the CPO sends is read loosely, as every
 * object a partner sends (docs/rules/ocpi.md "Fields 2.2.1 does not define").
 */
export const commandResponse = z.looseObject({
  result: z.enum(COMMAND_RESPONSE_TYPES),
  timeout: z.int().min(0).max(86_400).default(DEFAULT_COMMAND_TIMEOUT_S),
  message: z.array(displayText).optional(),
});
export type CommandResponse = z.infer<typeof commandResponse>;

/** CommandResult (OCPI 2.2.1 §13.3.3), posted by the CPO to the `response_url`. */
export const commandResult = z.looseObject({ result: z.enum(COMMAND_RESULT_TYPES), message: z.array(displayText).optional() });
export type CommandResult = z.infer<typeof commandResult>;

// The console and /ocpi-service -------------------------------------------------

const v = (key: string) => `ocpiCommands.validation.${key}`;

/** An OCPI object id as the console sends it: printable ASCII, 1 to 36 characters (OCPI 2.2.1 §16.1 CiString). */
const objectId = (key: string) =>
  z
    .string({ error: v(key) })
    .trim()
    .min(1, { error: v(key) })
    .max(36, { error: v(key) })
    .regex(/^[\x20-\x7e]+$/, { error: v(key) });
const optionalId = (key: string) => z.preprocess((x) => (x === "" || x === null ? undefined : x), objectId(key).optional());
const platformId = recordId(v("platform"));
const isoInstant = z.iso.datetime({ offset: true });
const isInstant = (s: string) => WALL_CLOCK.test(s) || isoInstant.safeParse(s).success;

/**
 * `POST /ocpi-service/command`: the platform, the command, and its parameters in the console's
 * words (the wire object is built from them, with our `response_url` and the token looked up).
 */
export const commandInput = z.discriminatedUnion(
  "command",
  [
    z
      .strictObject({
        platformId,
        command: z.literal("START_SESSION"),
        tokenUid: objectId("tokenUid"),
        locationId: objectId("locationId"),
        evseUid: optionalId("evseUid"),
        connectorId: optionalId("connectorId"),
      })
      .refine((c) => !c.connectorId || c.evseUid, { error: v("evseForConnector"), path: ["evseUid"] }),
    z.strictObject({ platformId, command: z.literal("STOP_SESSION"), sessionId: objectId("sessionId") }),
    z.strictObject({
      platformId,
      command: z.literal("RESERVE_NOW"),
      tokenUid: objectId("tokenUid"),
      locationId: objectId("locationId"),
      evseUid: optionalId("evseUid"),
      /** When it ends: an instant with its offset, or the operator's wall-clock time as the console's field writes it. */
      expiryDate: z.string({ error: v("expiryDate") }).refine(isInstant, { error: v("expiryDate") }),
      /** Given to replace a reservation (OCPI 2.2.1 §13.3.4); a new one is numbered by us. */
      reservationId: optionalId("reservationId"),
    }),
    z.strictObject({ platformId, command: z.literal("CANCEL_RESERVATION"), reservationId: objectId("reservationId") }),
    z.strictObject({
      platformId,
      command: z.literal("UNLOCK_CONNECTOR"),
      locationId: objectId("locationId"),
      evseUid: objectId("evseUid"),
      connectorId: objectId("connectorId"),
    }),
  ],
  { error: v("command") },
);
export type CommandInput = z.infer<typeof commandInput>;

/** A result filter: one of the results, or `PENDING` for a command still waiting for its result. */
export const RESULT_FILTERS = ["PENDING", ...COMMAND_RESULT_TYPES] as const;

/** A list bound: also a day in the operator's zone, as the date-range picker writes it (docs/rules/lists.md "Filters and sorting"). */
const instant = z.string({ error: v("dateTime") }).refine((s) => isInstant(s) || /^\d{4}-\d{2}-\d{2}$/.test(s), { error: v("dateTime") });
const blankIsNone = (x: unknown) => (x === "" ? undefined : x);

/** `GET /ocpi-service/command`: paged, by platform, command, result, text and time sent. */
export const commandListQuery = pageQuery
  .extend({
    platformId: z.preprocess(blankIsNone, platformId.optional()),
    command: z.preprocess(blankIsNone, z.enum(COMMAND_TYPES, { error: v("command") }).optional()),
    result: z.preprocess(blankIsNone, z.enum(RESULT_FILTERS, { error: v("result") }).optional()),
    response: z.preprocess(blankIsNone, z.enum(COMMAND_RESPONSE_TYPES, { error: v("response") }).optional()),
    q: z.string().trim().max(64, { error: v("filter") }).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { error: v("timeRange"), path: ["to"] });
export type CommandListQuery = z.infer<typeof commandListQuery>;
