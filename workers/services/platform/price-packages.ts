import { and, asc, count, desc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { startingWith } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { operators, packageBills, pricePackages } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { dayCharge, daysLeft, packageStateAt } from "../../../domain/price-package";
import {
  billFlagsInput,
  billListQuery,
  packageListQuery,
  pricePackageInput,
  temporaryAcceptInput,
  temporaryOfferQuery,
} from "../../../domain/schemas/platform";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedBy, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, UserCtx } from "../context";
import { verb } from "../verb";
import { requirePlatformSuper } from "./operators";

/**
 * Price packages (`/platform-service/price-package`, docs/rules/platform.md "Price packages"):
 * what the platform charges an operator per connector per day. A package is ineffective before
 * its beginning, effective until its end, then expired; the platform may void it. The operator's
 * authorised AC and DC connector counts, the quota that adding points checks
 * (docs/rules/equipment.md "Authorised connectors"), are the sums of its effective packages,
 * recomputed in the same batch as every change of state.
 */
export const PACKAGE_MENU = "platform.pricePackage";
/** The operator's own view of its packages and bills: Carrier system › Operator info. */
export const OWN_PACKAGE_MENU = "carrier.carrierInfo";
/** Screens that add points, where the temporary package is offered. */
export const TEMPORARY_PACKAGE_MENUS = ["equipment.point", "equipment.station"];

type PackageRow = typeof pricePackages.$inferSelect;
type BillRow = typeof packageBills.$inferSelect;

const presentPackage = (p: PackageRow, operator?: { code: string; name: string }) => ({
  id: p.id,
  operatorId: p.operatorId,
  operatorCode: operator?.code ?? null,
  operatorName: operator?.name ?? null,
  type: p.type,
  status: p.status,
  acPrice: p.acPrice,
  dcPrice: p.dcPrice,
  currency: p.currency,
  currencyDecimals: p.currencyDecimals,
  acConnectors: p.acConnectors,
  dcConnectors: p.dcConnectors,
  beginAt: p.beginAt.toISOString(),
  endAt: p.endAt.toISOString(),
  remark: p.remark,
  voidedAt: p.voidedAt?.toISOString() ?? null,
  createdAt: p.createdAt.toISOString(),
});

const presentBill = (b: BillRow) => ({
  id: b.id,
  packageId: b.packageId,
  day: b.day,
  acConnectors: b.acConnectors,
  dcConnectors: b.dcConnectors,
  acAmount: b.acAmount,
  dcAmount: b.dcAmount,
  amount: b.amount,
  currency: b.currency,
  recorded: b.recorded,
  settled: b.settled,
});

/**
 * The statement that sets an operator's authorised counts to the sums of its effective packages
 * (docs/rules/platform.md "Price packages").
 */
export function recomputeQuota(db: Db, operatorId: number) {
  const sum = (column: typeof pricePackages.acConnectors | typeof pricePackages.dcConnectors) =>
    sql<number>`(${db
      .select({ n: sql`coalesce(sum(${column}), 0)` })
      .from(pricePackages)
      .where(ownedBy(operatorId, pricePackages, eq(pricePackages.status, "effective")))})`;
  return db
    .update(operators)
    .set({ authorizedAcConnectors: sum(pricePackages.acConnectors), authorizedDcConnectors: sum(pricePackages.dcConnectors) })
    .where(eq(operators.id, operatorId));
}

/** A main operator the platform charges (404 otherwise), with its currency. */
async function chargedOperator(ctx: UserCtx, operatorId: number) {
  const [row] = await ctx.db
    .select({ id: operators.id, code: operators.code, name: operators.name })
    .from(operators)
    .where(and(eq(operators.id, operatorId), eq(operators.kind, "OPERATOR"), eq(operators.sub, 0)))
    .limit(1);
  if (!row) throw new NotFound("platform.errors.operatorNotFound");
  return row;
}

async function currencyOf(ctx: Ctx, operatorId: number) {
  const settings = await settingsOf(ctx.db, operatorId);
  return { currency: settings.currencyCode, currencyDecimals: settings.currencyDecimals };
}

// ── the platform's side ───────────────────────────────────────────────────────────────────────

