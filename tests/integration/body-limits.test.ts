import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "./support/http";

/**
 * Every body is limited before it is read (docs/rules/input.md "Body size"): console forms (the
 * public login and account-deletion pages among them), the payment webhook and OCPI refuse a
 * body over 1 MB with 413, whether it declares its length or streams without one.
 */

const TWO_MB = 2 * 1024 * 1024;
const formBody = () => `username=demoadmin&password=${"x".repeat(TWO_MB)}`;

/** The same bytes as a stream: no Content-Length, counted while read. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
}

const post = (path: string, body: BodyInit, headers: Record<string, string>, method = "POST") =>
  SELF.fetch(`${ORIGIN}${path}`, { method, headers: { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", ...headers }, body, redirect: "manual" });

describe("body limits outside the JSON API", () => {
  it("refuses a 2 MB form post to the login and account-deletion pages with 413 and a localized message", async () => {
    for (const path of ["/0PL002/login?lang=de", "/app/delete/account?lang=de"]) {
      const res = await post(path, formBody(), { "Content-Type": "application/x-www-form-urlencoded" });
      expect(res.status, path).toBe(413);
      expect(await res.text()).toBe("Der Anfrageinhalt ist zu groß (höchstens 1 MB)");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("gives a multipart body the upload allowance only when it names a session: 2 MB to the public pages and to OCPI is 413", async () => {
    const multipart = () => {
      const form = new FormData();
      form.set("username", "demoadmin");
      form.set("file", new File(["x".repeat(TWO_MB)], "big.txt"));
      return form;
    };
    for (const path of ["/0PL002/login", "/app/delete/account"]) {
      const res = await post(path, multipart(), {});
      expect(res.status, path).toBe(413);
    }
    const ocpi = await post("/ocpi/2.2.1/tokens/TAG1/authorize", multipart(), { Authorization: "Token whatever" });
    expect(ocpi.status).toBe(413);
  });

  it("refuses a 2 MB form streamed without a Content-Length with 413", async () => {
    const res = await post("/0PL002/login", chunked(formBody()), { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res.headers.get("Content-Length")).not.toBe(String(TWO_MB));
    expect(res.status).toBe(413);
  });

  it("refuses a 2 MB Stripe webhook with 413 in the API's envelope, declared or streamed", async () => {
    const payload = JSON.stringify({ type: "payment_intent.succeeded", pad: "x".repeat(TWO_MB) });
    for (const body of [payload, chunked(payload)]) {
      const res = await post("/finance-service/payment-webhook/0PL002/stripe", body, { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00" });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: 413, msg: "The request body is too large (at most 1 MB)" });
    }
  });

  it("refuses a 2 MB OCPI push and a 2 MB raw-text authorization with 413 in OCPI's envelope", async () => {
    const location = JSON.stringify({ id: "LOC1", pad: "x".repeat(TWO_MB) });
    const put = await post("/ocpi/2.2.1/locations/PL/CPO/LOC1", location, { "Content-Type": "application/json", Authorization: "Token whatever" }, "PUT");
    expect(put.status).toBe(413);
    expect(await put.json()).toMatchObject({ status_code: 2001, status_message: "Body over 1 MB" });
    const authorize = await post("/ocpi/2.2.1/tokens/TAG1/authorize", chunked(location), { "Content-Type": "application/json", Authorization: "Token whatever" });
    expect(authorize.status).toBe(413);
    expect(await authorize.json()).toMatchObject({ status_code: 2001 });
  });
});
