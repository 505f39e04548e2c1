import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chargeStrategies, chargeStrategyVersions, points, stations } from "../../db/schema";
import { location as locationSchema } from "../../domain/schemas/ocpi/locations";
import { tariff as tariffSchema } from "../../domain/schemas/ocpi/tariffs";
import { registerPlatform } from "../../workers/services/ocpi/platforms";
import { insertAll } from "./support/bulk";
import { boot, connect, eventually, now } from "./support/charger";
import { operatorIdOf } from "./support/driver-rows";
import { fakeCpo, ocpi } from "./support/fake-cpo";
import { routeFetchTo } from "./support/fake-cpo-senders";
import { fakeEmsp } from "./support/fake-emsp";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, ORIGIN } from "./support/http";
import { operatorsInBothRoles, registerEmsp, setIdentity, userCtx } from "./support/ocpi-partner";
import { flatStrategy } from "./support/strategies";

/**
 * OCPI 2.2.1 as a CPO: roles, and what we publish (docs/rules/ocpi.md "CPO role"). A fake eMSP
 * registers with a token A we issued, reads our locations and tariffs page by page, and receives
 * our pushes through the push queue, whose deliveries reach it through the product's own `fetch`.
 */
let admin: string;
let other: string;
const emsps: ReturnType<typeof fakeEmsp>[] = [];
const QUEUE_MS = 20_000;

/** An eMSP registered with the operator `token` logs into, through a token A we issued. */
async function registeredEmsp(token: string, options: Parameters<typeof fakeEmsp>[0] = {}) {
  const emsp = fakeEmsp(options);
  emsps.push(emsp);
  return { emsp, ...(await registerEmsp(token, emsp, { name: `eMSP ${emsps.length}`, role: options.role ?? "EMSP" })) };
}

const publish = (token: string, stationId: number, value = true) => call("PUT", `/ocpi-service/cpo/location/${stationId}`, { token, body: { publish: value } });
const stationOf = async (pointId: number) => (await env.DB.prepare("SELECT station_id AS id FROM points WHERE id = ?").bind(pointId).first<{ id: number }>())!.id;

beforeAll(async () => {
  vi.stubGlobal("fetch", routeFetchTo(emsps, globalThis.fetch));
  ({ admin, other } = await operatorsInBothRoles());
});
afterAll(() => vi.unstubAllGlobals());

