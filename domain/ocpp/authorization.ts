import type { AuthorizationStatus } from "./schemas";

/** What is known of an idTag when a charger asks about it. */
export interface TagFacts {
  /** Whether the charger's last BootNotification was answered Accepted. */
  chargerAccepted: boolean;
  /** The operator's registry entry for the tag, or null when the operator does not know it. */
  tag: { status: AuthorizationStatus; expiresAt: number | null; remote: boolean; card?: boolean } | null;
  /**
   * The operator's RF-card restriction is on: only its own RFID cards (and its remote-start tag)
   * start sessions, not app or roaming tokens (docs/rules/settings.md "RF-card restriction").
   */
  cardsOnly?: boolean;
  /**
   * Whether the tag is in an active session anywhere in the operator's network. Only a
   * StartTransaction asks: OCPP 1.6 §7.2 keeps ConcurrentTx for StartTransaction, so Authorize
   * passes false and a tag already charging is Accepted there, refused (if at all) at its start.
   */
  busy: boolean;
  now: number;
}

/**
 * The status that Authorize and StartTransaction answer for a tag, so that the two never disagree
 * (OCPP 1.6 §6.2, §6.46):
 * - a charger whose boot was not Accepted is not in service: every tag is Invalid (OCPP 1.6 §4.2);
 * - a tag the operator does not know is Invalid (another operator's cards are never known); a
 *   blocked or expired one says so;
 * - with the RF-card restriction on, a known tag that is neither an RFID card nor the remote-start
 *   tag is Invalid;
 * - at StartTransaction, a tag already charging elsewhere is ConcurrentTx, except the operator's
 *   remote-start tag, which starts many sessions at once; Authorize never answers ConcurrentTx
 *   (OCPP 1.6 §7.2: "only relevant for a StartTransaction.req").
 */
export function authorizationStatus(facts: TagFacts): AuthorizationStatus {
  const { tag } = facts;
  if (!facts.chargerAccepted || !tag) return "Invalid";
  if (facts.cardsOnly && !tag.card && !tag.remote) return "Invalid";
  if (tag.status !== "Accepted") return tag.status;
  if (tag.expiresAt !== null && tag.expiresAt <= facts.now) return "Expired";
  if (facts.busy && !tag.remote) return "ConcurrentTx";
  return "Accepted";
}

/** A registry tag's holder, when a customer holds it (docs/rules/drivers.md "Who may charge"). */
export interface HolderFacts {
  status: "NORMAL" | "ABNORMAL";
  chargeAllPoint: boolean;
  /** Whether the charger asking is one of the customer's points. */
  atThisPoint: boolean;
}

/** An RFID card's status as the registry answers it: a lost card is as blocked as a blocked one. */
export const CARD_ANSWER = { VALID: "Accepted", BLOCKED: "Blocked", LOST: "Blocked", EXPIRED: "Expired" } as const satisfies Record<
  string,
  AuthorizationStatus
>;

/**
 * The registry status of a tag from its own status and its holder's (docs/rules/drivers.md "Who
 * may charge"): a tag's own refusal comes first; a card without an owner (`needsHolder`) is
 * Invalid; an ABNORMAL customer's tags are Blocked; a customer limited to some points gets Invalid
 * elsewhere.
 */
export function heldTagStatus(own: AuthorizationStatus, holder: HolderFacts | null, needsHolder: boolean): AuthorizationStatus {
  if (own !== "Accepted") return own;
  if (!holder) return needsHolder ? "Invalid" : "Accepted";
  if (holder.status === "ABNORMAL") return "Blocked";
  if (!holder.chargeAllPoint && !holder.atThisPoint) return "Invalid";
  return "Accepted";
}
