import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { rowsFor } from "../../../db/paging";
import { ocpiPlatforms, ocpiPulls, operators } from "../../../db/schema";
import { Conflict } from "../../../domain/errors";
import { OcpiError, ocpiTime } from "../../../domain/ocpi/wire";
import { PULL_MODULES, pullInput, type PullModule } from "../../../domain/schemas/ocpi/sync";
import { CALLERS_OF } from "../../../domain/ocpi/roles";
import { acrossTenants, owned, type TenantFilter } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { Ctx, PartnerCtx, SystemCtx } from "../context";
import { verb } from "../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "./client";
import { putClientInfo } from "./hub";
import { endpointOf, openPartnerToken, ourIdentity } from "./identity";
import { platformRow } from "./platforms";
import { offered, pullsFrom, queuePulls, type Platform } from "./pull-queue";
import { postCdr, putLocation, putSession, putTariff } from "./receivers";

/**
 * Pulls for catching up (docs/rules/ocpi.md "Pulls", OCPI 2.2.1 §8.2.1, §9.2.1, §10.2.1,
 * §11.2.1): the CPO's sender interfaces read page by page (`offset`, `limit`, the `Link` header's
 * next page, `X-Total-Count`), from `date_from` = the `date_to` of the last pull that read every
 * page. Each object is stored by the receiver of its module, as if the partner had pushed it, so
 * validation, identity, merging and `last_updated` have one place each. One page per push-queue
 * message, so a long pull never holds a request or a queue batch; progress is kept per platform
 * and module.
 */

/** Objects asked for per page (`limit`); the partner may answer fewer (`X-Limit`). */
export const PULL_PAGE_LIMIT = 100;
/** Refused objects whose reasons are kept per pull. */
const KEPT_PROBLEMS = 20;
/** The cron pulls each module of a registered platform at most this often. */
export const PULL_EVERY_MS = 60 * 60 * 1000;
/** A partner whose `Link` never ends is stopped here. */
const MAX_PAGES = 10_000;

type Progress = typeof ocpiPulls.$inferSelect;

/** The identity in a pulled object, so the receivers check it as they check a pushed one's URL. */
function pathOf(raw: unknown) {
  const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (x: unknown) => (typeof x === "string" ? x : "");
  return { countryCode: text(o.country_code), partyId: text(o.party_id), id: text(o.id) };
}

/** How a refused object is named among the problems: its id, or a hub's party by its identity. */
const nameOf = (module: PullModule, raw: unknown) => {
  const path = pathOf(raw);
  return (module === "hubclientinfo" ? path.countryCode && `${path.countryCode}*${path.partyId}` : path.id) || null;
};

/** Each module's receiver: the one place its objects are validated, merged and stored. */
const STORE: Record<PullModule, (ctx: PartnerCtx, raw: unknown) => Promise<unknown>> = {
  hubclientinfo: (ctx, raw) => putClientInfo(ctx, pathOf(raw).countryCode, pathOf(raw).partyId, raw),
  locations: (ctx, raw) => putLocation(ctx, pathOf(raw), raw),
  sessions: (ctx, raw) => putSession(ctx, pathOf(raw), raw),
  tariffs: (ctx, raw) => putTariff(ctx, pathOf(raw), raw),
  cdrs: (ctx, raw) => postCdr(ctx, raw),
};

/** The system storing what a platform sent, with the rights the platform has when it pushes. */
const asPartner = (ctx: SystemCtx, platform: Platform): PartnerCtx => ({
  db: ctx.db,
  env: ctx.env,
  lang: ctx.lang,
  request: ctx.request,
  now: ctx.now,
  operator: ctx.operator,
  actor: { kind: "partner", name: `ocpi pull ${platform.name}`.slice(0, 100), platformId: platform.id, tokenKind: "B" },
});

const progressWhere = (ctx: Ctx, platformId: number, module: PullModule) => owned(ctx, ocpiPulls, eq(ocpiPulls.platformId, platformId), eq(ocpiPulls.module, module));

const presentProgress = (p: Progress) => ({
  platformId: p.platformId,
  module: p.module,
  state: p.state,
  pages: p.pages,
  objects: p.objects,
  total: p.total,
  skipped: p.skipped,
  problems: p.problems,
  lastSuccessAt: p.lastSuccessAt?.toISOString() ?? null,
  lastError: p.lastError,
  startedAt: p.startedAt?.toISOString() ?? null,
  finishedAt: p.finishedAt?.toISOString() ?? null,
  updatedAt: p.updatedAt.toISOString(),
});
export type PullProgress = ReturnType<typeof presentProgress>;

