import { and, eq, sql, type SQL } from "drizzle-orm";
import { chargeRecords, operators, points, stations, transactions } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { statementQuery, type StatementGroup } from "../../../domain/schemas/statements";
import { dayKey, dayRange, localDate } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { visible, visibleStations, type TenantScope } from "../../../tenants/scope";
import { localStart, ownsOne } from "../charge-records/charge-records";
import { counted, present, sums, ZERO, type Sums } from "./sums";
import { requireMenu, type UserCtx } from "../context";
import { SUB_FINANCE_MENU } from "../sub-operators/accounts";
import { verb } from "../verb";
import { COLLECTION_MENU } from "./collection-account";

/**
 * Financial statements (docs/rules/statements.md): energy, revenue by cost line, sessions and the
 * average session of a period, grouped by station, point, local day or local month. Read from
 * the charge records, the only rows that hold the cost lines, on the index that leads with the
 * operator and the start time (docs/decisions/0051-statements-from-charge-records.md).
 */
const OWN_STATEMENT_MENUS = ["finance.financialStatements", "sub.finance.financialStatements", "sub.finance.bill", "sub.finance.chargeRecord"];
export const STATEMENT_MENUS = [...OWN_STATEMENT_MENUS, SUB_FINANCE_MENU];

function groupKey(groupBy: StatementGroup, local: SQL) {
  switch (groupBy) {
    case "day":
      return sql<string>`strftime('%Y-%m-%d', ${local} / 1000, 'unixepoch')`;
    case "month":
      return sql<string>`strftime('%Y-%m', ${local} / 1000, 'unixepoch')`;
    case "station":
      return sql<string>`CAST(${points.stationId} AS TEXT)`;
    case "point":
      return sql<string>`CAST(${chargeRecords.pointId} AS TEXT)`;
  }
}

/** Every local day (or month) of the period, so that the chart shows a quiet day as a zero. */
function calendarKeys(groupBy: "day" | "month", from: string, to: string) {
  const keys: string[] = [];
  const [y, m, d] = from.split("-").map(Number);
  for (let i = 0; ; i++) {
    const key = dayKey(groupBy === "day" ? localDate(Date.UTC(y, m - 1, d + i), "UTC") : localDate(Date.UTC(y, m - 1 + i, 1), "UTC"));
    const shown = groupBy === "day" ? key : key.slice(0, 7);
    if (shown > (groupBy === "day" ? to : to.slice(0, 7))) return keys;
    keys.push(shown);
  }
}

/** The scope a statement reads: the actor's own, or one of its sub-operators' devices (operatorFinance). */
async function scopeOf(ctx: UserCtx, subOperatorId: number | undefined): Promise<{ scope: TenantScope; subOperator: { id: number; code: string; name: string } | null }> {
  // The sub-operator finance menu reads its sub-operators' statements, never the operator's own.
  if (subOperatorId === undefined) {
    requireMenu(ctx, OWN_STATEMENT_MENUS);
    return { scope: ctx, subOperator: null };
  }
  requireMenu(ctx, SUB_FINANCE_MENU);
  const [sub] = await ctx.db
    .select({ id: operators.id, code: operators.code, name: operators.name })
    .from(operators)
    .where(and(eq(operators.id, subOperatorId), eq(operators.parentId, ctx.operator.id), eq(operators.sub, 1)))
    .limit(1);
  if (!sub || ctx.operator.sub === 1) throw new NotFound("statements.subOperatorNotFound");
  return { scope: { db: ctx.db, operator: { id: sub.id, sub: 1, parentId: ctx.operator.id } }, subOperator: sub };
}

/** This month so far in the operator's time zone: the period a screen shows before any filter. */
export const thisMonthPeriod = verb({ menu: [...STATEMENT_MENUS, COLLECTION_MENU] }, async (ctx) => {
  const { timeZone } = await settingsOf(ctx.db, ctx.operator.id);
  const today = dayKey(localDate(ctx.now(), timeZone));
  return { from: `${today.slice(0, 8)}01`, to: today };
});

/** GET /finance-service/statement */
export const financialStatement = verb({ menu: STATEMENT_MENUS }, async (ctx, raw: unknown) => {
  const q = statementQuery.parse(raw);
  const { scope, subOperator } = await scopeOf(ctx, q.subOperatorId);
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const { from, to } = dayRange(q.from, q.to, settings.timeZone);
  // A filter naming a station or point the scope cannot see is 404, as the records list answers.
  await Promise.all([
    q.pointId ? ownsOne(ctx.db.select({ id: points.id }).from(points).where(visible(scope, points, points.id, eq(points.id, q.pointId))).limit(1)) : undefined,
    q.stationId ? ownsOne(ctx.db.select({ id: stations.id }).from(stations).where(visibleStations(scope, eq(stations.id, q.stationId))).limit(1)) : undefined,
  ]);
  const key = groupKey(q.groupBy, localStart(from, to, settings.timeZone));
  const rows = await ctx.db
    .select({
      key,
      stationId: points.stationId,
      stationName: stations.name,
      serialNumber: points.serialNumber,
      pointName: points.name,
      ...sums(),
    })
    .from(chargeRecords)
    .innerJoin(transactions, eq(transactions.id, chargeRecords.transactionId))
    .leftJoin(points, eq(points.id, chargeRecords.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(
      visible(
        scope,
        chargeRecords,
        chargeRecords.pointId,
        counted(from, to),
        q.pointId ? eq(chargeRecords.pointId, q.pointId) : undefined,
        q.stationId ? eq(points.stationId, q.stationId) : undefined,
      ),
    )
    .groupBy(key)
    .orderBy(key);

  const lines = rows.map((r) => ({
    key: r.key,
    ...(q.groupBy === "station" ? { stationId: r.stationId, label: r.stationName ?? r.key } : {}),
    ...(q.groupBy === "point" ? { pointId: Number(r.key), stationId: r.stationId, label: r.serialNumber ?? r.key, pointName: r.pointName } : {}),
    ...(q.groupBy === "day" || q.groupBy === "month" ? { label: r.key } : {}),
    ...present(r),
  }));
  const byKey = new Map(lines.map((l) => [l.key, l]));
  const filled =
    q.groupBy === "day" || q.groupBy === "month"
      ? calendarKeys(q.groupBy, q.from, q.to).map((k) => byKey.get(k) ?? { key: k, label: k, ...present({}) })
      : lines.sort((a, b) => b.totalCost - a.totalCost || String(a.label).localeCompare(String(b.label)));
  const total = Object.fromEntries(Object.keys(ZERO).map((k) => [k, rows.reduce((n, r) => n + Number(r[k as keyof Sums] ?? 0), 0)]));
  return {
    from: q.from,
    to: q.to,
    groupBy: q.groupBy,
    timeZone: settings.timeZone,
    currency: settings.currencyCode,
    subOperator,
    /** The period's UTC edges: [periodStart, periodEnd). */
    periodStart: new Date(from).toISOString(),
    periodEnd: new Date(to).toISOString(),
    rows: filled,
    totals: present(total),
  };
});
