import { asc, count, desc, eq, inArray, isNull, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { groupBy, pageOf, rowsFor } from "../../../db/paging";
import { chargeStrategies, chargeStrategyVersions, points, stations } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import type { StrategyPrices } from "../../../domain/pricing";
import { assignInput, strategyInput, strategyListQuery, strategyPointQuery, type StrategyInput } from "../../../domain/schemas/pricing";
import { settingsOf } from "../../../tenants/resolve";
import { deviceOwner, owned, ownedBy, ownedRow, visible } from "../../../tenants/scope";
import { translator } from "../../i18n";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { pointsChanged, tariffsChanged } from "../ocpi/cpo-push";
import { verb } from "../verb";

/** Finance › Charging strategies (docs/rules/pricing.md "Strategies"). */
export const STRATEGY_MENU = "finance.chargeConfiguration";
/**
 * The sub-operator's Finance › Charge configuration (docs/rules/pricing.md "Sub-operators"): it sees
 * its parent's strategies and assigns them to its own devices; it never writes a strategy.
 */
export const SUB_STRATEGY_MENU = "sub.finance.chargeConfiguration";
const STRATEGY_USE_MENUS = [STRATEGY_MENU, SUB_STRATEGY_MENU];
/** Screens that show which version priced a session may read that version. */
const VERSION_READ_MENUS = [STRATEGY_MENU, "finance.chargeRecord", "monitoring.charging"];

type StrategyRow = typeof chargeStrategies.$inferSelect;
type VersionRow = typeof chargeStrategyVersions.$inferSelect;

/** A version's prices as the API answers them: the body's shape, amounts in minor units. */
function pricesOf(version: VersionRow) {
  const p = version.prices;
  return {
    electricity: p.electricity,
    service: p.service,
    idle: p.idle,
    minimumThreshold: p.minimumThreshold ?? null,
    preAuthAmount: p.preAuthAmount ?? null,
    subscriptionPrice: p.subscriptionPrice ?? null,
  };
}

function present(strategy: StrategyRow, version: VersionRow, pointCount: number) {
  return {
    id: strategy.id,
    name: strategy.name,
    currency: strategy.currency,
    version: strategy.version,
    versionId: version.id,
    ...pricesOf(version),
    pointCount,
    createdAt: strategy.createdAt.toISOString(),
    updatedAt: strategy.updatedAt.toISOString(),
  };
}
export type StrategyView = ReturnType<typeof present>;

/** The strategies of the operator whose devices the actor works on: its own, or a sub-operator's parent's. */
const alive = (ctx: Ctx, ...conditions: (SQL | undefined)[]) => ownedBy(deviceOwner(ctx), chargeStrategies, isNull(chargeStrategies.deletedAt), ...conditions);

/** The points the actor works on: the operator's, or the devices assigned to a sub-operator. */
const ownPoints = (ctx: Ctx, ...conditions: (SQL | undefined)[]) => visible(ctx, points, points.id, ...conditions);

async function pointCounts(ctx: Ctx, ids: number[]) {
  const rows = await rowsFor(ids, (slice) =>
    ctx.db
      .select({ strategyId: points.chargeStrategyId, n: count() })
      .from(points)
      .where(ownPoints(ctx, inArray(points.chargeStrategyId, slice)))
      .groupBy(points.chargeStrategyId),
  );
  return new Map(rows.map((r) => [r.strategyId!, r.n]));
}

/** One of the operator's strategies with its current version; another operator's (or a deleted one) is 404. */
async function findStrategy(ctx: Ctx, id: number) {
  const [row] = await ctx.db
    .select({ strategy: chargeStrategies, version: chargeStrategyVersions })
    .from(chargeStrategies)
    .innerJoin(chargeStrategyVersions, eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId))
    .where(alive(ctx, eq(chargeStrategies.id, id)))
    .limit(1);
  if (!row) throw new NotFound("pricing.errors.notFound");
  return row;
}

/**
 * The strategy's currency: the operator's unless given, and then it must be the operator's
 * (docs/rules/pricing.md "Strategies").
 */
