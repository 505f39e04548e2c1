import { alias } from "drizzle-orm/sqlite-core";
import { and, count, desc, eq, gt, inArray, max, notExists, or, sql } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { customerGroups, customers, localListEntries, localListPoints, offlineListMembers, offlineListPushItems, offlineLists, points, stations } from "../../../db/schema";
import { batchOf, slices } from "../../../db/statements";
import { Conflict, NotFound } from "../../../domain/errors";
import { differentialChanges, entriesAt } from "../../../domain/local-list";
import {
  offlineListInput,
  offlineListPushInput,
  offlineListQuery,
  pushItemQuery,
  type OfflineListInput,
  type LocalListPush,
} from "../../../domain/schemas/driver-services";
import { owned, ownedRow, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { ownedCount } from "../owned-count";
import { verb } from "../verb";
import { customerNameSql } from "./pickers";
import { allowedPoints, heldEntries, listedTags, listRow } from "./list-tags";

/**
 * User management › Offline lists (docs/rules/driver-services.md "Offline lists"): which customers'
 * tags the chargers may accept offline, and their delivery with SendLocalList. The screen owns
 * that command (docs/rules/access.md "Watching is not operating").
 */
export const OFFLINE_LIST_MENU = "users.offlineUserList";

type ListRow = typeof offlineLists.$inferSelect;

/** Items inserted per statement: seven bound columns each, within D1's 100 parameters. */
const ITEM_ROWS = 12;
/** Member rows per insert: four bound columns each. */
const MEMBER_ROWS = 20;

async function findList(ctx: UserCtx, id: number) {
  const row = await listRow(ctx, id);
  if (!row) throw new NotFound("driverServices.errors.listNotFound");
  return row;
}

/** Customers (directly and through groups), pushed points and stations, and the last push, per list. */
async function tallies(ctx: UserCtx, listIds: number[]) {
  const newer = alias(offlineListPushItems, "newer");
  // Each point's newest item of the list: no newer one exists.
  const latestPerPoint = notExists(
    ctx.db
      .select({ one: sql`1` })
      .from(newer)
      .where(owned(ctx, newer, eq(newer.listId, offlineListPushItems.listId), eq(newer.pointId, offlineListPushItems.pointId), gt(newer.id, offlineListPushItems.id))),
  );
  const [users, pushed] = await Promise.all([
    rowsFor(listIds, (slice) =>
      ctx.db
        .select({ listId: offlineListMembers.listId, users: sql<number>`count(distinct ${customers.id})` })
        .from(offlineListMembers)
        .innerJoin(
          customers,
          and(eq(customers.operatorId, offlineListMembers.operatorId), or(eq(customers.id, offlineListMembers.customerId), eq(customers.groupId, offlineListMembers.groupId))),
        )
        .where(owned(ctx, offlineListMembers, inArray(offlineListMembers.listId, slice)))
        .groupBy(offlineListMembers.listId),
    ),
    rowsFor(listIds, (slice) =>
      ctx.db
        .select({
          listId: offlineListPushItems.listId,
          points: sql<number>`count(distinct case when ${offlineListPushItems.status} = 'SUCCESS' then ${offlineListPushItems.pointId} end)`,
          stations: sql<number>`count(distinct case when ${offlineListPushItems.status} = 'SUCCESS' then ${points.stationId} end)`,
          failed: sql<number>`sum(case when ${offlineListPushItems.status} = 'FAIL' then 1 else 0 end)`,
          pending: sql<number>`sum(case when ${offlineListPushItems.status} = 'PENDING' then 1 else 0 end)`,
          lastPushAt: max(offlineListPushItems.createdAt),
        })
        .from(offlineListPushItems)
        .innerJoin(points, and(eq(points.id, offlineListPushItems.pointId), eq(points.operatorId, offlineListPushItems.operatorId)))
        .where(owned(ctx, offlineListPushItems, inArray(offlineListPushItems.listId, slice), latestPerPoint))
        .groupBy(offlineListPushItems.listId),
    ),
  ]);
  const userCount = new Map(users.map((u) => [u.listId, u.users]));
  const pushes = new Map(pushed.map((p) => [p.listId, p]));
  return (id: number) => {
    const p = pushes.get(id);
    return {
      userCount: userCount.get(id) ?? 0,
      pushedPointCount: p?.points ?? 0,
      pushedStationCount: p?.stations ?? 0,
      lastPushAt: p?.lastPushAt ? new Date(p.lastPushAt).toISOString() : null,
      /** The points' newest deliveries: PENDING while one waits, FAIL when one failed, else SUCCESS; null before any push. */
      sendStatus: !p ? null : p.pending > 0 ? ("PENDING" as const) : p.failed > 0 ? ("FAIL" as const) : ("SUCCESS" as const),
    };
  };
}

const presentList = (l: ListRow, tally: ReturnType<Awaited<ReturnType<typeof tallies>>>) => ({
  id: l.id,
  name: l.name,
  chargeableType: l.chargeableType,
  effectiveTime: l.effectiveTime?.toISOString() ?? null,
  ...tally,
  createdAt: l.createdAt.toISOString(),
  updatedAt: l.updatedAt.toISOString(),
});

export const listOfflineLists = verb({ menu: OFFLINE_LIST_MENU }, async (ctx, raw: unknown) => {
  const q = offlineListQuery.parse(raw);
  const where = owned(ctx, offlineLists, containingIf(offlineLists.name, q.name), q.chargeableType ? eq(offlineLists.chargeableType, q.chargeableType) : undefined);
  const page = await pageOf(
    q,
    ({ limit, offset }) => ctx.db.select().from(offlineLists).where(where).orderBy(desc(offlineLists.id)).limit(limit).offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(offlineLists).where(where))[0].total,
  );
  const tally = await tallies(
    ctx,
    page.records.map((l) => l.id),
  );
  return { ...page, records: page.records.map((l) => presentList(l, tally(l.id))) };
});

