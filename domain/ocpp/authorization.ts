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
  /** Whether the tag is in an active session anywhere in the operator's network. */
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
 * - a tag already charging elsewhere is ConcurrentTx, except the operator's remote-start tag,
 *   which starts many sessions at once.
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
