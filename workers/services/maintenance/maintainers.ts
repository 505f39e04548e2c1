import { count, desc, eq, inArray, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { containingIf } from "../../../db/like";
import { groupBy, pageOf, rowsFor } from "../../../db/paging";
import { accounts, faultCodes, maintainerDevices, maintainers, points, roles, stations, workOrders } from "../../../db/schema";
import { batchOf, isUniqueViolation, slices } from "../../../db/statements";
import { Conflict, Forbidden, Invalid, NotFound } from "../../../domain/errors";
import { maintainerInput, maintainerListQuery, type MaintainerInput } from "../../../domain/schemas/maintenance";
import { isOcppFaultCode, OCPP_FAULT_CODES } from "../../../domain/schemas/operations";
import { owned, ownedRow, ownedRows, visible } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, UserCtx } from "../context";
import { faultCodesOf } from "../faults/fault-codes";
import { verb } from "../verb";

/**
 * Maintenance staff (docs/rules/maintenance.md "Maintainers"): accounts of a MAINTAINER role with
 * their manufacturer, warden account, bound fault codes and the stations and points they answer for.
 */
export const MAINTAIN_MENU = "operation.maintain";

/** Device rows per insert: four bound columns each, well inside D1's 100 parameters. */
const DEVICE_ROWS = 20;

/** Whether the user acts as maintenance staff: they see and handle only their own work orders. */
export const actsAsMaintainer = (ctx: Ctx) => ctx.actor.kind === "user" && (ctx as UserCtx).actor.role?.type === "MAINTAINER";

/** The maintainer row of the logged-in maintainer (null: the account was never made one). */
export async function ownMaintainerId(ctx: UserCtx): Promise<number | null> {
  const [row] = await ctx.db.select({ id: maintainers.id }).from(maintainers).where(owned(ctx, maintainers, eq(maintainers.accountId, ctx.actor.accountId))).limit(1);
  return row?.id ?? null;
}

/** The stations assigned to a maintainer row itself (not those it sees through its points). */
async function heldStationIds(ctx: Ctx, maintainerId: number): Promise<Set<number>> {
  const rows = await ctx.db
    .select({ stationId: maintainerDevices.stationId })
    .from(maintainerDevices)
    .where(owned(ctx, maintainerDevices, eq(maintainerDevices.maintainerId, maintainerId), isNotNull(maintainerDevices.stationId)));
  return new Set(rows.map((r) => r.stationId!));
}

/**
 * The acting maintainer's row, for the devices it creates (docs/rules/maintenance.md "Maintainers"):
 * null for anyone who is not maintenance staff. An account of a MAINTAINER role never made a
 * maintainer sees no device, so it may not create one either (403).
 */
export async function creatingMaintainer(ctx: UserCtx): Promise<number | null> {
  if (!actsAsMaintainer(ctx)) return null;
  const id = await ownMaintainerId(ctx);
  if (id === null) throw new Forbidden("maintenance.errors.notYetMaintainer");
  return id;
}

/**
 * The rows that make devices a maintainer just created its own, for the creating batch: a
 * station, and each point whose station it does not already hold. Nothing for anyone else.
 */
export async function ownDeviceRows(
  ctx: UserCtx,
  maintainerId: number | null,
  devices: { stationId?: number | SQL<number>; point?: { id: number | SQL<number>; stationId: number | null } }[],
) {
  if (maintainerId === null || devices.length === 0) return [];
  const held = devices.some((d) => d.point) ? await heldStationIds(ctx, maintainerId) : new Set<number>();
  const rows = devices.flatMap((d): { maintainerId: number; stationId: number | SQL<number> | null; pointId: number | SQL<number> | null }[] => {
    if (d.stationId !== undefined) return [{ maintainerId, stationId: d.stationId, pointId: null }];
    if (d.point && (d.point.stationId === null || !held.has(d.point.stationId))) return [{ maintainerId, stationId: null, pointId: d.point.id }];
    return [];
  });
  return slices(rows, DEVICE_ROWS).map((slice) => ctx.db.insert(maintainerDevices).values(ownedRows(ctx, slice)));
}

type Row = typeof maintainers.$inferSelect;
interface Account {
  username: string;
  name: string;
  email: string | null;
}

