import { env, SELF } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import en from "../../domain/i18n/locales/en/ocpi-sync.json";
import cpo2 from "../../domain/i18n/locales/en/cpo2.json";
import { tokenHeader } from "../../domain/ocpi/wire";
import { housekeeping } from "../../workers/jobs/housekeeping";
import { ocpiSession } from "../support/ocpi-objects";
import { consumePush } from "../../workers/jobs/push";
import { contextFromToken } from "../../workers/services/context";
import { registerPlatform } from "../../workers/services/ocpi/platforms";
import { makeCardRow, makeCustomerRow, operatorIdOf } from "./support/driver-rows";
import { eventually } from "../support/eventually";
import { fakeCpoWithSenders, routeFetchTo } from "./support/fake-cpo-senders";
import { tokenWithMenus } from "./support/factories";
import { call, ORIGIN, testCtx, tokenFor } from "./support/http";

/**
 * Keeping in step with partners (docs/rules/ocpi.md "Pulls", "Token pushes"): pulls of the CPO's
 * senders page by page, and our tokens pushed to its tokens receiver, both through the push queue,
 * whose deliveries reach the fake CPOs through the product's own `fetch`.
 */
let admin: string;
let other: string;
const fakes: ReturnType<typeof fakeCpoWithSenders>[] = [];
/** Queue batches wait up to a second each: several rounds per test. */
const QUEUE_MS = 20_000;

const userCtx = (token: string) => contextFromToken(testCtx({ request: { ip: "10.9.9.8", origin: ORIGIN, url: "/test", method: "PUT", userAgent: "vitest" } }), token);

async function registeredCpo() {
  const cpo = fakeCpoWithSenders();
  fakes.push(cpo);
  const res = await call("POST", "/ocpi-service/platform", { token: admin, body: { name: `Sync CPO ${fakes.length}`, versionsUrl: cpo.versionsUrl, token: cpo.state.tokenA } });
  const id = res.body.data.id as number;
  await registerPlatform(await userCtx(admin), id, cpo.handler);
  return { cpo, id };
}

const location = (id: string, lastUpdated: string, overrides: Record<string, unknown> = {}) => ({
  country_code: "DE",
  party_id: "CPO",
  id,
  publish: true,
  name: `Station ${id}`,
  address: "Europaplatz 1",
  city: "Berlin",
  country: "DEU",
  coordinates: { latitude: "52.52500", longitude: "13.36940" },
  time_zone: "Europe/Berlin",
  last_updated: lastUpdated,
  ...overrides,
});

const session = (id: string, lastUpdated: string) =>
  ocpiSession(id, { kwh: 1.5, cdr_token: { country_code: "PL", party_id: "PLD", uid: "CARD1", type: "RFID", contract_id: "PL-PLD-CCARD1" }, last_updated: lastUpdated });

const progress = async (id: number, module: string) => {
  const res = await call("GET", `/ocpi-service/platform/${id}/pull`, { token: admin });
  return (res.body.data as any[]).find((p) => p.module === module);
};
const settled = (id: number, module: string) => eventually(() => progress(id, module), (p) => p?.state === "DONE" || p?.state === "FAILED", QUEUE_MS);

const pushRow = async (platformId: number, uid: string) =>
  env.DB.prepare("SELECT state, attempts, last_error AS lastError, pushed_at AS pushedAt FROM ocpi_token_pushes WHERE platform_id = ? AND uid = ?")
    .bind(platformId, uid)
    .first<{ state: string; attempts: number; lastError: string | null; pushedAt: number | null }>();

/** The push queue's consumer on one token message, driven by hand to see its verdict. */
async function deliverByHand(pushId: number) {
  const verdicts: string[] = [];
  const body = { kind: "ocpiToken", operatorId: await operatorIdOf("0PL002"), operatorCode: "0PL002", pushId };
  const message = { id: "m", timestamp: new Date(), attempts: 1, body, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") };
  await consumePush({ queue: "plugdesk-push", messages: [message] } as unknown as MessageBatch<unknown>, env);
  return verdicts;
}

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  other = await tokenFor("0DE001", "deadmin1");
  await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.ocpi', json(?)) WHERE operator_id = ?")
    .bind(JSON.stringify({ countryCode: "PL", partyId: "PLD" }), await operatorIdOf("0PL002"))
    .run();
  vi.stubGlobal("fetch", routeFetchTo(fakes, globalThis.fetch));
});
afterAll(() => vi.unstubAllGlobals());

