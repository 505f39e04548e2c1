import { beforeAll, describe, expect, it } from "vitest";
import { boot, connect, now } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";
import { row } from "./support/d1";

/** Charging strategies (docs/rules/pricing.md "Strategies", "Versions", "Assigning points"). */
const BASE = "/finance-service/strategy";

const timeOfUse = (overrides: Record<string, unknown> = {}) => ({
  name: `Time of use ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`,
  electricity: {
    slots: [
      { start: "00:00", end: "07:00", price: "0.45" },
      { start: "07:00", end: "22:00", price: "1.1" },
      { start: "22:00", end: "24:00", price: "0.45" },
    ],
  },
  service: { unit: "KWH", slots: [{ start: "00:00", end: "24:00", price: "0.2" }] },
  idle: { before: null, during: null, after: { unit: "MINUTE", price: "0.5", freeMinutes: 15, capAmount: 5000 } },
  ...overrides,
});


let pl: string;
let de: string;
beforeAll(async () => {
  [pl, de] = await Promise.all([tokenFor("0PL002", "demoadmin"), tokenFor("0DE001", "deadmin1")]);
});

async function create(token = pl, body: Record<string, unknown> = timeOfUse()) {
  const res = await call("POST", BASE, { token, body });
  if (res.status !== 200) throw new Error(`create strategy: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; versionId: number; version: number; name: string };
}

describe("charging strategies", () => {
  it("creates a strategy as version 1, in the operator's currency, with prices in their four-decimal form", async () => {
    const created = await create();
    expect(created).toMatchObject({ version: 1, currency: "PLN", pointCount: 0 });
    const read = await call("GET", `${BASE}/${created.id}`, { token: pl });
    expect(read.body.data).toMatchObject({
      id: created.id,
      versionId: created.versionId,
      electricity: { slots: [{ start: "00:00", end: "07:00", price: "0.4500" }, { price: "1.1000" }, { price: "0.4500" }] },
      service: { unit: "KWH", slots: [{ start: "00:00", end: "24:00", price: "0.2000" }] },
      idle: { before: null, during: null, after: { unit: "MINUTE", price: "0.5000", freeMinutes: 15, capAmount: 5000 } },
      minimumThreshold: null,
    });
    expect(await row("SELECT strategy_id, version FROM charge_strategy_versions WHERE id = ?", created.versionId)).toEqual({ strategy_id: created.id, version: 1 });
  });

  it("lists strategies newest first, paged and filtered by name", async () => {
    const tag = `Filter${Date.now().toString(36)}`;
    const a = await create(pl, timeOfUse({ name: `${tag} A` }));
    const b = await create(pl, timeOfUse({ name: `${tag} B` }));
    const list = await call("GET", `${BASE}?current=1&size=10&name=${tag}`, { token: pl });
    expect(list.body.data).toMatchObject({ total: 2, current: 1, size: 10 });
    expect(list.body.data.records.map((r: { id: number }) => r.id)).toEqual([b.id, a.id]);
    const literal = await call("GET", `${BASE}?name=${encodeURIComponent("%")}`, { token: pl });
    expect(literal.body.data.total).toBe(0);
  });

  it.each([
    ["an empty name", { name: "  " }, "name", "The strategy name cannot be empty"],
    ["no electricity rows", { electricity: { slots: [] } }, "electricity.slots", "Keep at least one time period"],
    ["a row without its end", { electricity: { slots: [{ start: "00:00", price: "1" }] } }, "electricity.slots.0", "Electricity and service periods must be complete: a start, an end and a price in every row"],
    ["a row without its price", { electricity: { slots: [{ start: "00:00", end: "24:00" }] } }, "electricity.slots.0", "Electricity and service periods must be complete: a start, an end and a price in every row"],
    ["a time off the half hour", { electricity: { slots: [{ start: "00:00", end: "08:15", price: "1" }, { start: "08:15", end: "24:00", price: "1" }] } }, "electricity.slots.0", "Times must be on the half hour, from 00:00 to 24:00"],
    ["a start later than its end", { electricity: { slots: [{ start: "00:00", end: "24:00", price: "1" }, { start: "20:00", end: "08:00", price: "1" }] } }, "electricity.slots.1", "The start time must not be later than the end time"],
    ["a gap between rows", { electricity: { slots: [{ start: "00:00", end: "08:00", price: "1" }, { start: "09:00", end: "24:00", price: "1" }] } }, "electricity.slots.1", "Each period must start where the previous one ends"],
    ["a day not covered", { electricity: { slots: [{ start: "00:00", end: "22:00", price: "1" }] } }, "electricity.slots", "The time periods must cover 00:00 to 24:00"],
    ["an electricity price with five decimals", { electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.12345" }] } }, "electricity.slots.0.price", "Enter a price of 0 or more with up to four decimals"],
    ["a service fee with five decimals", { service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "1.00001" }] } }, "service.slots.0.price", "Enter a price of 0 or more with up to four decimals"],
    ["a negative price", { electricity: { slots: [{ start: "00:00", end: "24:00", price: "-1" }] } }, "electricity.slots.0.price", "Enter a price of 0 or more with up to four decimals"],
    ["service periods not covering the day", { service: { unit: "MINUTE", slots: [{ start: "06:00", end: "24:00", price: "1" }] } }, "service.slots", "The time periods must cover 00:00 to 24:00"],
    ["an unknown service unit", { service: { unit: "DAY", slots: [] } }, "service.unit", "Choose how the service fee is charged: none, per session, per kWh, per minute or per hour"],
    ["an unknown idle unit", { idle: { before: { unit: "SECOND", price: "1", freeMinutes: 0 } } }, "idle.before.unit", "Choose per minute or per hour"],
    ["negative free minutes", { idle: { during: { unit: "MINUTE", price: "1", freeMinutes: -1 } } }, "idle.during.freeMinutes", "Free minutes must be a whole number from 0 to 10080"],
    ["a cap with a fraction", { idle: { after: { unit: "HOUR", price: "1", freeMinutes: 0, capAmount: "12.5" } } }, "idle.after.capAmount", "Enter a whole amount in minor units, 0 or more"],
    ["a minimum threshold given as a boolean", { minimumThreshold: true }, "minimumThreshold", "Enter a whole amount in minor units, 0 or more"],
  ])("refuses %s with its message", async (_, change, field, message) => {
    const res = await call("POST", BASE, { token: pl, body: { ...timeOfUse(), ...change } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields[field]).toBe(message);
  });

  it("answers the rules' messages in the six languages", async () => {
    const body = { ...timeOfUse(), electricity: { slots: [{ start: "00:00", end: "22:00", price: "1" }] } };
    const messages = new Set<string>();
    for (const lang of ["en", "pl", "de", "zh", "zh_TW", "pt_BR"]) {
      const res = await call("POST", `${BASE}?lang=${lang}`, { token: pl, body });
      expect(res.status).toBe(400);
      messages.add(res.body.data.fields["electricity.slots"]);
    }
    expect(messages.size).toBe(6);
    const pl400 = await call("POST", `${BASE}?lang=pl`, { token: pl, body: { ...timeOfUse(), name: "" } });
    expect(pl400.body.msg).toBe("Nazwa strategii nie może być pusta");
  });

  it("refuses a currency other than the operator's, and nothing is written", async () => {
    const name = `Wrong currency ${Date.now()}`;
    const res = await call("POST", BASE, { token: pl, body: timeOfUse({ name, currency: "EUR" }) });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("The currency must be the operator's currency (PLN)");
    expect(await row("SELECT count(*) AS n FROM charge_strategies WHERE name = ?", name)).toEqual({ n: 0 });
  });

  it("takes a flat price as one slot and a service fee of NONE without rows", async () => {
    const flat = await create(pl, {
      name: `Flat ${Date.now()}`,
      electricity: { slots: [{ start: "00:00", end: "24:00", price: 0.89 }] },
      service: { unit: "NONE" },
    });
    const read = (await call("GET", `${BASE}/${flat.id}`, { token: pl })).body.data;
    expect(read).toMatchObject({ electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.8900" }] }, service: { unit: "NONE", slots: [] }, idle: { before: null, during: null, after: null } });
  });

  it("copies a strategy under a new name in the actor's language, with the same prices", async () => {
    const original = await create();
    const copy = await call("POST", `${BASE}/${original.id}/copy?lang=pl`, { token: pl });
    expect(copy.status).toBe(200);
    expect(copy.body.data).toMatchObject({ name: `${original.name} (kopia)`, version: 1, pointCount: 0 });
    expect(copy.body.data.id).not.toBe(original.id);
    const [a, b] = await Promise.all([call("GET", `${BASE}/${original.id}`, { token: pl }), call("GET", `${BASE}/${copy.body.data.id}`, { token: pl })]);
    expect(b.body.data.electricity).toEqual(a.body.data.electricity);
    expect(b.body.data.idle).toEqual(a.body.data.idle);
  });
});

describe("versions", () => {
  it("makes a new version on every edit and keeps the old one as it was", async () => {
    const created = await create();
    const edited = await call("PUT", `${BASE}/${created.id}`, {
      token: pl,
      body: timeOfUse({ name: created.name, electricity: { slots: [{ start: "00:00", end: "24:00", price: "2" }] } }),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: created.id, version: 2 });
    expect(edited.body.data.versionId).not.toBe(created.versionId);
    const old = await call("GET", `${BASE}/version/${created.versionId}`, { token: pl });
    expect(old.body.data).toMatchObject({ strategyId: created.id, version: 1, electricity: { slots: [{ price: "0.4500" }, { price: "1.1000" }, { price: "0.4500" }] } });
    const current = await call("GET", `${BASE}/version/${edited.body.data.versionId}`, { token: pl });
    expect(current.body.data).toMatchObject({ version: 2, electricity: { slots: [{ price: "2.0000" }] }, createdBy: "demoadmin" });
  });

  it("records on the transaction the version of its point's strategy when the server receives the start; a later edit never reprices it", async () => {
    const made = await makeCharger("0PL002");
    const strategy = await create();
    expect((await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: [made.pointId] } })).status).toBe(200);
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    // A start queued offline an hour ago still gets the version in force when the server receives it.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const first = await charger.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: hourAgo });
    const edited = await call("PUT", `${BASE}/${strategy.id}`, { token: pl, body: timeOfUse({ name: strategy.name }) });
    const second = await charger.call("StartTransaction", { connectorId: 2, idTag: "UNKNOWN-PRICING", meterStart: 0, timestamp: now() });
    const versionOf = async (id: number) => (await row<{ v: number }>("SELECT strategy_version_id AS v FROM transactions WHERE id = ?", id))!.v;
    expect(await versionOf(first.transactionId)).toBe(strategy.versionId);
    expect(await versionOf(second.transactionId)).toBe(edited.body.data.versionId);
    charger.close();
  });

  it("records no version for a point without a strategy", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const started = await charger.call("StartTransaction", { connectorId: 1, idTag: "UNKNOWN-PRICING", meterStart: 0, timestamp: now() });
    expect(await row("SELECT strategy_version_id AS v FROM transactions WHERE id = ?", started.transactionId)).toEqual({ v: null });
    charger.close();
  });
});

describe("assigning points", () => {
  it("gives each point at most one strategy: assigning moves points, and the points not listed are released", async () => {
    const [a, b] = await Promise.all([create(), create()]);
    const [p1, p2, p3] = await Promise.all([makeCharger("0PL002"), makeCharger("0PL002"), makeCharger("0PL002")]);
    await call("PUT", `${BASE}/${a.id}/assign`, { token: pl, body: { pointIds: [p1.pointId, p2.pointId] } });
    const moved = await call("PUT", `${BASE}/${b.id}/assign`, { token: pl, body: { pointIds: [p2.pointId, p3.pointId] } });
    expect(moved.body.data).toMatchObject({ strategyId: b.id, assigned: 2, released: 0 });
    const strategyOf = async (pointId: number) => (await call("GET", `/station-service/point/${pointId}`, { token: pl })).body.data.chargeStrategyId;
    expect([await strategyOf(p1.pointId), await strategyOf(p2.pointId), await strategyOf(p3.pointId)]).toEqual([a.id, b.id, b.id]);
    expect((await call("GET", `${BASE}/${a.id}`, { token: pl })).body.data.pointCount).toBe(1);

    const released = await call("PUT", `${BASE}/${b.id}/assign`, { token: pl, body: { pointIds: [p3.pointId] } });
    expect(released.body.data).toMatchObject({ assigned: 0, released: 1 });
    expect(await strategyOf(p2.pointId)).toBeNull();

    const listed = await call("GET", `${BASE}/points?strategyId=${b.id}&size=100`, { token: pl });
    expect(listed.body.data.records).toEqual([expect.objectContaining({ id: p3.pointId, chargeStrategyId: b.id, chargeStrategyName: expect.any(String) })]);
  });

  it("refuses a list that holds another operator's point (404) or a bad id (400), and changes nothing", async () => {
    const strategy = await create();
    const own = await makeCharger("0PL002");
    const foreign = await makeCharger("0DE001");
    const res = await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: [own.pointId, foreign.pointId] } });
    expect(res.status).toBe(404);
    expect(await row("SELECT charge_strategy_id AS s FROM points WHERE id = ?", own.pointId)).toEqual({ s: null });
    const bad = await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: ["0x3"] } });
    expect(bad.status).toBe(400);
    const none = await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: {} });
    expect(none.status).toBe(400);
  });

  it("does not delete a strategy assigned to points, and deletes it once released, keeping its versions", async () => {
    const strategy = await create();
    const point = await makeCharger("0PL002");
    await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: [point.pointId] } });
    const refused = await call("DELETE", `${BASE}/${strategy.id}`, { token: pl });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("This strategy is assigned to 1 charging point: assign it another strategy before deleting it");
    await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: [] } });
    expect((await call("DELETE", `${BASE}/${strategy.id}`, { token: pl })).status).toBe(200);
    expect((await call("GET", `${BASE}/${strategy.id}`, { token: pl })).status).toBe(404);
    expect((await call("GET", `${BASE}/version/${strategy.versionId}`, { token: pl })).status).toBe(200);
    const assignDeleted = await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: [point.pointId] } });
    expect(assignDeleted.status).toBe(404);
  });
});

describe("tenancy and permission", () => {
  it("answers another operator's strategy and version with 404 on every verb", async () => {
    const strategy = await create();
    const body = timeOfUse();
    const answers = await Promise.all([
      call("GET", `${BASE}/${strategy.id}`, { token: de }),
      call("PUT", `${BASE}/${strategy.id}`, { token: de, body }),
      call("DELETE", `${BASE}/${strategy.id}`, { token: de }),
      call("POST", `${BASE}/${strategy.id}/copy`, { token: de }),
      call("PUT", `${BASE}/${strategy.id}/assign`, { token: de, body: { pointIds: [] } }),
      call("GET", `${BASE}/version/${strategy.versionId}`, { token: de }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404]);
    const list = await call("GET", `${BASE}?size=100&name=${encodeURIComponent(strategy.name)}`, { token: de });
    expect(list.body.data.total).toBe(0);
    expect((await call("GET", `${BASE}/${strategy.id}`, { token: pl })).status).toBe(200);
  });

  it("refuses every strategy API to an account without the charging-strategy menu (403), and lets a role with it in", async () => {
    const strategy = await create();
    const without = await makeRole(pl, { menuCodes: ["home", "equipment.point"] });
    const withMenu = await makeRole(pl, { menuCodes: ["finance.chargeConfiguration"] });
    const a = await makeAccount("0PL002", pl, without.id);
    const b = await makeAccount("0PL002", pl, withMenu.id);
    const tokenA = (await login("0PL002", a.username, a.password)).body.data.accessToken;
    const tokenB = (await login("0PL002", b.username, b.password)).body.data.accessToken;
    const calls = (token: string) => [
      call("GET", BASE, { token }),
      call("POST", BASE, { token, body: timeOfUse() }),
      call("GET", `${BASE}/${strategy.id}`, { token }),
      call("PUT", `${BASE}/${strategy.id}`, { token, body: timeOfUse({ name: strategy.name }) }),
      call("POST", `${BASE}/${strategy.id}/copy`, { token }),
      call("PUT", `${BASE}/${strategy.id}/assign`, { token, body: { pointIds: [] } }),
      call("GET", `${BASE}/points`, { token }),
      call("GET", `${BASE}/version/${strategy.versionId}`, { token }),
    ];
    const refused = await Promise.all(calls(tokenA));
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(refused[0].body.msg).toBe("Access denied");
    const allowed = await Promise.all(calls(tokenB));
    expect(allowed.map((r) => r.status)).toEqual(allowed.map(() => 200));
  });

  it("shows a sub-operator its parent's strategies to assign among its own devices, and never lets it write one", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    const serials = ["PL002-CP01", "PL002-CP02", "PL002-CP03"];
    const [cp01, cp02] = await Promise.all(serials.map((serial) => row<{ id: number; charge_strategy_id: number | null }>("SELECT id, charge_strategy_id FROM points WHERE serial_number = ?", serial)));
    const strategy = await create();
    const parentPoint = await makeCharger("0PL002");
    await call("PUT", `${BASE}/${strategy.id}/assign`, { token: pl, body: { pointIds: [parentPoint.pointId] } });

    const listed = await call("GET", `${BASE}?size=100&name=${encodeURIComponent(strategy.name)}`, { token: sub });
    expect(listed.status).toBe(200);
    // Its own devices only: the parent's point on the strategy is not counted.
    expect(listed.body.data.records).toEqual([expect.objectContaining({ id: strategy.id, pointCount: 0 })]);
    expect((await call("GET", `${BASE}/${strategy.id}`, { token: sub })).status).toBe(200);
    const points = await call("GET", `${BASE}/points?size=100`, { token: sub });
    expect(points.body.data.records.map((p: { serialNumber: string }) => p.serialNumber).sort()).toEqual(serials);

    // Writing a strategy is the parent's: 403 on every write.
    expect((await call("POST", BASE, { token: sub, body: timeOfUse() })).status).toBe(403);
    expect((await call("PUT", `${BASE}/${strategy.id}`, { token: sub, body: timeOfUse() })).status).toBe(403);
    expect((await call("POST", `${BASE}/${strategy.id}/copy`, { token: sub })).status).toBe(403);
    expect((await call("DELETE", `${BASE}/${strategy.id}`, { token: sub })).status).toBe(403);

    // Assigning: its device moves, the parent's point stays; a point not assigned to it is 404 and changes nothing.
    const assigned = await call("PUT", `${BASE}/${strategy.id}/assign`, { token: sub, body: { pointIds: [cp02!.id] } });
    expect(assigned.body.data).toMatchObject({ assigned: 1, released: 0 });
    expect(await row("SELECT charge_strategy_id FROM points WHERE id = ?", cp02!.id)).toEqual({ charge_strategy_id: strategy.id });
    expect(await row("SELECT charge_strategy_id FROM points WHERE id = ?", parentPoint.pointId)).toEqual({ charge_strategy_id: strategy.id });
    expect((await call("PUT", `${BASE}/${strategy.id}/assign`, { token: sub, body: { pointIds: [parentPoint.pointId] } })).status).toBe(404);
    const released = await call("PUT", `${BASE}/${strategy.id}/assign`, { token: sub, body: { pointIds: [] } });
    expect(released.body.data).toMatchObject({ assigned: 0, released: 1 });
    expect(await row("SELECT charge_strategy_id FROM points WHERE id = ?", parentPoint.pointId)).toEqual({ charge_strategy_id: strategy.id });
    // Another operator's strategy is not found.
    const german = await create(de);
    expect((await call("GET", `${BASE}/${german.id}`, { token: sub })).status).toBe(404);

    // The demo points go back to the strategy they had.
    if (cp02!.charge_strategy_id !== null) {
      const keep = [cp01, cp02].filter((p) => p!.charge_strategy_id === cp02!.charge_strategy_id).map((p) => p!.id);
      await call("PUT", `${BASE}/${cp02!.charge_strategy_id}/assign`, { token: sub, body: { pointIds: keep } });
    }
  });
});
