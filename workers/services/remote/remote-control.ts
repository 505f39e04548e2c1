import { checkRequest, type OcppRequest, type OcppResponse, type ServerAction } from "../../../domain/ocpp";
import { checkRequest201, type Ocpp201Request, type Ocpp201Response, type ServerAction201 } from "../../../domain/ocpp/v201";
import { idTokenTypeOfTag, type CommandTokens } from "../../../domain/ocpp/v201/charger-model";
import { eq } from "drizzle-orm";
import { parameterSettings, points } from "../../../db/schema";
import { ChargerTimeout, Conflict, Invalid, NotFound } from "../../../domain/errors";
import { remoteStartInput } from "../../../domain/schemas/remote-control";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { settingsOf } from "../../../tenants/resolve";
import { operatorRemoteTag } from "../../../domain/remote-start-tag";
import { ownedBy, visible } from "../../../tenants/scope";
import { chargePointName } from "../../ocpp/identity";
import { auditRow } from "../audit";
import { afterAnswer, type Ctx, type UserCtx } from "../context";
import type { CallOutcome, CallOutcome201 } from "../../ocpp/charge-point";
import { verb } from "../verb";
import { findPoint } from "../points/points";
import { tagIsCard } from "../drivers/registry";

/**
 * Commands from the console to a charger (monitoring and remote control). `command` is the
 * one way a verb sends a charger a CALL; the verb that calls it has already checked its own
 * permission (a screen that owns a command allows its own: key push, diagnostics). Each
 * answers the charger's reply; a refusal is a 409 carrying the reply, an offline charger a 409
 * at once, no answer in time a 504 (docs/rules/ocpp.md "Remote commands").
 */

/**
 * Replies that mean the charger did not do what was asked, in either protocol's words. 2.0.1's
 * answers that only say there is nothing to report (NoProfiles, EmptyResultSet, NotFound of
 * GetInstalledCertificateIds) are replies, not refusals; GetVariables and SetVariables refuse per
 * variable (UnknownComponent, UnknownVariable in each result), so their reply is answered as is.
 */
const REFUSALS = new Set([
  "Rejected",
  "UnlockFailed",
  "NotSupported",
  "NotImplemented",
  "Failed",
  "Faulted",
  "Occupied",
  "Unavailable",
  "UnknownVendorId",
  "UnknownMessageId",
  "VersionMismatch",
  "Unknown",
  // OCPP 2.0.1 (Part 2): F05 UnlockConnector, O01 SetDisplayMessage, L01 UpdateFirmware, N09 CustomerInformation, L04 UnpublishFirmware.
  "UnknownConnector",
  "OngoingAuthorizedTransaction",
  "NotSupportedMessageFormat",
  "NotSupportedPriority",
  "NotSupportedState",
  "UnknownTransaction",
  "InvalidCertificate",
  "RevokedCertificate",
  "Invalid",
  "DownloadOngoing",
  "NoFirmware",
]);

export type PointRef = { id: number } | { serialNumber: string };

/**
 * A payload that fails its action's schema: 400 naming the first problem, under `payload` and
 * under the field it is at (`payload.<path>`, arrays as `[i]`), so that a form built from the
 * schema shows it at that field (docs/rules/ocpp.md "Remote commands").
 */
export function payloadInvalid(checked: { description: string; details: Record<string, unknown> }) {
  const path = typeof checked.details.path === "string" ? checked.details.path : "";
  const fields: Record<string, string> = { payload: "validation.ocppPayload" };
  if (path) fields[`payload.${path}`] = "validation.ocppPayload";
  return new Invalid("validation.ocppPayload", { description: checked.description }, fields);
}

/**
 * Sends a found point's charger a CALL through its Durable Object and answers the outcome as is:
 * the reply, or why there is none. Verbs that must not throw on a refusal (a queued delivery
 * recording each point's outcome) use it directly; `command` maps it to errors.
 */
export function callCharger<A extends ServerAction>(
  ctx: Pick<Ctx, "env">,
  point: { operatorId: number; serialNumber: string },
  action: A,
  payload: OcppRequest<A>,
  /** The 2.0.1 types of the tags the command names (domain/ocpp/v201/charger-model.ts `idTokenTypeOfTag`). */
  tokens?: CommandTokens,
): Promise<CallOutcome<A>> {
  return chargePointOf(ctx, point).send(action, payload, tokens) as Promise<CallOutcome<A>>;
}

