import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { accountDeletionRequests, banners, storedFiles } from "../../db/schema";
import en from "../../domain/i18n/locales/en/maintenance.json";
import { GIF_HEADER, padded, pngImage } from "../unit/stations-image-samples";
import { insertAll } from "./support/bulk";
import { makeCustomerRow, operatorIdOf } from "./support/driver-rows";
import { tokenWithMenus } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";

/** Account deletion requests, banners and file management (docs/rules/maintenance.md). */
const v = en.maintenance.validation;
const e = en.maintenance.errors;
let admin: string;
let deAdmin: string;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  deAdmin = await tokenFor("0DE001", "deadmin1");
});

async function send(path: string, token: string, file: File | null) {
  const form = new FormData();
  if (file) form.append("file", file);
  const res = await SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}

const png = (w: number, h: number, name = "banner.png") => new File([pngImage(w, h)], name, { type: "image/png" });

describe("account deletion", () => {
  it("records a request from the public page, the same answer whether or not the contact is known", async () => {
    const customer = await makeCustomerRow("0PL002", { phone: "+48 600 100 200", city: "Kraków", carPlate: "KR 12345" });
    const unknownOperator = await call("POST", "/customer-service/account-deletion/request", { body: { operatorCode: "NOPE", contact: customer.email } });
    expect(unknownOperator.status).toBe(400);
    expect(unknownOperator.body.data.fields.operatorCode).toBe(e.operatorNotFound);
    const bad = await call("POST", "/customer-service/account-deletion/request", { body: { operatorCode: "0PL002", contact: "not an address" } });
    expect(bad.body.data.fields.contact).toBe(v.contactRule);
    const known = await call("POST", "/customer-service/account-deletion/request", { body: { operatorCode: "0PL002", contact: customer.email.toUpperCase(), reason: "Moving" } });
    const stranger = await call("POST", "/customer-service/account-deletion/request", { body: { operatorCode: "0PL002", contact: "nobody-here@example.com" } });
    expect(known.status).toBe(200);
    expect(known.body.data).toEqual(stranger.body.data);

    const list = await call("GET", "/customer-service/account-deletion?status=PENDING&size=100", { token: admin });
    const mine = list.body.data.records.find((r: { contact: string }) => r.contact === customer.email.toUpperCase());
    expect(mine).toMatchObject({ customerId: customer.id, reason: "Moving", status: "PENDING" });
    expect((await call("GET", "/customer-service/account-deletion?size=100", { token: deAdmin })).body.data.records.some((r: { id: number }) => r.id === mine.id)).toBe(false);
    expect((await call("PUT", `/customer-service/account-deletion/${mine.id}`, { token: deAdmin, body: { result: "DONE" } })).status).toBe(404);
    const without = await tokenWithMenus(admin, ["home"]);
    expect((await call("GET", "/customer-service/account-deletion", { token: without })).status).toBe(403);

    // No mailed code proved who asked: the operator confirms it another way first, and says how.
    expect(mine.verified).toBe(false);
    expect((await call("PUT", `/customer-service/account-deletion/${mine.id}`, { token: admin, body: { result: "DONE" } })).status).toBe(400);
    const done = await call("PUT", `/customer-service/account-deletion/${mine.id}`, { token: admin, body: { result: "DONE", identityConfirmedBy: "Called the phone number on the account" } });
    expect(done.body.data).toMatchObject({ status: "DONE", processedBy: "demoadmin" });
    const erased = await env.DB.prepare("SELECT first_name, email, phone, city, car_plate, status, balance FROM customers WHERE id = ?").bind(customer.id).first();
    expect(erased).toEqual({ first_name: "—", email: `deleted-${customer.id}@invalid`, phone: null, city: null, car_plate: null, status: "ABNORMAL", balance: customer.balance });
    const again = await call("PUT", `/customer-service/account-deletion/${mine.id}`, { token: admin, body: { result: "REJECTED" } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(e.deletionDone);
  });

  it("lists requests at page size 100 with more than 100 rows", async () => {
    const operatorId = await operatorIdOf("0PL002");
    const tag = `del${Date.now().toString(36)}`;
    await insertAll(
      accountDeletionRequests,
      Array.from({ length: 150 }, (_, i) => ({ operatorId, contact: `${tag}${i}@example.com`, status: "REJECTED" as const, createdAt: new Date(Date.parse("2020-01-01T00:00:00Z") + i * 1000) })),
    );
    const first = await call("GET", "/customer-service/account-deletion?status=REJECTED&size=100&current=1", { token: admin });
    expect(first.body.data.total).toBeGreaterThanOrEqual(150);
    expect(first.body.data.records).toHaveLength(100);
    const last = Math.ceil(first.body.data.total / 100);
    const tail = await call("GET", `/customer-service/account-deletion?status=REJECTED&size=100&current=${last}`, { token: admin });
    expect(tail.body.data.records).toHaveLength(first.body.data.total - (last - 1) * 100);
  });
});

describe("banners", () => {
  it("takes JPG/PNG only, within 1 MB and 160×160 px, checked by content", async () => {
    const gif = await send("/system-service/banner?type=POINT", admin, new File([GIF_HEADER], "banner.png", { type: "image/png" }));
    expect(gif.status).toBe(400);
    expect(gif.body.data.fields.file).toBe("Only JPG or PNG images can be uploaded");
    const big = await send("/system-service/banner?type=POINT", admin, png(161, 100));
    expect(big.status).toBe(400);
    const heavy = await send("/system-service/banner?type=POINT", admin, new File([padded(pngImage(100, 100), 1024 * 1024 + 1)], "heavy.png"));
    expect(heavy.status).toBe(400);
    expect((await send("/system-service/banner?type=OTHER", admin, png(100, 100))).body.data.fields.type).toBe(v.bannerType);
    expect((await send("/system-service/banner?type=POINT", admin, null)).status).toBe(400);
  });

  it("goes UNAUDITED → AUDITED once, is enabled only when approved, keeps the operator's order, and deletes its image", async () => {
    const a = (await send("/system-service/banner?type=POINT", admin, png(160, 160))).body.data;
    const b = (await send("/system-service/banner?type=STATION", admin, png(80, 40))).body.data;
    expect(a).toMatchObject({ type: "POINT", auditStatus: "UNAUDITED", enabled: false, width: 160, height: 160, uploadedBy: "demoadmin" });
    const image = await SELF.fetch(`${ORIGIN}${a.url}`);
    expect(image.headers.get("Content-Type")).toBe("image/png");
    const early = await call("PUT", `/system-service/banner/${a.id}/status`, { token: admin, body: { enabled: true } });
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe(e.bannerNotAudited);
    expect((await call("PUT", `/system-service/banner/${a.id}/audit`, { token: admin })).body.data.auditStatus).toBe("AUDITED");
    expect((await call("PUT", `/system-service/banner/${a.id}/audit`, { token: admin })).status).toBe(409);
    expect((await call("PUT", `/system-service/banner/${a.id}/status`, { token: admin, body: { enabled: true } })).body.data.enabled).toBe(true);

    expect((await call("PUT", "/system-service/banner/order", { token: admin, body: { ids: [b.id, a.id] } })).status).toBe(200);
    const listed = await call("GET", "/system-service/banner?size=100", { token: admin });
    const ids = listed.body.data.records.map((r: { id: number }) => r.id);
    expect(ids.slice(0, 2)).toEqual([b.id, a.id]);

    expect((await call("PUT", `/system-service/banner/${a.id}/audit`, { token: deAdmin })).status).toBe(404);
    expect((await call("PUT", "/system-service/banner/order", { token: deAdmin, body: { ids: [a.id] } })).status).toBe(404);
    // As many ids as the order takes (100), one of them not the operator's: counted in slices, a 404, never D1's limit.
    const hundred = [a.id, b.id, ...Array.from({ length: 98 }, (_, i) => b.id + 1_000_000 + i)];
    const tooMany = await call("PUT", "/system-service/banner/order", { token: admin, body: { ids: hundred } });
    expect(tooMany.status, JSON.stringify(tooMany.body)).toBe(404);
    expect(tooMany.body.msg).toBe(e.bannerNotFound);
    expect((await call("DELETE", `/system-service/banner/${a.id}`, { token: deAdmin })).status).toBe(404);
    const without = await tokenWithMenus(admin, ["carrier.operationLog"]);
    expect((await send("/system-service/banner?type=POINT", without, png(10, 10))).status).toBe(403);

    expect((await call("DELETE", `/system-service/banner/${a.id}`, { token: admin })).status).toBe(200);
    expect(await env.FILES.get(a.key)).toBeNull();
  });

  it("lists banners at page size 100 with more than 100 rows", async () => {
    const operatorId = await operatorIdOf("0DE001");
    await insertAll(
      banners,
      Array.from({ length: 150 }, (_, i) => ({ operatorId, type: "STATION" as const, fileKey: `operators/${operatorId}/public/banners/bulk${i}.png`, width: 10, height: 10, bytes: 100, sort: 1000 + i, uploadedBy: "bulk" })),
    );
    const first = await call("GET", "/system-service/banner?type=STATION&size=100&current=1", { token: deAdmin });
    expect(first.body.data.total).toBeGreaterThanOrEqual(150);
    expect(first.body.data.records).toHaveLength(100);
  });
});

describe("file management", () => {
  it("stores a file checked by content, lists, downloads only within the operator, and deletes it", async () => {
    const renamed = await send("/system-service/file", admin, new File([GIF_HEADER], "report.pdf"));
    expect(renamed.status).toBe(400);
    expect(renamed.body.data.fields.file).toBe(v.fileType);
    const binaryAsText = await send("/system-service/file", admin, new File([new Uint8Array([0x4d, 0x5a, 0, 1])], "notes.txt"));
    expect(binaryAsText.body.data.fields.file).toBe(v.fileType);
    expect((await send("/system-service/file", admin, null)).body.data.fields.file).toBe(v.fileRequired);
    const huge = await send("/system-service/file", admin, new File([new Uint8Array(10 * 1024 * 1024 + 1).fill(0x41)], "big.txt"));
    expect(huge.status).toBe(400);
    expect(huge.body.data.fields.file).toBe(v.fileBytes.replace("{{max}}", "10 MB"));

    const name = `tariffs-${Date.now()}.csv`;
    const made = await send("/system-service/file", admin, new File(["station;price\nA;1.20\n"], `../../${name}`));
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ name, contentType: "text/plain; charset=utf-8", uploadedBy: "demoadmin" });
    const id = made.body.data.id;
    expect((await call("GET", `/system-service/file?name=${name}`, { token: admin })).body.data.records).toHaveLength(1);

    const download = await SELF.fetch(`${ORIGIN}/system-service/file/${id}/download`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe(`attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(await download.text()).toBe("station;price\nA;1.20\n");
    const foreign = await SELF.fetch(`${ORIGIN}/system-service/file/${id}/download`, { headers: { Authorization: `Bearer ${deAdmin}` } });
    expect(foreign.status).toBe(404);
    expect((await call("DELETE", `/system-service/file/${id}`, { token: deAdmin })).status).toBe(404);
    const without = await tokenWithMenus(admin, ["users.imageManagement"]);
    expect((await call("GET", "/system-service/file", { token: without })).status).toBe(403);

    const key = (await env.DB.prepare("SELECT file_key FROM stored_files WHERE id = ?").bind(id).first<{ file_key: string }>())!.file_key;
    expect((await call("DELETE", `/system-service/file/${id}`, { token: admin })).status).toBe(200);
    expect(await env.FILES.get(key)).toBeNull();
    expect((await call("GET", `/system-service/file?name=${name}`, { token: admin })).body.data.total).toBe(0);
  });

  it("lists files at page size 100 with more than 100 rows", async () => {
    const operatorId = await operatorIdOf("0PL002");
    const tag = `bulkfile${Date.now().toString(36)}`;
    await insertAll(
      storedFiles,
      Array.from({ length: 150 }, (_, i) => ({ operatorId, fileKey: `operators/${operatorId}/files/${tag}${i}`, name: `${tag}-${i}.txt`, contentType: "text/plain", bytes: 1, uploadedBy: "bulk" })),
    );
    const first = await call("GET", `/system-service/file?name=${tag}&size=100&current=1`, { token: admin });
    expect(first.body.data.total).toBe(150);
    expect(first.body.data.records).toHaveLength(100);
    expect((await call("GET", `/system-service/file?name=${tag}&size=100&current=2`, { token: admin })).body.data.records).toHaveLength(50);
  });
});