async function membersOf(ctx: UserCtx, listId: number) {
  const [people, groups] = await Promise.all([
    ctx.db
      .select({ id: customers.id, name: customerNameSql, email: customers.email })
      .from(offlineListMembers)
      .innerJoin(customers, and(eq(customers.id, offlineListMembers.customerId), eq(customers.operatorId, offlineListMembers.operatorId)))
      .where(owned(ctx, offlineListMembers, eq(offlineListMembers.listId, listId))),
    ctx.db
      .select({ id: customerGroups.id, name: customerGroups.name, code: customerGroups.code })
      .from(offlineListMembers)
      .innerJoin(customerGroups, and(eq(customerGroups.id, offlineListMembers.groupId), eq(customerGroups.operatorId, offlineListMembers.operatorId)))
      .where(owned(ctx, offlineListMembers, eq(offlineListMembers.listId, listId))),
  ]);
  return { customers: people, groups };
}

export const offlineListDetail = verb({ menu: OFFLINE_LIST_MENU }, async (ctx, id: number) => {
  const list = await findList(ctx, id);
  const [tally, members] = await Promise.all([tallies(ctx, [id]), membersOf(ctx, id)]);
  return {
    ...presentList(list, tally(id)),
    customerIds: members.customers.map((c) => c.id),
    groupIds: members.groups.map((g) => g.id),
    ...members,
  };
});

/** Every customer and group named must be the operator's own; another operator's is 404. */
async function checkMembers(ctx: UserCtx, input: OfflineListInput) {
  if ((await ownedCount(ctx, customers, input.customerIds)) !== input.customerIds.length) throw new NotFound("driverServices.errors.customerNotFound");
  if (!input.groupIds.length) return;
  if ((await ownedCount(ctx, customerGroups, input.groupIds)) !== input.groupIds.length) throw new NotFound("driverServices.errors.groupNotFound");
}

