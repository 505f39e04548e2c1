import { and, count, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { chargeRecords, dailyChargeTotals, points, stations, transactions } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { chargeRecordFilters, chargeRecordQuery, reportQuery, type ChargeRecordQuery } from "../../../domain/schemas/records";
import { pathId } from "../../../domain/schemas/numbers";
import { dayKey, localDate, monthOf, monthRange, offsetSegments } from "../../../domain/time";
import { settingsOf } from "../../../tenants/resolve";
import { deviceOwner, ownedBy, owned, visible, visibleStations, type TenantFilter } from "../../../tenants/scope";
import { chargePointName } from "../../ocpp/identity";
import { meterCurve } from "../monitoring/meter-curve";
import { findPoint, POINT_READ_MENUS } from "../points/points";
import type { UserCtx } from "../context";
import { periodOf } from "../list-period";
import { verb } from "../verb";

/**
 * Charge records (docs/rules/records.md "Charge records"): the finance list and its detail, the
 * point page's record tab and monthly report, and the sub-operator's bills. A record is read
 * with its transaction: the record holds the state and the money, the transaction what the
 * charger said.
 */
export const CHARGE_RECORD_MENUS = [
  ...POINT_READ_MENUS,
  "finance.chargeRecord",
  "monitoring.charging",
  "sub.finance.bill",
  "sub.finance.chargeRecord",
];

/**
 * Energy of a transaction in Wh: what billing recorded, else stop minus start meter. A register
 * that went backwards counts as nothing, never negative (docs/rules/ocpp.md "Meter values").
 */
export const energyWh = sql<number>`COALESCE(${transactions.energyWh}, CASE WHEN ${transactions.meterStopWh} >= ${transactions.meterStartWh} THEN ${transactions.meterStopWh} - ${transactions.meterStartWh} ELSE 0 END)`;
/** Charging time in ms of a transaction that has stopped. */
export const durationMs = sql<number>`CASE WHEN ${transactions.stopAt} > ${transactions.startAt} THEN ${transactions.stopAt} - ${transactions.startAt} ELSE 0 END`;

/**
 * The start's local wall-clock instant, read as UTC: `start + offset`, the offset chosen by the
 * segment the start falls in (docs/rules/statements.md "Statements", local days): statements group by it, and the
 * daily totals file a record under its day.
 */
export function localStart(from: number, to: number, timeZone: string) {
  const segments = offsetSegments(from, to, timeZone);
  if (segments.length === 1) return sql`(${chargeRecords.startAt} + ${segments[0].offsetMs})`;
  const cases = sql.join(
    segments.slice(0, -1).map((s) => sql`WHEN ${chargeRecords.startAt} < ${s.until} THEN ${s.offsetMs}`),
    sql` `,
  );
  return sql`(${chargeRecords.startAt} + CASE ${cases} ELSE ${segments[segments.length - 1].offsetMs} END)`;
}

/**
 * A record's local start day (`yyyy-MM-dd`) in SQL, for starts within [from, to): the day the
 * daily totals file it under (docs/rules/records.md "Daily totals").
 */
export const localStartDay = (from: number, to: number, timeZone: string) =>
  sql<string>`strftime('%Y-%m-%d', ${localStart(from, to, timeZone)} / 1000, 'unixepoch')`;

const columns = {
  record: chargeRecords,
  transaction: transactions,
  serialNumber: points.serialNumber,
  pointName: points.name,
  stationId: points.stationId,
  stationName: stations.name,
  stationAddress: stations.address,
};

export type RecordRow = {
  record: typeof chargeRecords.$inferSelect;
  /** Null for a roaming record: a partner's CDR has no transaction of ours (docs/decisions/0063-roaming-charge-records.md). */
  transaction: typeof transactions.$inferSelect | null;
  serialNumber: string | null;
  pointName: string | null;
  stationId: number | null;
  stationName: string | null;
  stationAddress: string | null;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Minutes between two instants, none when they run backwards (docs/architecture.md "Time, money and units"). */
const minutesBetween = (from: number, to: number) => Math.round(Math.max(0, to - from) / 60_000);

/** What the charger said of our own session; a roaming record has none of it (docs/rules/ocpi.md "CDRs billed to the wallet"). */
function chargerFacts(row: RecordRow) {
  const { record: r, transaction: t } = row;
  if (!t) {
    const roaming = r.roaming;
    return {
      transactionId: null,
      pointId: null,
      connectorId: null,
      authStatus: null,
      stopAt: roaming?.stopAt ?? null,
      meterStartWh: null,
      meterStopWh: null,
      energyWh: roaming?.energyWh ?? null,
      chargingTime: roaming ? minutesBetween(r.startAt.getTime(), Date.parse(roaming.stopAt)) : null,
      transactionStatus: null,
      stopReason: null,
      abnormalReason: null,
    };
  }
  return {
    transactionId: r.transactionId,
    pointId: r.pointId,
    connectorId: r.connectorNo,
    authStatus: t.authStatus,
    stopAt: iso(t.stopAt),
    meterStartWh: t.meterStartWh,
    meterStopWh: t.meterStopWh,
    energyWh: t.energyWh ?? (t.meterStopWh !== null ? Math.max(0, t.meterStopWh - t.meterStartWh) : null),
    /** Minutes (docs/architecture.md "Time, money and units"). */
    chargingTime: t.stopAt !== null ? minutesBetween(t.startAt.getTime(), t.stopAt.getTime()) : null,
    /** The transaction's own state: ACTIVE, COMPLETED or ABNORMAL. */
    transactionStatus: t.status,
    stopReason: t.stopReason,
    abnormalReason: t.abnormalReason,
  };
}

/** A roaming record's partner and CDR, as the list, the page and the receipt show them. */
function roamingOf(r: RecordRow["record"]) {
  const x = r.roaming;
  if (r.source !== "OCPI" || !x) return null;
  return {
    platformId: x.platformId,
    platformName: x.platformName,
    countryCode: x.countryCode,
    partyId: x.partyId,
    cdrId: x.cdrId,
    sessionId: x.sessionId,
    locationId: x.locationId,
    address: x.address,
    city: x.city,
    evseId: x.evseId,
    vatIncluded: x.vatIncluded,
    /** The partner's own cost lines, the total last (docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md). */
    costLines: x.costLines,
  };
}

/** A record as the API answers it: instants in UTC ISO 8601, money in minor units of `currency`. */
export function presentRecord(row: RecordRow) {
  const { record: r } = row;
  const facts = chargerFacts(row);
  return {
    id: r.transactionId,
    transactionId: facts.transactionId,
    pointId: facts.pointId,
    serialNumber: row.serialNumber,
    pointName: row.pointName,
    stationId: row.stationId,
    stationName: row.stationName ?? (r.roaming ? (r.roaming.locationName ?? r.roaming.address) : null),
    connectorId: facts.connectorId,
    idTag: r.idTag,
    customerId: r.customerId,
    authStatus: facts.authStatus,
    startAt: r.startAt.toISOString(),
    stopAt: facts.stopAt,
    unplugAt: iso(r.unplugAt),
    meterStartWh: facts.meterStartWh,
    meterStopWh: facts.meterStopWh,
    energyWh: facts.energyWh,
    chargingTime: facts.chargingTime,
    strategyVersionId: r.strategyVersionId,
    currency: r.currency,
    electricCost: r.electricCost,
    serviceCost: r.serviceCost,
    reservationCost: r.reservationCost,
    occupancyCost: r.occupancyCost,
    discountCost: r.discountCost,
    /** `discountCost` by source, in billing order (docs/rules/discounts.md "Billing order"). */
    memberDiscountCost: r.memberDiscountCost,
    cardDiscountCost: r.cardDiscountCost,
    voucherCost: r.voucherCost,
    taxCost: r.taxCost,
    totalCost: r.totalCost,
    paidCost: r.paidCost,
    balanceBefore: r.balanceBefore,
    balanceAfter: r.balanceAfter,
    /** The record's state (docs/rules/records.md "Record states"). */
    status: r.status,
    /** Why a final price was left RECORD_UNSETTLED: `NO_PAYER` or `BALANCE_PAYMENT_OFF` (docs/rules/billing.md "Paying from the balance off"). */
    unsettledReason: r.unsettledReason,
    transactionStatus: facts.transactionStatus,
    stopReason: facts.stopReason,
    abnormalReason: facts.abnormalReason,
    priced: r.pricedAt !== null,
    receiptToken: r.receiptToken,
    /** OCPP: a session at our chargers; OCPI: a partner's CDR billed to our driver. */
    source: r.source,
    roaming: roamingOf(r),
  };
}
export type ChargeRecord = ReturnType<typeof presentRecord>;

/** Reads full rows of records chosen by `which` (a filter of charge_records built by the scope module). */
export function recordRows(ctx: { db: UserCtx["db"] }, which: TenantFilter) {
  return ctx.db
    .select(columns)
    .from(chargeRecords)
    // Left: a roaming record has no transaction (docs/decisions/0063-roaming-charge-records.md).
    .leftJoin(transactions, eq(transactions.id, chargeRecords.transactionId))
    .leftJoin(points, eq(points.id, chargeRecords.pointId))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .where(which);
}

/** A filter naming a point or station the actor cannot see is 404, as its page would be (docs/rules/tenancy.md). */
export async function ownsOne(query: Promise<unknown[]>) {
  if ((await query).length === 0) throw new NotFound();
}

/**
 * The list's filter: every condition is an exact match or a range on a column that an index of
 * charge_records leads with after the operator (docs/rules/records.md "Fast at scale"). Period
 * bounds are typed in the operator's time zone and compared in UTC.
 */
async function recordFilter(ctx: UserCtx, q: Omit<ChargeRecordQuery, "current" | "size">) {
  // The time zone is read only when a period asks for it: the first page costs no extra query.
  const { from, to } = await periodOf(ctx, q);
  await Promise.all([
    q.pointId ? ownsOne(ctx.db.select({ id: points.id }).from(points).where(visible(ctx, points, points.id, eq(points.id, q.pointId))).limit(1)) : undefined,
    q.stationId ? ownsOne(ctx.db.select({ id: stations.id }).from(stations).where(visibleStations(ctx, eq(stations.id, q.stationId))).limit(1)) : undefined,
  ]);
  const stationPoints = q.stationId
    ? ctx.db.select({ id: points.id }).from(points).where(ownedBy(deviceOwner(ctx), points, eq(points.stationId, q.stationId)))
    : undefined;
  return visible(
    ctx,
    chargeRecords,
    chargeRecords.pointId,
    q.transactionId ? eq(chargeRecords.transactionId, q.transactionId) : undefined,
    q.pointId ? eq(chargeRecords.pointId, q.pointId) : undefined,
    stationPoints ? inArray(chargeRecords.pointId, stationPoints) : undefined,
    q.customerId ? eq(chargeRecords.customerId, q.customerId) : undefined,
    q.idTag ? eq(chargeRecords.idTag, q.idTag) : undefined,
    q.status ? eq(chargeRecords.status, q.status) : undefined,
    from ? gte(chargeRecords.startAt, from) : undefined,
    to ? lt(chargeRecords.startAt, to) : undefined,
  );
}

const newestFirst = [desc(chargeRecords.startAt), desc(chargeRecords.transactionId)];

/**
 * GET /station-service/charge/record: newest first, filtered on the server. The page is found
 * on the index alone (a window of ids), and only its rows are joined to their transaction,
 * point and station, so page 500 costs an index walk, not 50 000 joins.
 */
export const listChargeRecords = verb({ menu: CHARGE_RECORD_MENUS }, async (ctx, raw: unknown) => {
  const q = chargeRecordQuery.parse(raw);
  const where = await recordFilter(ctx, q);
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const window = ctx.db
        .select({ id: chargeRecords.transactionId })
        .from(chargeRecords)
        .where(where)
        .orderBy(...newestFirst)
        .limit(limit)
        .offset(offset);
      const rows = await recordRows(ctx, ownedBy(deviceOwner(ctx), chargeRecords, inArray(chargeRecords.transactionId, window))).orderBy(...newestFirst);
      return rows.map(presentRecord);
    },
    async () => (unfiltered(q) ? recordCount(ctx) : (await ctx.db.select({ total: count() }).from(chargeRecords).where(where))[0].total),
  );
});

