import { heldTagStatus, type AuthorizationStatus, type HolderFacts } from "./ocpp";

/**
 * Local authorisation lists (OCPP 1.6 §3.5.2, §5.15 SendLocalList): what a list puts on one
 * charger, and what a Differential update must send for the charger to hold it
 * (docs/rules/driver-services.md "Offline lists", docs/decisions/0040-local-list-versions-per-point.md).
 */

/** One entry as the charger holds it (AuthorizationData with its IdTagInfo). */
export interface LocalEntry {
  idTag: string;
  status: AuthorizationStatus;
  expiryDate: number | null;
  parentIdTag: string | null;
}

/** A tag of a listed customer, with what decides its status at a point. */
export interface ListedTag {
  idTag: string;
  /** The tag's own registry status (a card's status as Authorize answers it). */
  own: AuthorizationStatus;
  expiryDate: number | null;
  /** The holder's group code: the parent id tag. */
  parentIdTag: string | null;
  customerId: number;
  customerStatus: HolderFacts["status"];
  chargeAllPoint: boolean;
}

/** Id tags compare case-insensitively (OCPP 1.6 §7.28 IdToken). */
export const tagKey = (idTag: string) => idTag.toUpperCase();

/**
 * The entries a list puts on the charger of `pointId`: each tag with the status Authorize would
 * answer there (a blocked holder Blocked, a customer limited to other points Invalid, a past
 * expiry Expired), so that the charger offline decides as the server online would.
 */
export function entriesAt(tags: readonly ListedTag[], allowedPoints: ReadonlyMap<number, ReadonlySet<number>>, pointId: number, now: number) {
  const entries = new Map<string, LocalEntry>();
  for (const tag of tags) {
    const holder: HolderFacts = {
      status: tag.customerStatus,
      chargeAllPoint: tag.chargeAllPoint,
      atThisPoint: allowedPoints.get(tag.customerId)?.has(pointId) ?? false,
    };
    let status = heldTagStatus(tag.own, holder, true);
    if (status === "Accepted" && tag.expiryDate !== null && tag.expiryDate <= now) status = "Expired";
    entries.set(tagKey(tag.idTag), {
      idTag: tag.idTag,
      status,
      expiryDate: tag.expiryDate,
      parentIdTag: status === "Accepted" ? tag.parentIdTag : null,
    });
  }
  return entries;
}

const same = (a: LocalEntry, b: LocalEntry) => a.status === b.status && a.expiryDate === b.expiryDate && a.parentIdTag === b.parentIdTag;

/**
 * What a Differential update sends (OCPP 1.6 §5.15): the list's entries the charger does not hold
 * as they are now, and, as Blocked, the tags this list put there that it no longer names (a card
 * unbound, a customer removed), so that the charger stops accepting them offline. Tags held
 * through another list are that list's business.
 */
export function differentialChanges(current: ReadonlyMap<string, LocalEntry>, held: ReadonlyMap<string, LocalEntry & { listId: number }>, listId: number) {
  const changes: LocalEntry[] = [];
  for (const [key, entry] of current) {
    const was = held.get(key);
    if (!was || !same(was, entry)) changes.push(entry);
  }
  for (const [key, was] of held) {
    if (was.listId !== listId || current.has(key) || was.status === "Blocked") continue;
    changes.push({ idTag: was.idTag, status: "Blocked", expiryDate: null, parentIdTag: null });
  }
  return changes;
}

/** An entry as SendLocalList carries it (OCPP 1.6 §7.2 AuthorizationData). */
export const authorizationData = (entry: LocalEntry) => ({
  idTag: entry.idTag,
  idTagInfo: {
    status: entry.status,
    ...(entry.expiryDate !== null && { expiryDate: new Date(entry.expiryDate).toISOString() }),
    ...(entry.parentIdTag && { parentIdTag: entry.parentIdTag }),
  },
});