async function currencyOf(ctx: Ctx, input: StrategyInput) {
  const { currencyCode } = await settingsOf(ctx.db, ctx.operator.id);
  if (input.currency && input.currency !== currencyCode) {
    throw new Invalid("pricing.validation.currency", { currency: currencyCode }, { currency: "pricing.validation.currency" });
  }
  return currencyCode;
}

const pricesFrom = (input: StrategyInput): StrategyPrices => ({
  electricity: input.electricity,
  service: input.service,
  idle: input.idle,
  minimumThreshold: input.minimumThreshold,
  preAuthAmount: input.preAuthAmount,
  subscriptionPrice: input.subscriptionPrice,
});

const authorOf = (ctx: Ctx) => (ctx.actor.kind === "user" ? ctx.actor.username : `system: ${ctx.actor.name}`);

/**
 * Writes a new strategy with its first version in one batch: the version names the strategy
 * just inserted (`last_insert_rowid()` inside the batch), and the strategy then names that
 * version as current, so neither stands without the other.
 */
async function insertStrategy(ctx: Ctx, name: string, currency: string, prices: StrategyPrices, log: Record<string, unknown>) {
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db.insert(chargeStrategies).values(ownedRow(ctx, { name, currency, version: 1, createdAt: now, updatedAt: now })).returning(),
    ctx.db.insert(chargeStrategyVersions).values(
      ownedRow(ctx, { strategyId: sql<number>`last_insert_rowid()`, version: 1, name, currency, prices, createdBy: authorOf(ctx), createdAt: now }),
    ),
    ctx.db
      .update(chargeStrategies)
      .set({ currentVersionId: sql<number>`last_insert_rowid()` })
      .where(
        owned(
          ctx,
          chargeStrategies,
          inArray(
            chargeStrategies.id,
            ctx.db
              .select({ id: chargeStrategyVersions.strategyId })
              .from(chargeStrategyVersions)
              .where(owned(ctx, chargeStrategyVersions, eq(chargeStrategyVersions.id, sql<number>`last_insert_rowid()`))),
          ),
        ),
      ),
    auditRow(ctx, { table: "charge_strategies", module: "chargeStrategy", type: "CREATE", newData: log }),
  ]);
  const { strategy, version } = await findStrategy(ctx, created.id);
  return present(strategy, version, 0);
}

export const listStrategies = verb({ menu: STRATEGY_USE_MENUS }, async (ctx, raw: unknown) => {
  const q = strategyListQuery.parse(raw);
  const where = alive(ctx, containingIf(chargeStrategies.name, q.name));
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ strategy: chargeStrategies, version: chargeStrategyVersions })
        .from(chargeStrategies)
        .innerJoin(chargeStrategyVersions, eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId))
        .where(where)
        .orderBy(desc(chargeStrategies.updatedAt), desc(chargeStrategies.id))
        .limit(limit)
        .offset(offset);
      const counts = await pointCounts(
        ctx,
        rows.map((r) => r.strategy.id),
      );
      return rows.map((r) => present(r.strategy, r.version, counts.get(r.strategy.id) ?? 0));
    },
    async () => (await ctx.db.select({ total: count() }).from(chargeStrategies).where(where))[0].total,
  );
});

async function view(ctx: Ctx, id: number) {
  const { strategy, version } = await findStrategy(ctx, id);
  const counts = await pointCounts(ctx, [id]);
  return present(strategy, version, counts.get(id) ?? 0);
}

export const getStrategy = verb({ menu: STRATEGY_USE_MENUS }, view);

/** One version of a strategy, also of a deleted one: what a charge record was priced by. */
export const getStrategyVersion = verb({ menu: VERSION_READ_MENUS }, async (ctx, versionId: number) => {
  const [version] = await ctx.db
    .select()
    .from(chargeStrategyVersions)
    .where(owned(ctx, chargeStrategyVersions, eq(chargeStrategyVersions.id, versionId)))
    .limit(1);
  if (!version) throw new NotFound("pricing.errors.notFound");
  return {
    id: version.id,
    strategyId: version.strategyId,
    version: version.version,
    name: version.name,
    currency: version.currency,
    ...pricesOf(version),
    createdBy: version.createdBy,
    createdAt: version.createdAt.toISOString(),
  };
});

export const createStrategy = verb({ menu: STRATEGY_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = strategyInput.parse(raw);
  const currency = await currencyOf(ctx, input);
  return insertStrategy(ctx, input.name, currency, pricesFrom(input), { ...input, currency });
});