const FILTERS = Object.keys(chargeRecordFilters.shape) as (keyof typeof chargeRecordFilters.shape)[];
/** No filter at all: the total is the actor's whole list. */
const unfiltered = (q: Omit<ChargeRecordQuery, "current" | "size">) => FILTERS.every((name) => q[name] === undefined || q[name] === "");

/**
 * How many records the actor sees, from the daily counts kept as records are made
 * (docs/rules/records.md "Fast at scale"): a few hundred daily rows instead of every record.
 */
async function recordCount(ctx: UserCtx) {
  const [{ total }] = await ctx.db
    .select({ total: sql<number>`coalesce(sum(${dailyChargeTotals.records}), 0)` })
    .from(dailyChargeTotals)
    .where(visible(ctx, dailyChargeTotals, dailyChargeTotals.pointId));
  return Number(total);
}

/** One record, within the actor's devices; another operator's, or a device not assigned, is 404. */
export async function findRecord(ctx: UserCtx, rawId: unknown) {
  const id = pathId.safeParse(String(rawId));
  if (!id.success) throw new NotFound("records.errors.notFound");
  const [row] = await recordRows(ctx, visible(ctx, chargeRecords, chargeRecords.pointId, eq(chargeRecords.transactionId, id.data))).limit(1);
  if (!row) throw new NotFound("records.errors.notFound");
  return row;
}

