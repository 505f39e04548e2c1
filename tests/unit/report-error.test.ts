import { describe, expect, it } from "vitest";
import { reportError } from "../../workers/http/report-error";
import { allowConsoleError } from "../support/console-guard";

describe("server errors", () => {
  it("are reported as one JSON line with level error, where and the error, which the browser tests look for", () => {
    const lines: string[] = [];
    allowConsoleError(/"level":"error"/);
    const original = console.error;
    console.error = (...args: unknown[]) => lines.push(args.join(" "));
    try {
      reportError("api", new TypeError("boom"), { url: "/x" });
    } finally {
      console.error = original;
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    expect(JSON.parse(lines[0])).toMatchObject({ level: "error", where: "api", url: "/x", error: { name: "TypeError", message: "boom" } });
  });
});
