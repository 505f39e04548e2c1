import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { localListEntries, localListPoints, offlineListPushItems, operators, points } from "../../../db/schema";
import { batchOf, IN_LIST, slices } from "../../../db/statements";
import { authorizationData, differentialChanges, entriesAt, tagKey, type LocalEntry } from "../../../domain/local-list";
import type { UpdateType } from "../../../domain/schemas/driver-services";
import { acrossTenants, owned, ownedRow, ownedRows } from "../../../tenants/scope";
import type { CallOutcome } from "../../ocpp/charge-point";
import { chargePointName } from "../../ocpp/identity";
import { auditRow } from "../audit";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { allowedPoints, heldEntries, listedTags, listRow } from "./list-tags";
import { roamingListEntries } from "../ocpi/cpo/tokens";

/**
 * Delivery of offline lists to chargers, by the push queue as the system
 * (docs/rules/driver-services.md "Offline lists", docs/decisions/0040-local-list-versions-per-point.md):
 * SendLocalList at once, without asking the charger anything first; the first list a point gets is
 * Full, later ones Differential with only what changed; the point's version goes up by one on each
 * accepted push.
 */
const system = { actors: ["system"] } as const;

/** Entry rows per insert: seven bound columns each. */
const ENTRY_ROWS = 12;

/** What one delivery sends: the update type, the version, and the entries. */
export function plannedUpdate(
  state: { version: number; needsFull: boolean } | undefined,
  current: ReadonlyMap<string, LocalEntry>,
  held: ReadonlyMap<string, LocalEntry & { listId: number }>,
  listId: number,
) {
  const version = (state?.version ?? 0) + 1;
  if (!state || state.needsFull) {
    // A Full update replaces the charger's whole list: the other lists' entries go along.
    const entries = new Map<string, LocalEntry & { listId: number }>();
    for (const [key, entry] of held) if (entry.listId !== listId) entries.set(key, entry);
    for (const [key, entry] of current) entries.set(key, { ...entry, listId });
    return { updateType: "Full" as UpdateType, version, entries: [...entries.values()] };
  }
  return { updateType: "Differential" as UpdateType, version, entries: differentialChanges(current, held, listId).map((e) => ({ ...e, listId })) };
}

/** The statements that record what the charger now holds, after it accepted the update. */
function recordAccepted(ctx: SystemCtx, pointId: number, plan: ReturnType<typeof plannedUpdate>) {
  const now = new Date(ctx.now());
  const cleared =
    plan.updateType === "Full"
      ? [ctx.db.delete(localListEntries).where(owned(ctx, localListEntries, eq(localListEntries.pointId, pointId)))]
      : slices(
          plan.entries.map((e) => tagKey(e.idTag)),
          IN_LIST,
        ).map((keys) => ctx.db.delete(localListEntries).where(owned(ctx, localListEntries, eq(localListEntries.pointId, pointId), inArray(sql`upper(${localListEntries.idTag})`, keys))));
  const rows = plan.entries.map((e) => ({
    pointId,
    listId: e.listId,
    idTag: e.idTag,
    status: e.status,
    expiryDate: e.expiryDate === null ? null : new Date(e.expiryDate),
    parentIdTag: e.parentIdTag,
  }));
  return [
    ...cleared,
    ...slices(rows, ENTRY_ROWS).map((slice) => ctx.db.insert(localListEntries).values(ownedRows(ctx, slice))),
    ctx.db
      .insert(localListPoints)
      .values(ownedRow(ctx, { pointId, version: plan.version, needsFull: false, updatedAt: now }))
      .onConflictDoUpdate({ target: [localListPoints.operatorId, localListPoints.pointId], set: { version: plan.version, needsFull: false, updatedAt: now } }),
  ];
}

/**
 * Delivers one push item. An item that is no longer PENDING (a message delivered twice) or not yet
 * due is left alone. The outcome is SUCCESS when the charger answers Accepted, FAIL otherwise, with
 * the charger's status, or `offline`, `timeout` or `error`. VersionMismatch makes the point's next
 * update Full.
 */
