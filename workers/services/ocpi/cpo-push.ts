import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { ocpiCpoPushes, ocpiPlatforms, operators, points, stations } from "../../../db/schema";
import { groupBy, rowsFor } from "../../../db/paging";
import { slices } from "../../../db/statements";
import { evseUidOf } from "../../../domain/ocpi/cpo-evse";
import type { CpoPushModule, OcpiCpoPush } from "../../../domain/schemas/ocpi/cpo";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedRows } from "../../../tenants/scope";
import { verb } from "../verb";
import { reportError } from "../../http/report-error";
import { afterAnswer, type Ctx, type SystemCtx } from "../context";
import { endpointOf } from "./identity";
import { publishedStrategyIds } from "./cpo-published";

/**
 * Pushes of what we publish as a CPO (docs/rules/ocpi.md "Pushes of what we publish", OCPI 2.2.1
 * §8.2.2, §11.2.2): a change of a published location or tariff is sent to every registered eMSP
 * and hub that has a receiver for it, through the push queue. One row per partner and object
 * keeps the state; a delivery sends the object as it is then, so a late or repeated message
 * sends nothing stale. Connector states are batched: a status marks the row PENDING and queues
 * one message a few seconds later, and every status in between rides on it.
 */

/** How long statuses gather before they are sent (docs/rules/ocpp.md "Hot path": never one push per frame). */
export const STATUS_BATCH_S = 5;
/** A refused push is tried again after 30 s, 1, 2, 4… minutes, at most an hour apart, this many times. */
export const MAX_ATTEMPTS = 10;
export const retryDelayS = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

/** Rows per insert: nine bound columns each (D1's 100 parameters; docs/rules/lists.md). */
const PUSH_ROWS = 10;

/** The operator's registered eMSPs and hubs with a receiver for `module`, when the operator roams as a CPO. */
async function receiversOf(ctx: Ctx, module: CpoPushModule) {
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  if (!settings.parameters.ocpi.roles.includes("CPO")) return [];
  const rows = await ctx.db
    .select({ platform: ocpiPlatforms })
    .from(ocpiPlatforms)
    // An operator that has not joined OCPI sends partners nothing (docs/rules/platform.md "Roaming").
    .innerJoin(operators, and(eq(operators.id, ocpiPlatforms.operatorId), eq(operators.joinOcpi, true)))
    .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.registerStatus, "Registered"), inArray(ocpiPlatforms.role, ["EMSP", "HUB"])));
  return rows.map((r) => r.platform).filter((p) => endpointOf(p.endpoints, module, "RECEIVER"));
}

/**
 * Marks objects changed for every receiver. A row already PENDING takes the change on (its
 * message is on the way); any other becomes PENDING and gets one message after `delaySeconds`.
 * `evses` (a location's EVSEs whose status changed) asks for PATCHes when the partner already
 * has the location; without it the whole object is sent again.
 */
async function objectsChanged(ctx: Ctx, module: CpoPushModule, objectIds: readonly string[], options: { evses?: Map<string, string[]>; delaySeconds?: number } = {}) {
  if (objectIds.length === 0) return 0;
  const platforms = await receiversOf(ctx, module);
  if (platforms.length === 0) return 0;
  const ids = [...new Set(objectIds)];
  const existing = await rowsFor(ids, (slice) =>
    ctx.db
      .select()
      .from(ocpiCpoPushes)
      .where(owned(ctx, ocpiCpoPushes, eq(ocpiCpoPushes.module, module), inArray(ocpiCpoPushes.objectId, slice))),
  );
  const now = new Date(ctx.now());
  const queue: number[] = [];
  const rows = platforms.flatMap((p) =>
    ids.map((objectId) => {
      const before = existing.find((r) => r.platformId === p.id && r.objectId === objectId);
      const changed = options.evses?.get(objectId);
      // What to send: only the EVSEs' statuses when the partner has the rest already.
      const evseUids =
        !changed || !before?.pushedAt ? null : before.state === "SENT" ? changed : before.evseUids === null ? null : [...new Set([...before.evseUids, ...changed])];
      return { platformId: p.id, objectId, evseUids, pending: before?.state === "PENDING" };
    }),
  );
  for (const slice of slices(rows, PUSH_ROWS)) {
    const written = await ctx.db
      .insert(ocpiCpoPushes)
      .values(ownedRows(ctx, slice.map((r) => ({ platformId: r.platformId, module, objectId: r.objectId, evseUids: r.evseUids, state: "PENDING" as const, attempts: 0, changedAt: now }))))
      .onConflictDoUpdate({
        target: [ocpiCpoPushes.operatorId, ocpiCpoPushes.platformId, ocpiCpoPushes.module, ocpiCpoPushes.objectId],
        set: { evseUids: sql`excluded.evse_uids`, state: "PENDING", attempts: 0, lastError: null, changedAt: now },
      })
      .returning({ id: ocpiCpoPushes.id, platformId: ocpiCpoPushes.platformId, objectId: ocpiCpoPushes.objectId });
    for (const w of written) if (!slice.find((r) => r.platformId === w.platformId && r.objectId === w.objectId)?.pending) queue.push(w.id);
  }
  await queueDeliveries(ctx, queue, options.delaySeconds ?? 0);
  return queue.length;
}

export async function queueDeliveries(ctx: Ctx, pushIds: readonly number[], delaySeconds: number) {
  const messages = pushIds.map((pushId) => ({ body: { kind: "ocpiCpoPush", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, pushId } satisfies OcpiCpoPush, delaySeconds }));
  for (const slice of slices(messages, 100)) await ctx.env.PUSH.sendBatch(slice);
}

/** After a write: the push is queued once the answer is out; one that cannot be queued is reported, never the write's failure. */
const later = (ctx: Ctx, what: string, work: () => Promise<unknown>) =>
  afterAnswer(ctx, work().catch((error: unknown) => reportError(what, error)), what);