/** The pulls of some platforms of the operator, by platform then module. */
export async function progressOf(ctx: Ctx, platformIds: readonly number[]) {
  const rows = await rowsFor(platformIds, (slice) =>
    ctx.db
      .select()
      .from(ocpiPulls)
      .where(owned(ctx, ocpiPulls, inArray(ocpiPulls.platformId, slice)))
      .orderBy(ocpiPulls.platformId, ocpiPulls.module),
  );
  return rows.map(presentProgress);
}

/** The pulls of a page of platforms, for the platform screen (each platform's modules). */
export const pullsOfPlatforms = verb({ menu: "emsp.platform" }, async (ctx, platformIds: readonly number[]) => progressOf(ctx, platformIds));

/** GET /ocpi-service/platform/{id}/pull: the progress of each module of one platform. */
export const getPullProgress = verb({ menu: "emsp.platform" }, async (ctx, id: number) => {
  await platformRow(ctx, id);
  return progressOf(ctx, [id]);
});

/**
 * POST /ocpi-service/platform/{id}/pull `{ modules? }`: pull now, on the queue. The platform must be
 * registered and offer at least one of the modules as a sender (409 otherwise).
 */
export const startPull = verb({ menu: "emsp.platform", mutates: true }, async (ctx, id: number, raw: unknown) => {
  const input = pullInput.parse(raw ?? {});
  const platform = await platformRow(ctx, id);
  if (platform.registerStatus !== "Registered") throw new Conflict("ocpi.errors.notRegistered");
  if (!pullsFrom(platform)) throw new Conflict("cpo2.errors.pullFromEmsp");
  const modules = offered(platform, input.modules ?? PULL_MODULES);
  if (modules.length === 0) throw new Conflict("ocpi.errors.noSender");
  const queued = await queuePulls(ctx, platform, modules);
  await auditRow(ctx, { table: "ocpi_pulls", module: "ocpi", type: "UPDATE", newData: { platformId: id, pull: queued } });
  return { queued, progress: await progressOf(ctx, [id]) };
});

/**
 * The cron's share, across operators: every registered platform's modules not pulled within
 * `PULL_EVERY_MS` are queued, each as its own operator (docs/rules/ocpi.md "Pulls").
 */
export const duePullPlatforms = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .select({ platformId: ocpiPlatforms.id, operatorId: ocpiPlatforms.operatorId, operatorCode: operators.code })
    .from(ocpiPlatforms)
    .innerJoin(operators, eq(operators.id, ocpiPlatforms.operatorId))
    // An operator that has not joined OCPI pulls nothing (docs/rules/platform.md "Roaming").
    // Only partners that send what our eMSP side reads: CPOs and hubs (`pullsFrom`).
    .where(
      acrossTenants(
        "the cron finds every operator's registered partners; each is pulled as its own operator",
        eq(ocpiPlatforms.registerStatus, "Registered"),
        eq(operators.joinOcpi, true),
        inArray(ocpiPlatforms.role, CALLERS_OF.EMSP),
      ),
    )
    .limit(1000),
);

/** Queues the due modules of one platform of the context's operator (the cron, per operator). */
export const queueDuePulls = verb({ actors: ["system"] }, async (ctx, platformId: number) => {
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, platformId))).limit(1);
  if (!platform) return [];
  return queuePulls(ctx, platform, offered(platform, PULL_MODULES), PULL_EVERY_MS);
});

/** The next page's URL from a `Link` header (OCPI 2.2.1 §4.1.4), kept on the partner's own origin. */
export function nextPage(link: string | null, current: string): string | null {
  const match = link ? /<([^>]+)>\s*;\s*rel="?next"?/i.exec(link) : null;
  if (!match) return null;
  const next = new URL(match[1], current);
  if (next.origin !== new URL(current).origin) throw new PartnerFailure(`${current}: the next page ${next.origin} leaves the partner's endpoint`);
  return next.toString();
}

/** Stops a pull with its reason; what earlier pages stored stays. */
async function failPull(ctx: SystemCtx, where: TenantFilter, reason: string) {
  await ctx.db
    .update(ocpiPulls)
    .set({ state: "FAILED", lastError: reason.slice(0, 500), finishedAt: new Date(ctx.now()), updatedAt: new Date(ctx.now()) })
    .where(where);
  return null;
}

/**
 * Starts a QUEUED pull: its window ends now, it starts where the last complete pull ended. A hub's
 * parties are read whole each time, as a handshake replaces them (docs/rules/ocpi.md "Hubs").
 */
