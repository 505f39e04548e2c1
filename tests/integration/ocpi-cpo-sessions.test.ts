import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ocpiCpoCdrs, ocpiCpoCommands, ocpiCpoSessions, ocpiCpoTokens } from "../../db/schema";
import { presetRange } from "../../domain/date-range";
import { cdr as cdrSchema } from "../../domain/schemas/ocpi/cdrs";
import { session as sessionSchema } from "../../domain/schemas/ocpi/sessions";
import { receiptByToken } from "../../workers/services/charge-records/receipts";
import { publicCtxOf, systemCtx } from "../../workers/services/context";
import { deliverCpoCdr } from "../../workers/services/ocpi/cpo/cdrs";
import { housekeeping, MINUTE_CRON } from "../../workers/jobs/housekeeping";
import { cpoRoamingRound } from "../../workers/services/ocpi/cpo/rounds";
import { insertAll } from "./support/bulk";
import { boot, connect, eventually, landed, now, type TestCharger } from "./support/charger";
import { row } from "./support/d1";
import { makeCardRow, makeCustomerRow, operatorIdOf } from "./support/driver-rows";
import { ocpi } from "./support/fake-cpo";
import { routeFetchTo } from "./support/fake-cpo-senders";
import { fakeEmspWithDrivers } from "./support/fake-emsp-drivers";
import { makeCharger } from "./support/factories";
import { call } from "./support/http";
import { operatorsInBothRoles, registerEmsp } from "./support/ocpi-partner";
import { bill } from "./support/sessions";
import { flatStrategy } from "./support/strategies";

/**
 * Partners' drivers at our chargers (docs/rules/ocpi.md "Partners' drivers at our chargers",
 * "Commands we take", "Sessions and CDRs we send"; docs/rules/billing.md "Roaming at our
 * chargers"). A fake eMSP registers with a token A we issued, pushes its tokens, sends commands,
 * and receives our sessions, CDRs and command results through the product's own `fetch`.
 */
type Emsp = ReturnType<typeof fakeEmspWithDrivers>;
const emsps: Emsp[] = [];
let admin: string;
let other: string;
const QUEUE_MS = 20_000;

/** An eMSP whose drivers charge at our chargers, registered with the operator `token` logs into. */
async function registeredEmsp(token: string, options: Parameters<typeof fakeEmspWithDrivers>[0] = {}) {
  const emsp = fakeEmspWithDrivers(options);
  emsps.push(emsp);
  const { id } = await registerEmsp(token, emsp, { name: `eMSP drivers ${emsps.length}`, role: "EMSP" });
  return { emsp, id, token: emsp.state.ourToken! };
}

let seq = 0;
const uid = () => `RT${Date.now().toString(36).toUpperCase()}${++seq}`.slice(0, 20);
const tokenObject = (emsp: Emsp, tokenUid: string, whitelist: string, extra: Record<string, unknown> = {}) => ({
  country_code: emsp.countryCode,
  party_id: emsp.partyId,
  uid: tokenUid,
  type: "RFID",
  contract_id: `NL-EMS-C${tokenUid}`.slice(0, 36),
  issuer: "Fake eMSP",
  valid: true,
  whitelist,
  last_updated: now(),
  ...extra,
});
const pushToken = (emsp: Emsp, token: string, object: Record<string, unknown>) =>
  ocpi("PUT", `/ocpi/2.2.1/cpo/tokens/${object.country_code}/${object.party_id}/${object.uid}?type=RFID`, { token, body: object });

/** A published, priced charger of 0PL002 online in `version`. */
async function onlineCharger(version: "1.6" | "2.0.1" = "1.6") {
  const made = await makeCharger("0PL002", version === "2.0.1" ? { ocppVersion: "OCPP201", type: "DC" } : {});
  const stationId = (await row<{ id: number }>("SELECT station_id AS id FROM points WHERE id = ?", made.pointId))!.id;
  const { versionId, id: strategyId } = await flatStrategy(admin);
  expect(versionId).toBeGreaterThan(0);
  await env.DB.prepare("UPDATE points SET charge_strategy_id = ? WHERE id = ?").bind(strategyId, made.pointId).run();
  expect((await call("PUT", `/ocpi-service/cpo/location/${stationId}`, { token: admin, body: { publish: true } })).status).toBe(200);
  const charger = (await connect(made.serialNumber, { key: made.key, protocols: version === "2.0.1" ? "ocpp2.0.1" : "ocpp1.6" })).charger!;
  if (version === "1.6") await boot(charger);
  else await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Plugdesk", model: "Test201" } });
  return { ...made, stationId, strategyId, charger, evseUid: (connector = 1) => `${made.pointId}*${connector}` };
}

const command = (token: string, name: string, body: Record<string, unknown>) => ocpi("POST", `/ocpi/2.2.1/cpo/commands/${name}`, { token, body });

beforeAll(async () => {
  vi.stubGlobal("fetch", routeFetchTo(emsps, globalThis.fetch));
  ({ admin, other } = await operatorsInBothRoles());
});
afterAll(() => vi.unstubAllGlobals());

describe("the tokens receiver", () => {
  it("stores a pushed token with the fields 2.2.1 does not define, patches it, and refuses another party's or a bad one", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const tokenUid = uid();
    const object = tokenObject(emsp, tokenUid, "ALLOWED", { x_loyalty: { tier: "gold" } });
    expect((await pushToken(emsp, token, object)).body).toMatchObject({ status_code: 1000 });
    const got = await ocpi("GET", `/ocpi/2.2.1/cpo/tokens/NL/EMS/${tokenUid}?type=RFID`, { token });
    expect(got.body.data).toEqual(object);
    const patched = await ocpi("PATCH", `/ocpi/2.2.1/cpo/tokens/NL/EMS/${tokenUid}?type=RFID`, { token, body: { valid: false, last_updated: now() } });
    expect(patched.body).toMatchObject({ status_code: 1000 });
    expect((await ocpi("GET", `/ocpi/2.2.1/cpo/tokens/NL/EMS/${tokenUid}`, { token })).body.data).toMatchObject({ valid: false, x_loyalty: { tier: "gold" } });
    // Another party's token, a bad whitelist, a PATCH of a token nobody pushed.
    expect((await pushToken(emsp, token, { ...object, country_code: "DE", party_id: "XXX" })).status).toBe(403);
    const bad = await pushToken(emsp, token, { ...object, whitelist: "SOMETIMES" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status_code: 2001 });
    expect(bad.body.status_message).toContain("whitelist");
    expect((await ocpi("PATCH", `/ocpi/2.2.1/cpo/tokens/NL/EMS/NOPE${tokenUid}`, { token, body: { valid: true, last_updated: now() } })).body).toMatchObject({ status_code: 2004 });
  });
});

