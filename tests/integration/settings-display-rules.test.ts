import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import en from "../../domain/i18n/locales/en/translation.json";
import pl from "../../domain/i18n/locales/pl/translation.json";
import { CONNECTOR_STANDARDS } from "../../domain/schemas/equipment";
import { orderedStandards } from "../../domain/schemas/settings";
import { errorBody } from "../../workers/http/error-envelope";
import { tokenId } from "../../workers/auth/tokens";
import { consoleShell } from "../../workers/services/auth/user-info";
import { billByCode, receiptByToken } from "../../workers/services/charge-records/receipts";
import { platformCtx, publicCtxOf } from "../../workers/services/context";
import { duePullPlatforms } from "../../workers/services/ocpi/pulls";
import { walletSettings } from "../../workers/services/wallets/wallet-facts";
import { ocpi, fakeCpos } from "./support/fake-cpo";
import { routeFetchTo } from "./support/fake-cpo-senders";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { call, login, ORIGIN, tokenFor } from "./support/http";
import { registeredCpo, setIdentity, userCtx } from "./support/ocpi-partner";
import { addSessions } from "./support/sessions";

/**
 * Settings that change what the console and the public pages show, the remote-control panel's
 * base, and the messages a refused session gets (docs/rules/settings.md "Display switches",
 * docs/rules/platform.md "Roaming", docs/rules/monitoring.md "Remote-control panel",
 * docs/rules/sessions.md "Session messages").
 */
const SETTINGS = "/system-service/parameter-settings";
let admin: string;
let platform: string;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  platform = await tokenFor("PLATFORM", "platform", "Platform123");
});