export const listPackages = verb({ menu: PACKAGE_MENU }, async (ctx, raw: unknown) => {
  requirePlatformSuper(ctx);
  const q = packageListQuery.parse(raw);
  const where = acrossTenants(
    "the platform's own screen manages every operator's packages",
    q.operatorCode ? startingWith(operators.code, q.operatorCode) : undefined,
    q.type ? eq(pricePackages.type, q.type) : undefined,
    q.status ? eq(pricePackages.status, q.status) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ pkg: pricePackages, code: operators.code, name: operators.name })
          .from(pricePackages)
          .innerJoin(operators, eq(operators.id, pricePackages.operatorId))
          .where(where)
          .orderBy(desc(pricePackages.beginAt), desc(pricePackages.id))
          .limit(limit)
          .offset(offset)
      ).map((r) => presentPackage(r.pkg, r)),
    async () =>
      (await ctx.db.select({ total: count() }).from(pricePackages).innerJoin(operators, eq(operators.id, pricePackages.operatorId)).where(where))[0]
        .total,
  );
});

async function findPackage(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select({ pkg: pricePackages, code: operators.code, name: operators.name })
    .from(pricePackages)
    .innerJoin(operators, eq(operators.id, pricePackages.operatorId))
    .where(acrossTenants("the platform reads any operator's package by its id", eq(pricePackages.id, id)))
    .limit(1);
  if (!row) throw new NotFound("platform.errors.packageNotFound");
  return row;
}

export const getPackage = verb({ menu: PACKAGE_MENU }, async (ctx, id: number) => {
  requirePlatformSuper(ctx);
  const row = await findPackage(ctx, id);
  return presentPackage(row.pkg, row);
});

/** POST /platform-service/price-package: its state follows from its dates; the quota follows. */
export const createPackage = verb({ menu: PACKAGE_MENU, mutates: true }, async (ctx, raw: unknown) => {
  requirePlatformSuper(ctx);
  const input = pricePackageInput.parse(raw);
  const operator = await chargedOperator(ctx, input.operatorId);
  const tenant = { operator: { id: operator.id } };
  const status = packageStateAt({ status: "ineffective", beginAt: input.beginAt, endAt: input.endAt }, ctx.now());
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(pricePackages)
      .values(
        ownedRow(tenant, {
          type: input.type,
          status,
          acPrice: input.acPrice,
          dcPrice: input.dcPrice,
          ...(await currencyOf(ctx, operator.id)),
          acConnectors: input.acConnectors,
          dcConnectors: input.dcConnectors,
          beginAt: input.beginAt,
          endAt: input.endAt,
          remark: input.remark ?? null,
          createdAt: now,
          updatedAt: now,
        }),
      )
      .returning(),
    recomputeQuota(ctx.db, operator.id),
    auditRow(ctx, { table: "price_packages", module: "pricePackage", type: "CREATE", newData: { operator: operator.code, ...input, status } }),
  ]);
  return presentPackage(created, operator);
});

/** PUT /platform-service/price-package/{id}/void: a voided package authorises and bills nothing more. */
export const voidPackage = verb({ menu: PACKAGE_MENU, mutates: true }, async (ctx, id: number) => {
  requirePlatformSuper(ctx);
  const row = await findPackage(ctx, id);
  if (row.pkg.status === "void" || row.pkg.status === "expired") throw new Conflict("platform.errors.packageClosed", { status: row.pkg.status });
  const tenant = { operator: { id: row.pkg.operatorId } };
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db.update(pricePackages).set({ status: "void", voidedAt: now, updatedAt: now }).where(owned(tenant, pricePackages, eq(pricePackages.id, id))),
    recomputeQuota(ctx.db, row.pkg.operatorId),
    auditRow(ctx, { table: "price_packages", module: "pricePackage", type: "UPDATE", oldData: { id, status: row.pkg.status }, newData: { id, status: "void" } }),
  ]);
  return presentPackage({ ...row.pkg, status: "void", voidedAt: now }, row);
});