const chargePointOf = (ctx: Pick<Ctx, "env">, point: { operatorId: number; serialNumber: string }) =>
  ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));

/** The protocol a point's charger is connected with now (its object's word, ahead of D1), null offline. */
export const connectedVersionOf = (ctx: Pick<Ctx, "env">, point: { operatorId: number; serialNumber: string }) => chargePointOf(ctx, point).connectedVersion();

export async function command<A extends ServerAction>(ctx: UserCtx, ref: PointRef, action: A, payload: OcppRequest<A>, tokens?: CommandTokens): Promise<OcppResponse<A>> {
  const checked = checkRequest(action, payload);
  if (!checked.ok) throw payloadInvalid(checked);
  const { point } = await findPoint(ctx, ref);
  return commandTo(ctx, point, action, payload, tokens);
}

/** `command` for a point already read (`/command`, which reads it to know its protocol). */
export async function commandPoint<A extends ServerAction>(
  ctx: UserCtx,
  point: { operatorId: number; serialNumber: string },
  action: A,
  payload: unknown,
): Promise<OcppResponse<A>> {
  const checked = checkRequest(action, payload);
  if (!checked.ok) throw payloadInvalid(checked);
  return commandTo(ctx, point, action, checked.value);
}

/**
 * `command` for a point already read. Nothing is written to D1 before the CALL goes out; the
 * operation-log row follows the reply, after the answer where the caller allows it
 * (docs/performance.md "What changed (the levers the profile confirmed)").
 */
async function commandTo<A extends ServerAction>(
  ctx: UserCtx,
  point: { operatorId: number; serialNumber: string },
  action: A,
  payload: OcppRequest<A>,
  tokens?: CommandTokens,
): Promise<OcppResponse<A>> {
  return answerOf(ctx, point, action, payload, await callCharger(ctx, point, action, payload, tokens));
}

/**
 * A 2.0.1 message sent as such to a point that speaks 2.0.1 (`/command`; docs/rules/ocpp.md
 * "Remote commands"): its payload passes 2.0.1's request schema before anything is sent, and the
 * reply is answered as a 1.6 command's is. A charger that reconnected in 1.6 meanwhile gets no frame.
 */
export async function command201<A extends ServerAction201>(
  ctx: UserCtx,
  point: { operatorId: number; serialNumber: string },
  action: A,
  payload: unknown,
): Promise<Ocpp201Response<A>> {
  const checked = checkRequest201(action, payload);
  if (!checked.ok) throw payloadInvalid(checked);
  const outcome = (await chargePointOf(ctx, point).send201(action, checked.value as Ocpp201Request<A>)) as CallOutcome201<A>;
  return answerOf(ctx, point, action, checked.value, outcome);
}

/** The outcome of a call as the API answers it: the reply, or the error that says why there is none. */
async function answerOf<R>(
  ctx: UserCtx,
  point: { operatorId: number; serialNumber: string },
  action: ServerAction | ServerAction201,
  payload: unknown,
  outcome: { ok: true; response: R } | Exclude<CallOutcome<ServerAction> | CallOutcome201<ServerAction201>, { ok: true }>,
): Promise<R> {
  if (!outcome.ok) {
    if (outcome.reason === "error") {
      const reply = { code: outcome.code, description: outcome.description };
      throw new Conflict("errors.chargerError", reply, reply);
    }
    if (outcome.reason === "notAccepted") throw new Conflict("errors.pointDisabled");
    // A 1.6 word a 2.0.1 charger has no twin for: the request is wrong for this point, not the charger.
    if (outcome.reason === "noTwin") throw new Invalid("errors.noOcpp201Twin", { action, description: outcome.description });
    // The point was found speaking 2.0.1, and its charger has come back in 1.6 since: nothing went out.
    if (outcome.reason === "otherVersion") throw new Conflict("errors.reconnectedIn16", { action });
    throw outcome.reason === "offline" ? new Conflict("errors.pointOffline") : new ChargerTimeout();
  }
  const response = outcome.response;
  await afterAnswer(
    ctx,
    auditRow(ctx, {
      table: "points",
      module: "remoteControl",
      type: "UPDATE",
      newData: { serialNumber: point.serialNumber, action, payload },
      response,
    }),
    "remote command log",
  );
  const status = (response as { status?: string }).status;
  if (status && REFUSALS.has(status)) throw new Conflict("errors.chargerRefused", { action, status }, response);
  return response;
}

