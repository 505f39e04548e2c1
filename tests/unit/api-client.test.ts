import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiUrl } from "../../app/lib/api-url";

/** The console calls the API through the typed client (docs/rules/console.md "API client"). */

const root = join(__dirname, "../..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const sources = (dir: string) => (readdirSync(join(root, dir), { recursive: true }) as string[]).filter((p) => /\.tsx?$/.test(p)).map((p) => join(dir, p));

/** Lines of code, comments left out, with where they are. */
const codeLines = (path: string) =>
  read(path)
    .split("\n")
    .map((line, i) => ({ at: `${path}:${i + 1}`, line: line.trim() }))
    .filter(({ line }) => !line.startsWith("//") && !line.startsWith("*") && !line.startsWith("/*"));

const SERVICE = "(user|station|customer|finance|system|maintain|platform|ocpi|public)-service";
/** Addresses a browser opens as a link or an image, not JSON calls of the client. */
const NOT_CALLS = [/\/user-service\/file\/show\?key=/, /\/download[`"']/];

describe("typed API client", () => {
  it("fills each path parameter encoded, writes the query without empty values, then lang and the cache-buster", () => {
    const url = apiUrl("https://console.test", "/station-service/point/{serialNumber}/ocpp/operationLog", {
      params: { serialNumber: "CP 1/2" },
      query: { action: "Heartbeat", current: 2, pointId: undefined, status: null },
      lang: "de",
      cacheBuster: 7,
    });
    expect(url.pathname).toBe("/station-service/point/CP%201%2F2/ocpp/operationLog");
    expect([...url.searchParams]).toEqual([
      ["action", "Heartbeat"],
      ["current", "2"],
      ["lang", "de"],
      ["v", "7"],
    ]);
    const forwarded = apiUrl("https://console.test", "/station-service/alarm", { query: new URLSearchParams("level=1&size=100"), lang: "en" });
    expect(forwarded.search).toBe("?level=1&size=100&lang=en");
  });

  it("refuses a path whose parameter was not given", () => {
    expect(() => apiUrl("https://console.test", "/station-service/alarm/{id}/dispose", { lang: "en" })).toThrow("{id}");
  });

  it("leaves no console file calling fetch on the API or building an API path by hand", () => {
    const found = sources("app")
      .filter((path) => path !== join("app", "lib", "api.ts") && !path.endsWith(".server.ts"))
      .flatMap(codeLines)
      .filter(({ line }) => {
        if (/\bfetch\(/.test(line)) return true;
        // The untyped client: a method name and a hand-written path.
        if (/\bapi(<[^>]*>)?\(\s*"(GET|POST|PUT|DELETE)"/.test(line)) return true;
        const built = new RegExp(`[\`"']/${SERVICE}/[^\`"']*(\\$\\{|\\?)`).test(line);
        return built && !NOT_CALLS.some((allowed) => allowed.test(line));
      })
      .map(({ at, line }) => `${at}: ${line}`);
    expect(found).toEqual([]);
  });

  it("lists every route module the API loads in the client's route types, and every route in an exported list", () => {
    const loaded = [...read("workers/api/index.ts").matchAll(/^import "\.\/(.+)";$/gm)].map((m) => m[1]!);
    const typed = new Set([...read("workers/api/routes.ts").matchAll(/^import type \* as \w+ from "\.\/(.+)";$/gm)].map((m) => m[1]!));
    const declaring = loaded.filter((module) => /\b(route\(\s*\{|resource\()/.test(read(`workers/api/${module}.ts`)));
    expect(declaring.length).toBeGreaterThan(40);
    expect(declaring.filter((module) => !typed.has(module))).toEqual([]);
    // A route declared as a statement of its own would answer requests but be missing from the types.
    const loose = declaring.filter((module) => /^(route|(?!api\.)\w+\.(list|create|detail|update|remove|get|post|put|delete))\(/m.test(read(`workers/api/${module}.ts`)));
    expect(loose).toEqual([]);
  });
});
