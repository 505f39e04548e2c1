import { describe, expect, it } from "vitest";
import { DUMMY_HASH, hashPassword, hashPasswordAt, verifyPassword } from "../../workers/auth/password";

/**
 * The product's password hashing (docs/rules/sessions.md "Passwords"). The integration tests hash
 * at a lower work factor (tests/integration/support/setup.ts), so the product's own count is
 * held here.
 */
describe("password hashes", () => {
  it("are PBKDF2-SHA-256 at 100 000 iterations with a salt of their own, and verify with the same pepper only", async () => {
    const [first, second] = await Promise.all([hashPassword("Demo12345", "pepper"), hashPassword("Demo12345", "pepper")]);
    expect(first).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword("Demo12345", first, "pepper")).toBe(true);
    expect(await verifyPassword("Demo12346", first, "pepper")).toBe(false);
    expect(await verifyPassword("Demo12345", first, "another pepper")).toBe(false);
  });

  it("verify at the count the hash carries, and refuse what is not one of theirs", async () => {
    const cheap = await hashPasswordAt(1_000, "Demo12345", "pepper");
    expect(cheap).toMatch(/^pbkdf2-sha256\$1000\$/);
    expect(await verifyPassword("Demo12345", cheap, "pepper")).toBe(true);
    expect(await verifyPassword("Demo12345", cheap.replace("$1000$", "$1001$"), "pepper")).toBe(false);
    for (const stored of ["", "bcrypt$10$x$y", "pbkdf2-sha256$$x$y", cheap.split("$").slice(0, 3).join("$")])
      expect(await verifyPassword("Demo12345", stored, "pepper")).toBe(false);
    expect(await verifyPassword("", DUMMY_HASH, "pepper")).toBe(false);
  });
});
