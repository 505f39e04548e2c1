import { and, eq, sql } from "drizzle-orm";
import { ocpiPlatforms, ocpiPulls } from "../../../db/schema";
import { mayCall } from "../../../domain/ocpi/roles";
import type { OcpiPullPush, PullModule } from "../../../domain/schemas/ocpi/sync";
import { owned, ownedRow } from "../../../tenants/scope";
import type { Ctx } from "../context";
import { endpointOf } from "./identity";

/**
 * Pulls handed to the push queue (docs/rules/ocpi.md "Pulls"): their progress rows marked QUEUED
 * and their first pages' messages sent. Apart from the pulls themselves, so that a completed
 * handshake (`platforms.ts`, `partner.ts`) can queue the reading of a hub's parties.
 */

/** A pull that has not moved for this long lost its message: it may be queued again. */
export const STALE_PULL_MS = 30 * 60 * 1000;

export type Platform = typeof ocpiPlatforms.$inferSelect;

/**
 * Whether our eMSP side pulls from the platform: a CPO or a hub sends what an eMSP reads; an
 * eMSP partner reads ours and has nothing of its own for us to pull (docs/rules/ocpi.md "Roles").
 */
export const pullsFrom = (platform: Pick<Platform, "role">) => mayCall(platform.role, "EMSP");

/** The modules of `wanted` the platform offers as a sender, when we pull from it at all. */
export const offered = (platform: Platform, wanted: readonly PullModule[]) =>
  platform.registerStatus === "Registered" && pullsFrom(platform) ? wanted.filter((m) => endpointOf(platform.endpoints, m, "SENDER")) : [];

/** The first pages of `modules`, each message carrying `then`: the modules to start when it ends. */
export async function sendFirstPages(ctx: Ctx, platformId: number, modules: readonly PullModule[], then: readonly PullModule[] = []) {
  const messages = modules.map((module) => ({
    body: { kind: "ocpiPull", operatorId: ctx.operator.id, operatorCode: ctx.operator.code, platformId, module, ...(then.length > 0 && { then: [...then] }) } satisfies OcpiPullPush,
  }));
  if (messages.length > 0) await ctx.env.PUSH.sendBatch(messages);
}

/**
 * Marks the modules QUEUED and hands their first pages to the push queue. A module already queued
 * or running is left alone unless it stopped moving (its message lost); `notWithin` (the cron)
 * also leaves a module pulled that recently. A hub's parties are read first and its other modules
 * start when that ends, so an object of a party new behind the hub is not refused as nobody's
 * (OCPI 2.2.1 §17); if that message is lost, the others wait QUEUED until they are stale.
 */
export async function queuePulls(ctx: Ctx, platform: Platform, modules: readonly PullModule[], notWithin?: number) {
  const now = ctx.now();
  const queued: PullModule[] = [];
  for (const module of modules) {
    const idle = sql`(${ocpiPulls.state} not in ('QUEUED', 'RUNNING') or ${ocpiPulls.updatedAt} < ${now - STALE_PULL_MS})`;
    const due = notWithin === undefined ? undefined : sql`coalesce(${ocpiPulls.finishedAt}, 0) < ${now - notWithin}`;
    const rows = await ctx.db
      .insert(ocpiPulls)
      .values(ownedRow(ctx, { platformId: platform.id, module, state: "QUEUED" as const, updatedAt: new Date(now) }))
      .onConflictDoUpdate({ target: [ocpiPulls.operatorId, ocpiPulls.platformId, ocpiPulls.module], set: { state: "QUEUED", updatedAt: new Date(now) }, setWhere: and(idle, due) })
      .returning({ id: ocpiPulls.id });
    if (rows.length > 0) queued.push(module);
  }
  const first: readonly PullModule[] = queued.includes("hubclientinfo") ? ["hubclientinfo"] : queued;
  await sendFirstPages(ctx, platform.id, first, queued.filter((m) => !first.includes(m)));
  return queued;
}

/**
 * After a completed handshake, a hub's parties are read at once: the handshake replaced the
 * platform's parties with its roles (docs/rules/ocpi.md "Hubs").
 */
export async function pullPartiesAfterRegistration(ctx: Ctx, platformId: number) {
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, platformId))).limit(1);
  if (platform) await queuePulls(ctx, platform, offered(platform, ["hubclientinfo"]));
}