describe("roles on the wire", () => {
  it("registers an eMSP with a token A we issued, lists our CPO modules and names both our roles", async () => {
    const emsp = fakeEmsp();
    emsps.push(emsp);
    const created = await call("POST", "/ocpi-service/platform", { token: admin, body: { name: "Roles eMSP", role: "EMSP" } });
    expect(created.body.data).toMatchObject({ role: "EMSP", registerStatus: "Unregistered" });
    const { token: tokenA } = (await call("PUT", `/ocpi-service/platform/${created.body.data.id}/token`, { token: admin })).body.data;
    const details = await ocpi("GET", "/ocpi/2.2.1", { token: tokenA });
    const endpoints = details.body.data.endpoints.map((e: { identifier: string; role: string; url: string }) => `${e.identifier}:${e.role} ${e.url.replace(ORIGIN, "")}`);
    expect(endpoints).toEqual(
      expect.arrayContaining(["credentials:RECEIVER /ocpi/2.2.1/credentials", "locations:SENDER /ocpi/2.2.1/cpo/locations", "tariffs:SENDER /ocpi/2.2.1/cpo/tariffs"]),
    );
    // An eMSP is offered none of our eMSP receivers.
    expect(endpoints).not.toContain("locations:RECEIVER /ocpi/2.2.1/locations");
    // Its credentials must name the role its platform was entered with.
    const wrong = await ocpi("POST", "/ocpi/2.2.1/credentials", { token: tokenA, body: emsp.credentials("CPO"), send: emsp.handler });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ status_code: 2001 });
    expect(wrong.body.status_message).toContain("EMSP");
    const answered = await emsp.register(tokenA);
    expect(answered.body.data.roles).toEqual([
      { role: "EMSP", business_details: expect.any(Object), party_id: "PLC", country_code: "PL" },
      { role: "CPO", business_details: expect.any(Object), party_id: "PLC", country_code: "PL" },
    ]);
    const platform = (await call("GET", `/ocpi-service/platform/${created.body.data.id}`, { token: admin })).body.data;
    expect(platform).toMatchObject({ role: "EMSP", registerStatus: "Registered", partnerCountryCode: "NL", partnerPartyId: "EMS" });
  });

  it("keeps an eMSP out of our eMSP receivers and a CPO out of our CPO senders; a hub reaches both", async () => {
    const { emsp } = await registeredEmsp(admin);
    const token = emsp.state.ourToken!;
    for (const [method, path] of [
      ["PUT", "/ocpi/2.2.1/locations/NL/EMS/L1"],
      ["GET", "/ocpi/2.2.1/tokens"],
      ["POST", "/ocpi/2.2.1/cdrs"],
    ] as const) {
      const refused = await ocpi(method, path, { token, body: method === "GET" ? undefined : { any: "body" } });
      expect(refused.status, path).toBe(403);
      expect(refused.body.status_code).toBe(2000);
    }
    expect((await ocpi("GET", "/ocpi/2.2.1/cpo/locations", { token })).status).toBe(200);

    const cpo = fakeCpo();
    const created = await call("POST", "/ocpi-service/platform", { token: admin, body: { name: "A CPO", versionsUrl: cpo.versionsUrl, token: cpo.state.tokenA } });
    expect(created.body.data.role).toBe("CPO");
    await registerPlatform(await userCtx(admin), created.body.data.id, cpo.handler);
    const refused = await ocpi("GET", "/ocpi/2.2.1/cpo/tariffs", { token: cpo.state.ourToken });
    expect(refused.status).toBe(403);
    expect((await ocpi("GET", "/ocpi/2.2.1/tokens", { token: cpo.state.ourToken })).status).toBe(200);

    const hub = await registeredEmsp(admin, { role: "HUB", partyId: "HUB" });
    expect((await ocpi("GET", "/ocpi/2.2.1/cpo/locations", { token: hub.emsp.state.ourToken })).status).toBe(200);
    expect((await ocpi("GET", "/ocpi/2.2.1/tokens", { token: hub.emsp.state.ourToken })).status).toBe(200);
  });

  it("refuses a platform role that is not CPO, EMSP or HUB, and offers no CPO side to an operator that is not a CPO", async () => {
    const bad = await call("POST", "/ocpi-service/platform", { token: other, body: { name: "Bad", role: "NSP" } });
    expect(bad.status).toBe(400);
    const { emsp } = await registeredEmsp(other);
    await setIdentity("0DE001", { countryCode: "DE", partyId: "DEX" });
    try {
      expect((await ocpi("GET", "/ocpi/2.2.1/cpo/locations", { token: emsp.state.ourToken })).status).toBe(404);
      const details = await ocpi("GET", "/ocpi/2.2.1", { token: emsp.state.ourToken });
      expect(details.body.data.endpoints.map((e: { identifier: string }) => e.identifier)).toEqual(["credentials", "credentials"]);
    } finally {
      await setIdentity("0DE001", { countryCode: "DE", partyId: "DEX", roles: ["CPO", "EMSP"] });
    }
  });
});