/** The cost lines of a record, in the order a receipt lists them; null until priced. */
export function costLines(r: ChargeRecord) {
  return (
    [
      ["electric", r.electricCost],
      ["service", r.serviceCost],
      ["reservation", r.reservationCost],
      ["occupancy", r.occupancyCost],
      ["discount", r.discountCost],
      ["tax", r.taxCost],
      ["total", r.totalCost],
    ] as const
  ).map(([kind, amount]) => ({ kind, amount }));
}

/**
 * GET /station-service/charge/record/{id}: the record, its cost breakdown line by line, its meter
 * curve from the charger's own samples, the strategy version it was priced with, and its
 * receipt's public token.
 */
export const chargeRecordDetail = verb({ menu: CHARGE_RECORD_MENUS }, async (ctx, rawId: unknown) => {
  const row = await findRecord(ctx, rawId);
  const record = presentRecord(row);
  const t = row.transaction;
  const samples = t && row.serialNumber ? await ctx.env.CHARGE_POINT.getByName(chargePointName(t.operatorId, row.serialNumber)).meterSamples(t.id) : [];
  return {
    ...record,
    billCode: row.record.billCode,
    /** PROVISIONAL while an idle fee after charging awaits the unplug, FINAL once priced for good. */
    pricingPhase: row.record.pricingPhase,
    costLines: costLines(record),
    curve: t ? meterCurve(samples, t.meterStartWh) : [],
  };
});