describe("a charger asks about a partner's token", () => {
  it("answers ALWAYS and ALLOWED from the stored token, ALLOWED_OFFLINE and NEVER by real-time authorization, and never starts an unknown token", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const { charger, stationId, pointId } = await onlineCharger();
    const authorize = async (tokenUid: string) => (await charger.call("Authorize", { idTag: tokenUid })).idTagInfo.status;
    const pushed = async (whitelist: string, verdict?: "ALLOWED" | "BLOCKED" | "SILENT", extra: Record<string, unknown> = {}) => {
      const tokenUid = uid();
      await pushToken(emsp, token, tokenObject(emsp, tokenUid, whitelist, extra));
      if (verdict) emsp.drivers.answers.set(tokenUid, verdict);
      return tokenUid;
    };
    const asked = (tokenUid: string) => emsp.drivers.authorizations.filter((a) => a.uid === tokenUid);

    const always = await pushed("ALWAYS", "BLOCKED");
    expect(await authorize(always)).toBe("Accepted");
    const allowed = await pushed("ALLOWED", "BLOCKED");
    expect(await authorize(allowed)).toBe("Accepted");
    expect([...asked(always), ...asked(allowed)]).toEqual([]);
    expect(await authorize(await pushed("ALLOWED", undefined, { valid: false }))).toBe("Blocked");

    const offlineAllowed = await pushed("ALLOWED_OFFLINE", "ALLOWED");
    expect(await authorize(offlineAllowed)).toBe("Accepted");
    expect(asked(offlineAllowed)).toEqual([{ uid: offlineAllowed, type: "RFID", body: { location_id: String(stationId), evse_uids: [`${pointId}*1`] } }]);
    expect(await authorize(await pushed("ALLOWED_OFFLINE", "BLOCKED"))).toBe("Blocked");
    // The eMSP does not answer in time: the stored token decides.
    expect(await authorize(await pushed("ALLOWED_OFFLINE", "SILENT"))).toBe("Accepted");

    expect(await authorize(await pushed("NEVER", "ALLOWED"))).toBe("Accepted");
    expect(await authorize(await pushed("NEVER", "BLOCKED"))).toBe("Blocked");
    expect(await authorize(await pushed("NEVER", "SILENT"))).toBe("Invalid");

    const unknown = uid();
    expect(await authorize(unknown)).toBe("Invalid");
    const start = await charger.call("StartTransaction", { connectorId: 1, idTag: unknown, meterStart: 0, timestamp: now() });
    expect(start.idTagInfo.status).toBe("Invalid");
    expect(await row("SELECT id FROM ocpi_cpo_sessions WHERE token_uid = ?", unknown)).toBeNull();
    charger.close();
  }, 60_000);
});