describe("pulls of the CPO's senders", { timeout: QUEUE_MS * 3 }, () => {
  it("reads every page by its Link, stores each object, skips a bad one with its reason, and sends date_from next time", async () => {
    const { cpo, id } = await registeredCpo();
    cpo.senders.objects.locations = [
      location("P1", "2026-05-01T10:00:00Z"),
      location("P2", "2026-05-01T10:01:00Z"),
      location("P3", "2026-05-01T10:02:00Z", { city: undefined }),
      location("P4", "2026-05-01T10:03:00Z"),
      location("P5", "2026-05-01T10:04:00Z"),
      location("P6", "2026-05-01T10:05:00Z"),
    ];
    const started = await call("POST", `/ocpi-service/platform/${id}/pull`, { token: admin, body: { modules: ["locations"] } });
    expect(started.status).toBe(200);
    expect(started.body.data.queued).toEqual(["locations"]);
    const done = await settled(id, "locations");
    expect(done).toMatchObject({ state: "DONE", pages: 3, objects: 5, skipped: 1, total: 6, lastError: null });
    expect(done.problems).toEqual([{ id: "P3", reason: expect.stringContaining("city") }]);
    expect(cpo.senders.pulls).toHaveLength(3);
    const [first, second] = cpo.senders.pulls;
    expect(first.searchParams.get("date_from")).toBeNull();
    expect(first.searchParams.get("date_to")).toBe(new Date(done.lastSuccessAt).toISOString().replace(".000Z", "Z"));
    expect(first.searchParams.get("offset")).toBe("0");
    expect(second.searchParams.get("offset")).toBe("2");
    const stored = await call("GET", `/ocpi-service/location?platformId=${id}&size=100`, { token: admin });
    expect(stored.body.data.records.map((r: { locationId: string }) => r.locationId).sort()).toEqual(["P1", "P2", "P4", "P5", "P6"]);

    // The next pull starts where this one ended.
    cpo.senders.pulls.length = 0;
    await call("POST", `/ocpi-service/platform/${id}/pull`, { token: admin, body: {} });
    const again = await eventually(() => progress(id, "locations"), (p) => p?.state === "DONE" && p.finishedAt !== done.finishedAt, QUEUE_MS);
    expect(again).toMatchObject({ state: "DONE", pages: 1, objects: 0 });
    expect(cpo.senders.pulls[0].searchParams.get("date_from")).toBe(first.searchParams.get("date_to"));
  });

  it("records a failing page and keeps what the pages before it stored", async () => {
    const { cpo, id } = await registeredCpo();
    cpo.senders.objects.sessions = ["S1", "S2", "S3", "S4"].map((s, i) => session(`${s}-${id}`, `2026-05-02T08:0${i}:00Z`));
    cpo.senders.failPage = 2;
    await call("POST", `/ocpi-service/platform/${id}/pull`, { token: admin, body: { modules: ["sessions"] } });
    const failed = await settled(id, "sessions");
    expect(failed).toMatchObject({ state: "FAILED", pages: 1, objects: 2, lastSuccessAt: null });
    expect(failed.lastError).toContain("page 2");
    expect(failed.lastError).toContain("3000 Sender broken");
    expect((await call("GET", `/ocpi-service/session?platformId=${id}`, { token: admin })).body.data.total).toBe(2);
  });

  it("is queued by the cron for registered platforms not pulled within the hour, which also queues lost token pushes again", async () => {
    const { cpo, id } = await registeredCpo();
    cpo.senders.objects.tariffs = [
      { country_code: "DE", party_id: "CPO", id: `T${id}`, currency: "EUR", elements: [{ price_components: [{ type: "ENERGY", price: 0.45, step_size: 1 }] }], last_updated: "2026-05-01T00:00:00Z" },
    ];
    const card = await makeCardRow("0PL002", null);
    await call("POST", "/ocpi-service/token/push", { token: admin, body: { platformId: id, uids: [card.idTag] } });
    await eventually(() => pushRow(id, card.idTag), (r) => r?.state === "SENT", QUEUE_MS);
    // A push whose message was lost ten minutes ago.
    await env.DB.prepare("UPDATE ocpi_token_pushes SET state = 'PENDING', attempts = 0, queued_at = ? WHERE platform_id = ? AND uid = ?")
      .bind(Date.now() - 11 * 60_000, id, card.idTag)
      .run();
    const before = cpo.senders.tokenPuts.length;
    await housekeeping(env, "*/15 * * * *", Date.now());
    const done = await settled(id, "tariffs");
    expect(done).toMatchObject({ state: "DONE", objects: 1 });
    expect((await call("GET", `/ocpi-service/tariff?platformId=${id}`, { token: admin })).body.data.records).toMatchObject([{ tariffId: `T${id}` }]);
    expect(await eventually(() => pushRow(id, card.idTag), (r) => r?.state === "SENT", QUEUE_MS)).toMatchObject({ state: "SENT", attempts: 1 });
    expect(cpo.senders.tokenPuts.length).toBeGreaterThan(before);
    // Pulled within the hour: the next run leaves it alone.
    await housekeeping(env, "*/15 * * * *", Date.now());
    expect(await progress(id, "tariffs")).toMatchObject({ state: "DONE", finishedAt: done.finishedAt });
  });

  it("answers another operator's platform with 404, a watching role with 403, and an unregistered platform with 409", async () => {
    const { id } = await registeredCpo();
    expect((await call("POST", `/ocpi-service/platform/${id}/pull`, { token: other, body: {} })).status).toBe(404);
    expect((await call("GET", `/ocpi-service/platform/${id}/pull`, { token: other })).status).toBe(404);
    const watching = await tokenWithMenus(admin, ["emsp.session", "emsp.cdr", "emsp.location"]);
    expect((await call("POST", `/ocpi-service/platform/${id}/pull`, { token: watching, body: {} })).status).toBe(403);
    expect((await call("POST", "/ocpi-service/token/push", { token: watching, body: {} })).status).toBe(403);
    const bad = await call("POST", `/ocpi-service/platform/${id}/pull`, { token: admin, body: { modules: ["tokens"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields).toHaveProperty(["modules.0"], en.ocpi.validation.module);
    const bare = await call("POST", "/ocpi-service/platform", { token: admin, body: { name: "Not registered" } });
    expect((await call("POST", `/ocpi-service/platform/${bare.body.data.id}/pull`, { token: admin, body: {} })).status).toBe(409);
  });

  it("pulls only from partners whose role is CPO or HUB: an eMSP partner is neither pulled by hand nor by the cron", async () => {
    const control = await registeredCpo();
    control.cpo.senders.objects.tariffs = [
      { country_code: "DE", party_id: "CPO", id: `T${control.id}`, currency: "EUR", elements: [{ price_components: [{ type: "ENERGY", price: 0.45, step_size: 1 }] }], last_updated: "2026-05-01T00:00:00Z" },
    ];
    const emsp = await registeredCpo();
    // A partner entered as an eMSP reads what we publish, whatever sender endpoints it lists.
    await env.DB.prepare("UPDATE ocpi_platforms SET role = 'EMSP' WHERE id = ?").bind(emsp.id).run();
    const refused = await call("POST", `/ocpi-service/platform/${emsp.id}/pull`, { token: admin, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(cpo2.cpo2.errors.pullFromEmsp);
    await housekeeping(env, "*/15 * * * *", Date.now());
    expect(await settled(control.id, "tariffs")).toMatchObject({ state: "DONE", objects: 1 });
    expect(await progress(emsp.id, "tariffs")).toBeUndefined();
    expect(emsp.cpo.senders.pulls).toEqual([]);
  });
});

describe("pulls of a hub's hubclientinfo", { timeout: QUEUE_MS * 4 }, () => {
  const clientInfo = (partyId: string, lastUpdated: string) => ({ party_id: partyId, country_code: "NL", role: "CPO", status: "CONNECTED", last_updated: lastUpdated, x_name: partyId });
  const hubLocation = (partyId: string, id: string) => location(id, "2026-05-01T10:00:00Z", { country_code: "NL", party_id: partyId });
  const pushLocation = (token: string, partyId: string, id: string) =>
    SELF.fetch(`${ORIGIN}/ocpi/2.2.1/locations/NL/${partyId}/${id}`, {
      method: "PUT",
      headers: { Authorization: tokenHeader(token), "Content-Type": "application/json" },
      body: JSON.stringify(hubLocation(partyId, id)),
    }).then(async (r) => (await r.json<{ status_code: number }>()).status_code);

  it("reads the parties behind a hub after registration, whole, before its other modules, so the hub's pushes for them are accepted", async () => {
    const hub = fakeCpoWithSenders({ role: "HUB" });
    fakes.push(hub);
    hub.senders.objects.hubclientinfo = [clientInfo("AAA", "2026-05-01T00:00:00Z"), clientInfo("BBB", "2026-05-01T00:01:00Z"), clientInfo("CCC", "2026-05-01T00:02:00Z")];
    hub.senders.objects.locations = [hubLocation("AAA", "HA1")];
    const res = await call("POST", "/ocpi-service/platform", { token: admin, body: { name: "Hub", versionsUrl: hub.versionsUrl, token: hub.state.tokenA } });
    const id = res.body.data.id as number;
    await registerPlatform(await userCtx(admin), id, hub.handler);
    const done = await settled(id, "hubclientinfo");
    expect(done).toMatchObject({ state: "DONE", pages: 2, objects: 3, skipped: 0 });
    const parties = await call("GET", `/ocpi-service/party?platformId=${id}&size=100`, { token: admin });
    expect(parties.body.data.records.map((p: { partyId: string }) => p.partyId).sort()).toEqual(["AAA", "BBB", "CCC", "CPO"]);
    expect(await pushLocation(hub.state.ourToken!, "BBB", "HB1")).toBe(1000);
    expect(await pushLocation(hub.state.ourToken!, "ZZZ", "HZ1")).toBe(2001);
    // The pull after registration read the parties only; the cron reads them again every hour, whole.
    expect(await progress(id, "locations")).toBeUndefined();
    await env.DB.prepare("UPDATE ocpi_pulls SET finished_at = ? WHERE platform_id = ?").bind(Date.now() - 2 * 3_600_000, id).run();
    hub.senders.objects.hubclientinfo.push(clientInfo("DDD", "2026-04-01T00:00:00Z"));
    hub.senders.pulls.length = 0;
    await housekeeping(env, "*/15 * * * *", Date.now());
    const again = await eventually(() => progress(id, "hubclientinfo"), (p) => p?.state === "DONE" && p.finishedAt !== done.finishedAt, QUEUE_MS);
    expect(again).toMatchObject({ state: "DONE", objects: 4 });
    const hubPulls = hub.senders.pulls.filter((u) => u.pathname.endsWith("/hubclientinfo"));
    expect(hubPulls[0].searchParams.get("date_from")).toBeNull();
    // Its locations were read after its parties were known: the location of AAA is stored.
    expect(await settled(id, "locations")).toMatchObject({ state: "DONE", objects: 1, skipped: 0 });
    const firstLocationPull = hub.senders.pulls.findIndex((u) => u.pathname.endsWith("/locations"));
    expect(firstLocationPull).toBeGreaterThan(hub.senders.pulls.lastIndexOf(hubPulls.at(-1)!));
    expect(await pushLocation(hub.state.ourToken!, "DDD", "HD1")).toBe(1000);
  });
});

describe("token pushes to the CPO's tokens receiver", { timeout: QUEUE_MS * 3 }, () => {
  it("pushes a changed card through the queue, records a refusal, and a retry sends it", async () => {
    const { cpo, id } = await registeredCpo();
    const driver = await makeCustomerRow("0PL002");
    const card = await makeCardRow("0PL002", driver.id);
    expect((await call("PUT", `/customer-service/rf-card/${card.id}/status`, { token: admin, body: { status: "BLOCKED" } })).status).toBe(200);
    const sent = await eventually(() => pushRow(id, card.idTag), (r) => r?.state === "SENT", QUEUE_MS);
    expect(sent).toMatchObject({ state: "SENT", attempts: 1, lastError: null });
    const put = cpo.senders.tokenPuts.find((p) => p.path === `tokens/PL/PLD/${card.idTag}`)!;
    expect(put).toMatchObject({ type: "RFID", authorization: `Token ${btoa(cpo.state.tokenC)}` });
    expect(put.body).toMatchObject({ uid: card.idTag, type: "RFID", country_code: "PL", party_id: "PLD", valid: false, whitelist: "ALWAYS" });

    // Unblocked, but the CPO refuses: the failure is recorded, the queue is asked to retry.
    cpo.senders.refuseTokens = 1;
    await call("PUT", `/customer-service/rf-card/${card.id}/status`, { token: admin, body: { status: "VALID" } });
    const failed = await eventually(() => pushRow(id, card.idTag), (r) => r?.state === "FAILED", QUEUE_MS);
    expect(failed).toMatchObject({ attempts: 1 });
    expect(failed!.lastError).toContain("2001 Token refused by the fake CPO");
    const { pushId } = (await env.DB.prepare("SELECT id AS pushId FROM ocpi_token_pushes WHERE platform_id = ? AND uid = ?").bind(id, card.idTag).first<{ pushId: number }>())!;
    cpo.senders.refuseTokens = 1;
    expect(await deliverByHand(pushId)).toEqual(["retry"]);
    expect(await pushRow(id, card.idTag)).toMatchObject({ state: "FAILED", attempts: 2 });
    expect(await deliverByHand(pushId)).toEqual(["ack"]);
    expect(await pushRow(id, card.idTag)).toMatchObject({ state: "SENT", attempts: 3, lastError: null });
    expect(cpo.senders.tokenPuts.at(-1)!.body).toMatchObject({ uid: card.idTag, valid: true });
    // A message delivered again after success sends nothing more.
    const count = cpo.senders.tokenPuts.length;
    expect(await deliverByHand(pushId)).toEqual(["ack"]);
    expect(cpo.senders.tokenPuts).toHaveLength(count);
    // Outgoing pushes are not in the operation log.
    const logged = await env.DB.prepare("SELECT count(*) AS n FROM operation_logs WHERE url LIKE 'SYSTEM ocpi%'").first<{ n: number }>();
    expect(logged!.n).toBe(0);
  });

  it("pushes every token of a customer whose status changes", async () => {
    const { cpo, id } = await registeredCpo();
    const driver = await makeCustomerRow("0PL002");
    const cards = [await makeCardRow("0PL002", driver.id), await makeCardRow("0PL002", driver.id)];
    expect((await call("PUT", `/customer-service/customer/${driver.id}/status`, { token: admin, body: { status: "ABNORMAL" } })).status).toBe(200);
    for (const card of cards) {
      expect(await eventually(() => pushRow(id, card.idTag), (r) => r?.state === "SENT", QUEUE_MS)).toMatchObject({ state: "SENT" });
      expect(cpo.senders.tokenPuts.find((p) => p.body.uid === card.idTag)!.body).toMatchObject({ valid: false });
    }
  });

  it("publishes a deleted card as no longer valid, force-pushes one token or all, and shows each partner's state in the list", async () => {
    const { cpo, id } = await registeredCpo();
    const gone = await makeCardRow("0PL002", null);
    expect((await call("DELETE", `/customer-service/rf-card/${gone.id}`, { token: admin })).status).toBe(200);
    await eventually(() => pushRow(id, gone.idTag), (r) => r?.state === "SENT", QUEUE_MS);
    expect(cpo.senders.tokenPuts.find((p) => p.body.uid === gone.idTag)!.body).toMatchObject({ valid: false });

    const card = await makeCardRow("0PL002", (await makeCustomerRow("0PL002")).id, { updatedAt: new Date("2040-01-01T00:00:00Z") });
    const forced = await call("POST", "/ocpi-service/token/push", { token: admin, body: { platformId: id, uids: [card.idTag.toLowerCase()] } });
    expect(forced.status).toBe(200);
    expect(forced.body.data.queued).toBe(1);
    await eventually(() => pushRow(id, card.idTag), (r) => r?.state === "SENT", QUEUE_MS);
    expect(cpo.senders.tokenPuts.find((p) => p.body.uid === card.idTag)!.body).toMatchObject({ valid: true });
    const list = await call("GET", "/ocpi-service/token?size=100", { token: admin });
    const listed = list.body.data.records.find((r: { uid: string }) => r.uid === card.idTag);
    expect(listed.pushes).toEqual([expect.objectContaining({ platformId: id, state: "SENT", attempts: 1 })]);

    const all = await call("POST", "/ocpi-service/token/push", { token: admin, body: { platformId: id } });
    expect(all.status).toBe(200);
    expect(all.body.data.queued).toBe(list.body.data.total);

    const unknown = await call("POST", "/ocpi-service/token/push", { token: admin, body: { uids: ["NO-SUCH-TOKEN"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fields.uids).toBe(en.ocpi.validation.unknownUid);
    expect((await call("POST", "/ocpi-service/token/push", { token: other, body: { platformId: id } })).status).toBe(404);
    expect((await call("POST", "/ocpi-service/token/push", { token: admin, body: { uids: [] } })).status).toBe(400);
  });
});
