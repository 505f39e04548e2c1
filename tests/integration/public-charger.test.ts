import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billTransaction } from "../../workers/services/billing/billing";
import { consoleShell } from "../../workers/services/auth/user-info";
import { contextFromToken, publicCtxOf, systemCtx } from "../../workers/services/context";
import { boot, connect, eventually, landed, now } from "./support/charger";
import { makeCharger } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";
import { flatStrategy } from "./support/strategies";
import { setTaxRate } from "./support/tax";
import { row } from "./support/d1";

/**
 * The public charger JSON (docs/rules/public-charger.md "The charger's JSON") and the price it
 * shows being the price billed (docs/rules/pricing.md "Price shown is price billed").
 */

const charger = (serial: string, query = "") => call("GET", `/public-service/charger/${serial}${query}`);

let pl: string;
let plId: number;

beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  plId = (await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'"))!.id;
});

/** The demo's energy price and per-kWh service fee in force now by Warsaw's clock, worked out here on its own. */
function demoPriceNow(at = Date.now()) {
  const hour = Number(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Warsaw", hour: "2-digit", hourCycle: "h23" }).format(at));
  const energy = hour < 6 || hour >= 21 ? 65 : hour < 16 ? 115 : 145;
  return `${((energy + 20) / 100).toFixed(2)}00`;
}

describe("the public charger JSON", () => {
  it("answers the demo charger without a login: operator, currency, connectors with OCPI standard, power, status and the price now", async () => {
    const res = await charger("PL002-CP01");
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ serialNumber: "PL002-CP01", operatorName: "Plugdesk Polska", currency: "PLN", timeZone: "Europe/Warsaw" });
    expect(data.connectors).toHaveLength(2);
    const [first] = data.connectors;
    expect(first).toMatchObject({ connectorId: 1, powerKw: 60, standard: "IEC_62196_T2_COMBO", format: "CABLE", powerType: "DC", status: expect.any(String) });
    // The price fields of the contract, every one there, prices as decimal texts.
    expect(Object.keys(first.price)).toEqual(expect.arrayContaining(["energyPerKwh", "timePerMinute", "sessionFee", "idleFeePerMinute", "idleGraceMinutes", "vatPercent", "validUntil"]));
    const expected = demoPriceNow();
    // Around a slot boundary the request and the clock here may straddle it: then the JSON already shows the next period.
    if (expected === demoPriceNow(Date.now() + 60_000)) expect(first.price.energyPerKwh).toBe(expected);
    expect(first.price).toMatchObject({ timePerMinute: "0.0000", sessionFee: "0.0000", idleFeePerMinute: "0.5000", idleGraceMinutes: 30, vatPercent: "0" });
    expect(Date.parse(first.price.validUntil)).toBeGreaterThan(Date.now());
    expect(Date.parse(first.price.validUntil) - Date.now()).toBeLessThanOrEqual(10 * 3_600_000);
    // The next hours: each period begins where the one before ends.
    expect(first.upcoming.length).toBeGreaterThan(0);
    expect(first.upcoming[0].validFrom).toBe(first.price.validUntil);
  });

  it("shows another operator's charger with that operator's name and currency, and a flat price with no end", async () => {
    const res = await charger("DE001-CP01");
    expect(res.body.data).toMatchObject({ serialNumber: "DE001-CP01", operatorName: "Plugdesk Deutschland", currency: "EUR", defaultLanguage: expect.any(String) });
    expect(res.body.data.connectors[0]).toMatchObject({
      standard: "IEC_62196_T2",
      powerType: "AC_3_PHASE",
      powerKw: 11,
      price: { energyPerKwh: "0.3900", timePerMinute: "0.0000", sessionFee: "0.0000", idleFeePerMinute: "0.0000", idleGraceMinutes: 0, vatPercent: "0", validUntil: null },
      upcoming: [],
    });
  });

  it("answers an unknown or malformed serial number with 404 and a message in the language asked for", async () => {
    const unknown = await charger("NO-SUCH-CHARGER", "?lang=pl");
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe("Żadna ładowarka nie ma tego numeru. Sprawdź numer na etykiecie ładowarki.");
    const malformed = await charger("bad%20serial!", "?lang=de");
    expect(malformed.status).toBe(404);
    expect(malformed.body.msg).toMatch(/Kein Ladepunkt/);
  });

  it("hides the charger of an operator that is out of service", async () => {
    const made = await makeCharger("0DE001");
    expect((await charger(made.serialNumber)).status).toBe(200);
    await env.DB.prepare("UPDATE operators SET status = 'INVALID' WHERE code = '0DE001'").run();
    try {
      expect((await charger(made.serialNumber)).status).toBe(404);
    } finally {
      await env.DB.prepare("UPDATE operators SET status = 'VALID' WHERE code = '0DE001'").run();
    }
  });

  it("follows the connectors' live status: Offline while the charger is away, what it reports once it is connected", async () => {
    const made = await makeCharger("0PL002");
    expect((await charger(made.serialNumber)).body.data.connectors.map((c: { status: string }) => c.status)).toEqual(["Offline", "Offline"]);
    const socket = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(socket);
    await socket.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging", timestamp: now() });
    await socket.call("StatusNotification", { connectorId: 2, errorCode: "NoError", status: "Available", timestamp: now() });
    const statuses = async () => ((await charger(made.serialNumber)).body.data.connectors as { status: string }[]).map((c) => c.status);
    await landed();
    expect(await eventually(statuses, (s) => s[0] === "Charging")).toEqual(["Charging", "Available"]);
    socket.close();
    expect(await eventually(statuses, (s) => s[0] === "Offline")).toEqual(["Offline", "Offline"]);
  });

  it("answers a point without a strategy with no price: it bills nothing", async () => {
    const made = await makeCharger("0PL002");
    const data = (await charger(made.serialNumber)).body.data;
    expect(data.connectors[0]).toMatchObject({ price: null, upcoming: [] });
  });

  it("shows prices with VAT: as they are when they include it, with the rate added when the operator adds it", async () => {
    const { id } = await flatStrategy(pl, { electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.1500" }] } });
    const made = await makeCharger("0PL002");
    await call("PUT", `/finance-service/strategy/${id}/assign`, { token: pl, body: { pointIds: [made.pointId] } });
    await setTaxRate("0PL002", "23");
    try {
      expect((await charger(made.serialNumber)).body.data.connectors[0].price).toMatchObject({ energyPerKwh: "1.1500", vatPercent: "23" });
      await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.tax.inclusive', json('false')) WHERE operator_id = ?").bind(plId).run();
      expect((await charger(made.serialNumber)).body.data.connectors[0].price).toMatchObject({ energyPerKwh: "1.4145", vatPercent: "23" });
    } finally {
      await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.tax.inclusive', json('true')) WHERE operator_id = ?").bind(plId).run();
      await setTaxRate("0PL002", "0");
    }
  });

  it("shows the price per kWh even when the operator hides the energy fee on receipts", async () => {
    const before = (await charger("PL002-CP01")).body.data.connectors[0].price.energyPerKwh;
    await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.hideEnergyPrice', json('true')) WHERE operator_id = ?").bind(plId).run();
    try {
      expect((await charger("PL002-CP01")).body.data.connectors[0].price.energyPerKwh).toBe(before);
    } finally {
      await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.hideEnergyPrice', json('false')) WHERE operator_id = ?").bind(plId).run();
    }
  });
});

describe("price shown is price billed", () => {
  it("bills a session at the price the page showed at its start, though the strategy is edited while it runs", async () => {
    const strategy = await flatStrategy(pl, { electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.8000" }] }, service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "2.0000" }] } });
    const made = await makeCharger("0PL002");
    expect((await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token: pl, body: { pointIds: [made.pointId] } })).status).toBe(200);
    const shown = (await charger(made.serialNumber)).body.data.connectors[0].price;
    expect(shown).toMatchObject({ energyPerKwh: "0.8000", sessionFee: "2.0000", validUntil: null });

    const socket = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(socket);
    const start = Date.now() - 30 * 60_000;
    const { transactionId } = await socket.call("StartTransaction", { connectorId: 1, idTag: "ADHOCPRICE", meterStart: 0, timestamp: new Date(start).toISOString() });
    // The operator raises the price mid-session: a new version, shown on the page from now on.
    const edited = await call("PUT", `/finance-service/strategy/${strategy.id}`, {
      token: pl,
      body: { name: `Raised ${strategy.id}`, electricity: { slots: [{ start: "00:00", end: "24:00", price: "2.5000" }] }, service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "9.0000" }] }, idle: { before: null, during: null, after: null } },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await charger(made.serialNumber)).body.data.connectors[0].price).toMatchObject({ energyPerKwh: "2.5000", sessionFee: "9.0000" });
    await socket.call("StopTransaction", { transactionId, meterStop: 10_000, timestamp: now(), reason: "Local" });
    socket.close();

    await billTransaction(systemCtx(env, { id: plId, code: "0PL002" }, "billing"), transactionId);
    const record = await row<{ electric_cost: number; service_cost: number; total_cost: number }>(
      "SELECT electric_cost, service_cost, total_cost FROM charge_records WHERE transaction_id = ?",
      transactionId,
    );
    // 10 kWh at the 0.80 shown at the start, and its 2.00 session fee: 10.00 zł, never 34.00.
    expect(record).toEqual({ electric_cost: 800, service_cost: 200, total_cost: 1000 });
    expect(await row("SELECT strategy_version_id AS v FROM transactions WHERE id = ?", transactionId)).toEqual({ v: strategy.versionId });
  });
});

describe("QR codes", () => {
  const shellOf = async (token: string, origin = ORIGIN) => consoleShell(await contextFromToken(publicCtxOf(new Request(`${origin}/home`), env), token));

  it("lead to the operator's branded domain, with the scheme and port the console was reached by", async () => {
    expect((await shellOf(pl)).chargePageOrigin).toBe("http://polska.localhost");
    expect((await shellOf(pl, "http://127.0.0.1:8787")).chargePageOrigin).toBe("http://polska.localhost:8787");
    expect((await shellOf(pl, "https://console.example")).chargePageOrigin).toBe("https://polska.localhost");
  });

  it("lead to the console's own address for an operator without a domain", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    expect((await shellOf(sub, "http://127.0.0.1:8787")).chargePageOrigin).toBe("http://127.0.0.1:8787");
  });
});

afterAll(() => setTaxRate("0PL002", "0"));
