import { and, count, desc, eq, gte, isNull, lte, or } from "drizzle-orm";
import { containing } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { ocpiCommands, ocpiPlatforms } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { invalidParameters, ocpiTime, reasonOf, unknownObject } from "../../../domain/ocpi/wire";
import {
  COMMAND_OBJECTS,
  COMMAND_TYPES,
  commandInput,
  commandListQuery,
  commandResponse,
  commandResult,
  type CommandInput,
  type CommandType,
} from "../../../domain/schemas/ocpi/commands";
import { WALL_CLOCK } from "../../../domain/schemas/ocpi/console";
import { zonedToUtc } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { PartnerCtx, UserCtx } from "../context";
import { verb } from "../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "./client";
import { endpointOf, openPartnerToken, ourIdentity, ourOrigin, VERSION_PATH } from "./identity";
import { inOperatorZone } from "./lists";
import { registeredCaller } from "./partner";
import { ourTokenForCommand } from "./tokens";

/**
 * Commands, of which we are the sender (docs/rules/ocpi.md "Commands", OCPI 2.2.1 §13): a user
 * sends START_SESSION, STOP_SESSION, RESERVE_NOW, CANCEL_RESERVATION or UNLOCK_CONNECTOR to a
 * registered partner's commands receiver with a `response_url` naming the command; the CPO's
 * CommandResponse is recorded at once, its CommandResult when it POSTs it there, and TIMEOUT
 * when the CPO's `timeout` passes without one.
 */

/** Sending is operating a partner's charger: the session screen's (docs/rules/access.md "Watching is not operating"). */
const SEND_MENU = "emsp.session";
/** The location screen shows the commands sent to its locations. */
const READ_MENUS = ["emsp.session", "emsp.location"];

/** Our commands sender interface, listed in our version details (OCPI 2.2.1 §13.2.2). */
export const COMMANDS_PATH = `${VERSION_PATH}/commands`;

type Row = typeof ocpiCommands.$inferSelect;

const present = (r: Row, platformName: string) => ({
  id: r.id,
  uid: r.uid,
  platformId: r.platformId,
  platformName,
  command: r.command,
  locationId: r.locationId,
  evseUid: r.evseUid,
  connectorId: r.connectorId,
  sessionId: r.sessionId,
  reservationId: r.reservationId,
  tokenUid: r.tokenUid,
  request: r.request,
  /** The CPO's CommandResponse: null while unanswered or when the call failed (`sendError`). */
  responseResult: r.responseResult,
  responseTimeout: r.responseTimeout,
  responseMessage: r.responseMessage ?? [],
  sendError: r.sendError,
  deadline: r.deadlineAt?.toISOString() ?? null,
  /** The CommandResult: null while pending; TIMEOUT with `timedOut` when none came in time. */
  result: r.result,
  resultMessage: r.resultMessage ?? [],
  resultAt: r.resultAt?.toISOString() ?? null,
  timedOut: r.timedOut,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
});
export type CommandRecord = ReturnType<typeof present>;

/**
 * An accepted command whose result is overdue is TIMEOUT (OCPI 2.2.1 §13.3.2: past `timeout`
 * the eMSP may assume the result will never come). Marked when the operator reads its commands.
 */
async function markTimeouts(ctx: UserCtx) {
  await ctx.db
    .update(ocpiCommands)
    .set({ result: "TIMEOUT", timedOut: true })
    .where(owned(ctx, ocpiCommands, isNull(ocpiCommands.result), eq(ocpiCommands.responseResult, "ACCEPTED"), lte(ocpiCommands.deadlineAt, new Date(ctx.now()))));
}

async function commandRow(ctx: UserCtx, id: number) {
  const [found] = await ctx.db
    .select({ row: ocpiCommands, platformName: ocpiPlatforms.name })
    .from(ocpiCommands)
    .innerJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, ocpiCommands.platformId), eq(ocpiPlatforms.operatorId, ocpiCommands.operatorId)))
    .where(owned(ctx, ocpiCommands, eq(ocpiCommands.id, id)))
    .limit(1);
  if (!found) throw new NotFound("ocpiCommands.errors.notFound");
  return present(found.row, found.platformName);
}

const fieldError = (field: string, key: string, params?: Record<string, unknown>) => new Invalid(`ocpiCommands.validation.${key}`, params, { [field]: `ocpiCommands.validation.${key}` });

/**
 * Our token for StartSession or ReserveNow, authorized by us first: a token the registry would
 * refuse is never sent (OCPI 2.2.1 §13.3.5: the CPO does not check it).
 */
async function authorizedToken(ctx: UserCtx, uid: string) {
  const found = await ourTokenForCommand(ctx, uid);
  if (!found) throw fieldError("tokenUid", "unknownToken");
  if (found.allowed !== "ALLOWED") throw new Conflict("ocpiCommands.errors.tokenRefused", { allowed: found.allowed });
  return found.token;
}