async function devicesOf(ctx: Ctx, ids: number[]) {
  const rows = await rowsFor(ids, (slice) =>
    ctx.db
      .select({ maintainerId: maintainerDevices.maintainerId, stationId: maintainerDevices.stationId, pointId: maintainerDevices.pointId, stationName: stations.name, serialNumber: points.serialNumber })
      .from(maintainerDevices)
      .leftJoin(stations, eq(stations.id, maintainerDevices.stationId))
      .leftJoin(points, eq(points.id, maintainerDevices.pointId))
      .where(owned(ctx, maintainerDevices, inArray(maintainerDevices.maintainerId, slice))),
  );
  return groupBy(rows, (r) => r.maintainerId);
}

async function openOrdersOf(ctx: Ctx, ids: number[]) {
  const rows = await rowsFor(ids, (slice) =>
    ctx.db
      .select({ maintainerId: workOrders.maintainerId, open: count() })
      .from(workOrders)
      .where(owned(ctx, workOrders, inArray(workOrders.maintainerId, slice), ne(workOrders.status, "CLOSE")))
      .groupBy(workOrders.maintainerId),
  );
  return new Map(rows.map((r) => [r.maintainerId, r.open]));
}

async function present(ctx: Ctx, list: { m: Row; account: Account }[]) {
  const ids = list.map((r) => r.m.id);
  const [devices, open] = await Promise.all([devicesOf(ctx, ids), openOrdersOf(ctx, ids)]);
  return list.map(({ m, account }) => {
    const mine = devices.get(m.id) ?? [];
    return {
      id: m.id,
      accountId: m.accountId,
      username: account.username,
      name: account.name,
      email: account.email,
      manufacturer: m.manufacturer,
      wardenAccount: m.wardenAccount,
      faultCodes: m.faultCodes,
      stations: mine.filter((d) => d.stationId !== null).map((d) => ({ id: d.stationId!, name: d.stationName })),
      points: mine.filter((d) => d.pointId !== null).map((d) => ({ id: d.pointId!, serialNumber: d.serialNumber })),
      openOrders: open.get(m.id) ?? 0,
      createdAt: m.createdAt.toISOString(),
    };
  });
}

const selection = { m: maintainers, account: { username: accounts.username, name: accounts.name, email: accounts.email } };

/** Maintainers newest first, by username or name. */
export const listMaintainers = verb({ menu: MAINTAIN_MENU }, async (ctx, raw: unknown) => {
  const q = maintainerListQuery.parse(raw);
  const keyword = q.keyword ? or(containingIf(accounts.username, q.keyword), containingIf(accounts.name, q.keyword)) : undefined;
  const where = owned(ctx, maintainers, keyword);
  return pageOf(
    q,
    async ({ limit, offset }) =>
      present(
        ctx,
        await ctx.db.select(selection).from(maintainers).innerJoin(accounts, eq(accounts.id, maintainers.accountId)).where(where).orderBy(desc(maintainers.createdAt), desc(maintainers.id)).limit(limit).offset(offset),
      ),
    async () => (await ctx.db.select({ total: count() }).from(maintainers).innerJoin(accounts, eq(accounts.id, maintainers.accountId)).where(where))[0].total,
  );
});

export const getMaintainer = verb({ menu: MAINTAIN_MENU }, async (ctx, id: number) => {
  const rows = await ctx.db.select(selection).from(maintainers).innerJoin(accounts, eq(accounts.id, maintainers.accountId)).where(owned(ctx, maintainers, eq(maintainers.id, id))).limit(1);
  if (!rows[0]) throw new NotFound("maintenance.errors.maintainerNotFound");
  return (await present(ctx, rows))[0];
});

/**
 * Nobody hands out devices they do not hold (docs/rules/access.md "No escalation"): an operator's
 * staff hold all of the operator's; a maintainer only the stations assigned to it and the points
 * it sees (its own and those of its stations). Devices the record already has may stay.
 */