/**
 * The id tag a remote start uses when the operator names none: the remote tag of its parameter
 * settings (`stored`), else one made from its id. The start dialogs show it as their default.
 */
const remoteIdTagOr = (ctx: UserCtx, stored: string | null | undefined) => operatorRemoteTag(ctx.operator.id, stored);

async function remoteIdTagOf(ctx: UserCtx): Promise<string> {
  return remoteIdTagOr(ctx, (await settingsOf(ctx.db, ctx.operator.id)).remoteIdTag);
}

/**
 * The point a remote start is for, with the operator's remote tag, in one statement: locally each
 * D1 statement costs 2 to 4 ms of the one thread every request shares, and with ten requests in
 * flight a start waits for it about ten times over
 * (docs/performance.md "Remote start, one statement less").
 */
async function pointToStart(ctx: UserCtx, pointId: number) {
  const [row] = await ctx.db
    // Only the columns a start uses: drizzle builds and maps every column it is asked for.
    .select({
      point: { operatorId: points.operatorId, serialNumber: points.serialNumber, status: points.status, connectorCount: points.connectorCount },
      remoteIdTag: parameterSettings.remoteIdTag,
    })
    .from(points)
    .leftJoin(parameterSettings, ownedBy(ctx.operator.id, parameterSettings))
    .where(visible(ctx, points, points.id, eq(points.id, pointId)))
    .limit(1);
  if (!row) throw new NotFound("errors.pointNotFound");
  return { point: row.point, remoteIdTag: remoteIdTagOr(ctx, row.remoteIdTag) };
}

/** The default id tag the start dialogs show, for those who may start a session. */
export const defaultRemoteIdTag = verb({ menu: REMOTE_CONTROL_MENUS }, remoteIdTagOf);

/**
 * Remote start (OCPP 1.6 §6.33). Without an idTag the operator's remote tag starts it; a power
 * limit rides along as a TxProfile. A disabled point refuses remote starts.
 */
export const remoteStart = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, raw: unknown) => {
  const input = remoteStartInput.parse(raw);
  // One read, and no write, before the CALL goes out; a tag given is looked up beside it, for a
  // 2.0.1 charger to be told a card is a card.
  const [{ point, remoteIdTag }, card] = await Promise.all([pointToStart(ctx, pointId), input.idTag === undefined ? false : tagIsCard(ctx, input.idTag)]);
  if (point.status !== "VALID") throw new Conflict("errors.pointDisabled");
  if (input.connectorId > point.connectorCount) throw new Invalid("validation.connectorRequired", {}, { connectorId: "validation.connectorRequired" });
  const idTag = input.idTag ?? remoteIdTag;
  const payload: OcppRequest<"RemoteStartTransaction"> = { connectorId: input.connectorId, idTag };
  if (input.power) {
    payload.chargingProfile = {
      chargingProfileId: 1,
      stackLevel: 0,
      chargingProfilePurpose: "TxProfile",
      chargingProfileKind: "Relative",
      chargingSchedule: { chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: Math.round(input.power * 1000) }] },
    };
  }
  return commandTo(ctx, point, "RemoteStartTransaction", payload, { idToken: idTokenTypeOfTag({ card }) });
});

/**
 * A generic remote command (reset, unlock, trigger, configuration, availability, data transfer,
 * diagnostics, local list version, charging profiles): it needs the remote-control menu, or the
 * point menu for the point page's tools; monitoring menus only watch (docs/rules/access.md).
 */
export const remoteCommand = verb(
  { menu: REMOTE_CONTROL_MENUS, mutates: true },
  async (ctx, ref: PointRef, action: ServerAction, payload: OcppRequest<ServerAction>) => command(ctx, ref, action, payload),
);

/** Remote stop (OCPP 1.6 §6.34) of a transaction on a point. */
export const remoteStop = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true }, async (ctx, pointId: number, transactionId: number) =>
  command(ctx, { id: pointId }, "RemoteStopTransaction", { transactionId }),
);

/** Whether a reply's status means the charger did not do what was asked. */
export const isRefusal = (response: unknown) => {
  const status = (response as { status?: string } | null)?.status;
  return status !== undefined && REFUSALS.has(status);
};
