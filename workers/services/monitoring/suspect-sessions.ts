import { asc, count, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { points, stations, transactions } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import type { BillingMessage } from "../../../domain/schemas/billing";
import { closeSuspectInput, suspectListQuery, type SuspectReason } from "../../../domain/schemas/resilience";
import { REMOTE_CONTROL_MENUS } from "../../../tenants/permissions";
import { settingsOf } from "../../../tenants/resolve";
import { deviceOwner, visible } from "../../../tenants/scope";
import { chargePointName } from "../../ocpp/identity";
import { auditRow } from "../audit";
import { afterAnswer, type UserCtx } from "../context";
import { NOT_ACCEPTED } from "../ocpp/transaction-reviews";
import { callCharger } from "../remote/remote-control";
import { verb } from "../verb";
import { CHARGING_MENUS } from "./charging";
import { lastRegisterWh } from "./meter-curve";

/**
 * Suspect sessions (docs/rules/monitoring.md "Suspect sessions"): transactions without a stop
 * that look stuck, computed when read (no cron marks them), and closed by an operator with a
 * meter reading, which bills them once through the stop's own billing job.
 */

/** Who may see the list: the monitoring screens' readers, and those who may close one. */
export const SUSPECT_MENUS = [...CHARGING_MENUS, ...REMOTE_CONTROL_MENUS];

/** The review kinds that flag a transaction's meter (docs/rules/ocpp.md "Meter values"). */
const METER_REVIEWS = sql`('REGISTER_BACKWARDS', 'METER_JUMP')`;

/**
 * Why a transaction without a stop is suspect, or null: its connector reported free (the system
 * marked it ABNORMAL for an Available without stop, the connector is Available now since it
 * started, or a later transaction runs on it), its meter was flagged, or it started (by the
 * charger's own clock) before `cutoff`. One reason per row, in that order.
 */
function reasonOf(cutoff: Date) {
  // tenancy: its subqueries are correlated to the outer transaction's own operator (operator_id = transactions.operator_id), which the list scopes with owned()
  return sql<SuspectReason | null>`CASE
    WHEN ${transactions.abnormalReason} = 'availableWithoutStop'
      OR EXISTS (SELECT 1 FROM connectors AS c WHERE c.operator_id = ${transactions.operatorId} AND c.point_id = ${transactions.pointId}
        AND c.connector_no = ${transactions.connectorNo} AND c.status = 'Available' AND c.status_at > ${transactions.startAt} AND ${points.online} = 1)
      OR EXISTS (SELECT 1 FROM transactions AS later WHERE later.operator_id = ${transactions.operatorId} AND later.point_id = ${transactions.pointId}
        AND later.connector_no = ${transactions.connectorNo} AND later.start_at > ${transactions.startAt} AND later.id <> ${transactions.id})
      THEN 'CONNECTOR_FREE'
    WHEN EXISTS (SELECT 1 FROM ocpp_reviews AS r WHERE r.operator_id = ${transactions.operatorId} AND r.transaction_id = ${transactions.id}
        AND r.kind IN ${METER_REVIEWS})
      THEN 'METER'
    WHEN ${transactions.startAt} < ${cutoff.getTime()} THEN 'NO_STOP'
  END`;
}

/** The operator's threshold: what counts as too long without a stop. */
async function cutoffOf(ctx: UserCtx) {
  const { parameters } = await settingsOf(ctx.db, deviceOwner(ctx));
  return new Date(ctx.now() - parameters.resilience.stuckSessionHours * 3_600_000);
}

/** Open transactions of the scope: no stop, and not a start kept only for review (never billed). */
const open = (ctx: UserCtx, ...conditions: (SQL | undefined)[]) =>
  visible(
    ctx,
    transactions,
    transactions.pointId,
    isNull(transactions.stopAt),
    or(isNull(transactions.abnormalReason), ne(transactions.abnormalReason, NOT_ACCEPTED)),
    ...conditions,
  );

/** GET /station-service/charge/suspect: the suspect sessions, oldest start first, paged on the server. */
export const listSuspectSessions = verb({ menu: SUSPECT_MENUS }, async (ctx, raw: unknown) => {
  const q = suspectListQuery.parse(raw);
  const reason = reasonOf(await cutoffOf(ctx));
  const where = open(ctx, containingIf(points.serialNumber, q.serialNumber), q.reason ? sql`(${reason}) = ${q.reason}` : sql`(${reason}) IS NOT NULL`);
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({
          transactionId: transactions.id,
          pointId: transactions.pointId,
          serialNumber: points.serialNumber,
          pointName: points.name,
          stationName: stations.name,
          online: points.online,
          connectorId: transactions.connectorNo,
          idTag: transactions.idTag,
          startedAt: transactions.startAt,
          meterStartWh: transactions.meterStartWh,
          status: transactions.status,
          reason,
        })
        .from(transactions)
        .innerJoin(points, eq(points.id, transactions.pointId))
        .leftJoin(stations, eq(stations.id, points.stationId))
        .where(where)
        .orderBy(asc(transactions.startAt), asc(transactions.id))
        .limit(limit)
        .offset(offset);
      return rows.map((r) => ({ ...r, startedAt: r.startedAt.toISOString(), reason: r.reason as SuspectReason }));
    },
    async () => (await ctx.db.select({ total: count() }).from(transactions).innerJoin(points, eq(points.id, transactions.pointId)).where(where))[0].total,
  );
});

