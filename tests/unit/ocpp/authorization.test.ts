import { describe, expect, it } from "vitest";
import { authorizationStatus, type TagFacts } from "../../../domain/ocpp";

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