function billsOf(ctx: UserCtx, tenant: { operator: { id: number } }, packageId: number, raw: unknown) {
  const q = billListQuery.parse(raw);
  const where = owned(
    tenant,
    packageBills,
    eq(packageBills.packageId, packageId),
    q.recorded ? eq(packageBills.recorded, q.recorded === "true") : undefined,
    q.settled ? eq(packageBills.settled, q.settled === "true") : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (await ctx.db.select().from(packageBills).where(where).orderBy(desc(packageBills.day), desc(packageBills.id)).limit(limit).offset(offset)).map(
        presentBill,
      ),
    async () => (await ctx.db.select({ total: count() }).from(packageBills).where(where))[0].total,
  );
}

/** The bills of one package, newest day first, filtered by their flags. */
export const listPackageBills = verb({ menu: PACKAGE_MENU }, async (ctx, packageId: number, raw: unknown) => {
  requirePlatformSuper(ctx);
  const row = await findPackage(ctx, packageId);
  return billsOf(ctx, { operator: { id: row.pkg.operatorId } }, packageId, raw);
});

/** PUT /platform-service/price-package/bill/{id}: marks a bill recorded and/or settled (or not). */
export const setBillFlags = verb({ menu: PACKAGE_MENU, mutates: true }, async (ctx, billId: number, raw: unknown) => {
  requirePlatformSuper(ctx);
  const flags = billFlagsInput.parse(raw);
  const [bill] = await ctx.db
    .select()
    .from(packageBills)
    .where(acrossTenants("the platform settles any operator's package bill by its id", eq(packageBills.id, billId)))
    .limit(1);
  if (!bill) throw new NotFound("platform.errors.billNotFound");
  const tenant = { operator: { id: bill.operatorId } };
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(packageBills)
      .set({ ...flags, updatedAt: new Date(ctx.now()) })
      .where(owned(tenant, packageBills, eq(packageBills.id, billId)))
      .returning(),
    auditRow(ctx, { table: "package_bills", module: "pricePackage", type: "UPDATE", oldData: { id: billId, recorded: bill.recorded, settled: bill.settled }, newData: { id: billId, ...flags } }),
  ]);
  return presentBill(updated);
});

// ── the operator's side ───────────────────────────────────────────────────────────────────────

/** The operator's own packages (Operator info), newest first. */
export const ownPackages = verb({ menu: OWN_PACKAGE_MENU }, async (ctx, raw: unknown) => {
  const q = packageListQuery.parse(raw);
  const where = owned(ctx, pricePackages, q.type ? eq(pricePackages.type, q.type) : undefined, q.status ? eq(pricePackages.status, q.status) : undefined);
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (await ctx.db.select().from(pricePackages).where(where).orderBy(desc(pricePackages.beginAt), desc(pricePackages.id)).limit(limit).offset(offset)).map(
        (p) => presentPackage(p, ctx.operator),
      ),
    async () => (await ctx.db.select({ total: count() }).from(pricePackages).where(where))[0].total,
  );
});

/** authorizationBillingDetail: one of the operator's own packages and its bills. */
export const ownPackageBills = verb({ menu: OWN_PACKAGE_MENU }, async (ctx, packageId: number, raw: unknown) => {
  const [pkg] = await ctx.db.select().from(pricePackages).where(owned(ctx, pricePackages, eq(pricePackages.id, packageId))).limit(1);
  if (!pkg) throw new NotFound("platform.errors.packageNotFound");
  return { package: presentPackage(pkg, ctx.operator), bills: await billsOf(ctx, ctx, packageId, raw) };
});

/**
 * The temporary package the operator would get for connectors beyond its quota: the prices of
 * its effective default or regular package that ends last, from now until that package's end
 * (docs/rules/platform.md "Temporary package").
 */
