import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeAccount, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";

/**
 * Carrier system › Operator info (docs/rules/platform.md "Operator info"): the operator reads its
 * own record and edits its contact, accounts, branding and EIPA access; what the platform decides
 * stays as it is.
 */
const info = (token: string) => call("GET", "/user-service/operator/info", { token });
const edit = (token: string, body: Record<string, unknown>, lang = "en") => call("PUT", `/user-service/operator/info?lang=${lang}`, { token, body });

describe("operator info (/user-service/operator/info)", () => {
  it("reads the operator's own record and edits its contact, accounts and EIPA access, keeping what the platform decides", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const before = (await info(token)).body.data;
    expect(before).toMatchObject({ code: "0DE001", edition: before.edition });
    const body = {
      name: before.name,
      contactName: "Klara Schmidt",
      contactPhone: "+49 30 1234567",
      contactEmail: "klara@example.de",
      chargeAccount: "DE89370400440532013000",
      clearingAccount: "DE02120300000000202051",
      cardPaymentAccount: "merchant-42",
      paypalAccount: "pay@example.de",
      homeUrl: "https://charge.example.de",
      openingHours: "Mo-Fr 08:00-18:00",
      eipaAccount: "eipa-de",
      eipaPassword: "eipa-secret-1",
    };
    const saved = await edit(token, body);
    expect(saved.status).toBe(200);
    const { eipaPassword: _secret, ...shown } = body;
    expect(saved.body.data).toMatchObject({ ...shown, code: "0DE001", edition: before.edition, validUntil: before.validUntil, eipaPasswordSet: true });
    expect(JSON.stringify(saved.body.data)).not.toContain("eipa-secret-1");
    const row = await env.DB.prepare("SELECT * FROM operators WHERE code = '0DE001'").first<Record<string, unknown>>();
    expect(JSON.stringify(row)).not.toContain("eipa-secret-1");
    const log = await env.DB.prepare("SELECT new_data FROM operation_logs WHERE module = 'carrierInfo' ORDER BY id DESC LIMIT 1").first<{ new_data: string }>();
    expect(log?.new_data).not.toContain("eipa-secret-1");

    // A blank password keeps the stored one; the code, edition and validity are not the operator's to change.
    const kept = await edit(token, { ...body, eipaPassword: "", contactName: "Klara S." });
    expect(kept.body.data).toMatchObject({ contactName: "Klara S.", eipaPasswordSet: true });
    const sealed = (await env.DB.prepare("SELECT eipa_password_sealed AS s FROM operators WHERE code = '0DE001'").first<{ s: string }>())!.s;
    expect(sealed).toBe(row!.eipa_password_sealed);
    const ignored = await edit(token, { ...body, code: "0DE999", edition: before.edition === "basic" ? "ultimate" : "basic", validUntil: "2020-01-01", subscriptionAmount: 1 });
    expect(ignored.status).toBe(200);
    expect(ignored.body.data).toMatchObject({ code: "0DE001", edition: before.edition, validUntil: before.validUntil, subscriptionAmount: before.subscriptionAmount });
  });

  it("refuses bad fields with their messages, in the language asked for, and changes nothing", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const before = (await info(token)).body.data;
    const bad = await edit(token, { name: "", contactEmail: "nope", contactPhone: "call me", homeUrl: "ftp://x" }, "pl");
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(["name", "contactEmail", "contactPhone", "homeUrl"]));
    expect((await info(token)).body.data).toEqual(before);
  });

  it("needs the operator-info menu (403), which the platform has not", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const other = await makeAccount("0PL002", admin, (await makeRole(admin, { menuCodes: ["home"] })).id);
    const token = (await login("0PL002", other.username, other.password)).body.data.accessToken;
    expect((await info(token)).status).toBe(403);
    expect((await edit(token, { name: "Taken over" })).status).toBe(403);
    expect((await call("GET", "/user-service/operator/info")).status).toBe(401);
    const platform = await tokenFor("PLATFORM", "platform", "Platform123");
    expect((await info(platform)).status).toBe(403);
  });
});
