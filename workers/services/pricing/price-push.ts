import { eq, inArray, isNull } from "drizzle-orm";
import { chargeStrategies, chargeStrategyVersions, points, stations } from "../../../db/schema";
import { IN_LIST, slices } from "../../../db/statements";
import { Conflict, NotFound } from "../../../domain/errors";
import { displayMethodFor, priceDisplayRequest, pushStatusOf } from "../../../domain/pricing";
import { issuePriceInput } from "../../../domain/schemas/pricing";
import type { PricePush } from "../../../domain/schemas/push";
import { settingsOf } from "../../../tenants/resolve";
import { owned } from "../../../tenants/scope";
import { chargePointName } from "../../ocpp/identity";
import { auditRow } from "../audit";
import type { Ctx, UserCtx } from "../context";
import { verb } from "../verb";

/**
 * The price push (docs/rules/pricing.md "Price push"): the point list asks for it, the push queue
 * sends it, and the charger's answer sets the point's price push status (NotIssue, Issued,
 * NotSupport) with the time.
 */
const PUSH_MENU = "equipment.point";
/** Queue messages per `sendBatch` (a Queues limit). */
const SEND_BATCH = 100;

async function pointsToPush(ctx: UserCtx, ids: number[]) {
  const rows = (
    await Promise.all(
      slices(ids, IN_LIST).map((slice) =>
        ctx.db
          .select({ id: points.id, serialNumber: points.serialNumber, strategyId: points.chargeStrategyId })
          .from(points)
          .where(owned(ctx, points, inArray(points.id, slice))),
      ),
    )
  ).flat();
  if (rows.length !== ids.length) throw new NotFound("errors.pointNotFound");
  const without = rows.filter((r) => r.strategyId === null);
  if (without.length) throw new Conflict("pricing.errors.noStrategy", { serialNumber: without.map((r) => r.serialNumber).join(", ") });
  return rows;
}

/** Queues the price of these points (all of them, or none when one has no strategy: 409 naming it). */
async function queuePrices(ctx: UserCtx, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = await pointsToPush(ctx, unique);
  const messages = rows.map((r) => ({ body: { kind: "price", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, pointId: r.id } satisfies PricePush }));
  for (const batch of slices(messages, SEND_BATCH)) await ctx.env.PUSH.sendBatch(batch);
  await auditRow(ctx, { table: "points", module: "pricePush", type: "UPDATE", newData: { pointIds: unique } });
  return { queued: rows.map((r) => ({ pointId: r.id, serialNumber: r.serialNumber })) };
}

export const issuePrice = verb({ menu: PUSH_MENU, mutates: true }, (ctx, pointId: number) => queuePrices(ctx, [pointId]));

export const issuePrices = verb({ menu: PUSH_MENU, mutates: true }, (ctx, raw: unknown) => queuePrices(ctx, issuePriceInput.parse(raw).pointIds));

/** What a push did: the status it set, or why the queue should try again later. */
export type PushOutcome = { status: "Issued" | "NotSupport" } | { retry: "offline" | "timeout" } | { skipped: "noStrategy" };

async function pricedPoint(ctx: Ctx, pointId: number) {
  const [row] = await ctx.db
    .select({ point: points, stationZone: stations.timeZone, version: chargeStrategyVersions })
    .from(points)
    .leftJoin(stations, eq(stations.id, points.stationId))
    .innerJoin(chargeStrategies, eq(chargeStrategies.id, points.chargeStrategyId))
    .innerJoin(chargeStrategyVersions, eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId))
    .where(owned(ctx, points, eq(points.id, pointId), isNull(chargeStrategies.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Sends one point's current price to its charger (the push queue's job, as the system). The way is
 * chosen by the charger model; the answer sets the status, kept with the time and the version
 * shown. An offline charger or no answer leaves the status as it was and asks the queue to retry.
 */
export const pushPrice = verb({ actors: ["system"] }, async (ctx, message: PricePush): Promise<PushOutcome> => {
  const row = await pricedPoint(ctx, message.pointId);
  if (!row) return { skipped: "noStrategy" };
  const { point, version } = row;
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const method = displayMethodFor(point.vendor, point.model);
  const request = priceDisplayRequest(method, version.prices, version.currency, ctx.now(), row.stationZone ?? settings.timeZone);
  const stub = ctx.env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));
  const outcome = await stub.send(request.action, request.payload);
  if (!outcome.ok && outcome.reason !== "error") return { retry: outcome.reason === "timeout" ? "timeout" : "offline" };
  const reply = outcome.ok ? (outcome.response as { status?: string }) : { code: outcome.code, description: outcome.description };
  const status = pushStatusOf(outcome.ok ? (outcome.response as { status?: string }) : "callError");
  await ctx.db.batch([
    ctx.db
      .update(points)
      .set({ pricePushStatus: status, pushedAt: new Date(ctx.now()), pricePushedVersionId: version.id })
      .where(owned(ctx, points, eq(points.id, point.id))),
    auditRow(ctx, {
      table: "points",
      module: "pricePush",
      type: "UPDATE",
      newData: { serialNumber: point.serialNumber, action: request.action, versionId: version.id, status },
      response: reply,
    }),
  ]);
  return { status };
});
