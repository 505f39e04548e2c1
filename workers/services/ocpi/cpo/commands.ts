import { and, asc, eq } from "drizzle-orm";
import { connectors, ocpiCpoCommands, ocpiCpoSessions, points, stations } from "../../../../db/schema";
import type { OcppRequest, ServerAction } from "../../../../domain/ocpp";
import { evseUidOf, pointOfEvseUid } from "../../../../domain/ocpi/cpo-evse";
import { invalidParameters, reasonOf } from "../../../../domain/ocpi/wire";
import type { CommandResultType, CommandType } from "../../../../domain/schemas/ocpi/commands";
import { COMMAND_TYPES } from "../../../../domain/schemas/ocpi/commands";
import { incomingCommands } from "../../../../domain/schemas/ocpi/cpo-sessions";
import { settingsOf } from "../../../../tenants/resolve";
import { owned, ownedRow } from "../../../../tenants/scope";
import type { PartnerCtx } from "../../context";
import { afterAnswer } from "../../context";
import { claimRoamingCancel, heldRoamingReservation, keepRoamingReservation, roamingCancelAnswered, roamingReservationId } from "../../driver-services/reservations";
import { callCharger } from "../../remote/remote-control";
import { verb } from "../../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "../client";
import { ourIdentity } from "../identity";
import { callerPlatform } from "../partner";
import { openPartnerToken } from "../identity";
import { z } from "zod";
import { idTokenTypeOfTag, type CommandTokens } from "../../../../domain/ocpp/v201/charger-model";

/**
 * The commands receiver of our CPO side (OCPI 2.2.1 §13.2.1; docs/rules/ocpi.md "Commands we
 * take"): an eMSP's START_SESSION, STOP_SESSION, RESERVE_NOW, CANCEL_RESERVATION or
 * UNLOCK_CONNECTOR becomes the OCPP call to our charger through the product's command path (a
 * 2.0.1 charger gets its twin, docs/rules/ocpp.md "Two protocols"). The CommandResponse says at
 * once whether we take it; the charger's real outcome is POSTed to the eMSP's `response_url`
 * as the CommandResult, after the answer.
 */

/** The `timeout` of our CommandResponse: the charger's answer (or its absence) is known well within it. */
export const COMMAND_TIMEOUT_S = 60;

type ResponseType = "ACCEPTED" | "REJECTED" | "NOT_SUPPORTED" | "UNKNOWN_SESSION";

const response = (result: ResponseType, text?: string) => ({
  result,
  timeout: COMMAND_TIMEOUT_S,
  ...(text && { message: [{ language: "en", text }] }),
});

/** What a charger's reply means for the eMSP (OCPI 2.2.1 §13.4.2 CommandResultType). */
const RESULT_OF_STATUS: Record<string, CommandResultType> = {
  Accepted: "ACCEPTED",
  Unlocked: "ACCEPTED",
  Rejected: "REJECTED",
  UnlockFailed: "FAILED",
  NotSupported: "NOT_SUPPORTED",
  Occupied: "EVSE_OCCUPIED",
  Faulted: "EVSE_INOPERATIVE",
  Unavailable: "EVSE_INOPERATIVE",
};

/** The outcome of a charger call as a CommandResult. */
export function resultOfOutcome(outcome: { ok: true; response: unknown } | { ok: false; reason: string }): CommandResultType {
  if (!outcome.ok) return outcome.reason === "timeout" ? "TIMEOUT" : outcome.reason === "noTwin" ? "NOT_SUPPORTED" : outcome.reason === "error" ? "FAILED" : "EVSE_INOPERATIVE";
  const status = (outcome.response as { status?: string } | null)?.status;
  return (status && RESULT_OF_STATUS[status]) || "FAILED";
}

/**
 * The point behind a location and EVSE of ours: the station's, published to roaming, and public
 * (a private point is never among the EVSEs we publish, so a partner cannot name it).
 * Without an EVSE (START_SESSION and RESERVE_NOW may leave `evse_uid` out, OCPI 2.2.1 §13.3.3,
 * §13.3.5), one of the location a driver could take now.
 */