describe("offline lists", () => {
  it("put partners' valid ALLOWED_OFFLINE tokens on a list pushed to a published point, and no other roaming token", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const sent: { localAuthorizationList?: { idTag: string; idTagInfo?: { status: string } }[] }[] = [];
    made.charger.answer("SendLocalList", (payload) => {
      sent.push(payload);
      return { status: "Accepted" };
    });
    const [offline, allowed, blocked] = [uid(), uid(), uid()];
    await pushToken(emsp, token, tokenObject(emsp, offline, "ALLOWED_OFFLINE"));
    await pushToken(emsp, token, tokenObject(emsp, allowed, "ALLOWED"));
    await pushToken(emsp, token, tokenObject(emsp, blocked, "ALLOWED_OFFLINE", { valid: false }));
    const driver = await makeCustomerRow("0PL002");
    const card = await makeCardRow("0PL002", driver.id);
    const list = await call("POST", "/customer-service/offline-list", { token: admin, body: { name: "Roaming night", chargeableType: "RFID", customerIds: [driver.id] } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect((await call("POST", `/customer-service/offline-list/${list.body.data.id}/push`, { token: admin, body: { pointIds: [made.pointId] } })).status).toBe(200);
    await eventually(async () => sent, (s) => s.length > 0, QUEUE_MS);
    const entries = (sent[0].localAuthorizationList ?? []).map((e) => [e.idTag, e.idTagInfo?.status]);
    expect(entries).toEqual(expect.arrayContaining([[card.idTag, "Accepted"], [offline, "Accepted"]]));
    expect(entries.map(([idTag]) => idTag)).not.toContain(allowed);
    expect(entries.map(([idTag]) => idTag)).not.toContain(blocked);
    made.charger.close();
  }, 60_000);
});

/** A charger's 1.6 session for `tokenUid`, stopped and billed; the transaction's id. */
async function chargeOnce(charger: TestCharger, made: { operatorId: number }, tokenUid: string) {
  const startAt = new Date(Date.now() - 3_600_000).toISOString();
  const started = await charger.call("StartTransaction", { connectorId: 1, idTag: tokenUid, meterStart: 1_000, timestamp: startAt });
  expect(started.idTagInfo.status).toBe("Accepted");
  await charger.call("StopTransaction", { transactionId: started.transactionId, idTag: tokenUid, meterStop: 13_345, timestamp: now(), reason: "Local" });
  await bill(made, started.transactionId);
  return started.transactionId as number;
}

describe("commands, sessions and CDRs", () => {
  it("starts a session on START_SESSION, pushes it as it starts and ends, and sends the CDR whose total is our receipt's", async () => {
    const { emsp, token, id: platformId } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const started: unknown[] = [];
    made.charger.answer("RemoteStartTransaction", (payload) => {
      started.push(payload);
      return { status: "Accepted" };
    });
    const tokenUid = uid();
    const responseUrl = emsp.responseUrl("START_SESSION");
    const answered = await command(token, "START_SESSION", {
      response_url: responseUrl,
      token: tokenObject(emsp, tokenUid, "ALLOWED"),
      location_id: String(made.stationId),
      evse_uid: made.evseUid(1),
      connector_id: "1",
      authorization_reference: "REF-1",
    });
    expect(answered.body).toMatchObject({ status_code: 1000, data: { result: "ACCEPTED", timeout: expect.any(Number) } });
    const results = await eventually(async () => emsp.drivers.results.filter((r) => r.path === new URL(responseUrl).pathname), (r) => r.length > 0);
    expect(results).toEqual([{ path: new URL(responseUrl).pathname, body: { result: "ACCEPTED" } }]);
    expect(started).toEqual([{ connectorId: 1, idTag: tokenUid }]);

    // The charger starts the session the eMSP asked for: its token is let in by the command.
    const transactionId = await chargeOnce(made.charger, made, tokenUid);
    const session = await row<{ id: number; status: string; auth_method: string }>("SELECT id, status, auth_method FROM ocpi_cpo_sessions WHERE transaction_id = ?", transactionId);
    expect(session).toMatchObject({ status: "COMPLETED", auth_method: "COMMAND" });
    const path = `PL/PLC/${session!.id}`;
    const pushes = await eventually(async () => emsp.drivers.sessions.filter((s) => s.path === path), (s) => s.some((p) => p.body.status === "COMPLETED"), QUEUE_MS);
    expect(pushes[0]).toMatchObject({ method: "PUT" });
    expect(sessionSchema.safeParse(pushes[0].body).success).toBe(true);
    expect(pushes[0].body).toMatchObject({
      id: String(session!.id),
      cdr_token: { country_code: "NL", party_id: "EMS", uid: tokenUid, type: "RFID" },
      auth_method: "COMMAND",
      authorization_reference: "REF-1",
      location_id: String(made.stationId),
      evse_uid: made.evseUid(1),
      connector_id: "1",
      currency: "PLN",
    });
    expect(pushes.at(-1)!.body).toMatchObject({ status: "COMPLETED", kwh: 12.345 });

    // The CDR, once, with the receipt's total to the minor unit.
    const cdrs = await eventually(async () => emsp.drivers.cdrs.filter((c) => c.session_id === String(session!.id)), (c) => c.length > 0, QUEUE_MS);
    expect(cdrs).toHaveLength(1);
    expect(cdrSchema.safeParse(cdrs[0]).success).toBe(true);
    const record = (await call("GET", `/station-service/charge/record/${transactionId}`, { token: admin })).body.data;
    expect(record).toMatchObject({ status: "RECORD_UNSETTLED", unsettledReason: "ROAMING_PARTNER", totalCost: 1_235, paidCost: null });
    const stored = await row<{ roaming_platform_id: number; receipt_token: string }>("SELECT roaming_platform_id, receipt_token FROM charge_records WHERE transaction_id = ?", transactionId);
    expect(stored!.roaming_platform_id).toBe(platformId);
    const receipt = await receiptByToken(publicCtxOf(new Request("http://localhost/tourist/invoices/x"), env), stored!.receipt_token);
    expect(Math.round(cdrs[0].total_cost.incl_vat * 100)).toBe(receipt.grossCost);
    expect(cdrs[0]).toMatchObject({ total_energy: 12.345, auth_method: "COMMAND", currency: "PLN", cdr_location: { evse_uid: made.evseUid(1), connector_id: "1" } });
    expect(cdrs[0].charging_periods[0].dimensions).toEqual(expect.arrayContaining([{ type: "ENERGY", volume: 12.345 }]));
    // The tariff used is the strategy as we publish it.
    expect(cdrs[0].tariffs).toEqual([expect.objectContaining({ id: String(made.strategyId), currency: "PLN", country_code: "PL", party_id: "PLC" })]);
    expect(cdrs[0].charging_periods[0].tariff_id).toBe(String(made.strategyId));

    // Pulls see the same objects.
    const pulled = await ocpi("GET", "/ocpi/2.2.1/cpo/cdrs?limit=1", { token });
    expect(pulled.headers.get("X-Limit")).toBe("1");
    expect(pulled.body.data[0].id).toBe(cdrs.at(-1).id);
    expect((await ocpi("GET", "/ocpi/2.2.1/cpo/sessions", { token })).body.data.map((s: { id: string }) => s.id)).toContain(String(session!.id));

    // STOP_SESSION of nothing; START_SESSION at an EVSE that is not ours.
    expect((await command(token, "STOP_SESSION", { response_url: emsp.responseUrl("STOP_SESSION"), session_id: String(session!.id) })).body.data.result).toBe("UNKNOWN_SESSION");
    expect((await command(token, "STOP_SESSION", { response_url: emsp.responseUrl("STOP_SESSION"), session_id: "99999999" })).body.data.result).toBe("UNKNOWN_SESSION");
    const unknownEvse = await command(token, "START_SESSION", { response_url: emsp.responseUrl("START_SESSION"), token: tokenObject(emsp, uid(), "ALLOWED"), location_id: String(made.stationId), evse_uid: "999999*1" });
    expect(unknownEvse.body.data.result).toBe("REJECTED");
    // A private point is never published, so a partner that names its EVSE is refused too.
    await env.DB.prepare("UPDATE points SET private_type = 'Private' WHERE id = ?").bind(made.pointId).run();
    const privateEvse = await command(token, "START_SESSION", { response_url: emsp.responseUrl("START_SESSION"), token: tokenObject(emsp, uid(), "ALLOWED"), location_id: String(made.stationId), evse_uid: made.evseUid(1) });
    expect(privateEvse.body.data.result).toBe("REJECTED");
    await env.DB.prepare("UPDATE points SET private_type = 'Public' WHERE id = ?").bind(made.pointId).run();
    const profiles = await ocpi("PUT", `/ocpi/2.2.1/cpo/chargingprofiles/${session!.id}`, { token, body: {} });
    expect(profiles.body.data).toMatchObject({ result: "NOT_SUPPORTED" });
    made.charger.close();
  }, 90_000);

  it("pushes a token's session as it starts and its energy a minute later, stops it on STOP_SESSION and unlocks a connector, posting the charger's outcome", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const tokenUid = uid();
    await pushToken(emsp, token, tokenObject(emsp, tokenUid, "ALWAYS"));
    const started = await made.charger.call("StartTransaction", { connectorId: 1, idTag: tokenUid, meterStart: 0, timestamp: now() });
    const session = await row<{ id: number }>("SELECT id FROM ocpi_cpo_sessions WHERE transaction_id = ?", started.transactionId);
    const path = `PL/PLC/${session!.id}`;
    await eventually(async () => row<{ pushed_at: number | null }>("SELECT pushed_at FROM ocpi_cpo_sessions WHERE id = ?", session!.id), (r) => r?.pushed_at !== null, QUEUE_MS);
    expect(emsp.drivers.sessions.filter((s) => s.path === path).map((s) => [s.method, s.body.status, s.body.auth_method])).toEqual([["PUT", "ACTIVE", "WHITELIST"]]);
    // Its energy and cost as they grow: PATCHed by the minute's round once the last push is a minute old, not before.
    await made.charger.call("MeterValues", { connectorId: 1, transactionId: started.transactionId, meterValue: [{ timestamp: now(), sampledValue: [{ value: "2500", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }] });
    const round = () => housekeeping(env, MINUTE_CRON, Date.now());
    await round();
    expect(await row("SELECT energy_wh FROM ocpi_cpo_sessions WHERE id = ?", session!.id)).toEqual({ energy_wh: 0 });
    await env.DB.prepare("UPDATE ocpi_cpo_sessions SET pushed_at = ? WHERE id = ?").bind(Date.now() - 61_000, session!.id).run();
    await round();
    const patched = await eventually(async () => emsp.drivers.sessions.filter((s) => s.path === path && s.method === "PATCH"), (p) => p.length > 0, QUEUE_MS);
    // With its running cost, priced as billing would price a stop now: 2.5 kWh at 1.00 zł.
    expect(patched[0].body).toMatchObject({ kwh: 2.5, status: "ACTIVE", total_cost: { incl_vat: 2.5 }, last_updated: expect.any(String) });
    const asked: unknown[] = [];
    made.charger.answer("RemoteStopTransaction", (payload) => {
      asked.push(payload);
      return { status: "Accepted" };
    });
    made.charger.answer("UnlockConnector", () => ({ status: "UnlockFailed" }));
    const stopUrl = emsp.responseUrl("STOP_SESSION");
    expect((await command(token, "STOP_SESSION", { response_url: stopUrl, session_id: String(session!.id) })).body.data.result).toBe("ACCEPTED");
    const unlockUrl = emsp.responseUrl("UNLOCK_CONNECTOR");
    expect((await command(token, "UNLOCK_CONNECTOR", { response_url: unlockUrl, location_id: String(made.stationId), evse_uid: made.evseUid(2), connector_id: "1" })).body.data.result).toBe("ACCEPTED");
    const results = await eventually(async () => emsp.drivers.results, (r) => r.length >= 2);
    expect(results).toEqual(expect.arrayContaining([{ path: new URL(stopUrl).pathname, body: { result: "ACCEPTED" } }, { path: new URL(unlockUrl).pathname, body: { result: "FAILED" } }]));
    expect(asked).toEqual([{ transactionId: started.transactionId }]);
    made.charger.close();
  }, 60_000);

  it("starts a 2.0.1 charger's session with RequestStartTransaction on START_SESSION", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger("2.0.1");
    const requests: any[] = [];
    made.charger.answer("RequestStartTransaction", (payload) => {
      requests.push(payload);
      return { status: "Accepted" };
    });
    const tokenUid = uid();
    const responseUrl = emsp.responseUrl("START_SESSION");
    const answered = await command(token, "START_SESSION", { response_url: responseUrl, token: tokenObject(emsp, tokenUid, "ALLOWED"), location_id: String(made.stationId), evse_uid: made.evseUid(2) });
    expect(answered.body.data.result).toBe("ACCEPTED");
    const results = await eventually(async () => emsp.drivers.results.filter((r) => r.path === new URL(responseUrl).pathname), (r) => r.length > 0);
    expect(results[0].body).toEqual({ result: "ACCEPTED" });
    // An RFID token is named as the card the charger reads (ISO14443); an app user's is Central.
    expect(requests[0]).toMatchObject({ evseId: 2, idToken: { idToken: tokenUid, type: "ISO14443" } });
    const appUid = uid();
    const appUrl = emsp.responseUrl("START_SESSION");
    const byApp = await command(token, "START_SESSION", { response_url: appUrl, token: tokenObject(emsp, appUid, "ALLOWED", { type: "APP_USER" }), location_id: String(made.stationId), evse_uid: made.evseUid(1) });
    expect(byApp.body.data.result).toBe("ACCEPTED");
    await eventually(async () => requests.length, (n) => n > 1);
    expect(requests[1]).toMatchObject({ evseId: 1, idToken: { idToken: appUid, type: "Central" } });
    // The charger's Authorize of that token is let in by the command.
    const authorized = await made.charger.call("Authorize", { idToken: { idToken: tokenUid, type: "ISO14443" } });
    expect(authorized.idTokenInfo.status).toBe("Accepted");
    made.charger.close();
  }, 60_000);

  it("gives a partner that was down its CDR later, once, and sends a refused session again", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const tokenUid = uid();
    await pushToken(emsp, token, tokenObject(emsp, tokenUid, "ALLOWED"));
    emsp.drivers.cdrsDown = true;
    const transactionId = await chargeOnce(made.charger, made, tokenUid);
    const cdrRow = async () =>
      (await env.DB.prepare("SELECT c.id, c.push_state, c.push_error, c.push_attempts FROM ocpi_cpo_cdrs c JOIN ocpi_cpo_sessions s ON s.id = c.session_id WHERE s.transaction_id = ?").bind(transactionId).first<{
        id: number;
        push_state: string;
        push_error: string | null;
        push_attempts: number;
      }>())!;
    const failed = await eventually(cdrRow, (r) => r?.push_state === "RETRYING", QUEUE_MS);
    expect(failed.push_error).toContain("503");
    const listed = await call("GET", "/ocpi-service/cpo/cdr?pushState=RETRYING&size=100", { token: admin });
    expect(listed.body.data.records.map((r: { id: number }) => r.id)).toContain(failed.id);

    // Up again: the cron's round sends it once its time has come, and never again once taken.
    emsp.drivers.cdrsDown = false;
    await env.DB.prepare("UPDATE ocpi_cpo_cdrs SET next_attempt_at = ? WHERE id = ?").bind(Date.now() - 1, failed.id).run();
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test");
    await cpoRoamingRound(env, ctx, "test");
    await deliverCpoCdr(ctx, failed.id);
    await deliverCpoCdr(ctx, failed.id);
    const delivered = await eventually(cdrRow, (r) => r.push_state === "ACCEPTED", QUEUE_MS);
    expect(delivered.push_state).toBe("ACCEPTED");
    const sessionId = (await row<{ session_id: number }>("SELECT session_id FROM ocpi_cpo_cdrs WHERE id = ?", failed.id))!.session_id;
    const received = emsp.drivers.cdrs.filter((c) => c.id === String(sessionId));
    expect(received).toHaveLength(1);

    // A session whose push was refused is sent again by the round, as it is then.
    await env.DB.prepare("UPDATE ocpi_cpo_sessions SET push_state = 'RETRYING', push_error = 'HTTP 503', last_updated = ? WHERE id = ?").bind(Date.now() - 61_000, sessionId).run();
    const before = emsp.drivers.sessions.filter((p) => p.path === `PL/PLC/${sessionId}`).length;
    await cpoRoamingRound(env, ctx, "test");
    const again = await eventually(async () => row<{ push_state: string }>("SELECT push_state FROM ocpi_cpo_sessions WHERE id = ?", sessionId), (r) => r?.push_state === "ACCEPTED", QUEUE_MS);
    expect(again!.push_state).toBe("ACCEPTED");
    const pushes = emsp.drivers.sessions.filter((p) => p.path === `PL/PLC/${sessionId}`);
    expect(pushes.length).toBeGreaterThan(before);
    expect(pushes.at(-1)!.body).toMatchObject({ status: "COMPLETED" });
    made.charger.close();
  }, 90_000);
});

