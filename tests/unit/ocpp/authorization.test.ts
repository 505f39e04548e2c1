import { describe, expect, it } from "vitest";
import { authorizationStatus, CARD_ANSWER, heldTagStatus, type HolderFacts, type TagFacts } from "../../../domain/ocpp";

const NOW = Date.parse("2026-11-21T10:00:00Z");
const tag = (overrides: Partial<NonNullable<TagFacts["tag"]>> = {}) => ({ status: "Accepted" as const, expiresAt: null, remote: false, ...overrides });
const facts = (overrides: Partial<TagFacts> = {}): TagFacts => ({ chargerAccepted: true, tag: tag(), busy: false, now: NOW, ...overrides });

describe("authorizationStatus: one answer for Authorize and StartTransaction", () => {
  it.each([
    ["a known, valid tag", facts(), "Accepted"],
    ["any tag at a charger whose boot was not Accepted", facts({ chargerAccepted: false }), "Invalid"],
    ["a tag the operator does not know", facts({ tag: null }), "Invalid"],
    ["a blocked tag", facts({ tag: tag({ status: "Blocked" }) }), "Blocked"],
    ["a tag past its expiry date", facts({ tag: tag({ expiresAt: NOW }) }), "Expired"],
    ["a tag before its expiry date", facts({ tag: tag({ expiresAt: NOW + 1 }) }), "Accepted"],
    ["a tag already in a session", facts({ busy: true }), "ConcurrentTx"],
    ["the operator's remote tag in other sessions", facts({ busy: true, tag: tag({ remote: true }) }), "Accepted"],
    ["a blocked tag in a session", facts({ busy: true, tag: tag({ status: "Blocked" }) }), "Blocked"],
    ["a busy tag at a charger not accepted", facts({ busy: true, chargerAccepted: false }), "Invalid"],
    ["an app token with the RF-card restriction on", facts({ cardsOnly: true, tag: tag({ card: false }) }), "Invalid"],
    ["an app token with the restriction off", facts({ cardsOnly: false, tag: tag({ card: false }) }), "Accepted"],
    ["the operator's own RFID card with the restriction on", facts({ cardsOnly: true, tag: tag({ card: true }) }), "Accepted"],
    ["the remote-start tag with the restriction on", facts({ cardsOnly: true, tag: tag({ remote: true }) }), "Accepted"],
    ["an unknown card (another operator's) with the restriction on", facts({ cardsOnly: true, tag: null }), "Invalid"],
    ["a blocked card with the restriction on", facts({ cardsOnly: true, tag: tag({ card: true, status: "Blocked" }) }), "Blocked"],
  ] as const)("%s → %s", (_what, given, expected) => {
    expect(authorizationStatus(given)).toBe(expected);
  });
});

describe("heldTagStatus: a tag's holder decides too (docs/rules/drivers.md \"Who may charge\")", () => {
  const holder = (overrides: Partial<HolderFacts> = {}): HolderFacts => ({ status: "NORMAL", chargeAllPoint: true, atThisPoint: false, ...overrides });
  it.each([
    ["a valid card of a NORMAL customer", CARD_ANSWER.VALID, holder(), true, "Accepted"],
    ["an unbound card", CARD_ANSWER.VALID, null, true, "Invalid"],
    ["a blocked card", CARD_ANSWER.BLOCKED, holder(), true, "Blocked"],
    ["a lost card", CARD_ANSWER.LOST, holder(), true, "Blocked"],
    ["an expired card", CARD_ANSWER.EXPIRED, holder(), true, "Expired"],
    ["a card of an ABNORMAL customer", CARD_ANSWER.VALID, holder({ status: "ABNORMAL" }), true, "Blocked"],
    ["a card of a customer limited to other points", CARD_ANSWER.VALID, holder({ chargeAllPoint: false }), true, "Invalid"],
    ["a card of a customer limited to this point", CARD_ANSWER.VALID, holder({ chargeAllPoint: false, atThisPoint: true }), true, "Accepted"],
    ["a tag without a holder that needs none (the remote tag)", "Accepted", null, false, "Accepted"],
    ["a blocked card of an ABNORMAL customer", CARD_ANSWER.BLOCKED, holder({ status: "ABNORMAL" }), true, "Blocked"],
  ] as const)("%s → %s", (_what, own, who, needsHolder, expected) => {
    expect(heldTagStatus(own, who, needsHolder)).toBe(expected);
  });
});