async function evseAt(ctx: PartnerCtx, locationId: string, evseUid: string | undefined) {
  if (evseUid === undefined) return freeEvseAt(ctx, locationId);
  const named = pointOfEvseUid(evseUid);
  if (!named || !/^[1-9][0-9]{0,14}$/.test(locationId)) return null;
  const [row] = await ctx.db
    .select({ id: points.id, operatorId: points.operatorId, serialNumber: points.serialNumber, status: points.status, connectorCount: points.connectorCount })
    .from(points)
    .innerJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
    .where(owned(ctx, points, eq(points.id, named.pointId), eq(points.stationId, Number(locationId)), eq(stations.publishToRoaming, true), eq(points.privateType, "Public")))
    .limit(1);
  if (!row || named.connectorNo > row.connectorCount) return null;
  return { point: row, connectorNo: named.connectorNo };
}

/**
 * The first EVSE of a published location that is AVAILABLE as partners see it (`evseStatusOf`:
 * a public point, enabled and online, its connector Available); every EVSE we publish is
 * reservable and remote-start capable. None: null, and the command is REJECTED.
 */
async function freeEvseAt(ctx: PartnerCtx, locationId: string) {
  if (!/^[1-9][0-9]{0,14}$/.test(locationId)) return null;
  const [row] = await ctx.db
    .select({ id: points.id, operatorId: points.operatorId, serialNumber: points.serialNumber, status: points.status, connectorNo: connectors.connectorNo })
    .from(connectors)
    .innerJoin(points, and(eq(points.id, connectors.pointId), eq(points.operatorId, connectors.operatorId)))
    .innerJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
    .where(
      owned(
        ctx,
        connectors,
        eq(points.stationId, Number(locationId)),
        eq(stations.publishToRoaming, true),
        eq(points.privateType, "Public"),
        eq(points.status, "VALID"),
        eq(points.online, true),
        eq(connectors.status, "Available"),
      ),
    )
    .orderBy(asc(points.id), asc(connectors.connectorNo))
    .limit(1);
  if (!row) return null;
  const { connectorNo, ...point } = row;
  return { point, connectorNo };
}

interface Planned {
  response: ReturnType<typeof response>;
  /** The charger call to make after the answer, when the command is taken. */
  call?: { point: { operatorId: number; serialNumber: string }; action: ServerAction; payload: unknown; tokens?: CommandTokens };
  sessionId?: number;
  /** The reservation a RESERVE_NOW or CANCEL_RESERVATION is about (docs/rules/driver-services.md "Reservations"). */
  reservation?: { id: number; partnerId: string; pointId: number; connectorId: number; idTag: string; expiryDate: Date };
}

/**
 * POST `/ocpi/2.2.1/cpo/commands/{command}`: the CommandResponse, and, when taken, the charger
 * call and the CommandResult after the answer. `send` is how we reach the eMSP (injected in tests).
 */
export const receiveCommand = verb({ actors: ["partner"] }, async (ctx: PartnerCtx, command: string, raw: unknown, send: OcpiFetch = workerFetch) => {
  if (!(COMMAND_TYPES as readonly string[]).includes(command)) throw invalidParameters(`Unknown command ${command}`);
  const type = command as CommandType;
  const parsed = incomingCommands[type].safeParse(raw);
  if (!parsed.success) throw invalidParameters(reasonOf(parsed.error.issues));
  const body = parsed.data as Record<string, unknown> & { response_url: string };
  const planned = await plan(ctx, type, body);
  const now = new Date(ctx.now());
  const [stored] = await ctx.db
    .insert(ocpiCpoCommands)
    .values(
      ownedRow(ctx, {
        platformId: ctx.actor.platformId,
        command: type,
        responseUrl: body.response_url,
        request: body,
        response: planned.response.result,
        sessionId: planned.sessionId ?? null,
        createdAt: now,
      }),
    )
    .returning({ id: ocpiCpoCommands.id });
  const { call } = planned;
  if (call) await afterAnswer(ctx, carryOut(ctx, stored.id, type, body.response_url, planned, send), "ocpi cpo command");
  return planned.response;
});

