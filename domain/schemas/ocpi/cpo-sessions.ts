import { z } from "zod";
import { pageQuery } from "../account-service";
import { recordId } from "../numbers";
import { ciString, dateTime, displayText, patchOf, text } from "./common";
import { COMMAND_TYPES } from "./commands";
import { ALLOWED_TYPES, token } from "./tokens";

/**
 * Partners' drivers at our chargers, the OCPI 2.2.1 CPO side (docs/rules/ocpi.md "Partners'
 * drivers at our chargers"): the Token an eMSP pushes to our tokens receiver (read loosely, as
 * everything a partner sends), the commands it sends to our commands receiver, the push states of
 * our sessions and CDRs, and the console's queries.
 */

/** Token (OCPI 2.2.1 §12.3.2), as an eMSP pushes it: every defined field checked, unknown ones kept. */
export const incomingToken = z.looseObject({
  ...token.shape,
  // Loose too: a partner's own fields inside it are kept, never a reason to refuse.
  energy_contract: z.looseObject({ supplier_name: text(64), contract_id: text(64).optional() }).optional(),
});
export type IncomingToken = z.infer<typeof incomingToken>;
export const tokenPatch = patchOf(incomingToken);

/** AuthorizationInfo (OCPI 2.2.1 §12.3.1), the eMSP's answer to a real-time authorization. */
export const authorizationAnswer = z.looseObject({
  allowed: z.enum(ALLOWED_TYPES),
  token: z.looseObject({ uid: ciString(36) }).optional(),
  authorization_reference: ciString(36).optional(),
  info: displayText.optional(),
});

const responseUrl = z.url({ protocol: /^https?$/ }).max(255);
const id36 = ciString(36);

/** The commands an eMSP sends us (OCPI 2.2.1 §13.3), read loosely. */
export const incomingCommands = {
  START_SESSION: z.looseObject({
    response_url: responseUrl,
    token: incomingToken,
    location_id: id36,
    evse_uid: id36.optional(),
    connector_id: id36.optional(),
    authorization_reference: id36.optional(),
  }),
  STOP_SESSION: z.looseObject({ response_url: responseUrl, session_id: id36 }),
  RESERVE_NOW: z.looseObject({
    response_url: responseUrl,
    token: incomingToken,
    expiry_date: dateTime,
    reservation_id: id36,
    location_id: id36,
    evse_uid: id36.optional(),
    authorization_reference: id36.optional(),
  }),
  CANCEL_RESERVATION: z.looseObject({ response_url: responseUrl, reservation_id: id36 }),
  UNLOCK_CONNECTOR: z.looseObject({ response_url: responseUrl, location_id: id36, evse_uid: id36, connector_id: id36 }),
} as const;

/**
 * Where a session or a CDR we push stands: waiting to be sent, sent and taken (`ACCEPTED`),
 * refused and tried again later (`RETRYING`, with the partner's reason), or given up (`FAILED`).
 */
export const CPO_DELIVERY_STATES = ["PENDING", "ACCEPTED", "RETRYING", "FAILED"] as const;
export type CpoDeliveryState = (typeof CPO_DELIVERY_STATES)[number];

/** How a roaming driver was let in (OCPI 2.2.1 §9.4.1 AuthMethod). */
export const CPO_AUTH_METHODS = ["AUTH_REQUEST", "COMMAND", "WHITELIST"] as const;
export type CpoAuthMethod = (typeof CPO_AUTH_METHODS)[number];

// The console and /ocpi-service ---------------------------------------------------------------
const v = (key: string) => `ocpiCpoSessions.validation.${key}`;
const optionalText = (max: number, key: string) =>
  z.preprocess((x) => (x === "" || x === null ? undefined : x), z.string({ error: v(key) }).trim().max(max, { error: v(key) }).optional());
const optionalId = (key: string) => z.preprocess((x) => (x === "" || x === null ? undefined : x), recordId(v(key)).optional());

/** `GET /ocpi-service/cpo/session`, `/cpo/cdr`, `/cpo/token`: a page, by partner, text and push state. */
export const cpoListQuery = pageQuery.extend({
  platformId: optionalId("platformId"),
  text: optionalText(64, "text"),
  pushState: z.preprocess((x) => (x === "" ? undefined : x), z.enum(CPO_DELIVERY_STATES, { error: v("pushState") }).optional()),
});
export type CpoListQuery = z.infer<typeof cpoListQuery>;

/** `GET /ocpi-service/cpo/command`: the commands partners sent us, a page, by partner and command. */
export const cpoCommandListQuery = pageQuery.extend({
  platformId: optionalId("platformId"),
  command: z.preprocess((x) => (x === "" ? undefined : x), z.enum(COMMAND_TYPES, { error: v("command") }).optional()),
});
export type CpoCommandListQuery = z.infer<typeof cpoCommandListQuery>;

/** `GET /ocpi-service/cpo/settlement?month=yyyy-MM`: the month in the operator's zone; without it, the current one there. */
export const settlementQuery = z.strictObject({
  month: z
    .string({ error: v("month") })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: v("month") })
    .optional(),
});

/** A push-queue message: one roaming session (PUT or PATCH) or one CDR (POST) to its eMSP. */
export const ocpiCpoDelivery = z.object({
  kind: z.literal("ocpiCpoDelivery"),
  operatorId: z.number().int().positive(),
  operatorCode: z.string().min(1),
  object: z.enum(["session", "cdr"]),
  id: z.number().int().positive(),
});
export type OcpiCpoDelivery = z.infer<typeof ocpiCpoDelivery>;