function memberInserts(ctx: UserCtx, listId: number | ReturnType<typeof lastListId>, input: OfflineListInput) {
  const rows = [
    ...input.customerIds.map((customerId) => ({ listId, customerId, groupId: null })),
    ...input.groupIds.map((groupId) => ({ listId, customerId: null, groupId })),
  ];
  return slices(rows, MEMBER_ROWS).map((slice) => ctx.db.insert(offlineListMembers).values(ownedRows(ctx, slice as (typeof offlineListMembers.$inferInsert)[])));
}

/** The id of the list the same batch just inserted (D1 batches run in order, as one transaction). */
const lastListId = (ctx: UserCtx) => sql<number>`(${ctx.db.select({ id: max(offlineLists.id) }).from(offlineLists).where(owned(ctx, offlineLists))})`;

const listValues = (input: OfflineListInput) => ({ name: input.name, chargeableType: input.chargeableType, effectiveTime: input.effectiveTime });

export const createOfflineList = verb({ menu: OFFLINE_LIST_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = offlineListInput.parse(raw);
  await checkMembers(ctx, input);
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(offlineLists)
      .values(ownedRow(ctx, { ...listValues(input), createdAt: now, updatedAt: now }))
      .returning(),
    ...(memberInserts(ctx, lastListId(ctx), input) as []),
    auditRow(ctx, { table: "offline_lists", module: "offlineList", type: "CREATE", newData: input }),
  ]);
  return offlineListDetail(ctx, created.id);
});

export const updateOfflineList = verb({ menu: OFFLINE_LIST_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findList(ctx, id);
  const input = offlineListInput.parse(raw);
  await checkMembers(ctx, input);
  await batchOf(ctx.db, [
    ctx.db
      .update(offlineLists)
      .set({ ...listValues(input), updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, offlineLists, eq(offlineLists.id, id))),
    ctx.db.delete(offlineListMembers).where(owned(ctx, offlineListMembers, eq(offlineListMembers.listId, id))),
    ...memberInserts(ctx, id, input),
    auditRow(ctx, { table: "offline_lists", module: "offlineList", type: "UPDATE", oldData: { ...before }, newData: input }),
  ]);
  return offlineListDetail(ctx, id);
});

/**
 * A list whose tags some charger holds cannot be deleted: the chargers would keep accepting them
 * offline with nothing left to take them back (409 with the number of points).
 */
