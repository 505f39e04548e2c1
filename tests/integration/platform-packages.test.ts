import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { platformCtx } from "../../workers/services/context";
import { billPackagesForDay } from "../../workers/services/platform/package-billing";
import { call, login, tokenFor } from "./support/http";

/**
 * Price packages (docs/rules/platform.md "Price packages", "Daily billing", "Temporary package"):
 * what the platform charges an operator per connector per day, the quota they authorise, and the
 * temporary package offered when an operator adds points beyond it.
 */
let platform: string;
let counter = 0;

async function newOperator() {
  const code = `0PK${Date.now().toString(36).slice(-4).toUpperCase()}${++counter}`;
  const res = await call("POST", "/platform-service/operator", {
    token: platform,
    body: {
      code,
      name: `Packages ${code}`,
      edition: "ultimate",
      timeZone: "Europe/Warsaw",
      currency: "PLN",
      defaultLanguage: "en",
      admin: { username: `pk${code.toLowerCase()}`, email: "pk@example.com", name: "Package Admin" },
    },
  });
  const { id, admin } = res.body.data;
  const first = (await login(code, admin.username, admin.initialPassword)).body.data.accessToken;
  await call("PUT", "/user-service/person/operator/password", {
    token: first,
    body: { oldPassword: admin.initialPassword, newPassword: "Admin12345", confirmPassword: "Admin12345" },
  });
  const token = (await login(code, admin.username, "Admin12345")).body.data.accessToken as string;
  return { id: id as number, code, token };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function packageBody(operatorId: number, overrides: Record<string, unknown> = {}) {
  return { operatorId, type: "default", acPrice: "0.35", dcPrice: "1.2", acConnectors: 4, dcConnectors: 2, beginAt: day(-10), endAt: day(30), ...overrides };
}

/** The daily cron trigger, as wrangler.toml fires it. */
async function runDaily() {
  const worker = (await import("../../workers/app")).default;
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "0 1 * * *", scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** The daily package run on a later day (cron's session purge would end the tests' sessions). */
async function runPackagesOn(at: number) {
  await billPackagesForDay(await platformCtx(env, "cron 0 1 * * *", () => at));
}

async function addStation(token: string) {
  const res = await call("POST", "/station-service/station", {
    token,
    body: { name: "Quota Station", address: "ul. Testowa 1", lat: "52.1", lng: "21.0", servicePhone: "+48 600 000 000", maintainer: "Ops", businessHours: "24h", description: "Quota", rank: 1, parkingFee: false },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data.id as number;
}

const point = (stationId: number, serialNumber: string, type: "AC" | "DC", connectorCount: number) => ({
  stationId,
  serialNumber,
  pointNo: "01",
  name: serialNumber,
  type,
  ratedPower: 22,
  connectorCount,
  privateType: "Public",
});

beforeAll(async () => {
  platform = await tokenFor("PLATFORM", "platform", "Platform123");
});

describe("price packages", () => {
  it("authorises the connectors of its effective packages: created effective, ineffective in the future, voided", async () => {
    const op = await newOperator();
    const effective = await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(op.id) });
    expect(effective.status).toBe(200);
    expect(effective.body.data).toMatchObject({ status: "effective", type: "default", acPrice: "0.35", dcPrice: "1.2", currency: "PLN", operatorCode: op.code });
    const future = await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(op.id, { type: "regular", beginAt: day(5), endAt: day(40) }) });
    expect(future.body.data.status).toBe("ineffective");
    const detail = async () => (await call("GET", `/platform-service/operator/${op.id}`, { token: platform })).body.data;
    expect(await detail()).toMatchObject({ authorizedAcConnectors: 4, authorizedDcConnectors: 2 });

    const voided = await call("PUT", `/platform-service/price-package/${effective.body.data.id}/void`, { token: platform });
    expect(voided.body.data.status).toBe("void");
    expect(await detail()).toMatchObject({ authorizedAcConnectors: 0, authorizedDcConnectors: 0 });
    expect((await call("PUT", `/platform-service/price-package/${effective.body.data.id}/void`, { token: platform })).status).toBe(409);

    await runPackagesOn(Date.now() + 6 * 86_400_000);
    expect((await call("GET", `/platform-service/price-package/${future.body.data.id}`, { token: platform })).body.data.status).toBe("effective");
    expect(await detail()).toMatchObject({ authorizedAcConnectors: 4, authorizedDcConnectors: 2 });
    await runPackagesOn(Date.now() + 41 * 86_400_000);
    expect((await call("GET", `/platform-service/price-package/${future.body.data.id}`, { token: platform })).body.data.status).toBe("expired");
    expect(await detail()).toMatchObject({ authorizedAcConnectors: 0, authorizedDcConnectors: 0 });
  });

  it("refuses bad packages with a message per field, and another operator's sub-operator or a missing operator", async () => {
    const op = await newOperator();
    const bad = await call("POST", "/platform-service/price-package", {
      token: platform,
      body: packageBody(op.id, { type: "monthly", acPrice: "1.23456", dcPrice: "-1", acConnectors: -1, endAt: day(-20) }),
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(["type", "acPrice", "dcPrice", "acConnectors"]));
    const sub = await env.DB.prepare("SELECT id FROM operators WHERE code = '0PL002A'").first<{ id: number }>();
    expect((await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(sub!.id) })).status).toBe(404);
    expect((await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(999999) })).status).toBe(404);
  });

  it("bills each effective package per enabled connector per day, once however often the daily run goes", async () => {
    const op = await newOperator();
    const pkg = (await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(op.id) })).body.data;
    const stationId = await addStation(op.token);
    const tag = `${op.code}-`;
    const ac = await call("POST", "/station-service/point", { token: op.token, body: point(stationId, `${tag}AC`, "AC", 2) });
    const dc = await call("POST", "/station-service/point", { token: op.token, body: point(stationId, `${tag}DC`, "DC", 1) });
    expect([ac.status, dc.status]).toEqual([200, 200]);
    await call("PUT", `/station-service/station/${stationId}/valid`, { token: op.token, body: { status: "VALID" } });
    expect((await call("PUT", `/station-service/point/${ac.body.data.id}/valid`, { token: op.token, body: { status: "VALID" } })).status).toBe(200);
    // The DC point stays disabled: it is not billed.

    await runDaily();
    await runDaily();
    const bills = await call("GET", `/platform-service/price-package/${pkg.id}/bill?size=100`, { token: platform });
    expect(bills.body.data.total).toBe(1);
    expect(bills.body.data.records[0]).toMatchObject({ day: day(0), acConnectors: 2, dcConnectors: 0, acAmount: 70, dcAmount: 0, amount: 70, currency: "PLN", recorded: false, settled: false });

    const billId = bills.body.data.records[0].id;
    const flagged = await call("PUT", `/platform-service/price-package/bill/${billId}`, { token: platform, body: { recorded: true } });
    expect(flagged.body.data).toMatchObject({ recorded: true, settled: false });
    await call("PUT", `/platform-service/price-package/bill/${billId}`, { token: platform, body: { settled: true } });
    expect((await call("GET", `/platform-service/price-package/${pkg.id}/bill?settled=true`, { token: platform })).body.data.total).toBe(1);
    expect((await call("GET", `/platform-service/price-package/${pkg.id}/bill?settled=false`, { token: platform })).body.data.total).toBe(0);
    expect((await call("PUT", `/platform-service/price-package/bill/${billId}`, { token: platform, body: {} })).status).toBe(400);

    const own = await call("GET", `/platform-service/price-package/mine/${pkg.id}/bill`, { token: op.token });
    expect(own.body.data.package.id).toBe(pkg.id);
    expect(own.body.data.bills.records[0]).toMatchObject({ amount: 70, recorded: true, settled: true });
    expect((await call("PUT", `/platform-service/price-package/bill/${billId}`, { token: op.token, body: { settled: false } })).status).toBe(403);
  });

  it("shows an operator its own packages and bills only: another operator's package is 404", async () => {
    const a = await newOperator();
    const b = await newOperator();
    const pkg = (await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(a.id) })).body.data;
    expect((await call("GET", "/platform-service/price-package/mine", { token: a.token })).body.data.records.map((p: { id: number }) => p.id)).toEqual([pkg.id]);
    expect((await call("GET", "/platform-service/price-package/mine", { token: b.token })).body.data.total).toBe(0);
    expect((await call("GET", `/platform-service/price-package/mine/${pkg.id}/bill`, { token: b.token })).status).toBe(404);
    expect((await call("GET", "/platform-service/price-package", { token: a.token })).status).toBe(403);
    expect((await call("POST", "/platform-service/price-package", { token: a.token, body: packageBody(a.id) })).status).toBe(403);
  });
});