/** The reservation a CANCEL_RESERVATION names must be one we made at this partner. */
async function ourReservation(ctx: UserCtx, platformId: number, reservationId: string) {
  const [made] = await ctx.db
    .select({ id: ocpiCommands.id })
    .from(ocpiCommands)
    .where(owned(ctx, ocpiCommands, eq(ocpiCommands.platformId, platformId), eq(ocpiCommands.command, "RESERVE_NOW"), eq(ocpiCommands.reservationId, reservationId)))
    .limit(1);
  if (!made) throw fieldError("reservationId", "unknownReservation");
}

/** An instant as the API takes it: with its offset, or the operator's wall-clock time (docs/rules/lists.md). */
async function instantIn(ctx: UserCtx, value: string) {
  if (!WALL_CLOCK.test(value)) return Date.parse(value);
  return zonedToUtc(value, (await settingsOf(ctx.db, ctx.operator.id)).parameters.timeZone) ?? Number.NaN;
}

/** What a command is about, kept beside the object for the list's filters. */
interface Target {
  locationId?: string;
  evseUid?: string;
  connectorId?: string;
  sessionId?: string;
  reservationId?: string;
  tokenUid?: string;
}

/** The OCPI object of a command, validated by the protocol's schema before it leaves. */
async function wireObject(ctx: UserCtx, input: CommandInput, responseUrl: string, uid: string): Promise<{ body: Record<string, unknown>; target: Target }> {
  const base = { response_url: responseUrl };
  let body: Record<string, unknown>;
  let target: Target;
  switch (input.command) {
    case "START_SESSION": {
      const token = await authorizedToken(ctx, input.tokenUid);
      // Our command's uid is the authorization reference, so the session and CDR name the command.
      body = { ...base, token, location_id: input.locationId, evse_uid: input.evseUid, connector_id: input.connectorId, authorization_reference: uid };
      target = { locationId: input.locationId, evseUid: input.evseUid, connectorId: input.connectorId, tokenUid: token.uid };
      break;
    }
    case "STOP_SESSION":
      body = { ...base, session_id: input.sessionId };
      target = { sessionId: input.sessionId };
      break;
    case "RESERVE_NOW": {
      const expiry = await instantIn(ctx, input.expiryDate);
      if (!(expiry > ctx.now())) throw fieldError("expiryDate", "expiryFuture");
      const token = await authorizedToken(ctx, input.tokenUid);
      const reservationId = input.reservationId ?? uid;
      if (input.reservationId) await ourReservation(ctx, input.platformId, input.reservationId);
      body = {
        ...base,
        token,
        expiry_date: ocpiTime(expiry),
        reservation_id: reservationId,
        location_id: input.locationId,
        evse_uid: input.evseUid,
        authorization_reference: uid,
      };
      target = { locationId: input.locationId, evseUid: input.evseUid, reservationId, tokenUid: token.uid };
      break;
    }
    case "CANCEL_RESERVATION":
      await ourReservation(ctx, input.platformId, input.reservationId);
      body = { ...base, reservation_id: input.reservationId };
      target = { reservationId: input.reservationId };
      break;
    case "UNLOCK_CONNECTOR":
      body = { ...base, location_id: input.locationId, evse_uid: input.evseUid, connector_id: input.connectorId };
      target = { locationId: input.locationId, evseUid: input.evseUid, connectorId: input.connectorId };
      break;
  }
  const parsed = COMMAND_OBJECTS[input.command].safeParse(JSON.parse(JSON.stringify(body)));
  // Our own object failing the protocol's schema is our fault, never the partner's.
  if (!parsed.success) throw new Error(`${input.command} object: ${reasonOf(parsed.error.issues)}`);
  return { body: parsed.data, target };
}

/**
 * Sends a command now (OCPI 2.2.1 §13.2.1): to a registered platform that offers a commands
 * receiver, at `{commands endpoint}/{command}`, with our `response_url`. The command is stored
 * before it leaves, since the CPO may post its result before it answers; its CommandResponse is
 * then recorded, or the failure (409 with the partner's reason).
 */