/** Decides the CommandResponse and the call it leads to (OCPI 2.2.1 §13.3). */
async function plan(ctx: PartnerCtx, type: CommandType, body: Record<string, unknown>): Promise<Planned> {
  if (type === "START_SESSION") {
    const cmd = incomingCommands.START_SESSION.parse(body);
    const evse = await evseAt(ctx, cmd.location_id, cmd.evse_uid);
    if (!evse || evse.point.status !== "VALID") return { response: response("REJECTED", "Unknown or unavailable EVSE") };
    if (cmd.token.uid.length > 20) return { response: response("REJECTED", "The charger takes id tags of at most 20 characters") };
    const settings = await settingsOf(ctx.db, ctx.operator.id);
    const now = new Date(ctx.now());
    // The eMSP authorised its token for this start (§13.3.5): the charger's start of it is let in by this pending session.
    const [session] = await ctx.db
      .insert(ocpiCpoSessions)
      .values(
        ownedRow(ctx, {
          platformId: ctx.actor.platformId,
          tokenCountryCode: cmd.token.country_code,
          tokenPartyId: cmd.token.party_id,
          tokenUid: cmd.token.uid,
          tokenType: cmd.token.type,
          contractId: cmd.token.contract_id,
          authMethod: "COMMAND" as const,
          authorizationReference: cmd.authorization_reference ?? null,
          pointId: evse.point.id,
          connectorNo: evse.connectorNo,
          locationId: cmd.location_id,
          evseUid: evseUidOf(evse.point.id, evse.connectorNo),
          connectorId: cmd.connector_id ?? "1",
          status: "PENDING" as const,
          currency: settings.currencyCode,
          startAt: now,
          lastUpdated: now,
          createdAt: now,
        }),
      )
      .returning({ id: ocpiCpoSessions.id });
    const payload: OcppRequest<"RemoteStartTransaction"> = { connectorId: evse.connectorNo, idTag: cmd.token.uid };
    return { response: response("ACCEPTED"), call: { point: evse.point, action: "RemoteStartTransaction", payload, tokens: { idToken: idTokenTypeOfTag({ ocpiType: cmd.token.type }) } }, sessionId: session.id };
  }
  if (type === "STOP_SESSION") {
    const cmd = incomingCommands.STOP_SESSION.parse(body);
    if (!/^[1-9][0-9]{0,14}$/.test(cmd.session_id)) return { response: response("UNKNOWN_SESSION") };
    const [session] = await ctx.db
      .select({ id: ocpiCpoSessions.id, transactionId: ocpiCpoSessions.transactionId, operatorId: points.operatorId, serialNumber: points.serialNumber })
      .from(ocpiCpoSessions)
      .innerJoin(points, and(eq(points.id, ocpiCpoSessions.pointId), eq(points.operatorId, ocpiCpoSessions.operatorId)))
      .where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.id, Number(cmd.session_id)), eq(ocpiCpoSessions.platformId, ctx.actor.platformId), eq(ocpiCpoSessions.status, "ACTIVE")))
      .limit(1);
    if (!session || session.transactionId === null) return { response: response("UNKNOWN_SESSION") };
    const payload: OcppRequest<"RemoteStopTransaction"> = { transactionId: session.transactionId };
    return { response: response("ACCEPTED"), call: { point: session, action: "RemoteStopTransaction", payload }, sessionId: session.id };
  }
  if (type === "RESERVE_NOW") {
    const cmd = incomingCommands.RESERVE_NOW.parse(body);
    const evse = await evseAt(ctx, cmd.location_id, cmd.evse_uid);
    if (!evse || evse.point.status !== "VALID") return { response: response("REJECTED", "Unknown or unavailable EVSE") };
    if (cmd.token.uid.length > 20) return { response: response("REJECTED", "The charger takes id tags of at most 20 characters") };
    const expiryDate = new Date(cmd.expiry_date.endsWith("Z") ? cmd.expiry_date : `${cmd.expiry_date}Z`);
    if (!(expiryDate.getTime() > ctx.now())) return { response: response("REJECTED", "The expiry date has passed") };
    // The OCPP reservation id is the product's (one system-wide sequence, docs/decisions/0041-reservations.md).
    const id = await roamingReservationId(ctx, cmd.reservation_id);
    const payload: OcppRequest<"ReserveNow"> = { connectorId: evse.connectorNo, expiryDate: expiryDate.toISOString(), idTag: cmd.token.uid, reservationId: id };
    return {
      response: response("ACCEPTED"),
      call: { point: evse.point, action: "ReserveNow", payload, tokens: { idToken: idTokenTypeOfTag({ ocpiType: cmd.token.type }) } },
      reservation: { id, partnerId: cmd.reservation_id, pointId: evse.point.id, connectorId: evse.connectorNo, idTag: cmd.token.uid, expiryDate },
    };
  }
  if (type === "CANCEL_RESERVATION") {
    const cmd = incomingCommands.CANCEL_RESERVATION.parse(body);
    const held = await heldRoamingReservation(ctx, cmd.reservation_id);
    const [point] = held
      ? await ctx.db.select({ operatorId: points.operatorId, serialNumber: points.serialNumber }).from(points).where(owned(ctx, points, eq(points.id, held.pointId))).limit(1)
      : [];
    // `canceling` while the call is out, as the operator's own cancel (docs/rules/driver-services.md "Reservations").
    if (!held || !point || (await claimRoamingCancel(ctx, held.id)).length === 0) return { response: response("REJECTED", "Unknown reservation") };
    const reservation = { id: held.id, partnerId: cmd.reservation_id, pointId: held.pointId, connectorId: held.connectorId, idTag: held.idTag, expiryDate: held.expiryDate };
    return { response: response("ACCEPTED"), call: { point, action: "CancelReservation", payload: { reservationId: held.id } }, reservation };
  }
  const cmd = incomingCommands.UNLOCK_CONNECTOR.parse(body);
  const evse = await evseAt(ctx, cmd.location_id, cmd.evse_uid);
  if (!evse) return { response: response("REJECTED", "Unknown EVSE") };
  return { response: response("ACCEPTED"), call: { point: evse.point, action: "UnlockConnector", payload: { connectorId: evse.connectorNo } } };
}