/** A station published or withdrawn reaches the partners at once (withdrawn: `publish: false`). */
export const publishingChanged = (ctx: Ctx, stationId: number) => later(ctx, "ocpi location push", () => objectsChanged(ctx, "locations", [String(stationId)]));

/** Edits of stations reach the partners at once, for those that are published. */
export async function locationsChanged(ctx: Ctx, stationIds: readonly number[]) {
  await later(ctx, "ocpi location push", async () => {
    const rows = await rowsFor(stationIds, (slice) =>
      ctx.db.select({ id: stations.id }).from(stations).where(owned(ctx, stations, inArray(stations.id, slice), eq(stations.publishToRoaming, true))),
    );
    return objectsChanged(ctx, "locations", rows.map((r) => String(r.id)));
  });
}

/** Points changed (an edit, enabled or disabled, their strategy): their published stations change. */
export async function pointsChanged(ctx: Ctx, pointIds: readonly number[]) {
  await later(ctx, "ocpi location push", async () => {
    const rows = await rowsFor(pointIds, (slice) =>
      ctx.db
        .selectDistinct({ stationId: points.stationId })
        .from(points)
        .innerJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
        .where(owned(ctx, points, inArray(points.id, slice), eq(stations.publishToRoaming, true))),
    );
    return objectsChanged(ctx, "locations", rows.map((r) => String(r.stationId)));
  });
}

/**
 * Connector states the charger reported, once D1 has them (called by the operator's change
 * writer, never on the charger's hot path): each published station's EVSEs are PATCHed after
 * `STATUS_BATCH_S`, with every status that arrives meanwhile.
 */
export async function connectorStatusesChanged(ctx: SystemCtx, changed: readonly { pointId: number; connectorNo: number }[]) {
  if (changed.length === 0) return 0;
  const rows = await rowsFor([...new Set(changed.map((c) => c.pointId))], (slice) =>
    ctx.db
      .select({ pointId: points.id, stationId: points.stationId })
      .from(points)
      .innerJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, points.operatorId)))
      .where(owned(ctx, points, inArray(points.id, slice), eq(points.privateType, "Public"), eq(stations.publishToRoaming, true))),
  );
  if (rows.length === 0) return 0;
  const stationOf = new Map(rows.map((r) => [r.pointId, String(r.stationId)]));
  const evses = new Map<string, string[]>();
  for (const c of changed) {
    const station = stationOf.get(c.pointId);
    if (station) evses.set(station, [...new Set([...(evses.get(station) ?? []), evseUidOf(c.pointId, c.connectorNo)])]);
  }
  return objectsChanged(ctx, "locations", [...evses.keys()], { evses, delaySeconds: STATUS_BATCH_S });
}

/**
 * Strategies whose prices, name or points changed: their tariffs go to the partners at once, those
 * published and those partners had (a tariff no longer published is deleted there).
 */
export async function tariffsChanged(ctx: Ctx, strategyIds: readonly number[]) {
  await later(ctx, "ocpi tariff push", async () => {
    const ids = strategyIds.map(String);
    const [published, pushed] = await Promise.all([
      publishedStrategyIds(ctx, strategyIds),
      rowsFor(ids, (slice) =>
        ctx.db
          .selectDistinct({ objectId: ocpiCpoPushes.objectId })
          .from(ocpiCpoPushes)
          .where(owned(ctx, ocpiCpoPushes, eq(ocpiCpoPushes.module, "tariffs"), inArray(ocpiCpoPushes.objectId, slice))),
      ),
    ]);
    return objectsChanged(ctx, "tariffs", [...published.map(String), ...pushed.map((r) => r.objectId)]);
  });
}

/** The state of each object's delivery to each partner, for the console's lists. */
export async function pushStatesOf(ctx: Ctx, module: CpoPushModule, objectIds: readonly string[]) {
  const rows = await rowsFor(objectIds, (slice) =>
    ctx.db
      .select({ push: ocpiCpoPushes, platformName: ocpiPlatforms.name })
      .from(ocpiCpoPushes)
      .innerJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, ocpiCpoPushes.platformId), eq(ocpiPlatforms.operatorId, ocpiCpoPushes.operatorId)))
      .where(owned(ctx, ocpiCpoPushes, eq(ocpiCpoPushes.module, module), inArray(ocpiCpoPushes.objectId, slice))),
  );
  const present = rows.map(({ push, platformName }) => ({
    objectId: push.objectId,
    platformId: push.platformId,
    platformName,
    state: push.state,
    attempts: push.attempts,
    lastError: push.lastError,
    changedAt: push.changedAt.toISOString(),
    pushedAt: push.pushedAt?.toISOString() ?? null,
  }));
  return groupBy(present, (p) => p.objectId);
}


/**
 * Pushes still PENDING long after their change (a message lost on the way), across operators, for
 * the cron to queue again; a delivery sends the object as it is then, so twice is harmless.
 */
export const lostCpoPushes = verb({ actors: ["system"] }, async (ctx, changedBefore: Date) =>
  ctx.db
    .select({ pushId: ocpiCpoPushes.id, operatorId: ocpiCpoPushes.operatorId, operatorCode: operators.code })
    .from(ocpiCpoPushes)
    .innerJoin(operators, eq(operators.id, ocpiCpoPushes.operatorId))
    .where(
      acrossTenants(
        "the cron finds every operator's waiting pushes of what it publishes; each is delivered as its own operator",
        eq(ocpiCpoPushes.state, "PENDING"),
        lt(ocpiCpoPushes.changedAt, changedBefore),
        eq(operators.joinOcpi, true),
      ),
    )
    .limit(1000),
);