/** Changes the operator's parameter settings as its console does: the document it read, changed, saved whole. */
async function changeSettings(token: string, change: (doc: any) => void) {
  const doc = structuredClone((await call("GET", SETTINGS, { token })).body.data);
  change(doc);
  const res = await call("PUT", SETTINGS, { token, body: doc });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

let provisioned = 0;

/** A new ultimate operator provisioned by the platform, its admin past the initial password; its token. */
async function provisionOperator(joinOcpi: boolean) {
  const code = `0TD${Date.now().toString(36).slice(-3).toUpperCase()}${++provisioned}`;
  const username = `adm${code.toLowerCase()}`;
  const created = await call("POST", "/platform-service/operator", {
    token: platform,
    body: {
      code,
      name: `Operator ${code}`,
      edition: "ultimate",
      validFrom: "2025-01-01",
      validUntil: "2099-01-01",
      subscriptionAmount: 0,
      contactName: "Anna Nowak",
      contactPhone: "+48 600 100 200",
      contactEmail: "anna@example.com",
      timeZone: "Europe/Warsaw",
      currency: "PLN",
      defaultLanguage: "en",
      chargeAccount: "PL61109010140000071219812874",
      domains: [],
      eipaAccount: "eipa-user",
      eipaPassword: "eipa-secret",
      joinOcpi,
      admin: { username, email: `${username}@example.com`, name: "First Admin" },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const initial = created.body.data.admin.initialPassword as string;
  const first = (await login(code, username, initial)).body.data.accessToken as string;
  const changed = await call("PUT", "/user-service/person/operator/password", {
    token: first,
    body: { oldPassword: initial, newPassword: "Admin12345", confirmPassword: "Admin12345" },
  });
  expect(changed.status).toBe(200);
  return { id: created.body.data.id as number, code, token: (await login(code, username, "Admin12345")).body.data.accessToken as string };
}

const setJoinOcpi = (code: string, joined: boolean) => env.DB.prepare("UPDATE operators SET join_ocpi = ? WHERE code = ?").bind(joined ? 1 : 0, code).run();

describe("hide energy price", () => {
  it("leaves the energy fee off receipts and public pages when the operator hides it, and keeps the total", async () => {
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-06-01T10:00:00Z", stop: "2025-06-01T11:00:00Z", meterStart: 0, meterStop: 10_000, bill: true }]);
    await env.DB.prepare("UPDATE charge_records SET electric_cost = 3000, service_cost = 500, total_cost = 3500 WHERE transaction_id = ?").bind(id).run();
    const codes = (await env.DB.prepare("SELECT receipt_token, bill_code FROM charge_records WHERE transaction_id = ?").bind(id).first<{ receipt_token: string; bill_code: string }>())!;
    const visitor = publicCtxOf(new Request(`${ORIGIN}/tourist/chargingRecordDetails/x`), env);

    expect(await receiptByToken(visitor, codes.receipt_token)).toMatchObject({ energyPriceHidden: false, energyFee: 3000, cost: 3500 });

    await changeSettings(admin, (d) => (d.hideEnergyPrice = true));
    const shown = [
      await receiptByToken(visitor, codes.receipt_token),
      await billByCode(visitor, codes.bill_code),
      (await call("GET", `/station-service/charge/record/${id}/receipt`, { token: admin })).body.data,
    ];
    for (const receipt of shown) {
      expect(receipt).toMatchObject({ energyPriceHidden: true, energyFee: null, serviceFee: 500, cost: 3500, amountDue: 3500 });
    }
    // The operator's own record page keeps its cost lines.
    expect((await call("GET", `/station-service/charge/record/${id}`, { token: admin })).body.data).toMatchObject({ electricCost: 3000 });

    await changeSettings(admin, (d) => (d.hideEnergyPrice = false));
    expect(await receiptByToken(visitor, codes.receipt_token)).toMatchObject({ energyPriceHidden: false, energyFee: 3000 });
  });
});

describe("connector type order", () => {
  it("gives the console every standard in the operator's order, the ones it left out after", async () => {
    await changeSettings(admin, (d) => (d.connectorTypeOrder = ["GBT2", "IEC2"]));
    const shell = await consoleShell(await userCtx(admin));
    expect(shell.connectorTypeOrder.slice(0, 2)).toEqual(["GBT2", "IEC2"]);
    expect([...shell.connectorTypeOrder].sort()).toEqual([...CONNECTOR_STANDARDS].sort());
    expect(orderedStandards([])).toEqual([...CONNECTOR_STANDARDS]);
  });

  it("refuses an order that names a standard twice, or one that does not exist", async () => {
    for (const order of [["IEC2", "IEC2"], ["TESLA"]]) {
      const doc = structuredClone((await call("GET", SETTINGS, { token: admin })).body.data);
      doc.connectorTypeOrder = order;
      const res = await call("PUT", SETTINGS, { token: admin, body: doc });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.data.fields).some((field) => field.startsWith("connectorTypeOrder"))).toBe(true);
    }
  });
});

describe("recharge presets", () => {
  it("offers the operator's top-up amounts in the recharge dialog, and only to accounts that may see recharges", async () => {
    expect((await walletSettings(await userCtx(admin))).rechargePresets).toEqual([2000, 5000, 10000]);
    await changeSettings(admin, (d) => (d.rechargeParameter = { presets: [1500, 3000] }));
    expect((await walletSettings(await userCtx(admin))).rechargePresets).toEqual([1500, 3000]);
    const watcher = await tokenWithMenus(admin, ["home"]);
    await expect(walletSettings(await userCtx(watcher))).rejects.toMatchObject({ status: 403 });
  });
});

describe("join OCPI", () => {
  it("hides the roaming area from an operator that has not joined, and closes its roaming API (403)", async () => {
    const outside = await provisionOperator(false);
    const shell = await consoleShell(await userCtx(outside.token));
    expect(JSON.stringify(shell.menu)).not.toContain("emsp");
    expect((await call("GET", "/ocpi-service/platform", { token: outside.token })).status).toBe(403);

    const member = await provisionOperator(true);
    expect(JSON.stringify((await consoleShell(await userCtx(member.token))).menu)).toContain("/emsp/emspPlatform");
    expect((await call("GET", "/ocpi-service/platform", { token: member.token })).status).toBe(200);
  });

  it("answers the partners of an operator that left as an unknown party, and pulls nothing from them", async () => {
    vi.stubGlobal("fetch", routeFetchTo(fakeCpos, globalThis.fetch));
    try {
      await setIdentity("0PL002", { countryCode: "PL", partyId: "PLG" });
      const { token } = await registeredCpo(admin);
      expect((await ocpi("GET", "/ocpi/versions", { token })).status).toBe(200);
      const unknown = await ocpi("GET", "/ocpi/versions", { token: "no-such-token-anywhere" });
      const due = async () => (await duePullPlatforms(await platformCtx(env, "cron test"))).filter((p) => p.operatorCode === "0PL002");
      expect((await due()).length).toBeGreaterThan(0);

      await setJoinOcpi("0PL002", false);
      const refused = await ocpi("GET", "/ocpi/versions", { token });
      expect(refused.status).toBe(unknown.status);
      expect(refused.body.status_code).toBe(unknown.body.status_code);
      expect(await due()).toEqual([]);
      expect((await call("GET", "/ocpi-service/platform", { token: admin })).status).toBe(403);

      await setJoinOcpi("0PL002", true);
      expect((await ocpi("GET", "/ocpi/versions", { token })).status).toBe(200);
    } finally {
      await setJoinOcpi("0PL002", true);
      await setIdentity("0PL002", { countryCode: null, partyId: null });
      vi.unstubAllGlobals();
    }
  });
});

describe("a base on the panel", () => {
  it("opens the remote-control panel on the first location when none is chosen", async () => {
    const res = await call("GET", "/station-service/monitoring/panel", { token: admin });
    expect(res.status).toBe(200);
    const first = await env.DB.prepare(
      "SELECT s.id FROM stations s JOIN operators o ON o.id = s.operator_id WHERE o.code = '0PL002' ORDER BY s.rank DESC, s.name ASC LIMIT 1",
    ).first<{ id: number }>();
    expect(res.body.data.station.id).toBe(first!.id);
  });

  it("says 'Please add a base on your panel' to an operator with no location, in its language", async () => {
    const { token } = await provisionOperator(false);
    const res = await call("GET", "/station-service/monitoring/panel", { token });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(en.errors.noBase);
    expect((await call("GET", "/station-service/monitoring/panel?lang=pl", { token })).body.msg).toBe(pl.errors.noBase);
    const watcher = await tokenWithMenus(admin, ["home"]);
    expect((await call("GET", "/station-service/monitoring/panel", { token: watcher })).status).toBe(403);
  });
});

describe("session messages", () => {
  it("says the sign-in expired when the session has, and names the reason for the console", async () => {
    const token = (await login("0PL002", "demoadmin", "Demo12345")).body.data.accessToken as string;
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?").bind(Date.now() - 1000, tokenId(token)).run();
    const res = await call("GET", "/user-service/operator/info", { token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, msg: en.errors.sessionExpired, data: { reason: "errors.sessionExpired" } });
  });

  it("says 'No authorization' for a token that names no session", async () => {
    const res = await call("GET", "/user-service/operator/info", { token: "0".repeat(40) });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ msg: en.errors.unauthorized, data: { reason: "errors.unauthorized" } });
  });

  it("says the refresh failed when a token can no longer be refreshed, and refreshes a live one", async () => {
    const token = (await login("0PL002", "demoadmin", "Demo12345")).body.data.accessToken as string;
    const refreshed = await call("GET", "/user-service/auth/token/refresh", { token });
    expect(refreshed.status).toBe(200);
    for (const stale of [token, undefined]) {
      const res = await call("GET", "/user-service/auth/token/refresh?lang=pl", { token: stale });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ msg: pl.errors.refreshFailed, data: { reason: "errors.refreshFailed" } });
    }
  });

  it("answers a failure of the server itself with 'Server error, contact the administrator'", () => {
    expect(errorBody(new TypeError("x is undefined"), "en")).toEqual({ status: 500, body: { code: 500, msg: en.errors.serverContact, data: null } });
    expect(errorBody(new TypeError("x is undefined"), "pl").body.msg).toBe(pl.errors.serverContact);
  });
});
