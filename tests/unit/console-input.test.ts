import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NotFound } from "../../domain/errors";
import { bodyId, optionalBodyId, routeId } from "../../app/lib/input.server";

/** The console reads input as the API does (docs/rules/input.md "Console input"). */

const root = join(__dirname, "../..");

describe("console input helpers", () => {
  it("takes an address id as decimal digits only, and answers anything else as a missing record", () => {
    expect(routeId("3")).toBe(3);
    expect(routeId("123456789012345")).toBe(123456789012345);
    for (const id of ["0x3", "3.0", " 3", "3 ", "03", "0", "-3", "1e3", "", undefined]) {
      expect(() => routeId(id), String(id)).toThrow(NotFound);
    }
  });

  it("takes a posted id as a whole number of at least 1, never a boolean, a hex string or a blank", () => {
    expect(bodyId(3)).toBe(3);
    expect(bodyId("3")).toBe(3);
    for (const id of [true, "0x3", "3.5", " 3", "", 0, -1, [3], null]) expect(() => bodyId(id), JSON.stringify(id)).toThrow();
    expect(optionalBodyId("")).toBeUndefined();
    expect(optionalBodyId(null)).toBeUndefined();
    expect(optionalBodyId("7")).toBe(7);
    expect(() => optionalBodyId(true)).toThrow();
  });

  it("leaves no console server module casting its input: bodies through actionJson, ids through routeId or bodyId", () => {
    const servers = (readdirSync(join(root, "app"), { recursive: true }) as string[]).filter((p) => p.endsWith(".server.ts"));
    const casts = servers.flatMap((path) =>
      readFileSync(join(root, "app", path), "utf8")
        .split("\n")
        .flatMap((line, i) => (/request\.json\(\)|Number\(params\b|Number\(form\b|\.map\(Number\)/.test(line) ? [`app/${path}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(casts).toEqual([]);
  });
});