describe("locations and tariffs we publish", { timeout: QUEUE_MS * 3 }, () => {
  it("pages published locations and tariffs with Link, X-Total-Count and X-Limit, and single objects", async () => {
    const { emsp } = await registeredEmsp(admin);
    const token = emsp.state.ourToken!;
    const chargers = await Promise.all([makeCharger("0PL002"), makeCharger("0PL002"), makeCharger("0PL002", { type: "DC" })]);
    const stationIds = await Promise.all(chargers.map((c) => stationOf(c.pointId)));
    const [flat, timed] = [await flatStrategy(admin), await flatStrategy(admin, { service: { unit: "MINUTE", slots: [{ start: "00:00", end: "24:00", price: "0.1000" }] } })];
    await call("PUT", `/finance-service/strategy/${flat.id}/assign`, { token: admin, body: { pointIds: [chargers[0].pointId, chargers[1].pointId] } });
    await call("PUT", `/finance-service/strategy/${timed.id}/assign`, { token: admin, body: { pointIds: [chargers[2].pointId] } });
    for (const id of stationIds) expect((await publish(admin, id)).status).toBe(200);

    const first = await ocpi("GET", "/ocpi/2.2.1/cpo/locations?offset=0&limit=2", { token });
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Limit")).toBe("2");
    const total = Number(first.headers.get("X-Total-Count"));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(first.headers.get("Link")).toMatch(/^<http:\/\/localhost\/ocpi\/2\.2\.1\/cpo\/locations\?offset=2&limit=2>; rel="next"$/);
    const all = [...first.body.data];
    let next = /<([^>]+)>/.exec(first.headers.get("Link") ?? "")?.[1];
    while (next) {
      const page = await ocpi("GET", new URL(next).pathname + new URL(next).search, { token });
      all.push(...page.body.data);
      next = /<([^>]+)>/.exec(page.headers.get("Link") ?? "")?.[1];
    }
    expect(all).toHaveLength(total);
    for (const l of all) expect(locationSchema.safeParse(l).success, JSON.stringify(l)).toBe(true);
    const ours = all.find((l) => l.id === String(stationIds[2]))!;
    expect(ours).toMatchObject({ country_code: "PL", party_id: "PLC", publish: true, country: "POL", coordinates: { latitude: "0.00000", longitude: "0.00000" } });
    expect(ours.evses).toHaveLength(2);
    expect(ours.evses[0]).toMatchObject({
      uid: `${chargers[2].pointId}*1`,
      evse_id: `PL*PLC*E${chargers[2].pointId}*1`,
      status: "UNKNOWN",
      capabilities: ["RFID_READER", "REMOTE_START_STOP_CAPABLE", "RESERVABLE"],
      connectors: [{ id: "1", standard: "IEC_62196_T2", format: "CABLE", power_type: "AC_3_PHASE", max_voltage: 230, max_amperage: 16, max_electric_power: 11000, tariff_ids: [String(timed.id)] }],
    });

    const evse = await ocpi("GET", `/ocpi/2.2.1/cpo/locations/${stationIds[2]}/${encodeURIComponent(`${chargers[2].pointId}*2`)}`, { token });
    expect(evse.body.data).toMatchObject({ uid: `${chargers[2].pointId}*2` });
    const connector = await ocpi("GET", `/ocpi/2.2.1/cpo/locations/${stationIds[2]}/${encodeURIComponent(`${chargers[2].pointId}*2`)}/1`, { token });
    expect(connector.body.data).toMatchObject({ id: "1", standard: "IEC_62196_T2" });
    const unknown = await ocpi("GET", `/ocpi/2.2.1/cpo/locations/${stationIds[2]}/999*1`, { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.status_code).toBe(2003);

    // date_from excludes what did not change since.
    const later = await ocpi("GET", `/ocpi/2.2.1/cpo/locations?date_from=${new Date(Date.now() + 60_000).toISOString()}`, { token });
    expect(later.body.data).toEqual([]);

    const tariffs = await ocpi("GET", "/ocpi/2.2.1/cpo/tariffs?limit=1", { token });
    expect(Number(tariffs.headers.get("X-Total-Count"))).toBeGreaterThanOrEqual(2);
    expect(tariffs.headers.get("Link")).toContain("offset=1");
    const tariffPages = [...tariffs.body.data];
    let more = /<([^>]+)>/.exec(tariffs.headers.get("Link") ?? "")?.[1];
    while (more) {
      const page = await ocpi("GET", new URL(more).pathname + new URL(more).search, { token });
      tariffPages.push(...page.body.data);
      more = /<([^>]+)>/.exec(page.headers.get("Link") ?? "")?.[1];
    }
    for (const t of tariffPages) expect(tariffSchema.safeParse(t).success, JSON.stringify(t)).toBe(true);
    expect(tariffPages.find((t) => t.id === String(timed.id))).toMatchObject({
      country_code: "PL",
      party_id: "PLC",
      currency: "PLN",
      type: "REGULAR",
      elements: [{ price_components: [{ type: "ENERGY", price: 1, step_size: 1 }, { type: "TIME", price: 6, step_size: 60 }] }],
    });
  });

  it("pushes a published station at once and a charger's statuses batched into one PATCH", async () => {
    const { emsp, id } = await registeredEmsp(admin);
    const charger = await makeCharger("0PL002");
    const stationId = await stationOf(charger.pointId);
    expect((await publish(admin, stationId)).status).toBe(200);
    const put = await eventually(
      async () => emsp.state.locations.find((p) => p.method === "PUT" && p.path === `PL/PLC/${stationId}`),
      (p) => p !== undefined,
      QUEUE_MS,
    );
    expect(put!.body).toMatchObject({ id: String(stationId), publish: true, evses: [{ status: "UNKNOWN" }, { status: "UNKNOWN" }] });

    const { charger: ws } = await connect(charger.serialNumber, { key: charger.key });
    await boot(ws!);
    const evse = `${charger.pointId}*1`;
    const before = emsp.state.locations.length;
    await ws!.call("StatusNotification", { connectorId: 1, status: "Preparing", errorCode: "NoError", timestamp: now() });
    await ws!.call("StatusNotification", { connectorId: 1, status: "Charging", errorCode: "NoError", timestamp: now() });
    const patches = () => emsp.state.locations.slice(before).filter((p) => p.method === "PATCH" && p.path === `PL/PLC/${stationId}/${evse}`);
    const patched = await eventually(async () => patches(), (list) => list.some((p) => p.body.status === "CHARGING"), QUEUE_MS);
    // Two frames within the batch window: one PATCH, with the latest status.
    expect(patched).toHaveLength(1);
    expect(patched[0].body).toMatchObject({ status: "CHARGING", last_updated: expect.stringMatching(/Z$/) });
    ws!.close();

    const listed = await call("GET", `/ocpi-service/cpo/location?q=${encodeURIComponent(put!.body.name)}`, { token: admin });
    const row = listed.body.data.records.find((r: { stationId: number }) => r.stationId === stationId);
    expect(row.pushes.find((p: { platformId: number }) => p.platformId === id)).toMatchObject({ state: "SENT", lastError: null });
  });

  it("records a refused push with the partner's reason and delivers it on a retry", async () => {
    const { emsp, id } = await registeredEmsp(admin);
    const charger = await makeCharger("0PL002");
    const stationId = await stationOf(charger.pointId);
    emsp.state.refuse = 1;
    await publish(admin, stationId);
    const read = async () =>
      (await call("GET", "/ocpi-service/cpo/location?size=100", { token: admin })).body.data.records
        .find((r: { stationId: number }) => r.stationId === stationId)
        ?.pushes.find((p: { platformId: number }) => p.platformId === id);
    const failed = await eventually(read, (p) => p?.state === "FAILED", QUEUE_MS);
    expect(failed).toMatchObject({ state: "FAILED", attempts: 1, lastError: expect.stringContaining("2001 Refused by the fake eMSP") });
    // The backoff's first retry comes 30 s later: the test delivers the queued message by hand.
    const { deliverCpoPush } = await import("../../workers/services/ocpi/cpo-delivery");
    const { systemCtx } = await import("../../workers/services/context");
    const pushId = (await env.DB.prepare("SELECT id FROM ocpi_cpo_pushes WHERE platform_id = ? AND object_id = ?").bind(id, String(stationId)).first<{ id: number }>())!.id;
    await deliverCpoPush(systemCtx(env, { id: await operatorIdOf("0PL002"), code: "0PL002" }, "test"), pushId);
    expect(await read()).toMatchObject({ state: "SENT", lastError: null });
    expect(emsp.state.locations.some((p) => p.method === "PUT" && p.path === `PL/PLC/${stationId}`)).toBe(true);
  });

  it("sends a withdrawn station as no longer published, and a tariff no longer published is deleted", async () => {
    const { emsp } = await registeredEmsp(admin);
    const charger = await makeCharger("0PL002");
    const stationId = await stationOf(charger.pointId);
    const strategy = await flatStrategy(admin);
    await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token: admin, body: { pointIds: [charger.pointId] } });
    await publish(admin, stationId);
    await eventually(async () => emsp.state.tariffs.find((p) => p.method === "PUT" && p.path === `PL/PLC/${strategy.id}`), (p) => p !== undefined, QUEUE_MS);
    await publish(admin, stationId, false);
    const withdrawn = await eventually(
      async () => emsp.state.locations.filter((p) => p.path === `PL/PLC/${stationId}`).at(-1),
      (p) => p?.body?.publish === false,
      QUEUE_MS,
    );
    expect(withdrawn!.body.evses.map((e: { status: string }) => e.status)).toEqual(["REMOVED", "REMOVED"]);
    const deleted = await eventually(async () => emsp.state.tariffs.find((p) => p.method === "DELETE"), (p) => p !== undefined, QUEUE_MS);
    expect(deleted!.path).toBe(`PL/PLC/${strategy.id}`);
  });

  it("deletes at the partners the tariff points leave for another strategy, and sends the one they join", async () => {
    const { emsp } = await registeredEmsp(admin);
    const charger = await makeCharger("0PL002");
    const stationId = await stationOf(charger.pointId);
    const left = await flatStrategy(admin);
    const joined = await flatStrategy(admin, { electricity: { slots: [{ start: "00:00", end: "24:00", price: "2.0000" }] } });
    const assign = (strategyId: number) => call("PUT", `/finance-service/strategy/${strategyId}/assign`, { token: admin, body: { pointIds: [charger.pointId] } });
    const pushed = (method: string, strategyId: number) => async () => emsp.state.tariffs.find((p) => p.method === method && p.path === `PL/PLC/${strategyId}`);
    expect((await assign(left.id)).status).toBe(200);
    await publish(admin, stationId);
    await eventually(pushed("PUT", left.id), (p) => p !== undefined, QUEUE_MS);

    // The point moves: the strategy it left is no longer published, the one it joined is.
    expect((await assign(joined.id)).status).toBe(200);
    expect(await eventually(pushed("DELETE", left.id), (p) => p !== undefined, QUEUE_MS)).toBeDefined();
    const put = await eventually(pushed("PUT", joined.id), (p) => p !== undefined, QUEUE_MS);
    expect(put!.body).toMatchObject({ id: String(joined.id), currency: "PLN" });
    const listed = (await call("GET", "/ocpi-service/cpo/tariff?size=100", { token: admin })).body.data.records.map((r: { strategyId: number }) => r.strategyId);
    expect(listed).toContain(joined.id);
    expect(listed).not.toContain(left.id);
  });
});

