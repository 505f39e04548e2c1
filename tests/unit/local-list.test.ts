import { describe, expect, it } from "vitest";
import { authorizationData, differentialChanges, entriesAt, type ListedTag, type LocalEntry } from "../../domain/local-list";

const NOW = Date.parse("2026-06-01T10:00:00Z");
const tag = (overrides: Partial<ListedTag> = {}): ListedTag => ({
  idTag: "CARD1",
  own: "Accepted",
  expiryDate: null,
  parentIdTag: null,
  customerId: 1,
  customerStatus: "NORMAL",
  chargeAllPoint: true,
  ...overrides,
});
const held = (entries: (LocalEntry & { listId: number })[]) => new Map(entries.map((e) => [e.idTag.toUpperCase(), e]));

describe("entriesAt: what a list puts on one charger", () => {
  it("answers each tag as Authorize would at that point", () => {
    const tags = [
      tag({ idTag: "OK", parentIdTag: "FLEET" }),
      tag({ idTag: "BLOCKEDHOLDER", customerStatus: "ABNORMAL" }),
      tag({ idTag: "LOST", own: "Blocked" }),
      tag({ idTag: "OLD", expiryDate: NOW - 1 }),
      tag({ idTag: "ELSEWHERE", customerId: 2, chargeAllPoint: false }),
      tag({ idTag: "HERE", customerId: 3, chargeAllPoint: false }),
    ];
    const entries = entriesAt(tags, new Map([[3, new Set([7])]]), 7, NOW);
    expect([...entries.values()].map((e) => [e.idTag, e.status, e.parentIdTag])).toEqual([
      ["OK", "Accepted", "FLEET"],
      ["BLOCKEDHOLDER", "Blocked", null],
      ["LOST", "Blocked", null],
      ["OLD", "Expired", null],
      ["ELSEWHERE", "Invalid", null],
      ["HERE", "Accepted", null],
    ]);
  });
});

describe("differentialChanges: what a Differential update sends", () => {
  const accepted = (idTag: string, listId = 1): LocalEntry & { listId: number } => ({ idTag, status: "Accepted", expiryDate: null, parentIdTag: null, listId });

  it("sends only new and changed entries, and Blocked for tags the list no longer names", () => {
    const current = entriesAt([tag({ idTag: "SAME" }), tag({ idTag: "NEW" }), tag({ idTag: "changed", own: "Blocked" })], new Map(), 1, NOW);
    const changes = differentialChanges(current, held([accepted("SAME"), accepted("CHANGED"), accepted("GONE"), accepted("OTHER", 2)]), 1);
    expect(changes.map((c) => [c.idTag, c.status])).toEqual([
      ["NEW", "Accepted"],
      ["changed", "Blocked"],
      ["GONE", "Blocked"],
    ]);
  });

  it("sends nothing when the charger holds the list as it is, and does not block a tag twice", () => {
    const current = entriesAt([tag({ idTag: "SAME" })], new Map(), 1, NOW);
    expect(differentialChanges(current, held([accepted("same"), { ...accepted("GONE"), status: "Blocked" }]), 1)).toEqual([]);
  });

  it("writes entries as SendLocalList carries them (OCPP 1.6 §7.2)", () => {
    expect(authorizationData({ idTag: "A", status: "Accepted", expiryDate: Date.parse("2027-01-01T00:00:00Z"), parentIdTag: "G1" })).toEqual({
      idTag: "A",
      idTagInfo: { status: "Accepted", expiryDate: "2027-01-01T00:00:00.000Z", parentIdTag: "G1" },
    });
    expect(authorizationData({ idTag: "B", status: "Blocked", expiryDate: null, parentIdTag: null })).toEqual({ idTag: "B", idTagInfo: { status: "Blocked" } });
  });
});