async function checkHeld(ctx: UserCtx, stationIds: number[], pointIds: number[], before?: { stations: { id: number }[]; points: { id: number }[] }) {
  if (!actsAsMaintainer(ctx)) return;
  const had = { stations: new Set(before?.stations.map((s) => s.id)), points: new Set(before?.points.map((p) => p.id)) };
  const addedStations = stationIds.filter((id) => !had.stations.has(id));
  const addedPoints = pointIds.filter((id) => !had.points.has(id));
  if (addedStations.length === 0 && addedPoints.length === 0) return;
  const own = await ownMaintainerId(ctx);
  const held = own === null ? new Set<number>() : await heldStationIds(ctx, own);
  const seen = await rowsFor(addedPoints, (slice) => ctx.db.select({ id: points.id }).from(points).where(visible(ctx, points, points.id, inArray(points.id, slice))));
  if (addedStations.some((id) => !held.has(id)) || seen.length !== addedPoints.length) throw new Forbidden("maintenance.errors.beyondOwnDevices");
}

/** Whether an edit changes what a maintainer answers for: its fault codes, stations or points. */
function changesScope(before: { faultCodes: string[]; stations: { id: number }[]; points: { id: number }[] }, input: MaintainerInput) {
  const same = (a: readonly (string | number)[], b: readonly (string | number)[]) => {
    const left = new Set(a);
    const right = new Set(b);
    return left.size === right.size && [...left].every((x) => right.has(x));
  };
  return !same(before.faultCodes, input.faultCodes) || !same(before.stations.map((s) => s.id), input.stationIds) || !same(before.points.map((p) => p.id), input.pointIds);
}

/**
 * Checks a maintainer's input against the operator's records: the account must be of a MAINTAINER
 * role (400), the fault codes in the catalogue (400), the stations and points the operator's (404).
 */
async function checkInput(ctx: UserCtx, input: MaintainerInput) {
  const [account] = await ctx.db
    .select({ id: accounts.id, roleType: roles.type })
    .from(accounts)
    .leftJoin(roles, eq(roles.id, accounts.roleId))
    .where(owned(ctx, accounts, eq(accounts.id, input.accountId)))
    .limit(1);
  if (!account) throw new NotFound("maintenance.errors.accountNotFound");
  if (account.roleType !== "MAINTAINER") throw new Invalid("maintenance.validation.notMaintainerAccount", {}, { accountId: "maintenance.validation.notMaintainerAccount" });
  const codes = [...new Set(input.faultCodes)];
  const known = await faultCodesOf(ctx, codes);
  const unknown = codes.filter((c) => !known.has(c) && !isOcppFaultCode(c));
  if (unknown.length > 0) throw new Invalid("maintenance.validation.unknownFaultCode", { codes: unknown.join(", ") }, { faultCodes: "maintenance.validation.unknownFaultCode" });
  const stationIds = [...new Set(input.stationIds)];
  const pointIds = [...new Set(input.pointIds)];
  const [foundStations, foundPoints] = await Promise.all([
    rowsFor(stationIds, (slice) => ctx.db.select({ id: stations.id }).from(stations).where(owned(ctx, stations, inArray(stations.id, slice)))),
    rowsFor(pointIds, (slice) => ctx.db.select({ id: points.id }).from(points).where(owned(ctx, points, inArray(points.id, slice)))),
  ]);
  if (foundStations.length !== stationIds.length) throw new NotFound("maintenance.errors.stationNotFound");
  if (foundPoints.length !== pointIds.length) throw new NotFound("maintenance.errors.pointNotFound");
  return { codes, stationIds, pointIds };
}

/** The device rows of a maintainer, found by its account (unique per operator) so they go in the insert's batch. */
function deviceRows(ctx: UserCtx, accountId: number, stationIds: number[], pointIds: number[]): BatchItem<"sqlite">[] {
  const maintainerId = sql<number>`(SELECT id FROM maintainers WHERE operator_id = ${ctx.operator.id} AND account_id = ${accountId})`;
  const rows = [...stationIds.map((stationId) => ({ maintainerId, stationId, pointId: null })), ...pointIds.map((pointId) => ({ maintainerId, stationId: null, pointId }))];
  return slices(rows, DEVICE_ROWS).map((slice) => ctx.db.insert(maintainerDevices).values(ownedRows(ctx, slice)));
}

