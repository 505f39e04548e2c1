import { ocppReviews } from "../../../db/schema";
import { authorizationStatus, type IdTagInfo, type TagFacts } from "../../../domain/ocpp";
import { settingsOf } from "../../../tenants/resolve";
import { ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { SystemCtx } from "../context";
import { verb } from "../verb";
import { registryFacts, type RegistryTag } from "../drivers/registry";
import { thresholdShortfall, type ThresholdShortfall } from "./threshold";
import { system } from "./charger-scope";
import { roamingTagInfo, type RoamingGrant } from "../ocpi/cpo/tokens";

/**
 * The registry's answer to a charger about an id tag (OCPP 1.6 Authorize and StartTransaction,
 * 2.0.1 C01/E05): the operator's cards and tags, the charger's acceptance, a tag's running sessions
 * and the strategy's minimum threshold (docs/rules/ocpp.md "Transactions", docs/rules/pricing.md
 * "Minimum threshold").
 */

/** The idTagInfo for a registry entry in `facts`, with its expiry and parent when the tag is known and valid. */
export function idTagInfoOf(tag: RegistryTag | undefined, facts: Omit<TagFacts, "tag">): IdTagInfo {
  const status = authorizationStatus({ ...facts, tag: tag ?? null });
  if (!tag || status === "Invalid") return { status };
  return {
    status,
    ...(tag.expiresAt !== null && { expiryDate: new Date(tag.expiresAt).toISOString() }),
    ...(tag.parentIdTag && { parentIdTag: tag.parentIdTag }),
  };
}

/**
 * The idTagInfo of Authorize and of StartTransaction at one point: the operator's registry (cards
 * with their holders, other tags), the charger's registration and, for a start only, the tag's
 * running sessions (OCPP 1.6 §7.2 keeps ConcurrentTx for StartTransaction), decided by
 * `authorizationStatus` for both.
 */
export async function tagInfo(ctx: SystemCtx, pointId: number, idTag: string, chargerAccepted: boolean, asked: "Authorize" | "StartTransaction"): Promise<TagAnswer> {
  const [{ tag, busy, adHoc }, settings] = await Promise.all([registryFacts(ctx, pointId, idTag), settingsOf(ctx.db, ctx.operator.id)]);
  // A tag the registry does not hold may be a partner's driver (docs/rules/ocpi.md "Partners' drivers at our chargers").
  if (!tag && chargerAccepted) {
    const roaming = await roamingTagInfo(ctx, pointId, idTag);
    if (roaming) return { idTagInfo: roaming.idTagInfo, shortfall: null, roaming: roaming.grant };
  }
  // An ad-hoc session's tag is paid by its card hold: neither the RF-card restriction nor a wallet's threshold applies (docs/rules/payments.md "Ad-hoc payment").
  const idTagInfo = idTagInfoOf(tag, { chargerAccepted, busy: asked === "StartTransaction" && busy, now: ctx.now(), cardsOnly: settings.parameters.rfCardRestriction && !adHoc });
  if (idTagInfo.status !== "Accepted" || adHoc) return { idTagInfo, shortfall: null };
  const shortfall = await thresholdShortfall(ctx, pointId, idTag);
  if (!shortfall) return { idTagInfo, shortfall: null };
  // The tag is known and valid but its wallet may not start now: Blocked, not Invalid (which says
  // "unknown"; OCPP 1.6 §7.2), with the reason kept for the operator (docs/rules/pricing.md "Minimum threshold").
  const detail = { reason: "minimumThreshold", asked, idTag, needed: shortfall.needed, available: shortfall.available, strategyVersionId: shortfall.strategyVersionId, payerId: shortfall.payerId };
  await ctx.db.batch([
    ctx.db.insert(ocppReviews).values(ownedRow(ctx, { pointId, kind: "BELOW_THRESHOLD" as const, detail })),
    auditRow(ctx, { table: "transactions", module: "ocpp", type: "UPDATE", newData: { pointId, status: "Blocked", ...detail } }),
  ]);
  return { idTagInfo: { status: "Blocked" }, shortfall };
}

/** A tag's answer, and why a tag the registry accepts was refused for its strategy's minimum threshold. */
export interface TagAnswer {
  idTagInfo: IdTagInfo;
  shortfall: ThresholdShortfall | null;
  /** A partner's driver let in: the eMSP and the token (docs/rules/ocpi.md "Partners' drivers at our chargers"). */
  roaming?: RoamingGrant | null;
}

/** OCPP 1.6 Authorize (§6.2): the idTagInfo alone. */
export const authorize = verb(system, async (ctx, pointId: number, idTag: string, chargerAccepted: boolean) => (await tagInfo(ctx, pointId, idTag, chargerAccepted, "Authorize")).idTagInfo);

/** OCPP 2.0.1 Authorize and a TransactionEvent naming a token (C01, E05): the answer with the threshold's reason for the driver's screen. */
export const authorizeToken = verb(system, (ctx, pointId: number, idTag: string, chargerAccepted: boolean) => tagInfo(ctx, pointId, idTag, chargerAccepted, "Authorize"));
