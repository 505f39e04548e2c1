import { and, count, desc, eq, gte, lt, max, min, sql } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { alarms, faultCodes, points, stations } from "../../../db/schema";
import { DEFAULT_FAULT_COUNT, failureListQuery } from "../../../domain/schemas/operations";
import { visible } from "../../../tenants/scope";
import { deviceChoices } from "../stations/choices";
import { verb } from "../verb";
import { faultCodesOf } from "./fault-codes";

/**
 * Operation and maintenance › Failures (docs/rules/operations.md "Failures"): the alarms of a
 * period grouped by point and fault code, with how often each occurred, whether any is still
 * open, and whether the count reached the code's own count (repeated). Without a period it looks
 * at the last 30 days.
 */
export const FAILURE_MENUS = ["operation.operationFailure"];

/** The locations the failures screen filters by. */
export const failureStations = verb({ menu: FAILURE_MENUS }, async (ctx) => (await deviceChoices(ctx, null)).stations);

const DEFAULT_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

export const listFailures = verb({ menu: FAILURE_MENUS }, async (ctx, raw: unknown) => {
  const q = failureListQuery.parse(raw);
  const to = q.to ? Date.parse(q.to) : ctx.now();
  const from = q.from ? Date.parse(q.from) : to - DEFAULT_PERIOD_MS;
  const occurrences = count();
  // The code's own count, else the default: how many occurrences make a failure repeated.
  const threshold = sql<number>`coalesce(${faultCodes.count}, ${DEFAULT_FAULT_COUNT})`;
  const grouped = ctx.db
    .select({
      pointId: alarms.pointId,
      faultCode: alarms.type,
      serialNumber: points.serialNumber,
      pointName: points.name,
      stationName: stations.name,
      occurrences: occurrences.as("occurrences"),
      open: sql<number>`sum(case when ${alarms.status} = 'Undisposed' then 1 else 0 end)`.as("open"),
      firstAt: min(alarms.occurredAt).as("first_at"),
      lastAt: max(alarms.occurredAt).as("last_at"),
      threshold: threshold.as("threshold"),
    })
    .from(alarms)
    .innerJoin(points, eq(points.id, alarms.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .leftJoin(faultCodes, and(eq(faultCodes.operatorId, alarms.operatorId), eq(faultCodes.code, alarms.type)))
    .where(
      visible(
        ctx,
        alarms,
        alarms.pointId,
        gte(alarms.occurredAt, new Date(from)),
        lt(alarms.occurredAt, new Date(to)),
        q.stationId ? eq(points.stationId, q.stationId) : undefined,
        containingIf(points.serialNumber, q.serialNumber),
        q.faultCode ? eq(alarms.type, q.faultCode) : undefined,
      ),
    )
    .groupBy(alarms.pointId, alarms.type)
    .having(q.repeated === undefined ? undefined : q.repeated === "true" ? sql`count(*) >= ${threshold}` : sql`count(*) < ${threshold}`)
    .as("failures");
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select()
        .from(grouped)
        .orderBy(desc(grouped.lastAt), grouped.pointId, grouped.faultCode)
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(grouped))[0].total,
  );
  const catalogue = await faultCodesOf(
    ctx,
    page.records.map((r) => r.faultCode),
  );
  return {
    ...page,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    records: page.records.map((r) => {
      const code = catalogue.get(r.faultCode);
      return {
        pointId: r.pointId,
        serialNumber: r.serialNumber,
        pointName: r.pointName,
        stationName: r.stationName,
        faultCode: r.faultCode,
        faultName: code?.name ?? null,
        level: code?.level ?? null,
        occurrences: r.occurrences,
        open: Number(r.open),
        firstAt: new Date(Number(r.firstAt)).toISOString(),
        lastAt: new Date(Number(r.lastAt)).toISOString(),
        threshold: Number(r.threshold),
        repeated: r.occurrences >= Number(r.threshold),
      };
    }),
  };
});
