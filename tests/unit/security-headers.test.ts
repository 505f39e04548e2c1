import { describe, expect, it } from "vitest";
import { withSecurityHeaders } from "../../workers/http/security-headers";

describe("console pages", () => {
  it("are never cached, never sniffed and never framed", () => {
    const page = withSecurityHeaders(new Response("<html></html>", { headers: { "Content-Type": "text/html" } }), "abc", false);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(page.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("Content-Security-Policy")).toContain("'nonce-abc'");
  });
});