export const sendCommand = verb({ menu: SEND_MENU, mutates: true }, async (ctx, raw: unknown, send: OcpiFetch = workerFetch) => {
  const input = commandInput.parse(raw);
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, input.platformId))).limit(1);
  if (!platform) throw new NotFound("ocpi.errors.platformNotFound");
  if (platform.registerStatus !== "Registered" || !platform.partnerToken) throw new Conflict("ocpi.errors.notRegistered");
  const endpoint = endpointOf(platform.endpoints, "commands", "RECEIVER");
  if (!endpoint) throw new Conflict("ocpiCommands.errors.noCommandsEndpoint");
  const identity = await ourIdentity(ctx);
  const uid = crypto.randomUUID();
  const { body, target } = await wireObject(ctx, input, `${ourOrigin(ctx)}${COMMANDS_PATH}/${input.command}/${uid}`, uid);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(ocpiCommands)
      .values(ownedRow(ctx, { platformId: platform.id, uid, command: input.command, request: body, ...target, createdBy: ctx.actor.username, createdAt: new Date(ctx.now()) }))
      .returning(),
    auditRow(ctx, { table: "ocpi_commands", module: "ocpi", type: "CREATE", newData: { platformId: platform.id, command: input.command, uid, ...target } }),
  ]);
  const where = owned(ctx, ocpiCommands, eq(ocpiCommands.id, row.id));
  try {
    const answer = await callPartner(send, `${endpoint.replace(/\/+$/, "")}/${input.command}`, await openPartnerToken(ctx, platform.partnerToken), commandResponse, {
      method: "POST",
      body,
      from: { countryCode: identity.countryCode, partyId: identity.partyId },
      to: platform.partnerCountryCode && platform.partnerPartyId ? { countryCode: platform.partnerCountryCode, partyId: platform.partnerPartyId } : undefined,
    });
    const { result, timeout, message } = answer.data;
    // Only the response: a result the CPO posted meanwhile stays.
    await ctx.db
      .update(ocpiCommands)
      .set({ responseResult: result, responseTimeout: timeout, responseMessage: message ?? null, deadlineAt: new Date(ctx.now() + timeout * 1000) })
      .where(where);
  } catch (error) {
    if (!(error instanceof PartnerFailure)) throw error;
    await ctx.db.update(ocpiCommands).set({ sendError: error.reason.slice(0, 500) }).where(where);
    throw new Conflict("ocpiCommands.errors.sendFailed", { reason: error.reason });
  }
  return commandRow(ctx, row.id);
});

export const listCommands = verb({ menu: READ_MENUS }, async (ctx, raw: unknown) => {
  const q = commandListQuery.parse(await inOperatorZone(ctx, raw));
  await markTimeouts(ctx);
  const c = ocpiCommands;
  const where = owned(
    ctx,
    c,
    q.platformId ? eq(c.platformId, q.platformId) : undefined,
    q.command ? eq(c.command, q.command) : undefined,
    q.result === "PENDING" ? isNull(c.result) : q.result ? eq(c.result, q.result) : undefined,
    q.response ? eq(c.responseResult, q.response) : undefined,
    q.q ? or(...[c.uid, c.locationId, c.sessionId, c.reservationId, c.tokenUid].map((column) => containing(column, q.q!))) : undefined,
    q.from ? gte(c.createdAt, new Date(q.from)) : undefined,
    q.to ? lte(c.createdAt, new Date(q.to)) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ row: c, platformName: ocpiPlatforms.name })
        .from(c)
        .innerJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, c.platformId), eq(ocpiPlatforms.operatorId, c.operatorId)))
        .where(where)
        .orderBy(desc(c.createdAt), desc(c.id))
        .limit(limit)
        .offset(offset);
      return rows.map((r) => present(r.row, r.platformName));
    },
    async () => (await ctx.db.select({ total: count() }).from(c).where(where))[0].total,
  );
});

export const getCommand = verb({ menu: READ_MENUS }, async (ctx, id: number) => {
  await markTimeouts(ctx);
  return commandRow(ctx, id);
});

const isCommandType = (value: string): value is CommandType => (COMMAND_TYPES as readonly string[]).includes(value);

/**
 * POST of a CommandResult to our `response_url` (OCPI 2.2.1 §13.2.2). Only the platform the
 * command went to finds it (another partner's is unknown, 404). The first result is kept: the same
 * result again, or another, changes nothing; a result after our TIMEOUT replaces it (it is the
 * charger's real answer), and a reservation the CPO cancels later is CANCELED_RESERVATION
 * (OCPI 2.2.1 §13.1: the CPO posts it to the RESERVE_NOW's URL).
 */
export const receiveCommandResult = verb({ actors: ["partner"], mutates: true }, async (ctx: PartnerCtx, command: string, uid: string, raw: unknown) => {
  await registeredCaller(ctx);
  const [row] = isCommandType(command)
    ? await ctx.db
        .select()
        .from(ocpiCommands)
        .where(owned(ctx, ocpiCommands, eq(ocpiCommands.uid, uid), eq(ocpiCommands.command, command), eq(ocpiCommands.platformId, ctx.actor.platformId)))
        .limit(1)
    : [];
  if (!row) throw unknownObject("Unknown command");
  const parsed = commandResult.safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  const { result, message } = parsed.data;
  const canceled = row.command === "RESERVE_NOW" && result === "CANCELED_RESERVATION" && row.result !== result;
  if (row.result !== null && !row.timedOut && !canceled) return { applied: false };
  // Written only if the row is still as read: two results racing cannot both be first.
  const updated = await ctx.db
    .update(ocpiCommands)
    .set({ result, resultMessage: message ?? null, resultAt: new Date(ctx.now()), timedOut: false })
    .where(owned(ctx, ocpiCommands, eq(ocpiCommands.id, row.id), row.result === null ? isNull(ocpiCommands.result) : eq(ocpiCommands.result, row.result), eq(ocpiCommands.timedOut, row.timedOut)))
    .returning({ id: ocpiCommands.id });
  return { applied: updated.length > 0 };
});
