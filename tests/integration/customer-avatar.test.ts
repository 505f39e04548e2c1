import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GIF_HEADER, pngImage } from "../unit/stations-image-samples";
import { makeAccount, makeRole } from "./support/factories";
import { call, login, ORIGIN, tokenFor } from "./support/http";

/** A customer's avatar (docs/rules/drivers.md "Customers"): uploaded, checked by content, then named by `avatarKey`. */
async function upload(token: string, bytes: Uint8Array<ArrayBuffer> | null, name = "avatar.png") {
  const form = new FormData();
  if (bytes) form.append("file", new File([bytes], name, { type: "image/png" }));
  const res = await SELF.fetch(`${ORIGIN}/customer-service/customer/avatar`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as { msg: string; data: any } };
}

const customer = (overrides: Record<string, unknown> = {}) => ({
  firstName: "Ewa",
  lastName: "Zielińska",
  gender: "FEMALE",
  email: `ewa.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`,
  country: "PL",
  zipCode: "00-001",
  evModel: "Kia EV6",
  ...overrides,
});

describe("customer avatars (POST /customer-service/customer/avatar)", () => {
  it("stores a small JPG or PNG in the operator's folder, and a customer takes its key", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const stored = await upload(token, pngImage(120, 120));
    expect(stored.status).toBe(200);
    expect(stored.body.data).toMatchObject({ width: 120, height: 120, url: expect.stringContaining("/user-service/file/show?key=") });
    expect(stored.body.data.key).toMatch(/^operators\/\d+\/public\/customers\/avatars\/[0-9a-f-]+\.png$/);
    const created = await call("POST", "/customer-service/customer", { token, body: customer({ avatarKey: stored.body.data.key }) });
    expect(created.status).toBe(200);
    expect(created.body.data.avatarKey).toBe(stored.body.data.key);
    const shown = await SELF.fetch(`${ORIGIN}${stored.body.data.url}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(shown.status).toBe(200);
  });

  it("refuses another type, a picture over 160 × 160 px, or no file, with the field's message", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const gif = await upload(token, GIF_HEADER, "a.gif");
    expect(gif.status).toBe(400);
    expect(gif.body.data.fields).toHaveProperty("file");
    expect((await upload(token, pngImage(400, 300))).status).toBe(400);
    expect((await upload(token, null)).status).toBe(400);
  });

  it("keeps avatars to the operator's own uploads and to the customer screen's holders", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const theirs = (await upload(de, pngImage(64, 64))).body.data.key as string;
    const taken = await call("POST", "/customer-service/customer", { token: pl, body: customer({ avatarKey: theirs }) });
    expect(taken.status).toBe(400);
    expect(taken.body.data.fields).toHaveProperty("avatarKey");
    const account = await makeAccount("0PL002", pl, (await makeRole(pl, { menuCodes: ["users.rfCard"] })).id);
    const token = (await login("0PL002", account.username, account.password)).body.data.accessToken;
    expect((await upload(token, pngImage(64, 64))).status).toBe(403);
  });
});