/**
 * GET /station-service/charge/record/reportByPoint (docs/rules/equipment.md "Point pages"): one
 * point's charging in a calendar month of the operator's time zone, by the transactions that
 * started in it. A charge counts when its id tag was accepted at start or it delivered energy; a
 * session still running adds its energy and time once it stops.
 *
 * - `meterValue`: energy in kWh, rounded to three decimals, with `energyWh` exact;
 * - `chargingTime`: minutes;
 * - `deductionCost`: minor units of `currency`, the sum of the billed records' `totalCost` read
 *   from the daily totals (docs/rules/records.md "Daily totals"); `priced` once one was priced;
 * - `chargeCount`.
 */
export const reportByPoint = verb({ menu: CHARGE_RECORD_MENUS }, async (ctx, raw: unknown) => {
  const q = reportQuery.parse(raw);
  const { point } = await findPoint(ctx, { id: q.pointId });
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const month = q.reportMonth ?? monthOf(ctx.now(), settings.timeZone);
  const { from, to } = monthRange(month, settings.timeZone);
  const firstDay = dayKey(localDate(from, settings.timeZone));
  const nextMonth = dayKey(localDate(to, settings.timeZone));
  const [[row], [money]] = await Promise.all([
    ctx.db
      .select({
        chargeCount: count(),
        energyWh: sql<number>`COALESCE(SUM(${energyWh}), 0)`,
        durationMs: sql<number>`COALESCE(SUM(${durationMs}), 0)`,
      })
      .from(transactions)
      .where(
        owned(
          ctx,
          transactions,
          eq(transactions.pointId, point.id),
          gte(transactions.startAt, new Date(from)),
          lt(transactions.startAt, new Date(to)),
          or(eq(transactions.authStatus, "Accepted"), sql`${energyWh} > 0`),
        ),
      ),
    ctx.db
      .select({
        revenue: sql<number>`COALESCE(SUM(${dailyChargeTotals.revenue}), 0)`,
        priced: sql<number>`COALESCE(SUM(${dailyChargeTotals.pricedSessions}), 0)`,
      })
      .from(dailyChargeTotals)
      .where(
        owned(
          ctx,
          dailyChargeTotals,
          and(eq(dailyChargeTotals.pointId, point.id), gte(dailyChargeTotals.day, firstDay), lt(dailyChargeTotals.day, nextMonth)),
        ),
      ),
  ]);
  return {
    pointId: point.id,
    reportMonth: month,
    timeZone: settings.timeZone,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    meterValue: Math.round(row.energyWh) / 1000,
    energyWh: row.energyWh,
    chargingTime: Math.round(row.durationMs / 60_000),
    deductionCost: Number(money.revenue),
    currency: settings.currencyCode,
    priced: Number(money.priced) > 0,
    chargeCount: row.chargeCount,
  };
});