describe("tenancy and the console", () => {
  it("shows a partner of operator A nothing of operator B", async () => {
    const de = await makeCharger("0DE001");
    const deStation = await stationOf(de.pointId);
    expect((await publish(other, deStation)).status).toBe(200);
    // Another operator's station is not found from this one.
    expect((await publish(admin, deStation)).status).toBe(404);
    const { emsp } = await registeredEmsp(admin);
    const token = emsp.state.ourToken!;
    const all = await ocpi("GET", "/ocpi/2.2.1/cpo/locations?limit=100", { token });
    expect(all.body.data.map((l: { id: string }) => l.id)).not.toContain(String(deStation));
    expect(all.body.data.every((l: { party_id: string }) => l.party_id === "PLC")).toBe(true);
    expect((await ocpi("GET", `/ocpi/2.2.1/cpo/locations/${deStation}`, { token })).status).toBe(404);
    const theirs = await registeredEmsp(other);
    const seen = await ocpi("GET", "/ocpi/2.2.1/cpo/locations?limit=100", { token: theirs.emsp.state.ourToken });
    expect(seen.body.data.map((l: { id: string }) => l.id)).toEqual([String(deStation)]);
  });

  it("pages the published locations at size 100 with more than 100, and lets only the locations or station menus publish", async () => {
    const operatorId = await operatorIdOf("0PL002");
    await insertAll(
      stations,
      Array.from({ length: 105 }, (_, i) => ({ operatorId, name: `Published ${i}`, address: "Prosta 1, 00-001 Warszawa", lat: "52.1", lng: "21.1", publishToRoaming: true })),
    );
    const page1 = await call("GET", "/ocpi-service/cpo/location?size=100&current=1", { token: admin });
    expect(page1.status).toBe(200);
    expect(page1.body.data.records).toHaveLength(100);
    expect(page1.body.data.total).toBeGreaterThan(105);
    const page2 = await call("GET", "/ocpi-service/cpo/location?size=100&current=2", { token: admin });
    expect(page2.body.data.records.length).toBe(page1.body.data.total - 100);
    expect(page2.body.data.records[0].location).toMatchObject({ address: "Prosta 1", postal_code: "00-001", city: "Warszawa", coordinates: { latitude: "52.10000" } });
    const wire = await ocpi("GET", "/ocpi/2.2.1/cpo/locations", { token: emsps[0].state.ourToken });
    expect(wire.body.data).toHaveLength(100);
    expect(wire.headers.get("X-Limit")).toBe("100");

    const watcher = await tokenWithMenus(admin, ["emsp.platform"]);
    expect((await call("GET", "/ocpi-service/cpo/location", { token: watcher })).status).toBe(403);
    expect((await publish(watcher, page1.body.data.records[0].stationId)).status).toBe(403);
    const tariffs = await call("GET", "/ocpi-service/cpo/tariff?size=100", { token: admin });
    expect(tariffs.status).toBe(200);
    expect(tariffs.body.data.records.every((r: { tariff: unknown }) => tariffSchema.safeParse(r.tariff).success)).toBe(true);
    const bad = await call("PUT", `/ocpi-service/cpo/location/${page1.body.data.records[0].stationId}`, { token: admin, body: { publish: "yes" } });
    expect(bad.status).toBe(400);
  });

  it("pages the published tariffs at size 100 with more than 100, each strategy's version read in slices", async () => {
    const operatorId = await operatorIdOf("0PL002");
    const made = await flatStrategy(admin);
    const { prices } = (await env.DB.prepare("SELECT prices FROM charge_strategy_versions WHERE id = ?").bind(made.versionId).first<{ prices: string }>())!;
    const name = `Paged tariff ${crypto.randomUUID().slice(0, 8)}`;
    await insertAll(
      chargeStrategies,
      Array.from({ length: 103 }, (_, i) => ({ operatorId, name: `${name} ${i}`, currency: "PLN" })),
    );
    const ids = (await env.DB.prepare("SELECT id FROM charge_strategies WHERE name LIKE ?").bind(`${name} %`).all<{ id: number }>()).results.map((r) => r.id);
    await insertAll(
      chargeStrategyVersions,
      ids.map((strategyId) => ({ operatorId, strategyId, version: 1, name, currency: "PLN", prices: JSON.parse(prices), createdBy: "test" })),
    );
    await env.DB.prepare(
      "UPDATE charge_strategies SET current_version_id = (SELECT v.id FROM charge_strategy_versions v WHERE v.strategy_id = charge_strategies.id) WHERE name LIKE ?",
    )
      .bind(`${name} %`)
      .run();
    // One public point per strategy at a published station: each strategy is a published tariff.
    const charger = await makeCharger("0PL002");
    const stationId = await stationOf(charger.pointId);
    expect((await publish(admin, stationId)).status).toBe(200);
    await insertAll(
      points,
      ids.map((chargeStrategyId, i) => ({
        operatorId,
        stationId,
        serialNumber: `${charger.serialNumber}-T${i}`,
        pointNo: `T${i}`,
        name: `Tariff ${i}`,
        type: "AC" as const,
        ratedPowerW: 22_000,
        connectorCount: 1,
        chargeStrategyId,
      })),
    );

    const page1 = await call("GET", "/ocpi-service/cpo/tariff?size=100&current=1", { token: admin });
    expect(page1.status, JSON.stringify(page1.body)).toBe(200);
    expect(page1.body.data.records).toHaveLength(100);
    expect(page1.body.data.total).toBeGreaterThanOrEqual(103);
    const page2 = await call("GET", "/ocpi-service/cpo/tariff?size=100&current=2", { token: admin });
    const listed = [...page1.body.data.records, ...page2.body.data.records].map((r: { strategyId: number }) => r.strategyId);
    expect(listed).toEqual(expect.arrayContaining(ids));
    expect(new Set(listed).size).toBe(listed.length);
    const { emsp } = await registeredEmsp(admin);
    const wire = await ocpi("GET", "/ocpi/2.2.1/cpo/tariffs?limit=100", { token: emsp.state.ourToken! });
    expect(wire.status).toBe(200);
    expect(wire.body.data).toHaveLength(100);
    expect(wire.body.data.every((t: unknown) => tariffSchema.safeParse(t).success)).toBe(true);
  });

  it("keeps the roles of the parameter settings when a body leaves them out, and refuses unknown ones", async () => {
    const settings = (await call("GET", "/system-service/parameter-settings", { token: admin })).body.data;
    const { roles: _kept, ...withoutRoles } = settings.ocpi;
    const saved = await call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...settings, ocpi: withoutRoles } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await call("GET", "/system-service/parameter-settings", { token: admin })).body.data.ocpi.roles).toEqual(["CPO", "EMSP"]);
    const wrong = await call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...settings, ocpi: { ...settings.ocpi, roles: ["NSP"] } } });
    expect(wrong.status).toBe(400);
  });
});