export const deliverPushItem = verb(system, async (ctx, itemId: number) => {
  const [item] = await ctx.db
    .select({ item: offlineListPushItems, serialNumber: points.serialNumber })
    .from(offlineListPushItems)
    .innerJoin(points, and(eq(points.id, offlineListPushItems.pointId), eq(points.operatorId, offlineListPushItems.operatorId)))
    .where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.id, itemId)))
    .limit(1);
  if (!item || item.item.status !== "PENDING") return null;
  if (item.item.notBefore && item.item.notBefore.getTime() > ctx.now()) return null;
  const { listId, pointId } = item.item;
  const list = await listRow(ctx, listId);
  if (!list) return null;
  const [tags, allowed, held, [state]] = await Promise.all([
    listedTags(ctx, list),
    allowedPoints(ctx, listId),
    heldEntries(ctx, [pointId]),
    ctx.db.select().from(localListPoints).where(owned(ctx, localListPoints, eq(localListPoints.pointId, pointId))).limit(1),
  ]);
  const current = entriesAt(tags, allowed, pointId, ctx.now());
  // Partners' drivers whose eMSP lets them in offline, at a station published to roaming (docs/rules/ocpi.md "Partners' drivers at our chargers").
  for (const entry of await roamingListEntries(ctx, pointId)) if (!current.has(tagKey(entry.idTag))) current.set(tagKey(entry.idTag), entry);
  const plan = plannedUpdate(state, current, held.get(pointId) ?? new Map(), listId);
  const payload = { listVersion: plan.version, updateType: plan.updateType, localAuthorizationList: plan.entries.map(authorizationData) };
  const stub = ctx.env.CHARGE_POINT.getByName(chargePointName(ctx.operator.id, item.serialNumber));
  const outcome = (await stub.send("SendLocalList", payload)) as CallOutcome<"SendLocalList">;
  const reason = outcome.ok ? outcome.response.status : outcome.reason === "error" ? `error: ${outcome.code}` : outcome.reason;
  const accepted = outcome.ok && outcome.response.status === "Accepted";
  const now = new Date(ctx.now());
  const settle = ctx.db
    .update(offlineListPushItems)
    .set({
      status: accepted ? "SUCCESS" : "FAIL",
      reason,
      updateType: plan.updateType,
      listVersion: plan.version,
      entryCount: plan.entries.length,
      attempts: sql`${offlineListPushItems.attempts} + 1`,
      answeredAt: now,
    })
    .where(owned(ctx, offlineListPushItems, eq(offlineListPushItems.id, itemId), eq(offlineListPushItems.status, "PENDING")));
  const mismatch =
    outcome.ok && outcome.response.status === "VersionMismatch"
      ? [
          ctx.db
            .insert(localListPoints)
            .values(ownedRow(ctx, { pointId, version: state?.version ?? 0, needsFull: true, updatedAt: now }))
            .onConflictDoUpdate({ target: [localListPoints.operatorId, localListPoints.pointId], set: { needsFull: true, updatedAt: now } }),
        ]
      : [];
  await batchOf(ctx.db, [
    settle,
    ...(accepted ? recordAccepted(ctx, pointId, plan) : mismatch),
    auditRow(ctx, {
      table: "offline_list_push_items",
      module: "offlineList",
      type: "UPDATE",
      newData: { itemId, listId, serialNumber: item.serialNumber, updateType: plan.updateType, listVersion: plan.version, entries: plan.entries.length },
      response: outcome.ok ? outcome.response : { reason },
    }),
  ]);
  return { status: accepted ? ("SUCCESS" as const) : ("FAIL" as const), reason, ...plan };
});

/**
 * Items the cron hands to the queue, across operators: those whose list's effective time has
 * passed, and those still waiting long after they were queued (a message lost on the way).
 * Delivering an item twice changes nothing, since only a PENDING item is sent.
 */
export const duePushItems = verb(system, async (ctx, now: Date, staleBefore: Date) =>
  ctx.db
    .select({ itemId: offlineListPushItems.id, operatorId: offlineListPushItems.operatorId, operatorCode: operators.code })
    .from(offlineListPushItems)
    .innerJoin(operators, eq(operators.id, offlineListPushItems.operatorId))
    .where(
      acrossTenants(
        "the cron finds every operator's waiting local-list items; each is delivered as its own operator",
        eq(offlineListPushItems.status, "PENDING"),
        or(lte(offlineListPushItems.notBefore, now), and(isNull(offlineListPushItems.notBefore), lte(offlineListPushItems.createdAt, staleBefore))),
      ),
    )
    .limit(1000),
);
