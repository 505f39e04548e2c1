import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { handleError } from "../../app/entry.server";
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

describe("the console's errors", () => {
  const reported = (error: unknown, aborted = false) => {
    const lines: string[] = [];
    allowConsoleError(/"level":"error"/);
    const original = console.error;
    console.error = (...args: unknown[]) => lines.push(args.join(" "));
    try {
      const controller = new AbortController();
      if (aborted) controller.abort();
      handleError(error, { request: new Request("http://localhost/0PL002/login", { signal: controller.signal }) });
    } finally {
      console.error = original;
    }
    return lines;
  };

  it("are reported when a loader or an action throws", () => {
    expect(reported(new TypeError("boom"))).toHaveLength(1);
    expect(reported(new ErrorResponse(500, "Internal Server Error", null))).toHaveLength(1);
  });

  it("are not reported when React Router answers the caller's mistake (405 for a POST to a page without an action) or the browser went away", () => {
    expect(reported(new ErrorResponse(405, "Method Not Allowed", null))).toEqual([]);
    expect(reported(new ErrorResponse(404, "Not Found", null))).toEqual([]);
    expect(reported(new TypeError("boom"), true)).toEqual([]);
  });
});