/**
 * An edit writes a new version and makes it current; the old one stays as it was for the sessions
 * it priced (docs/decisions/0022-strategies-are-versioned.md). Two edits at once cannot both
 * become the same version: the unique index refuses the second, and its batch changes nothing.
 */
export const updateStrategy = verb({ menu: STRATEGY_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findStrategy(ctx, id);
  const input = strategyInput.parse(raw);
  const currency = await currencyOf(ctx, input);
  const next = before.strategy.version + 1;
  const now = new Date(ctx.now());
  try {
    await ctx.db.batch([
      ctx.db
        .insert(chargeStrategyVersions)
        .values(ownedRow(ctx, { strategyId: id, version: next, name: input.name, currency, prices: pricesFrom(input), createdBy: authorOf(ctx), createdAt: now })),
      ctx.db
        .update(chargeStrategies)
        .set({ name: input.name, currency, version: next, currentVersionId: sql<number>`last_insert_rowid()`, updatedAt: now })
        .where(alive(ctx, eq(chargeStrategies.id, id))),
      // The chargers of its points show a price that is no longer current (docs/rules/pricing.md "Price push").
      ctx.db
        .update(points)
        .set({ pricePushStatus: "NotIssue" })
        .where(owned(ctx, points, eq(points.chargeStrategyId, id), ne(points.pricePushStatus, "NotIssue"))),
      auditRow(ctx, {
        table: "charge_strategies",
        module: "chargeStrategy",
        type: "UPDATE",
        oldData: present(before.strategy, before.version, 0),
        newData: { ...input, currency, version: next },
      }),
    ]);
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("UNIQUE")) throw new Conflict("pricing.errors.editedMeanwhile");
    throw error;
  }
  // Its tariff, as roaming partners have it (docs/rules/ocpi.md "Pushes of what we publish").
  await tariffsChanged(ctx, [id]);
  return view(ctx, id);
});

/** A copy: a new strategy with the same prices, named after the original in the actor's language. */
export const copyStrategy = verb({ menu: STRATEGY_MENU, mutates: true }, async (ctx, id: number) => {
  const { strategy, version } = await findStrategy(ctx, id);
  const name = translator(ctx.lang)("pricing.copyName", { name: strategy.name }).slice(0, 60);
  return insertStrategy(ctx, name, strategy.currency, version.prices, { copiedFrom: id, name });
});

/**
 * A strategy assigned to points cannot be deleted: their sessions would have no price. The
 * condition is part of the delete itself, so a point assigned meanwhile cannot be left pointing at
 * a deleted strategy. Its versions stay for the records they priced.
 */
export const deleteStrategy = verb({ menu: STRATEGY_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findStrategy(ctx, id);
  const assigned = ctx.db.select({ id: points.id }).from(points).where(owned(ctx, points, eq(points.chargeStrategyId, id)));
  const [[deleted]] = await ctx.db.batch([
    ctx.db
      .update(chargeStrategies)
      .set({ deletedAt: new Date(ctx.now()) })
      .where(alive(ctx, eq(chargeStrategies.id, id), sql`not exists ${assigned}`))
      .returning({ id: chargeStrategies.id }),
    auditRow(ctx, { table: "charge_strategies", module: "chargeStrategy", type: "DELETE", oldData: present(before.strategy, before.version, 0) }),
  ]);
  if (!deleted) {
    const counts = await pointCounts(ctx, [id]);
    throw new Conflict("pricing.errors.inUse", { count: counts.get(id) ?? 0 });
  }
  return null;
});

/**
 * Assigns the strategy to exactly these points (docs/rules/pricing.md "Assigning points"): the
 * listed points move to it from any other, its points not listed are left without a strategy, in
 * one batch with the log row. The ids travel as one JSON parameter (`json_each`), so any number of
 * points fits D1's 100 parameters. Another operator's point is not found (404). A sub-operator
 * assigns its parent's strategy among its own devices: a point not assigned to it is not found,
 * and its parent's other points on the strategy are never released.
 */