async function startPage(ctx: SystemCtx, where: TenantFilter, progress: Progress, endpoint: string) {
  const windowTo = Math.floor(ctx.now() / 1000) * 1000;
  const first = new URL(endpoint);
  if (progress.lastSuccessAt && progress.module !== "hubclientinfo") first.searchParams.set("date_from", ocpiTime(progress.lastSuccessAt.getTime()));
  first.searchParams.set("date_to", ocpiTime(windowTo));
  first.searchParams.set("offset", "0");
  first.searchParams.set("limit", String(PULL_PAGE_LIMIT));
  const now = new Date(ctx.now());
  const started = await ctx.db
    .update(ocpiPulls)
    .set({ state: "RUNNING", pages: 0, objects: 0, total: null, skipped: 0, problems: [], windowTo: new Date(windowTo), lastError: null, startedAt: now, finishedAt: null, updatedAt: now })
    .where(owned(ctx, ocpiPulls, where, eq(ocpiPulls.state, "QUEUED")))
    .returning();
  return started[0] ? { url: first.toString(), progress: started[0] } : null;
}

/**
 * One page of a pull: the first page when `url` is absent (the pull must be QUEUED), else the page
 * at `url` (the pull must be RUNNING; a message delivered twice finds it moved on or done). Answers
 * the next page's URL, or null when the pull is done, failed, or not this message's to run.
 */
export const pullPage = verb(
  { actors: ["system"] },
  async (ctx, job: { platformId: number; module: PullModule; url?: string }, send: OcpiFetch = workerFetch): Promise<string | null> => {
    const where = progressWhere(ctx, job.platformId, job.module);
    const [[platform], [stored]] = await Promise.all([
      ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, job.platformId))).limit(1),
      ctx.db.select().from(ocpiPulls).where(where).limit(1),
    ]);
    if (!platform || !stored) return null;
    const endpoint = offered(platform, [job.module]).length > 0 ? endpointOf(platform.endpoints, job.module, "SENDER") : undefined;
    if (!endpoint || !platform.partnerToken) return stored.state === "FAILED" || stored.state === "DONE" ? null : failPull(ctx, where, `${job.module}: the partner is not registered or has no sender`);
    let url = job.url;
    let progress = stored;
    if (!url) {
      if (stored.state !== "QUEUED") return null;
      const started = await startPage(ctx, where, stored, endpoint);
      if (!started) return null;
      ({ url, progress } = started);
    } else if (stored.state !== "RUNNING" || stored.pages >= MAX_PAGES) {
      return stored.state === "RUNNING" ? failPull(ctx, where, `more than ${MAX_PAGES} pages`) : null;
    }
    const identity = await ourIdentity(ctx).catch(() => undefined);
    const partnerParty = platform.partnerCountryCode && platform.partnerPartyId ? { countryCode: platform.partnerCountryCode, partyId: platform.partnerPartyId } : undefined;
    let objects: unknown[];
    let next: string | null;
    let total: number | null;
    try {
      const answer = await callPartner(send, url, await openPartnerToken(ctx, platform.partnerToken), z.array(z.unknown()), { from: identity, to: partnerParty });
      objects = answer.data;
      next = nextPage(answer.headers.get("Link"), url);
      const count = Number(answer.headers.get("X-Total-Count"));
      total = answer.headers.has("X-Total-Count") && Number.isSafeInteger(count) && count >= 0 ? count : null;
    } catch (error) {
      if (error instanceof PartnerFailure) return failPull(ctx, where, `page ${progress.pages + 1}: ${error.reason}`);
      throw error;
    }
    // Each object as if pushed: a refused one is skipped with its reason, the others stored.
    const partner = asPartner(ctx, platform);
    const problems: { id: string | null; reason: string }[] = [];
    for (const raw of objects) {
      try {
        await STORE[job.module](partner, raw);
      } catch (error) {
        if (!(error instanceof OcpiError)) throw error;
        problems.push({ id: nameOf(job.module, raw), reason: error.message.slice(0, 300) });
      }
    }
    const now = new Date(ctx.now());
    await ctx.db
      .update(ocpiPulls)
      .set({
        pages: sql`${ocpiPulls.pages} + 1`,
        objects: sql`${ocpiPulls.objects} + ${objects.length - problems.length}`,
        skipped: sql`${ocpiPulls.skipped} + ${problems.length}`,
        problems: [...progress.problems, ...problems].slice(0, KEPT_PROBLEMS),
        total,
        updatedAt: now,
        ...(next ? {} : { state: "DONE" as const, lastSuccessAt: progress.windowTo, finishedAt: now }),
      })
      .where(owned(ctx, ocpiPulls, where, eq(ocpiPulls.state, "RUNNING")));
    return next;
  },
);