export const createMaintainer = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = maintainerInput.parse(raw);
  // Nobody gives themselves a scope (docs/rules/access.md "No escalation").
  if (input.accountId === ctx.actor.accountId) throw new Forbidden("maintenance.errors.ownScope");
  const { codes, stationIds, pointIds } = await checkInput(ctx, input);
  await checkHeld(ctx, stationIds, pointIds);
  const [existing] = await ctx.db.select({ id: maintainers.id }).from(maintainers).where(owned(ctx, maintainers, eq(maintainers.accountId, input.accountId))).limit(1);
  if (existing) throw new Conflict("maintenance.errors.alreadyMaintainer");
  const values = { accountId: input.accountId, manufacturer: input.manufacturer || null, wardenAccount: input.wardenAccount || null, faultCodes: codes };
  try {
    await batchOf(ctx.db, [
      ctx.db.insert(maintainers).values(ownedRow(ctx, values)),
      ...deviceRows(ctx, input.accountId, stationIds, pointIds),
      auditRow(ctx, { table: "maintainers", module: "maintain", type: "CREATE", newData: { ...values, stationIds, pointIds } }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict("maintenance.errors.alreadyMaintainer");
    throw error;
  }
  const [row] = await ctx.db.select({ id: maintainers.id }).from(maintainers).where(owned(ctx, maintainers, eq(maintainers.accountId, input.accountId))).limit(1);
  return getMaintainer(ctx, row.id);
});

export const updateMaintainer = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = maintainerInput.parse(raw);
  const before = await getMaintainer(ctx, id);
  if (before.accountId !== input.accountId) throw new Invalid("maintenance.validation.accountFixed", {}, { accountId: "maintenance.validation.accountFixed" });
  // A maintainer may keep its own record's details up to date, never what it answers for.
  if (before.accountId === ctx.actor.accountId && changesScope(before, input)) throw new Forbidden("maintenance.errors.ownScope");
  const { codes, stationIds, pointIds } = await checkInput(ctx, input);
  await checkHeld(ctx, stationIds, pointIds, before);
  const values = { manufacturer: input.manufacturer || null, wardenAccount: input.wardenAccount || null, faultCodes: codes };
  await batchOf(ctx.db, [
    ctx.db.update(maintainers).set({ ...values, updatedAt: new Date(ctx.now()) }).where(owned(ctx, maintainers, eq(maintainers.id, id))),
    ctx.db.delete(maintainerDevices).where(owned(ctx, maintainerDevices, eq(maintainerDevices.maintainerId, id))),
    ...deviceRows(ctx, input.accountId, stationIds, pointIds),
    auditRow(ctx, {
      table: "maintainers",
      module: "maintain",
      type: "UPDATE",
      oldData: { id, faultCodes: before.faultCodes, stationIds: before.stations.map((s) => s.id), pointIds: before.points.map((p) => p.id) },
      newData: { id, ...values, stationIds, pointIds },
    }),
  ]);
  return getMaintainer(ctx, id);
});

/** A maintainer with open work orders (to do or processed) cannot be removed: reassign them first (409). */
export const deleteMaintainer = verb({ menu: MAINTAIN_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await getMaintainer(ctx, id);
  if (before.openOrders > 0) throw new Conflict("maintenance.errors.maintainerHasOrders");
  await batchOf(ctx.db, [
    ctx.db.delete(maintainerDevices).where(owned(ctx, maintainerDevices, eq(maintainerDevices.maintainerId, id))),
    // Closed orders keep their history; only the link to the handler goes.
    ctx.db.update(workOrders).set({ maintainerId: null }).where(owned(ctx, workOrders, eq(workOrders.maintainerId, id))),
    ctx.db.delete(maintainers).where(owned(ctx, maintainers, eq(maintainers.id, id))),
    auditRow(ctx, { table: "maintainers", module: "maintain", type: "DELETE", oldData: { id, accountId: before.accountId, username: before.username } }),
  ]);
  return { id };
});

/**
 * The maintainer a work order goes to (docs/rules/maintenance.md "Assignment"): among those bound
 * to the fault code and responsible for the point, one assigned the point itself before one
 * assigned its station, then the one with the fewest open orders, then the earliest made.
 */