export const assignStrategy = verb({ menu: STRATEGY_USE_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  await findStrategy(ctx, id);
  const pointIds = [...new Set(assignInput.parse(raw).pointIds)];
  const listed = sql`(select value from json_each(${JSON.stringify(pointIds)}))`;
  const [{ found }] = await ctx.db.select({ found: count() }).from(points).where(ownPoints(ctx, inArray(points.id, listed)));
  if (found !== pointIds.length) throw new NotFound("errors.pointNotFound");
  // The strategies the listed points leave: their tariffs change at the partners too (docs/rules/ocpi.md "Pushes of what we publish").
  const left = await ctx.db
    .selectDistinct({ id: points.chargeStrategyId })
    .from(points)
    .where(ownPoints(ctx, inArray(points.id, listed), ne(points.chargeStrategyId, id)));
  const strategyAlive = ctx.db.select({ id: chargeStrategies.id }).from(chargeStrategies).where(alive(ctx, eq(chargeStrategies.id, id)));
  const [released, moved] = await ctx.db.batch([
    ctx.db
      .update(points)
      .set({ chargeStrategyId: null, pricePushStatus: "NotIssue" })
      .where(ownPoints(ctx, eq(points.chargeStrategyId, id), notInArray(points.id, listed)))
      .returning({ id: points.id }),
    ctx.db
      .update(points)
      .set({ chargeStrategyId: id, pricePushStatus: "NotIssue" })
      .where(ownPoints(ctx, inArray(points.id, listed), or(isNull(points.chargeStrategyId), ne(points.chargeStrategyId, id)), inArray(sql`${id}`, strategyAlive)))
      .returning({ id: points.id }),
    auditRow(ctx, { table: "points", module: "chargeStrategy", type: "UPDATE", newData: { strategyId: id, pointIds } }),
  ]);
  // The points' connectors name another tariff; the one joined may be published now, one left no longer (docs/rules/ocpi.md "Pushes of what we publish").
  await pointsChanged(ctx, [...released, ...moved].map((p) => p.id));
  await tariffsChanged(ctx, [id, ...left.flatMap((s) => (s.id === null ? [] : [s.id]))]);
  return { strategyId: id, pointIds, assigned: moved.length, released: released.length };
});

/**
 * The operator's points for the assign dialog, paged and filtered, each with the strategy it
 * charges by (docs/rules/lists.md).
 */
export const strategyPoints = verb({ menu: STRATEGY_USE_MENUS }, async (ctx, raw: unknown) => {
  const q = strategyPointQuery.parse(raw);
  const where = ownPoints(
    ctx,
    containingIf(points.serialNumber, q.serialNumber),
    q.stationId ? eq(points.stationId, q.stationId) : undefined,
    q.strategyId ? eq(points.chargeStrategyId, q.strategyId) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) => {
      const rows = await ctx.db
        .select({ point: points, stationName: stations.name })
        .from(points)
        .leftJoin(stations, eq(stations.id, points.stationId))
        .where(where)
        .orderBy(asc(points.serialNumber), asc(points.id))
        .limit(limit)
        .offset(offset);
      const strategyIds = rows.map((r) => r.point.chargeStrategyId).filter((s): s is number => s !== null);
      const names = groupBy(
        await rowsFor(strategyIds, (slice) =>
          ctx.db
            .select({ id: chargeStrategies.id, name: chargeStrategies.name })
            .from(chargeStrategies)
            .where(alive(ctx, inArray(chargeStrategies.id, slice))),
        ),
        (s) => s.id,
      );
      return rows.map(({ point, stationName }) => ({
        id: point.id,
        serialNumber: point.serialNumber,
        name: point.name,
        stationId: point.stationId,
        stationName,
        status: point.status,
        chargeStrategyId: point.chargeStrategyId,
        chargeStrategyName: point.chargeStrategyId ? (names.get(point.chargeStrategyId)?.[0].name ?? null) : null,
      }));
    },
    async () => (await ctx.db.select({ total: count() }).from(points).where(where))[0].total,
  );
});

/** What the editor needs besides the strategy: the operator's currency and time zone. */
export const pricingSettings = verb({ menu: STRATEGY_MENU }, async (ctx) => {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  return { currency: settings.currencyCode, currencySign: settings.currencySign, currencyDecimals: settings.currencyDecimals, timeZone: settings.timeZone };
});
