import { describe, expect, it } from "vitest";
import { levelAt, memberLevelInput } from "../../domain/schemas/wallets";

/** Membership levels in time and the source of a change (docs/rules/wallets.md "Membership"). */
describe("levelAt", () => {
  const now = Date.UTC(2026, 10, 24, 12);
  it("keeps a paid level until its period ends, and is NORMAL from that instant", () => {
    expect(levelAt({ memberLevel: "SILVER", memberUntil: new Date(now + 1) }, now)).toBe("SILVER");
    expect(levelAt({ memberLevel: "GOLD", memberUntil: new Date(now) }, now)).toBe("NORMAL");
    expect(levelAt({ memberLevel: "GOLD", memberUntil: new Date(now - 86_400_000) }, now)).toBe("NORMAL");
  });
  it("leaves a level without an end as it is", () => {
    expect(levelAt({ memberLevel: "SILVER", memberUntil: null }, now)).toBe("SILVER");
    expect(levelAt({ memberLevel: "NORMAL", memberUntil: null }, now)).toBe("NORMAL");
  });
});

describe("memberLevelInput source", () => {
  it("takes 1, 2 or 3, nothing else", () => {
    for (const source of ["1", "2", "3"]) expect(memberLevelInput.parse({ level: "SILVER", source }).source).toBe(source);
    expect(memberLevelInput.parse({ level: "SILVER" }).source).toBeUndefined();
    for (const source of ["0", "4", 2, "", null]) expect(memberLevelInput.safeParse({ level: "SILVER", source }).success).toBe(false);
  });
});