describe("roaming reservations", () => {
  it("makes a partner's RESERVE_NOW a reservation of ours for its token, replaces it under the same id, cancels it, and lets its token's start use it", async () => {
    const { emsp, token, id: platformId } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const reserved: any[] = [];
    const canceled: any[] = [];
    made.charger.answer("ReserveNow", (payload) => {
      reserved.push(payload);
      return { status: "Accepted" };
    });
    made.charger.answer("CancelReservation", (payload) => {
      canceled.push(payload);
      return { status: "Accepted" };
    });
    const tokenUid = uid();
    await pushToken(emsp, token, tokenObject(emsp, tokenUid, "ALLOWED"));
    const partnerId = `R${tokenUid}`.slice(0, 36);
    const expiry = new Date(Date.now() + 3_600_000);
    const reserve = async (reservationId: string, connector: number, until: Date) => {
      const url = emsp.responseUrl("RESERVE_NOW");
      const answered = await command(token, "RESERVE_NOW", {
        response_url: url,
        token: tokenObject(emsp, tokenUid, "ALLOWED"),
        expiry_date: until.toISOString(),
        reservation_id: reservationId,
        location_id: String(made.stationId),
        evse_uid: made.evseUid(connector),
      });
      expect(answered.body.data.result).toBe("ACCEPTED");
      return (await eventually(async () => emsp.drivers.results.filter((r) => r.path === new URL(url).pathname), (r) => r.length > 0))[0].body;
    };
    const held = () =>
      row<{ id: number; status: string; id_tag: string; connector_id: number; expiry_date: number; customer_id: number | null; roaming_platform_id: number; roaming_reservation_id: string }>(
        "SELECT id, status, id_tag, connector_id, expiry_date, customer_id, roaming_platform_id, roaming_reservation_id FROM reservations WHERE roaming_reservation_id = ? AND roaming_platform_id = ?",
        partnerId,
        platformId,
      );

    expect(await reserve(partnerId, 1, expiry)).toEqual({ result: "ACCEPTED" });
    const first = await eventually(held, (r) => r !== null);
    expect(first).toMatchObject({ status: "reserved", id_tag: tokenUid, connector_id: 1, expiry_date: expiry.getTime(), customer_id: null, roaming_platform_id: platformId });
    // The charger got the product's reservation id, from the system-wide sequence.
    expect(reserved).toEqual([{ connectorId: 1, expiryDate: expiry.toISOString(), idTag: tokenUid, reservationId: first!.id }]);
    // The console's reservation list shows it, with its partner.
    const listed = await call("GET", `/station-service/reservation?pointId=${made.pointId}&size=100`, { token: admin });
    expect(listed.body.data.records.find((r: { id: number }) => r.id === first!.id)).toMatchObject({ idTag: tokenUid, status: "reserved", roamingPlatformId: platformId, roamingPartner: `eMSP drivers ${emsps.length}` });

    // The same reservation_id again replaces it: the same OCPP id, the new EVSE and expiry.
    const later = new Date(Date.now() + 7_200_000);
    expect(await reserve(partnerId, 2, later)).toEqual({ result: "ACCEPTED" });
    expect(reserved[1]).toMatchObject({ connectorId: 2, reservationId: first!.id });
    expect(await eventually(held, (r) => r?.connector_id === 2)).toMatchObject({ id: first!.id, status: "reserved", expiry_date: later.getTime() });
    expect((await row<{ n: number }>("SELECT count(*) AS n FROM reservations WHERE roaming_reservation_id = ? AND roaming_platform_id = ?", partnerId, platformId))!.n).toBe(1);

    // CANCEL_RESERVATION: CancelReservation with that id, then canceled; an unknown one is REJECTED.
    const cancelUrl = emsp.responseUrl("CANCEL_RESERVATION");
    expect((await command(token, "CANCEL_RESERVATION", { response_url: cancelUrl, reservation_id: partnerId })).body.data.result).toBe("ACCEPTED");
    const cancelResult = await eventually(async () => emsp.drivers.results.filter((r) => r.path === new URL(cancelUrl).pathname), (r) => r.length > 0);
    expect(cancelResult[0].body).toEqual({ result: "ACCEPTED" });
    expect(canceled).toEqual([{ reservationId: first!.id }]);
    expect((await held())!.status).toBe("canceled");
    expect((await command(token, "CANCEL_RESERVATION", { response_url: emsp.responseUrl("CANCEL_RESERVATION"), reservation_id: partnerId })).body.data.result).toBe("REJECTED");
    const past = await command(token, "RESERVE_NOW", {
      response_url: emsp.responseUrl("RESERVE_NOW"),
      token: tokenObject(emsp, tokenUid, "ALLOWED"),
      expiry_date: new Date(Date.now() - 60_000).toISOString(),
      reservation_id: `P${partnerId}`.slice(0, 36),
      location_id: String(made.stationId),
      evse_uid: made.evseUid(1),
    });
    expect(past.body.data.result).toBe("REJECTED");

    // Reserved anew, the token's start naming it uses it, as the operator's own reservations are used.
    const again = `A${partnerId}`.slice(0, 36);
    expect(await reserve(again, 1, expiry)).toEqual({ result: "ACCEPTED" });
    const reservation = await eventually(() => row<{ id: number }>("SELECT id FROM reservations WHERE roaming_reservation_id = ? AND roaming_platform_id = ?", again, platformId), (r) => r !== null);
    expect(reservation!.id).not.toBe(first!.id);
    const started = await made.charger.call("StartTransaction", { connectorId: 1, idTag: tokenUid, meterStart: 0, timestamp: now(), reservationId: reservation!.id });
    expect(started.idTagInfo.status).toBe("Accepted");
    expect(await row("SELECT status, end_reason, transaction_id FROM reservations WHERE id = ?", reservation!.id)).toEqual({ status: "finished", end_reason: "used", transaction_id: started.transactionId });
    made.charger.close();
  }, 60_000);

  it("takes a START_SESSION and a RESERVE_NOW without evse_uid at an available EVSE of the location, and rejects them when none is free", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const started: unknown[] = [];
    const reserved: unknown[] = [];
    const accepting = (calls: unknown[]) => (payload: unknown) => {
      calls.push(payload);
      return { status: "Accepted" };
    };
    made.charger.answer("RemoteStartTransaction", accepting(started));
    made.charger.answer("ReserveNow", accepting(reserved));
    const tokenUid = uid();
    const status = (connectorId: number, value: string) => made.charger.call("StatusNotification", { connectorId, status: value, errorCode: "NoError", timestamp: now() });
    const start = () => command(token, "START_SESSION", { response_url: emsp.responseUrl("START_SESSION"), token: tokenObject(emsp, tokenUid, "ALLOWED"), location_id: String(made.stationId) });
    const reserve = (reservationId: string) =>
      command(token, "RESERVE_NOW", {
        response_url: emsp.responseUrl("RESERVE_NOW"),
        token: tokenObject(emsp, tokenUid, "ALLOWED"),
        expiry_date: new Date(Date.now() + 3_600_000).toISOString(),
        reservation_id: reservationId,
        location_id: String(made.stationId),
      });

    // No connector has said it is available yet.
    expect((await start()).body.data.result).toBe("REJECTED");
    await status(1, "Charging");
    await status(2, "Available");
    await landed();
    expect((await start()).body.data.result).toBe("ACCEPTED");
    await eventually(async () => started, (s) => s.length > 0);
    expect(started).toEqual([{ connectorId: 2, idTag: tokenUid }]);
    const pending = await row<{ evse_uid: string; connector_no: number }>("SELECT evse_uid, connector_no FROM ocpi_cpo_sessions WHERE token_uid = ? AND status = 'PENDING'", tokenUid);
    expect(pending).toEqual({ evse_uid: made.evseUid(2), connector_no: 2 });

    expect((await reserve(`N${tokenUid}`)).body.data.result).toBe("ACCEPTED");
    await eventually(async () => reserved, (r) => r.length > 0);
    expect(reserved[0]).toMatchObject({ connectorId: 2, idTag: tokenUid });
    // Both connectors taken: nothing to start or reserve at.
    await status(2, "Reserved");
    await landed();
    expect((await reserve(`M${tokenUid}`)).body.data.result).toBe("REJECTED");
    expect((await start()).body.data.result).toBe("REJECTED");
    made.charger.close();
  }, 60_000);
});