async function temporaryTerms(ctx: UserCtx, wanted: { acConnectors: number; dcConnectors: number }) {
  const [base] = await ctx.db
    .select()
    .from(pricePackages)
    .where(owned(ctx, pricePackages, eq(pricePackages.status, "effective"), inArray(pricePackages.type, ["default", "regular"])))
    .orderBy(desc(pricePackages.endAt), desc(pricePackages.id))
    .limit(1);
  if (!base) throw new Conflict("platform.errors.noPackage");
  const dailyAmount = dayCharge(base.acPrice, wanted.acConnectors, base.currencyDecimals) + dayCharge(base.dcPrice, wanted.dcConnectors, base.currencyDecimals);
  const days = daysLeft(ctx.now(), base.endAt.getTime());
  return {
    type: "temporary" as const,
    acConnectors: wanted.acConnectors,
    dcConnectors: wanted.dcConnectors,
    acPrice: base.acPrice,
    dcPrice: base.dcPrice,
    currency: base.currency,
    currencyDecimals: base.currencyDecimals,
    beginAt: new Date(ctx.now()).toISOString(),
    endAt: base.endAt.toISOString(),
    days,
    dailyAmount,
    totalAmount: dailyAmount * days,
  };
}

/** GET /platform-service/price-package/temporary/offer: the price shown before confirming. */
export const temporaryOffer = verb({ menu: TEMPORARY_PACKAGE_MENUS }, async (ctx, raw: unknown) => {
  if (ctx.operator.sub === 1) throw new NotFound("platform.errors.packageNotFound");
  return temporaryTerms(ctx, temporaryOfferQuery.parse(raw));
});

/**
 * POST /platform-service/price-package/temporary: the operator accepts the offer it was shown.
 * When the prices changed meanwhile it is refused (409, with the new offer in `data`); otherwise
 * the package is effective at once and the quota grows in the same batch.
 */
export const acceptTemporary = verb({ menu: TEMPORARY_PACKAGE_MENUS, mutates: true }, async (ctx, raw: unknown) => {
  if (ctx.operator.sub === 1) throw new NotFound("platform.errors.packageNotFound");
  const input = temporaryAcceptInput.parse(raw);
  const terms = await temporaryTerms(ctx, input);
  if (terms.acPrice !== input.acPrice || terms.dcPrice !== input.dcPrice) throw new Conflict("platform.errors.offerChanged", {}, terms);
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(pricePackages)
      .values(
        ownedRow(ctx, {
          type: "temporary" as const,
          status: "effective" as const,
          acPrice: terms.acPrice,
          dcPrice: terms.dcPrice,
          currency: terms.currency,
          currencyDecimals: terms.currencyDecimals,
          acConnectors: input.acConnectors,
          dcConnectors: input.dcConnectors,
          beginAt: now,
          endAt: new Date(terms.endAt),
          createdAt: now,
          updatedAt: now,
        }),
      )
      .returning(),
    recomputeQuota(ctx.db, ctx.operator.id),
    auditRow(ctx, { table: "price_packages", module: "pricePackage", type: "CREATE", newData: { type: "temporary", ...input } }),
  ]);
  return presentPackage(created, ctx.operator);
});

// ── the daily run ─────────────────────────────────────────────────────────────────────────────

/** Moves packages to the state their dates give; answers the operators whose quota changes. */
export async function advanceStates(ctx: Ctx): Promise<number[]> {
  const now = new Date(ctx.now());
  const [begun, ended] = await ctx.db.batch([
    ctx.db
      .update(pricePackages)
      .set({ status: "effective", updatedAt: now })
      .where(acrossTenants("the daily run starts every operator's packages whose period began", eq(pricePackages.status, "ineffective"), lte(pricePackages.beginAt, now), gt(pricePackages.endAt, now)))
      .returning({ operatorId: pricePackages.operatorId }),
    ctx.db
      .update(pricePackages)
      .set({ status: "expired", updatedAt: now })
      .where(acrossTenants("the daily run ends every operator's packages whose period ended", or(eq(pricePackages.status, "ineffective"), eq(pricePackages.status, "effective")), lte(pricePackages.endAt, now)))
      .returning({ operatorId: pricePackages.operatorId }),
  ]);
  return [...new Set([...begun, ...ended].map((r) => r.operatorId))];
}

/** Each operator's effective packages, across operators, ordered by operator. */
export function effectivePackages(ctx: Ctx): Promise<PackageRow[]> {
  return ctx.db
    .select()
    .from(pricePackages)
    .where(acrossTenants("the daily run bills every operator's effective packages", eq(pricePackages.status, "effective")))
    .orderBy(asc(pricePackages.operatorId), asc(pricePackages.id));
}

