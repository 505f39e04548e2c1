import { and, eq, gte, lt, ne, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { chargeRecords, transactions } from "../../../db/schema";
import { visible, type TenantScope } from "../../../tenants/scope";
import { durationMs, energyWh } from "../charge-records/charge-records";

/**
 * What a statement sums of a set of charge records (docs/rules/statements.md "Statements", what counts),
 * shared by the statements and the operator's sub-operator finance.
 */

/** The sums of a set of sessions, money in minor units of the operator's currency. */
export function sums() {
  const money = (column: SQLiteColumn) => sql<number>`COALESCE(SUM(${column}), 0)`;
  return {
    sessions: sql<number>`COUNT(*)`,
    pricedSessions: sql<number>`COALESCE(SUM(CASE WHEN ${chargeRecords.pricedAt} IS NOT NULL THEN 1 ELSE 0 END), 0)`,
    energyWh: sql<number>`COALESCE(SUM(${energyWh}), 0)`,
    durationMs: sql<number>`COALESCE(SUM(${durationMs}), 0)`,
    electricCost: money(chargeRecords.electricCost),
    serviceCost: money(chargeRecords.serviceCost),
    reservationCost: money(chargeRecords.reservationCost),
    idleCost: money(chargeRecords.occupancyCost),
    discountCost: money(chargeRecords.discountCost),
    taxCost: money(chargeRecords.taxCost),
    totalCost: money(chargeRecords.totalCost),
  };
}

export type Sums = { [K in keyof ReturnType<typeof sums>]: number };

export const ZERO: Sums = {
  sessions: 0,
  pricedSessions: 0,
  energyWh: 0,
  durationMs: 0,
  electricCost: 0,
  serviceCost: 0,
  reservationCost: 0,
  idleCost: 0,
  discountCost: 0,
  taxCost: 0,
  totalCost: 0,
};

/** A line of the statement as the API answers it: sums, then the average session (rounded once). */
export function present(raw: Partial<Record<keyof Sums, number | string | null>>) {
  const s = Object.fromEntries(Object.keys(ZERO).map((k) => [k, Number(raw[k as keyof Sums] ?? 0)])) as Sums;
  const per = (n: number) => (s.sessions === 0 ? 0 : Math.round(n / s.sessions));
  return {
    sessions: s.sessions,
    pricedSessions: s.pricedSessions,
    energyWh: s.energyWh,
    durationS: Math.round(s.durationMs / 1000),
    electricCost: s.electricCost,
    serviceCost: s.serviceCost,
    reservationCost: s.reservationCost,
    idleCost: s.idleCost,
    discountCost: s.discountCost,
    taxCost: s.taxCost,
    totalCost: s.totalCost,
    averageEnergyWh: per(s.energyWh),
    averageDurationS: Math.round(per(s.durationMs) / 1000),
    averageRevenue: per(s.totalCost),
  };
}
export type StatementLine = ReturnType<typeof present>;

/**
 * The sessions a statement counts: started in [from, to) (either edge open), and handled by
 * billing; a running session has neither energy nor price yet (docs/rules/statements.md "Statements", what counts).
 * The caller puts these conditions in its tenant filter.
 */
export function counted(from: number | undefined, to: number | undefined) {
  return and(
    from === undefined ? undefined : gte(chargeRecords.startAt, new Date(from)),
    to === undefined ? undefined : lt(chargeRecords.startAt, new Date(to)),
    ne(chargeRecords.status, "CHARGING"),
  );
}

/** The sums of every counted session of a scope in [from, to), either edge open (operatorFinance's columns). */
export async function periodSums(scope: TenantScope, from?: number, to?: number) {
  const [row] = await scope.db
    .select(sums())
    .from(chargeRecords)
    .innerJoin(transactions, eq(transactions.id, chargeRecords.transactionId))
    .where(visible(scope, chargeRecords, chargeRecords.pointId, counted(from, to)));
  return present(row ?? {});
}