describe("signed meter values in CDRs", () => {
  const cdrOf = async (emsp: Emsp, transactionId: number) => {
    const session = await eventually(() => row<{ id: number }>("SELECT id FROM ocpi_cpo_sessions WHERE transaction_id = ?", transactionId), (r) => r !== null);
    const cdrs = await eventually(async () => emsp.drivers.cdrs.filter((c) => c.session_id === String(session!.id)), (c) => c.length > 0, QUEUE_MS);
    expect(cdrSchema.safeParse(cdrs[0]).success).toBe(true);
    return cdrs[0];
  };

  it("carries a 1.6 charger's SignedData readings of the start and the end as the CDR's signed_data", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger();
    const tokenUid = uid();
    await pushToken(emsp, token, tokenObject(emsp, tokenUid, "ALLOWED"));
    const begin = `OCMF|{"RD":[{"RV":1.0,"ST":"G"}],"TX":"B"}|{"SD":"3045B${tokenUid}"}`;
    const end = `OCMF|{"RD":[{"RV":13.345,"ST":"G"}],"TX":"E"}|{"SD":"3045E${tokenUid}"}`;
    const started = await made.charger.call("StartTransaction", { connectorId: 1, idTag: tokenUid, meterStart: 1_000, timestamp: new Date(Date.now() - 3_600_000).toISOString() });
    const signed = (value: string, context: string, plain: string) => [
      { value: plain, context, measurand: "Energy.Active.Import.Register", unit: "Wh" },
      { value, context, format: "SignedData", measurand: "Energy.Active.Import.Register", unit: "Wh" },
    ];
    await made.charger.call("MeterValues", { connectorId: 1, transactionId: started.transactionId, meterValue: [{ timestamp: now(), sampledValue: signed(begin, "Transaction.Begin", "1000") }] });
    await made.charger.call("MeterValues", { connectorId: 1, transactionId: started.transactionId, meterValue: [{ timestamp: now(), sampledValue: signed("OCMF|mid", "Sample.Periodic", "5000") }] });
    await made.charger.call("StopTransaction", {
      transactionId: started.transactionId,
      idTag: tokenUid,
      meterStop: 13_345,
      timestamp: now(),
      reason: "Local",
      transactionData: [{ timestamp: now(), sampledValue: signed(end, "Transaction.End", "13345") }],
    });
    await bill(made, started.transactionId);
    const cdr = await cdrOf(emsp, started.transactionId);
    expect(cdr.signed_data).toEqual({
      encoding_method: "OCMF",
      signed_values: [
        { nature: "Start", plain_data: "1000", signed_data: begin },
        { nature: "End", plain_data: "13345", signed_data: end },
      ],
    });
    made.charger.close();
  }, 90_000);

  it("carries a 2.0.1 charger's signedMeterValue with its encoding and public key, and leaves signed_data out when nothing was signed", async () => {
    const { emsp, token } = await registeredEmsp(admin);
    const made = await onlineCharger("2.0.1");
    const tokenUid = uid();
    await pushToken(emsp, token, tokenObject(emsp, tokenUid, "ALLOWED"));
    const at = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    const reading = (wh: number, context: string, signedMeterData?: string) => [
      {
        timestamp: at(0),
        sampledValue: [
          {
            value: wh,
            context,
            measurand: "Energy.Active.Import.Register",
            ...(signedMeterData && { signedMeterValue: { signedMeterData, signingMethod: "ECDSA-secp256r1-SHA256", encodingMethod: "EDL", publicKey: "MFkwEwYHKoZIzj0CAQ" } }),
          },
        ],
      },
    ];
    const charge = async (signed: boolean) => {
      const chargerTx = crypto.randomUUID();
      const started = await made.charger.call("TransactionEvent", {
        eventType: "Started",
        timestamp: at(-3600),
        triggerReason: "Authorized",
        seqNo: 0,
        transactionInfo: { transactionId: chargerTx, chargingState: "Charging" },
        idToken: { idToken: tokenUid, type: "ISO14443" },
        evse: { id: 1, connectorId: 1 },
        meterValue: reading(1_000, "Transaction.Begin", signed ? "U0lHTkVEQkVHSU4=" : undefined),
      });
      expect(started.idTokenInfo.status).toBe("Accepted");
      await made.charger.call("TransactionEvent", {
        eventType: "Ended",
        timestamp: at(0),
        triggerReason: "StopAuthorized",
        seqNo: 1,
        transactionInfo: { transactionId: chargerTx, chargingState: "Idle", stoppedReason: "Local" },
        evse: { id: 1, connectorId: 1 },
        meterValue: reading(6_000, "Transaction.End", signed ? "U0lHTkVERU5E" : undefined),
      });
      const tx = await eventually(() => row<{ id: number }>("SELECT id FROM transactions WHERE charger_transaction_id = ?", chargerTx), (r) => r !== null);
      await bill(made, tx!.id);
      return cdrOf(emsp, tx!.id);
    };
    const cdr = await charge(true);
    expect(cdr.signed_data).toEqual({
      encoding_method: "EDL",
      public_key: "MFkwEwYHKoZIzj0CAQ",
      signed_values: [
        { nature: "Start", plain_data: "1000", signed_data: "U0lHTkVEQkVHSU4=" },
        { nature: "End", plain_data: "6000", signed_data: "U0lHTkVERU5E" },
      ],
    });
    expect((await charge(false)).signed_data).toBeUndefined();
    made.charger.close();
  }, 90_000);
});