const anything = z.unknown();

/** The charger call, then the CommandResult to the eMSP's `response_url` (OCPI 2.2.1 §13.2.2), both recorded. */
async function carryOut(ctx: PartnerCtx, commandId: number, type: CommandType, responseUrl: string, planned: Planned, send: OcpiFetch) {
  const { call, sessionId, reservation } = planned;
  if (!call) return;
  const outcome = await callCharger(ctx, call.point, call.action, call.payload as OcppRequest<typeof call.action>, call.tokens);
  const result = resultOfOutcome(outcome);
  // The charger's answer makes the product's reservation, or ends it (docs/rules/driver-services.md "Reservations").
  if (type === "RESERVE_NOW" && result === "ACCEPTED" && reservation) {
    await keepRoamingReservation(ctx, { id: reservation.id, pointId: reservation.pointId, connectorId: reservation.connectorId, idTag: reservation.idTag, expiryDate: reservation.expiryDate, reservationId: reservation.partnerId });
  }
  // A cancel the charger did not answer stays `canceling` and may be sent again, as the operator's does.
  if (type === "CANCEL_RESERVATION" && reservation && result !== "TIMEOUT") await roamingCancelAnswered(ctx, reservation.id, result === "ACCEPTED");
  // A start the charger refused never becomes a session.
  if (type === "START_SESSION" && result !== "ACCEPTED" && sessionId !== undefined) {
    await ctx.db
      .update(ocpiCpoSessions)
      .set({ status: "INVALID", lastUpdated: new Date(ctx.now()) })
      .where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.id, sessionId), eq(ocpiCpoSessions.status, "PENDING")));
  }
  let error: string | null = null;
  try {
    const platform = await callerPlatform(ctx);
    if (!platform.partnerToken) throw new PartnerFailure("The partner is not registered");
    const [token, identity] = await Promise.all([openPartnerToken(ctx, platform.partnerToken), ourIdentity(ctx)]);
    await callPartner(send, responseUrl, token, anything, { method: "POST", body: { result }, from: identity });
  } catch (failure) {
    if (!(failure instanceof PartnerFailure)) throw failure;
    error = failure.reason.slice(0, 500);
  }
  await ctx.db
    .update(ocpiCpoCommands)
    .set({ result, resultError: error, resultAt: new Date(ctx.now()) })
    .where(owned(ctx, ocpiCpoCommands, eq(ocpiCpoCommands.id, commandId)));
}