export async function pickMaintainer(ctx: Ctx, point: { id: number; stationId: number | null }, faultCode: string): Promise<number | null> {
  const responsible = await ctx.db
    .select({ id: maintainers.id, faultCodes: maintainers.faultCodes, pointId: maintainerDevices.pointId })
    .from(maintainerDevices)
    .innerJoin(maintainers, eq(maintainers.id, maintainerDevices.maintainerId))
    .where(
      owned(
        ctx,
        maintainerDevices,
        point.stationId === null ? eq(maintainerDevices.pointId, point.id) : or(eq(maintainerDevices.pointId, point.id), eq(maintainerDevices.stationId, point.stationId)),
      ),
    );
  const rank = new Map<number, number>();
  for (const r of responsible) {
    if (!r.faultCodes.includes(faultCode)) continue;
    const own = r.pointId === point.id ? 0 : 1;
    rank.set(r.id, Math.min(rank.get(r.id) ?? own, own));
  }
  if (rank.size === 0) return null;
  const open = await openOrdersOf(ctx, [...rank.keys()]);
  const [best] = [...rank.entries()].sort(([a, ra], [b, rb]) => ra - rb || (open.get(a) ?? 0) - (open.get(b) ?? 0) || a - b);
  return best[0];
}

/** Whether a maintainer answers for a point (directly or through its station). */
export async function maintainerCovers(ctx: Ctx, maintainerId: number, point: { id: number; stationId: number | null }) {
  const [row] = await ctx.db
    .select({ id: maintainerDevices.id })
    .from(maintainerDevices)
    .where(
      owned(
        ctx,
        maintainerDevices,
        eq(maintainerDevices.maintainerId, maintainerId),
        point.stationId === null ? eq(maintainerDevices.pointId, point.id) : or(eq(maintainerDevices.pointId, point.id), eq(maintainerDevices.stationId, point.stationId)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The maintainer's handler fields for a work order. */
export async function handlerOf(ctx: Ctx, maintainerId: number) {
  const [row] = await ctx.db
    .select({ id: maintainers.id, username: accounts.username, name: accounts.name, email: accounts.email })
    .from(maintainers)
    .innerJoin(accounts, eq(accounts.id, maintainers.accountId))
    .where(owned(ctx, maintainers, eq(maintainers.id, maintainerId)))
    .limit(1);
  return row ?? null;
}


/** Most devices a form offers at once; an operator with more picks by location first. */
const CHOICE_LIMIT = 500;

/**
 * What the maintainer form offers: accounts of a MAINTAINER role, the fault-code catalogue (OCPP's
 * 14, then vendor codes), and the stations and points the actor may hand out: the operator's, or
 * for a maintainer those it holds itself.
 */
export const maintainerChoices = verb({ menu: MAINTAIN_MENU }, async (ctx) => {
  const own = actsAsMaintainer(ctx) ? ((await ownMaintainerId(ctx)) ?? 0) : null;
  const heldStations =
    own === null
      ? undefined
      : inArray(
          stations.id,
          ctx.db
            .select({ id: maintainerDevices.stationId })
            .from(maintainerDevices)
            .where(owned(ctx, maintainerDevices, eq(maintainerDevices.maintainerId, own), isNotNull(maintainerDevices.stationId))),
        );
  const [staff, vendor, stationRows, pointRows] = await Promise.all([
    ctx.db
      .select({ id: accounts.id, username: accounts.username, name: accounts.name })
      .from(accounts)
      .innerJoin(roles, eq(roles.id, accounts.roleId))
      .where(owned(ctx, accounts, eq(roles.type, "MAINTAINER")))
      .orderBy(accounts.username)
      .limit(CHOICE_LIMIT),
    ctx.db.select({ code: faultCodes.code }).from(faultCodes).where(owned(ctx, faultCodes, eq(faultCodes.source, "VENDOR"))).orderBy(faultCodes.code),
    ctx.db.select({ id: stations.id, name: stations.name }).from(stations).where(owned(ctx, stations, heldStations)).orderBy(stations.name).limit(CHOICE_LIMIT),
    ctx.db
      .select({ id: points.id, serialNumber: points.serialNumber, stationId: points.stationId })
      .from(points)
      .where(own === null ? owned(ctx, points) : visible(ctx, points, points.id))
      .orderBy(points.serialNumber)
      .limit(CHOICE_LIMIT),
  ]);
  return { accounts: staff, faultCodes: [...OCPP_FAULT_CODES, ...vendor.map((v) => v.code)], stations: stationRows, points: pointRows };
});