export const deleteOfflineList = verb({ menu: OFFLINE_LIST_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findList(ctx, id);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(distinct ${localListEntries.pointId})` })
    .from(localListEntries)
    .where(owned(ctx, localListEntries, eq(localListEntries.listId, id)));
  if (n > 0) throw new Conflict("driverServices.errors.listOnChargers", { points: n });
  await ctx.db.batch([
    ctx.db.delete(offlineListPushItems).where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.listId, id))),
    ctx.db.delete(offlineListMembers).where(owned(ctx, offlineListMembers, eq(offlineListMembers.listId, id))),
    ctx.db.delete(offlineLists).where(owned(ctx, offlineLists, eq(offlineLists.id, id))),
    auditRow(ctx, { table: "offline_lists", module: "offlineList", type: "DELETE", oldData: { ...before } }),
  ]);
  return null;
});

/** Hands push items to the queue, ten messages per call within its batch limit. */
export async function enqueue(ctx: UserCtx, itemIds: number[]) {
  const messages = itemIds.map((itemId) => ({ body: { kind: "localList", itemId, operatorId: ctx.operator.id, operatorCode: ctx.operator.code } satisfies LocalListPush }));
  for (const slice of slices(messages, 100)) await ctx.env.PUSH.sendBatch(slice);
}

/**
 * The statements that write PENDING push items for (list, point) pairs, in slices within D1's
 * parameter limit; each returns the new ids (read them with `pushItemIds`).
 */
export function pushItemInserts(ctx: UserCtx, pairs: { listId: number; pointId: number }[], notBefore: Date | null) {
  const now = new Date(ctx.now());
  const values = pairs.map((p) => ({ ...p, status: "PENDING" as const, notBefore, requestedBy: ctx.actor.accountId, createdAt: now }));
  return slices(values, ITEM_ROWS).map((slice) => ctx.db.insert(offlineListPushItems).values(ownedRows(ctx, slice)).returning({ id: offlineListPushItems.id }));
}

/** The ids the results of `pushItemInserts` returned. */
export const pushItemIds = (results: unknown[]) => (results as { id: number }[][]).flat().map((r) => r.id);

/**
 * POST /customer-service/offline-list/{id}/push: one item per point named and per point of the
 * stations named, each delivered by the push queue with SendLocalList without asking the charger
 * anything first. Before the list's effective time the items wait, and the cron hands them to the
 * queue once it has passed.
 */
export const pushOfflineList = verb({ menu: OFFLINE_LIST_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const list = await findList(ctx, id);
  const input = offlineListPushInput.parse(raw);
  if ((await ownedCount(ctx, points, input.pointIds)) !== input.pointIds.length) throw new NotFound("errors.pointNotFound");
  if ((await ownedCount(ctx, stations, input.stationIds)) !== input.stationIds.length) throw new NotFound("errors.stationNotFound");
  const ofStations = await rowsFor(input.stationIds, (slice) =>
    ctx.db
      .select({ id: points.id })
      .from(points)
      .where(owned(ctx, points, inArray(points.stationId, slice))),
  );
  const pointIds = [...new Set([...input.pointIds, ...ofStations.map((p) => p.id)])].sort((a, b) => a - b);
  if (!pointIds.length) throw new Conflict("driverServices.errors.noPointsToPush");
  const now = new Date(ctx.now());
  const notBefore = list.effectiveTime && list.effectiveTime.getTime() > now.getTime() ? list.effectiveTime : null;
  const inserts = pushItemInserts(
    ctx,
    pointIds.map((pointId) => ({ listId: id, pointId })),
    notBefore,
  );
  const inserted = (await batchOf(ctx.db, [
    ...inserts,
    auditRow(ctx, { table: "offline_list_push_items", module: "offlineList", type: "CREATE", newData: { listId: id, pointIds, notBefore } }),
  ])) as { id: number }[][];
  const itemIds = pushItemIds(inserted.slice(0, inserts.length));
  if (!notBefore) await enqueue(ctx, itemIds);
  return { listId: id, items: itemIds.length, pointIds, waitsUntil: notBefore?.toISOString() ?? null };
});

/** A failed item is sent again (the same item, once more through the queue); anything else is 409. */
export const retryPushItem = verb({ menu: OFFLINE_LIST_MENU, mutates: true }, async (ctx, listId: number, itemId: number) => {
  await findList(ctx, listId);
  const [item] = await ctx.db
    .select({ status: offlineListPushItems.status })
    .from(offlineListPushItems)
    .where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.id, itemId), eq(offlineListPushItems.listId, listId)))
    .limit(1);
  if (!item) throw new NotFound("driverServices.errors.itemNotFound");
  const [retried] = await ctx.db.batch([
    ctx.db
      .update(offlineListPushItems)
      .set({ status: "PENDING", reason: null, answeredAt: null, notBefore: null, createdAt: new Date(ctx.now()) })
      .where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.id, itemId), eq(offlineListPushItems.status, "FAIL")))
      .returning({ id: offlineListPushItems.id }),
    auditRow(ctx, { table: "offline_list_push_items", module: "offlineList", type: "UPDATE", newData: { listId, itemId, status: "PENDING" } }),
  ]);
  if (!retried.length) throw new Conflict("driverServices.errors.retryOnlyFailed");
  await enqueue(ctx, [itemId]);
  return { id: itemId, status: "PENDING" as const };
});

const presentItem = (i: typeof offlineListPushItems.$inferSelect, point: { serialNumber: string; stationName: string | null }) => ({
  id: i.id,
  pointId: i.pointId,
  serialNumber: point.serialNumber,
  stationName: point.stationName,
  status: i.status,
  reason: i.reason,
  updateType: i.updateType,
  listVersion: i.listVersion,
  entryCount: i.entryCount,
  attempts: i.attempts,
  waitsUntil: i.status === "PENDING" ? (i.notBefore?.toISOString() ?? null) : null,
  pushedAt: i.createdAt.toISOString(),
  answeredAt: i.answeredAt?.toISOString() ?? null,
});

/** GET /customer-service/offline-list/{id}/items: the list's deliveries, newest first. */
export const listPushItems = verb({ menu: OFFLINE_LIST_MENU }, async (ctx, id: number, raw: unknown) => {
  await findList(ctx, id);
  const q = pushItemQuery.parse(raw);
  const where = owned(ctx, offlineListPushItems, eq(offlineListPushItems.listId, id), q.status ? eq(offlineListPushItems.status, q.status) : undefined);
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ item: offlineListPushItems, serialNumber: points.serialNumber, stationName: stations.name })
        .from(offlineListPushItems)
        .innerJoin(points, and(eq(points.id, offlineListPushItems.pointId), eq(points.operatorId, offlineListPushItems.operatorId)))
        .leftJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
        .where(where)
        .orderBy(desc(offlineListPushItems.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(offlineListPushItems).where(where))[0].total,
  );
  return { ...page, records: page.records.map((r) => presentItem(r.item, r)) };
});

/**
 * GET /customer-service/offline-list/{id}/points: the points the list was pushed to, by serial
 * number, each with its list version and whether it is behind: its newest delivery did not
 * succeed, or the list's tags have changed since (a card blocked or unbound, a customer added).
 */
export const offlineListPoints = verb({ menu: OFFLINE_LIST_MENU }, async (ctx, id: number, raw: unknown) => {
  const list = await findList(ctx, id);
  const q = pushItemQuery.parse(raw);
  const reached = ctx.db
    .select({ pointId: offlineListPushItems.pointId })
    .from(offlineListPushItems)
    .where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.listId, id)));
  const where = owned(ctx, points, inArray(points.id, reached));
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ id: points.id, serialNumber: points.serialNumber, online: points.online, stationName: stations.name, version: localListPoints.version, needsFull: localListPoints.needsFull })
        .from(points)
        .leftJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
        .leftJoin(localListPoints, and(eq(localListPoints.pointId, points.id), eq(localListPoints.operatorId, points.operatorId)))
        .where(where)
        .orderBy(points.serialNumber, points.id)
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(points).where(where))[0].total,
  );
  const ids = page.records.map((p) => p.id);
  const [tags, allowed, held, latest] = await Promise.all([
    listedTags(ctx, list),
    allowedPoints(ctx, id),
    heldEntries(ctx, ids),
    // SQLite gives the bare columns of an aggregate with max() the values of the row holding the maximum: the newest item.
    rowsFor(ids, (slice) =>
      ctx.db
        .select({ pointId: offlineListPushItems.pointId, status: offlineListPushItems.status, reason: offlineListPushItems.reason, newest: max(offlineListPushItems.id) })
        .from(offlineListPushItems)
        .where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.listId, id), inArray(offlineListPushItems.pointId, slice)))
        .groupBy(offlineListPushItems.pointId),
    ),
  ]);
  const lastOf = new Map(latest.map((l) => [l.pointId, l]));
  const now = ctx.now();
  return {
    ...page,
    records: page.records.map((p) => {
      const pending = differentialChanges(entriesAt(tags, allowed, p.id, now), held.get(p.id) ?? new Map(), id).length;
      const last = lastOf.get(p.id);
      return {
        pointId: p.id,
        serialNumber: p.serialNumber,
        stationName: p.stationName,
        online: p.online,
        listVersion: p.version ?? 0,
        lastStatus: last?.status ?? null,
        lastReason: last?.reason ?? null,
        pendingChanges: pending,
        behind: pending > 0 || last?.status !== "SUCCESS" || Boolean(p.needsFull),
      };
    }),
  };
});