describe("temporary package", () => {
  it("offers a temporary package with its price when points go beyond the quota; accepting raises the quota and bills it", async () => {
    const op = await newOperator();
    const base = (await call("POST", "/platform-service/price-package", { token: platform, body: packageBody(op.id, { acConnectors: 2, dcConnectors: 0 }) })).body.data;
    const stationId = await addStation(op.token);
    expect((await call("POST", "/station-service/point", { token: op.token, body: point(stationId, `${op.code}-A1`, "AC", 2) })).status).toBe(200);

    const refused = await call("POST", "/station-service/point", { token: op.token, body: point(stationId, `${op.code}-A2`, "AC", 2) });
    expect(refused.status).toBe(409);
    expect(refused.body.data).toMatchObject({ kind: "AC", adding: 2, used: 2, authorized: 2 });

    const offer = await call("GET", "/platform-service/price-package/temporary/offer?acConnectors=2", { token: op.token });
    expect(offer.body.data).toMatchObject({ type: "temporary", acConnectors: 2, dcConnectors: 0, acPrice: "0.35", currency: "PLN", dailyAmount: 70, endAt: base.endAt });
    expect(offer.body.data.totalAmount).toBe(70 * offer.body.data.days);

    const stale = await call("POST", "/platform-service/price-package/temporary", { token: op.token, body: { acConnectors: 2, dcConnectors: 0, acPrice: "0.30", dcPrice: "1.2" } });
    expect(stale.status).toBe(409);
    expect(stale.body.data.acPrice).toBe("0.35");

    const accepted = await call("POST", "/platform-service/price-package/temporary", { token: op.token, body: { acConnectors: 2, dcConnectors: 0, acPrice: "0.35", dcPrice: "1.2" } });
    expect(accepted.body.data).toMatchObject({ type: "temporary", status: "effective", acConnectors: 2 });
    const second = await call("POST", "/station-service/point", { token: op.token, body: point(stationId, `${op.code}-A2`, "AC", 2) });
    expect(second.status).toBe(200);

    await call("PUT", `/station-service/station/${stationId}/valid`, { token: op.token, body: { status: "VALID" } });
    const ids = (await call("GET", `/station-service/point?size=100`, { token: op.token })).body.data.records.map((p: { id: number }) => p.id);
    await call("PUT", "/station-service/point/valid/points", { token: op.token, body: { ids } });
    await runDaily();
    const tempBills = await call("GET", `/platform-service/price-package/mine/${accepted.body.data.id}/bill`, { token: op.token });
    expect(tempBills.body.data.bills.records[0]).toMatchObject({ acConnectors: 2, amount: 70 });
    const baseBills = await call("GET", `/platform-service/price-package/mine/${base.id}/bill`, { token: op.token });
    expect(baseBills.body.data.bills.records[0]).toMatchObject({ acConnectors: 2, amount: 70 });
  });

  it("has no offer without an effective package to extend, and none for a sub-operator or a role without the point menus", async () => {
    const op = await newOperator();
    const none = await call("GET", "/platform-service/price-package/temporary/offer?acConnectors=1", { token: op.token });
    expect(none.status).toBe(409);
    expect(none.body.msg).toBe("You have no effective price package to extend; please contact the platform");
    expect((await call("GET", "/platform-service/price-package/temporary/offer", { token: op.token })).status).toBe(400);
    const sub = await tokenFor("0PL002A", "subadmin1");
    expect((await call("GET", "/platform-service/price-package/temporary/offer?acConnectors=1", { token: sub })).status).toBe(403);
  });
});