describe("the console and tenancy", () => {
  it("pages sessions, CDRs and tokens at size 100 with more than 100 rows, and keeps each operator's to itself", async () => {
    const { emsp, token, id: platformId } = await registeredEmsp(admin);
    const operatorId = await operatorIdOf("0PL002");
    const at = Date.now();
    // The sessions start on the 15th of this month at noon UTC, inside the same month in every zone:
    // the settlement below counts them by their start in the operator's zone.
    const started = Date.UTC(new Date(at).getUTCFullYear(), new Date(at).getUTCMonth(), 15, 12);
    const mark = `P${Date.now().toString(36).toUpperCase()}`;
    await insertAll(
      ocpiCpoTokens,
      Array.from({ length: 105 }, (_, i) => ({ operatorId, platformId, countryCode: "NL", partyId: "EMS", uid: `${mark}${i}`, type: "RFID", contractId: `C${i}`, whitelist: "ALLOWED", valid: true, data: {}, lastUpdated: new Date(at), receivedAt: new Date(at + i) })),
    );
    const sessionRows = Array.from({ length: 103 }, (_, i) => ({
      operatorId,
      platformId,
      tokenCountryCode: "NL",
      tokenPartyId: "EMS",
      tokenUid: `${mark}${i}`,
      tokenType: "RFID",
      contractId: `C${i}`,
      authMethod: "WHITELIST" as const,
      pointId: 1,
      connectorNo: 1,
      locationId: "1",
      evseUid: "1*1",
      connectorId: "1",
      status: "COMPLETED" as const,
      currency: "PLN",
      startAt: new Date(started - i * 1000),
      lastUpdated: new Date(at),
      createdAt: new Date(at),
    }));
    await insertAll(ocpiCpoSessions, sessionRows);
    const ids = (await env.DB.prepare("SELECT id FROM ocpi_cpo_sessions WHERE token_uid LIKE ? ORDER BY id").bind(`${mark}%`).all<{ id: number }>()).results;
    await insertAll(
      ocpiCpoCdrs,
      ids.map((s, i) => ({ operatorId, platformId, sessionId: s.id, cdrId: `${mark}-${s.id}`, data: { id: `${mark}-${s.id}` }, currency: "PLN", totalExcl: 100, totalIncl: 123, energyWh: 1000, startAt: new Date(started - i * 1000), createdAt: new Date(at) })),
    );
    for (const path of ["session", "cdr", "token"]) {
      const first = await call("GET", `/ocpi-service/cpo/${path}?platformId=${platformId}&size=100&current=1`, { token: admin });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.data.records).toHaveLength(100);
      expect(first.body.data.total).toBeGreaterThan(100);
      const second = await call("GET", `/ocpi-service/cpo/${path}?platformId=${platformId}&size=100&current=2`, { token: admin });
      expect(second.body.data.records.length).toBe(first.body.data.total - 100);
      // Another operator sees nothing of them.
      const theirs = await call("GET", `/ocpi-service/cpo/${path}?platformId=${platformId}&size=100`, { token: other });
      expect(theirs.body.data.total).toBe(0);
    }
    // The eMSP pulls its sessions and CDRs page by page: 100, then the rest, none twice.
    for (const module of ["sessions", "cdrs"]) {
      const page = await ocpi("GET", `/ocpi/2.2.1/cpo/${module}?offset=0&limit=100`, { token });
      expect(page.body.data, module).toHaveLength(100);
      const total = Number(page.headers.get("X-Total-Count"));
      expect(total).toBeGreaterThanOrEqual(103);
      expect(page.headers.get("Link")).toContain("offset=100");
      const next = await ocpi("GET", `/ocpi/2.2.1/cpo/${module}?offset=100&limit=100`, { token });
      expect(next.body.data, module).toHaveLength(Math.min(100, total - 100));
      const ids = [...page.body.data, ...next.body.data].map((o: { id: string }) => o.id);
      expect(new Set(ids).size, module).toBe(ids.length);
    }

    // The month's settlement for this partner: 103 sessions, 103 kWh, 103 × 1.23 PLN owed.
    const month = new Date(started).toISOString().slice(0, 7);
    const settlement = await call("GET", `/ocpi-service/cpo/settlement?month=${month}`, { token: admin });
    expect(settlement.status, JSON.stringify(settlement.body)).toBe(200);
    const mine = settlement.body.data.partners.find((p: { platformId: number }) => p.platformId === platformId);
    expect(mine).toMatchObject({ currency: "PLN", sessions: 103, energyWh: 103_000, owed: 12_669, owedExcl: 10_300 });
    expect((await call("GET", "/ocpi-service/cpo/settlement?month=2026-13", { token: admin })).status).toBe(400);
    // Without a month, the current one in the operator's zone (Warsaw's, an hour or two ahead of UTC).
    const current = await call("GET", "/ocpi-service/cpo/settlement", { token: admin });
    expect(current.body.data.month).toBe(presetRange("thisMonth", Date.now(), "Europe/Warsaw").from.slice(0, 7));
    const theirs = await call("GET", `/ocpi-service/cpo/settlement?month=${month}`, { token: other });
    expect(theirs.body.data.partners.find((p: { platformId: number }) => p.platformId === platformId)).toBeUndefined();

    // Another operator's eMSP cannot start at our EVSE, nor read our sessions.
    const theirEmsp = await registeredEmsp(other, { countryCode: "DE", partyId: "EMD" });
    const made = await onlineCharger();
    const foreign = await command(theirEmsp.token, "START_SESSION", {
      response_url: theirEmsp.emsp.responseUrl("START_SESSION"),
      token: tokenObject(theirEmsp.emsp, uid(), "ALLOWED"),
      location_id: String(made.stationId),
      evse_uid: made.evseUid(1),
    });
    expect(foreign.body.data.result).toBe("REJECTED");
    expect((await ocpi("GET", "/ocpi/2.2.1/cpo/sessions", { token: theirEmsp.token })).body.data).toEqual([]);
    void emsp;
    made.charger.close();
  }, 90_000);

  it("lists the commands partners sent, at size 100 with more than 100 rows, filtered by command, and keeps each operator's to itself", async () => {
    const { id: platformId } = await registeredEmsp(admin);
    const operatorId = await operatorIdOf("0PL002");
    const at = Date.now();
    await insertAll(
      ocpiCpoCommands,
      Array.from({ length: 104 }, (_, i) => ({
        operatorId,
        platformId,
        command: i % 2 ? "START_SESSION" : "RESERVE_NOW",
        responseUrl: `https://emsp.example/results/${i}`,
        request: { location_id: "7", evse_uid: "7*1", token: { uid: `CMD${i}` }, ...(i % 2 ? {} : { reservation_id: `RES${i}` }) },
        response: "ACCEPTED",
        result: i === 0 ? null : "ACCEPTED",
        resultAt: i === 0 ? null : new Date(at + i),
        createdAt: new Date(at + i),
      })),
    );
    const first = await call("GET", `/ocpi-service/cpo/command?platformId=${platformId}&size=100&current=1`, { token: admin });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ total: 104, size: 100, current: 1 });
    expect(first.body.data.records).toHaveLength(100);
    // Newest first, with what was asked, our answer and the charger's result.
    expect(first.body.data.records[0]).toMatchObject({ platformId, command: "START_SESSION", tokenUid: "CMD103", reservationId: null, response: "ACCEPTED", result: "ACCEPTED" });
    expect(first.body.data.records[1]).toMatchObject({ command: "RESERVE_NOW", tokenUid: "CMD102", reservationId: "RES102", locationId: "7", evseUid: "7*1" });
    const second = await call("GET", `/ocpi-service/cpo/command?platformId=${platformId}&size=100&current=2`, { token: admin });
    expect(second.body.data.records).toHaveLength(4);
    expect(second.body.data.records.at(-1)).toMatchObject({ tokenUid: "CMD0", result: null });
    const starts = await call("GET", `/ocpi-service/cpo/command?platformId=${platformId}&command=START_SESSION&size=100`, { token: admin });
    expect(starts.body.data.total).toBe(52);
    const bad = await call("GET", "/ocpi-service/cpo/command?command=DANCE", { token: admin });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("Choose a command from the list");
    expect((await call("GET", `/ocpi-service/cpo/command?platformId=${platformId}&size=100`, { token: other })).body.data.total).toBe(0);
  }, 60_000);
});
