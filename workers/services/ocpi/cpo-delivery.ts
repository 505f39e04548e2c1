import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { ocpiCpoPushes, ocpiPlatforms } from "../../../db/schema";
import { owned } from "../../../tenants/scope";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "./client";
import { publishedLocation, withdrawnLocation } from "./cpo-locations";
import { MAX_ATTEMPTS, queueDeliveries, retryDelayS, STATUS_BATCH_S } from "./cpo-push";
import { publishedTariff } from "./cpo-tariffs";
import { endpointOf, openPartnerToken, ourIdentity } from "./identity";

/**
 * The delivery of one push of what we publish as a CPO (docs/rules/ocpi.md "Pushes of what we
 * publish"): the row's object as it is now, to the partner's receiver.
 */

const ok = z.unknown();

/**
 * One push row to its partner (the queue's `ocpiCpoPush`). Answers true when the message is
 * done: sent, nothing to send, or a retry queued by itself with backoff.
 */
export const deliverCpoPush = verb({ actors: ["system"] }, async (ctx: SystemCtx, pushId: number, send: OcpiFetch = workerFetch): Promise<boolean> => {
  const [row] = await ctx.db.select().from(ocpiCpoPushes).where(owned(ctx, ocpiCpoPushes, eq(ocpiCpoPushes.id, pushId))).limit(1);
  if (!row || row.state === "SENT") return true;
  // Only the change this delivery read is settled; a change that came meanwhile gets a message of its own.
  const settle = async (values: Partial<typeof ocpiCpoPushes.$inferInsert>) => {
    const done = await ctx.db
      .update(ocpiCpoPushes)
      .set({ ...values, attempts: sql`${ocpiCpoPushes.attempts} + 1` })
      .where(owned(ctx, ocpiCpoPushes, eq(ocpiCpoPushes.id, pushId), eq(ocpiCpoPushes.changedAt, row.changedAt)))
      .returning({ id: ocpiCpoPushes.id });
    if (done.length === 0) await queueDeliveries(ctx, [pushId], STATUS_BATCH_S);
    return done.length > 0;
  };
  const [platform] = await ctx.db.select().from(ocpiPlatforms).where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.id, row.platformId))).limit(1);
  const url = platform?.registerStatus === "Registered" ? endpointOf(platform.endpoints, row.module, "RECEIVER") : undefined;
  if (!platform || !url || !platform.partnerToken) {
    // Nothing to retry until the partner registers again; the next change sends it then.
    await settle({ state: "FAILED", lastError: "The partner is not registered or has no receiver for this module" });
    return true;
  }
  try {
    const identity = await ourIdentity(ctx);
    const token = await openPartnerToken(ctx, platform.partnerToken);
    const to = platform.partnerCountryCode && platform.partnerPartyId ? { countryCode: platform.partnerCountryCode, partyId: platform.partnerPartyId } : undefined;
    const target = `${url.replace(/\/$/, "")}/${identity.countryCode}/${identity.partyId}/${encodeURIComponent(row.objectId)}`;
    const call = (method: "PUT" | "PATCH" | "DELETE", at: string, body?: unknown) => callPartner(send, at, token, ok, { method, body, from: identity, to });
    if (row.module === "locations") {
      const location = (await publishedLocation(ctx, Number(row.objectId))) ?? (await withdrawnLocation(ctx, Number(row.objectId)));
      if (location && row.evseUids && location.publish) {
        // The partner has the location: only the EVSEs whose status changed (OCPI 2.2.1 §8.2.2.2 PATCH).
        for (const uid of row.evseUids) {
          const evse = location.evses?.find((e) => e.uid === uid);
          if (evse) await call("PATCH", `${target}/${encodeURIComponent(uid)}`, { status: evse.status, last_updated: evse.last_updated });
        }
      } else if (location) await call("PUT", target, location);
    } else {
      const tariff = await publishedTariff(ctx, row.objectId);
      // A tariff no longer published is deleted at the partner (OCPI 2.2.1 §11.2.2.3).
      if (tariff) await call("PUT", target, tariff);
      else await call("DELETE", target);
    }
    await settle({ state: "SENT", lastError: null, evseUids: null, pushedAt: new Date(ctx.now()) });
    return true;
  } catch (error) {
    if (!(error instanceof PartnerFailure)) throw error;
    const settled = await settle({ state: "FAILED", lastError: error.reason.slice(0, 500) });
    // Backoff by the row's own count, so a partner that is down is not called every minute.
    if (settled && row.attempts + 1 < MAX_ATTEMPTS) await queueDeliveries(ctx, [pushId], retryDelayS(row.attempts + 1));
    return true;
  }
});