/** One open transaction of the scope with its point, or 404 (another operator's, or none). */
async function openTransaction(ctx: UserCtx, transactionId: number) {
  const [row] = await ctx.db
    .select({ transaction: transactions, point: { id: points.id, operatorId: points.operatorId, serialNumber: points.serialNumber } })
    .from(transactions)
    .innerJoin(points, eq(points.id, transactions.pointId))
    .where(visible(ctx, transactions, transactions.pointId, eq(transactions.id, transactionId)))
    .limit(1);
  if (!row) throw new NotFound("resilience.errors.sessionNotFound");
  return row;
}

/**
 * GET /station-service/charge/suspect/{transactionId}: what the close dialog offers, the charger's
 * last register reading of the session (from its object's samples), or null when none came.
 */
export const suspectSessionReading = verb({ menu: SUSPECT_MENUS }, async (ctx, transactionId: number) => {
  const { transaction: t, point } = await openTransaction(ctx, transactionId);
  const samples = await ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber)).meterSamples(t.id);
  return { transactionId: t.id, meterStartWh: t.meterStartWh, lastMeterWh: lastRegisterWh(samples) ?? null, stopped: t.stopAt !== null };
});

/**
 * POST /station-service/charge/suspect/{transactionId}/close: the operator ends a stuck session
 * with a register reading. The stop is written only while the transaction has none (a second
 * close is a 409, a late stop from the charger then changes nothing: the stop path finds it
 * stopped), and billed by the same idempotent billing job as a charger's stop. The charger is
 * then asked for its status (TriggerMessage StatusNotification, in its protocol; 1.6 §5.17,
 * 2.0.1 F06): an offline charger is asked nothing, and the close stands. It moves money, so its
 * route honours an `Idempotency-Key` (docs/rules/input.md "Idempotency keys").
 */
export const closeSuspectSession = verb({ menu: REMOTE_CONTROL_MENUS, mutates: true, movesMoney: true }, async (ctx, transactionId: number, raw: unknown) => {
  const input = closeSuspectInput.parse(raw);
  const { transaction: t, point } = await openTransaction(ctx, transactionId);
  if (t.stopAt !== null) throw new Conflict("resilience.errors.alreadyClosed");
  if (t.abnormalReason === NOT_ACCEPTED) throw new Conflict("resilience.errors.notBillable");
  if (input.meterStop < t.meterStartWh) {
    throw new Invalid("resilience.validation.meterBelowStart", { meterStartWh: t.meterStartWh }, { meterStop: "resilience.validation.meterBelowStart" });
  }
  const stopAt = new Date(ctx.now());
  const [closed] = await ctx.db.batch([
    ctx.db
      .update(transactions)
      .set({ meterStopWh: input.meterStop, stopAt, stopReason: "Other", status: "COMPLETED" })
      .where(visible(ctx, transactions, transactions.pointId, eq(transactions.id, t.id), isNull(transactions.stopAt)))
      .returning({ id: transactions.id }),
    auditRow(ctx, {
      table: "transactions",
      module: "ocpp",
      type: "UPDATE",
      oldData: { id: t.id, status: t.status, abnormalReason: t.abnormalReason },
      newData: { id: t.id, status: "COMPLETED", meterStopWh: input.meterStop, stopReason: "Other", closedAsSuspect: true },
    }),
  ]);
  // A stop that landed between the read and the update: nothing changed here.
  if (closed.length === 0) throw new Conflict("resilience.errors.alreadyClosed");
  const { id: operatorId, code: operatorCode } = ctx.operator;
  await ctx.env.BILLING.send({ transactionId: t.id, operatorId, operatorCode } satisfies BillingMessage);
  const charger = ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));
  await charger.suspectClosed(t.id);
  // The charger's answer is not waited for: the close stands whatever it says, or if it is offline.
  await afterAnswer(ctx, callCharger(ctx, point, "TriggerMessage", { requestedMessage: "StatusNotification", connectorId: t.connectorNo }), "status after a suspect session closed");
  return { transactionId: t.id, meterStartWh: t.meterStartWh, meterStopWh: input.meterStop, stoppedAt: stopAt.toISOString() };
});

