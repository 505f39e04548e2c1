import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import enForms from "../../domain/i18n/locales/en/forms-help.json";
import en from "../../domain/i18n/locales/en/ocpi.json";
import { utcToZoned } from "../../domain/time";
import { registerPlatform, unregisterPlatform } from "../../workers/services/ocpi/platforms";
import { ocpiLocation as location, ocpiSession } from "../support/ocpi-objects";
import { makeCardRow, makeCustomerRow, operatorIdOf } from "./support/driver-rows";
import { fakeCpo, fakeCpos, ocpi } from "./support/fake-cpo";
import { routeFetchTo } from "./support/fake-cpo-senders";
import { tokenWithMenus } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";
import { addPlatform, cdrFor, registeredCpo as registered, setIdentity, userCtx } from "./support/ocpi-partner";

/** OCPI 2.2.1 as an eMSP, on the wire (docs/rules/ocpi.md). */
let admin: string;
let other: string;

/** A CPO registered with the demo operator by our handshake; answers it and the token it uses with us. */
const registeredCpo = (role: "CPO" | "HUB" = "CPO") => registered(admin, role);

beforeAll(async () => {
  // The queue's deliveries (a hub's parties pulled after its handshake) reach the fake partners.
  vi.stubGlobal("fetch", routeFetchTo(fakeCpos, globalThis.fetch));
  admin = await tokenFor("0PL002", "demoadmin");
  other = await tokenFor("0DE001", "deadmin1");
  await setIdentity("0PL002", { countryCode: "PL", partyId: "PLG" });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await setIdentity("0PL002", { countryCode: null, partyId: null });
});

describe("registration we start (OCPI 2.2.1 §7)", () => {
  it("reads the CPO's versions with its token A, posts our credentials with a token B and keeps its token C", async () => {
    const cpo = fakeCpo();
    const id = await addPlatform(admin, cpo);
    const done = await registerPlatform(await userCtx(admin), id, cpo.handler);
    expect(done).toMatchObject({ registerStatus: "Registered", version: "2.2.1", partnerCountryCode: "DE", partnerPartyId: "CPO", hasToken: true });
    expect(done.endpoints.map((e) => `${e.identifier}:${e.role}`)).toContain("locations:SENDER");
    const post = cpo.state.received.find((r) => r.method === "POST")!;
    expect(post.authorization).toBe(`Token ${btoa(cpo.state.tokenA)}`);
    expect(post.headers.get("OCPI-from-country-code")).toBe("PL");
    expect(post.body).toMatchObject({ url: `${ORIGIN}/ocpi/versions`, roles: [{ role: "EMSP", country_code: "PL", party_id: "PLG" }] });
    // The CPO now reaches us with token B, base64 as 2.2.1 sends it, or plain as 2.1.1 did.
    const versions = await ocpi("GET", "/ocpi/versions", { token: cpo.state.ourToken, headers: { "X-Request-ID": "req-1", "X-Correlation-ID": "cor-1" } });
    expect(versions.status).toBe(200);
    expect(versions.body).toMatchObject({ status_code: 1000, data: [{ version: "2.2.1", url: `${ORIGIN}/ocpi/2.2.1` }] });
    expect(versions.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(versions.headers.get("X-Request-ID")).toBe("req-1");
    expect(versions.headers.get("X-Correlation-ID")).toBe("cor-1");
    expect((await ocpi("GET", "/ocpi/2.2.1", { token: cpo.state.ourToken, plain: true })).body.data.endpoints).toContainEqual({
      identifier: "tokens",
      role: "SENDER",
      url: `${ORIGIN}/ocpi/2.2.1/tokens`,
    });
    // Later calls to the CPO use its token C.
    const unregistered = await unregisterPlatform(await userCtx(admin), id, cpo.handler);
    expect(unregistered).toMatchObject({ registerStatus: "Unregistered", partnerError: null });
    expect(cpo.state.received.at(-1)).toMatchObject({ method: "DELETE", authorization: `Token ${btoa(cpo.state.tokenC)}` });
    expect((await ocpi("GET", "/ocpi/versions", { token: cpo.state.ourToken })).status).toBe(401);
  });

  it("needs the token and versions URL first, and records the partner's reason when it refuses", async () => {
    const bare = await addPlatform(admin);
    const first = await call("PUT", `/ocpi-service/platform/${bare}/register`, { token: admin });
    expect(first.status).toBe(409);
    expect(first.body.msg).toBe(en.ocpi.errors.tokenAndUrlFirst);
    const cpo = fakeCpo();
    const id = await addPlatform(admin, cpo);
    cpo.state.refuse = { status: 400, code: 2001, message: "party PLG unknown" };
    await expect(registerPlatform(await userCtx(admin), id, cpo.handler)).rejects.toMatchObject({ status: 409, key: "ocpi.errors.registerFailed" });
    const after = await call("GET", `/ocpi-service/platform/${id}`, { token: admin });
    expect(after.body.data).toMatchObject({ registerStatus: "Unregistered", ourCountryCode: "PL", ourPartyId: "PLG" });
    expect(after.body.data.lastError).toContain("2001 party PLG unknown");
    const old = fakeCpo({ versions: ["2.1.1"] });
    const oldId = await addPlatform(admin, old);
    await expect(registerPlatform(await userCtx(admin), oldId, old.handler)).rejects.toMatchObject({ key: "ocpi.errors.registerFailed" });
    expect((await call("GET", `/ocpi-service/platform/${oldId}`, { token: admin })).body.data.lastError).toContain("no version 2.2.1");
  });

  it("never sends a partner's token to another versions URL: a new URL without a token clears it", async () => {
    const cpo = fakeCpo();
    const id = await addPlatform(admin, cpo);
    const elsewhere = fakeCpo();
    const moved = await call("PUT", `/ocpi-service/platform/${id}`, { token: admin, body: { name: "Moved", versionsUrl: elsewhere.versionsUrl } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ versionsUrl: elsewhere.versionsUrl, hasToken: false });
    await expect(registerPlatform(await userCtx(admin), id, elsewhere.handler)).rejects.toMatchObject({ status: 409, key: "ocpi.errors.tokenAndUrlFirst" });
    expect(elsewhere.state.received).toEqual([]);
    // Renaming keeps it; a new URL with its token entered in the same request keeps the new one.
    const again = await call("PUT", `/ocpi-service/platform/${id}`, { token: admin, body: { name: "Moved", versionsUrl: elsewhere.versionsUrl, token: elsewhere.state.tokenA } });
    expect(again.body.data.hasToken).toBe(true);
    expect((await call("PUT", `/ocpi-service/platform/${id}`, { token: admin, body: { name: "Renamed", versionsUrl: elsewhere.versionsUrl } })).body.data.hasToken).toBe(true);
    await registerPlatform(await userCtx(admin), id, elsewhere.handler);
    expect(elsewhere.state.received[0].authorization).toBe(`Token ${btoa(elsewhere.state.tokenA)}`);
    expect(cpo.state.received).toEqual([]);
  });
});

describe("registration the CPO starts with a token A we issued", () => {
  it("admits token A only to the handshake, answers a new token, rotates it on PUT and drops it on DELETE", async () => {
    const id = await addPlatform(admin);
    const issued = await call("PUT", `/ocpi-service/platform/${id}/token`, { token: admin });
    expect(issued.body.data.versionsUrl).toBe(`${ORIGIN}/ocpi/versions`);
    const tokenA = issued.body.data.token as string;
    const cpo = fakeCpo();
    // The CPO's own token for us to use is the one its versions accept.
    const theirs = { token: cpo.state.tokenA, url: cpo.versionsUrl, roles: [{ role: "CPO", business_details: { name: "Fake" }, party_id: "CPO", country_code: "DE" }] };
    expect((await ocpi("GET", "/ocpi/versions", { token: tokenA })).status).toBe(200);
    expect((await ocpi("GET", "/ocpi/2.2.1/locations/DE/CPO/L1", { token: tokenA })).status).toBe(401);
    expect((await ocpi("PUT", "/ocpi/2.2.1/credentials", { token: tokenA, body: theirs, send: cpo.handler })).status).toBe(405);
    const bad = await ocpi("POST", "/ocpi/2.2.1/credentials", { token: tokenA, body: { ...theirs, roles: [] }, send: cpo.handler });
    expect(bad.body.status_code).toBe(2001);
    const posted = await ocpi("POST", "/ocpi/2.2.1/credentials", { token: tokenA, body: theirs, send: cpo.handler });
    expect(posted.status).toBe(200);
    expect(posted.body.data).toMatchObject({ url: `${ORIGIN}/ocpi/versions`, roles: [{ role: "EMSP", country_code: "PL", party_id: "PLG" }] });
    const tokenC = posted.body.data.token as string;
    expect((await ocpi("GET", "/ocpi/versions", { token: tokenA })).status).toBe(401);
    expect((await ocpi("GET", "/ocpi/2.2.1/credentials", { token: tokenC })).body.data.token).toBe(tokenC);
    expect((await ocpi("POST", "/ocpi/2.2.1/credentials", { token: tokenC, body: theirs, send: cpo.handler })).status).toBe(405);
    const put = await ocpi("PUT", "/ocpi/2.2.1/credentials", { token: tokenC, body: theirs, send: cpo.handler });
    const rotated = put.body.data.token as string;
    expect(rotated).not.toBe(tokenC);
    expect((await ocpi("GET", "/ocpi/versions", { token: tokenC })).status).toBe(401);
    const platform = await call("GET", `/ocpi-service/platform/${id}`, { token: admin });
    expect(platform.body.data).toMatchObject({ registerStatus: "Registered", partnerCountryCode: "DE", versionsUrl: cpo.versionsUrl });
    expect((await ocpi("DELETE", "/ocpi/2.2.1/credentials", { token: rotated })).body.status_code).toBe(1000);
    expect((await ocpi("GET", "/ocpi/versions", { token: rotated })).status).toBe(401);
    expect((await call("GET", `/ocpi-service/platform/${id}`, { token: admin })).body.data.registerStatus).toBe("Unregistered");
  });

  it("answers a missing or unknown token with 401 and status 2000 in the envelope", async () => {
    for (const token of [undefined, "no-such-token"]) {
      const res = await ocpi("GET", "/ocpi/versions", { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status_code: 2000 });
      expect(res.body.timestamp).toBeDefined();
    }
  });
});

describe("receivers: locations, sessions, CDRs, tariffs", () => {
  it("stores a pushed location, merges PATCHes, keeps a newer one over a stale update, and refuses bad objects with 2001", async () => {
    const { token, id } = await registeredCpo();
    const lid = `L${Date.now()}`;
    const url = `/ocpi/2.2.1/locations/DE/CPO/${lid}`;
    const bad = await ocpi("PUT", url, { token, body: { ...location(lid), city: undefined } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status_code: 2001 });
    expect(bad.body.status_message).toContain("city");
    expect((await ocpi("GET", url, { token })).body.status_code).toBe(2003);
    expect((await ocpi("PUT", `${url}/E1`, { token, body: location(lid).evses[0] })).body.status_code).toBe(2003);
    expect((await ocpi("PUT", `/ocpi/2.2.1/locations/DE/CPO/other`, { token, body: location(lid) })).body.status_code).toBe(2001);
    expect((await ocpi("PUT", `/ocpi/2.2.1/locations/NL/XYZ/${lid}`, { token, body: location(lid, { country_code: "NL", party_id: "XYZ" }) })).body.status_code).toBe(2001);
    expect((await ocpi("PUT", url, { token, body: location(lid) })).body.status_code).toBe(1000);
    const patched = await ocpi("PATCH", `${url}/E1`, { token, body: { status: "CHARGING", last_updated: "2026-05-01T11:00:00Z" } });
    expect(patched.body).toMatchObject({ status_code: 1000 });
    expect(patched.body.status_message).toBeUndefined();
    const connector = await ocpi("PATCH", `${url}/E1/1`, { token, body: { max_amperage: 16, last_updated: "2026-05-01T11:30:00Z" } });
    expect(connector.body.status_code).toBe(1000);
    const stale = await ocpi("PATCH", `${url}/E1`, { token, body: { status: "OUTOFORDER", last_updated: "2026-05-01T09:00:00Z" } });
    expect(stale.body.status_message).toContain("newer");
    const invalidPatch = await ocpi("PATCH", `${url}/E1`, { token, body: { status: "BROKEN", last_updated: "2026-05-01T12:00:00Z" } });
    expect(invalidPatch.body.status_code).toBe(2001);
    const stored = await ocpi("GET", url, { token });
    expect(stored.body.data.evses[0]).toMatchObject({ status: "CHARGING", connectors: [{ max_amperage: 16 }] });
    expect(stored.body.data.last_updated).toBe("2026-05-01T11:30:00Z");
    const olderPut = await ocpi("PUT", url, { token, body: location(lid, { name: "Old", last_updated: "2026-04-01T00:00:00Z" }) });
    expect(olderPut.body.status_message).toContain("newer");
    const list = await call("GET", `/ocpi-service/location?platformId=${id}&q=${lid}`, { token: admin });
    expect(list.body.data.records).toMatchObject([{ locationId: lid, name: "Hauptbahnhof", city: "Berlin", countryCode: "DE", partyId: "CPO", platformId: id }]);
    expect((await call("GET", `/ocpi-service/location?platformId=${id}`, { token: other })).body.data.total).toBe(0);
  });

  it("keeps sessions with PATCHes, gives a posted CDR a URL the CPO can GET, and tariffs come and go", async () => {
    const { token, id } = await registeredCpo();
    const sid = `S${Date.now()}`;
    const session = ocpiSession(sid);
    expect((await ocpi("PUT", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token, body: { ...session, kwh: "lots" } })).body.status_code).toBe(2001);
    expect((await ocpi("PUT", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token, body: session })).body.status_code).toBe(1000);
    const patch = { kwh: 12.5, status: "COMPLETED", end_date_time: "2026-05-02T09:00:00Z", total_cost: { excl_vat: 5.1, incl_vat: 6.07 }, last_updated: "2026-05-02T09:00:00Z" };
    expect((await ocpi("PATCH", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token, body: patch })).body.status_code).toBe(1000);
    expect((await ocpi("PATCH", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token, body: { kwh: 1 } })).body.status_code).toBe(2001);
    const cdr = cdrFor("CARD1", { id: `CDR${sid}`, session_id: sid, cdr_token: session.cdr_token, currency: "EUR", total_cost: { excl_vat: 5.1, incl_vat: 6.07 } });
    const posted = await ocpi("POST", "/ocpi/2.2.1/cdrs", { token, body: cdr });
    expect(posted.status).toBe(201);
    const where = posted.headers.get("Location")!;
    expect(where).toMatch(new RegExp(`^${ORIGIN}/ocpi/2.2.1/cdrs/\\d+$`));
    expect((await ocpi("GET", new URL(where).pathname, { token })).body.data).toMatchObject({ id: `CDR${sid}`, total_energy: 12.5 });
    expect((await ocpi("POST", "/ocpi/2.2.1/cdrs", { token, body: { ...cdr, total_cost: undefined, id: "X" } })).body.status_code).toBe(2001);
    const sessions = await call("GET", `/ocpi-service/session?platformId=${id}&status=COMPLETED`, { token: admin });
    expect(sessions.body.data.records).toMatchObject([{ sessionId: sid, uid: "CARD1", kwh: "12.5", totalCost: "6.07", currency: "EUR", cdrId: `CDR${sid}`, stopTime: "2026-05-02T09:00:00.000Z" }]);
    expect((await call("GET", `/ocpi-service/cdr?platformId=${id}`, { token: admin })).body.data.records).toMatchObject([{ cdrId: `CDR${sid}`, sessionId: sid }]);
    const tariff = {
      country_code: "DE",
      party_id: "CPO",
      id: "T1",
      currency: "EUR",
      elements: [{ price_components: [{ type: "ENERGY", price: 0.45, vat: 19, step_size: 1 }] }],
      last_updated: "2026-05-01T00:00:00Z",
    };
    expect((await ocpi("PUT", "/ocpi/2.2.1/tariffs/DE/CPO/T1", { token, body: { ...tariff, elements: [] } })).body.status_code).toBe(2001);
    expect((await ocpi("PUT", "/ocpi/2.2.1/tariffs/DE/CPO/T1", { token, body: tariff })).body.status_code).toBe(1000);
    expect((await call("GET", `/ocpi-service/tariff?platformId=${id}`, { token: admin })).body.data.records).toMatchObject([{ tariffId: "T1", currency: "EUR" }]);
    expect((await ocpi("DELETE", "/ocpi/2.2.1/tariffs/DE/CPO/T1", { token })).body.status_code).toBe(1000);
    expect((await ocpi("GET", "/ocpi/2.2.1/tariffs/DE/CPO/T1", { token })).status).toBe(404);
  });
});

describe("hubclientinfo", () => {
  it("takes the parties behind a hub, so the hub may push for them, and is offered to hubs only", async () => {
    const { token, id } = await registeredCpo("HUB");
    const details = await ocpi("GET", "/ocpi/2.2.1", { token });
    expect(details.body.data.endpoints).toContainEqual({ identifier: "hubclientinfo", role: "RECEIVER", url: `${ORIGIN}/ocpi/2.2.1/hubclientinfo` });
    const lid = `H${Date.now()}`;
    const behind = location(lid, { country_code: "NL", party_id: "ABC" });
    expect((await ocpi("PUT", `/ocpi/2.2.1/locations/NL/ABC/${lid}`, { token, body: behind })).body.status_code).toBe(2001);
    const info = { party_id: "ABC", country_code: "NL", role: "CPO", status: "CONNECTED", last_updated: "2026-05-01T00:00:00Z" };
    expect((await ocpi("PUT", "/ocpi/2.2.1/hubclientinfo/NL/ABC", { token, body: { ...info, status: "GONE" } })).body.status_code).toBe(2001);
    expect((await ocpi("PUT", "/ocpi/2.2.1/hubclientinfo/NL/ABC", { token, body: info })).body.status_code).toBe(1000);
    expect((await ocpi("PUT", `/ocpi/2.2.1/locations/NL/ABC/${lid}`, { token, body: behind })).body.status_code).toBe(1000);
    const stale = await ocpi("PUT", "/ocpi/2.2.1/hubclientinfo/NL/ABC", { token, body: { ...info, status: "OFFLINE", last_updated: "2026-04-01T00:00:00Z" } });
    expect(stale.body.status_message).toContain("newer");
    expect((await ocpi("GET", "/ocpi/2.2.1/hubclientinfo/NL/ABC", { token })).body.data).toMatchObject({ status: "CONNECTED", role: "CPO" });
    const parties = await call("GET", `/ocpi-service/party?platformId=${id}&status=CPO`, { token: admin });
    expect(parties.body.data.records).toMatchObject([{ countryCode: "NL", partyId: "ABC", status: "CONNECTED" }]);
    const direct = await registeredCpo();
    expect((await ocpi("GET", "/ocpi/2.2.1", { token: direct.token })).body.data.endpoints.map((e: { identifier: string }) => e.identifier)).not.toContain("hubclientinfo");
    expect((await ocpi("PUT", "/ocpi/2.2.1/hubclientinfo/NL/ABC", { token: direct.token, body: info })).status).toBe(404);
  });
});

describe("fields 2.2.1 does not define (OCPI 2.3.0 §4.1.8)", () => {
  it("registers with a hub whose credentials carry 2.1.1's party_id, country_code and business_details, and takes them from a partner that registers", async () => {
    const hub = fakeCpo({ role: "HUB", legacy: true });
    const id = await addPlatform(admin, hub);
    expect(await registerPlatform(await userCtx(admin), id, hub.handler)).toMatchObject({ registerStatus: "Registered", partnerCountryCode: "DE", partnerPartyId: "CPO" });
    const issued = await call("PUT", `/ocpi-service/platform/${await addPlatform(admin)}/token`, { token: admin });
    const cpo = fakeCpo();
    const theirs = {
      token: cpo.state.tokenA,
      url: cpo.versionsUrl,
      roles: [{ role: "CPO", business_details: { name: "Fake", x_brand: "F" }, party_id: "CPO", country_code: "DE", x_region: "north" }],
      party_id: "CPO",
      country_code: "DE",
      business_details: { name: "Fake" },
    };
    const posted = await ocpi("POST", "/ocpi/2.2.1/credentials", { token: issued.body.data.token, body: theirs, send: cpo.handler });
    expect(posted.body.status_code).toBe(1000);
    // A field 2.2.1 defines is still checked, and its roles still required (2.1.1 had none to derive one from).
    const another = await call("PUT", `/ocpi-service/platform/${await addPlatform(admin)}/token`, { token: admin });
    const noRoles = await ocpi("POST", "/ocpi/2.2.1/credentials", { token: another.body.data.token, body: { ...theirs, roles: undefined }, send: cpo.handler });
    expect(noRoles.body).toMatchObject({ status_code: 2001, status_message: expect.stringContaining("roles") });
  });

  it("keeps unknown fields of locations, sessions, CDRs and tariffs at any depth, and still refuses a bad defined field", async () => {
    const { token } = await registeredCpo();
    const lid = `X${Date.now()}`;
    const url = `/ocpi/2.2.1/locations/DE/CPO/${lid}`;
    const base = location(lid);
    const evse = { ...base.evses[0], x_parking_fee: true, connectors: [{ ...base.evses[0].connectors[0], x_cable_length: 5 }] };
    const body = { ...base, evses: [evse], coordinates: { ...base.coordinates, x_accuracy: 3 }, x_operator_ref: "A-1", help_phone: "+49 30 1234" };
    expect((await ocpi("PUT", url, { token, body })).body.status_code).toBe(1000);
    const patch = await ocpi("PATCH", `${url}/E1`, { token, body: { status: "CHARGING", x_since: "today", last_updated: "2026-05-01T11:00:00Z" } });
    expect(patch.body.status_code).toBe(1000);
    const stored = (await ocpi("GET", url, { token })).body.data;
    expect(stored).toMatchObject({ x_operator_ref: "A-1", help_phone: "+49 30 1234", coordinates: { x_accuracy: 3 } });
    expect(stored.evses[0]).toMatchObject({ status: "CHARGING", x_parking_fee: true, x_since: "today", connectors: [{ x_cable_length: 5 }] });
    const bad = await ocpi("PUT", url, { token, body: { ...body, evses: [{ ...evse, status: "BROKEN" }], last_updated: "2026-05-02T00:00:00Z" } });
    expect(bad.body).toMatchObject({ status_code: 2001, status_message: expect.stringContaining("evses.0.status") });

    const sid = `XS${Date.now()}`;
    const plain = ocpiSession(sid, { location_id: lid });
    const session = { ...plain, cdr_token: { ...plain.cdr_token, x_visual: "1234" }, x_vehicle: { make: "EV" } };
    expect((await ocpi("PUT", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token, body: session })).body.status_code).toBe(1000);
    expect((await ocpi("GET", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token })).body.data).toMatchObject({ x_vehicle: { make: "EV" }, cdr_token: { x_visual: "1234" } });
    expect((await ocpi("PUT", `/ocpi/2.2.1/sessions/DE/CPO/${sid}`, { token, body: { ...session, cdr_token: { ...session.cdr_token, type: "CARD" } } })).body.status_code).toBe(2001);

    const base2 = cdrFor("CARD1", { id: `XC${Date.now()}`, session_id: sid, currency: "EUR" });
    const cdr = {
      ...base2,
      cdr_location: { ...base2.cdr_location, x_site: "S1" },
      charging_periods: [{ start_date_time: "2026-05-02T08:00:00Z", dimensions: [{ type: "ENERGY", volume: 12.5, x_meter: "M1" }], x_phase: 3 }],
      x_roaming_ref: "R-9",
    };
    const posted = await ocpi("POST", "/ocpi/2.2.1/cdrs", { token, body: cdr });
    expect(posted.status).toBe(201);
    const gotCdr = (await ocpi("GET", new URL(posted.headers.get("Location")!).pathname, { token })).body.data;
    expect(gotCdr).toMatchObject({ x_roaming_ref: "R-9", cdr_location: { x_site: "S1" }, charging_periods: [{ x_phase: 3, dimensions: [{ x_meter: "M1" }] }] });

    const tariff = {
      country_code: "DE",
      party_id: "CPO",
      id: `XT${Date.now()}`,
      currency: "EUR",
      elements: [{ price_components: [{ type: "ENERGY", price: 0.45, vat: 19, step_size: 1, x_rounding: "UP" }], x_label: "day" }],
      last_updated: "2026-05-01T00:00:00Z",
      x_tariff_group: 7,
    };
    expect((await ocpi("PUT", `/ocpi/2.2.1/tariffs/DE/CPO/${tariff.id}`, { token, body: tariff })).body.status_code).toBe(1000);
    expect((await ocpi("GET", `/ocpi/2.2.1/tariffs/DE/CPO/${tariff.id}`, { token })).body.data).toMatchObject({
      x_tariff_group: 7,
      elements: [{ x_label: "day", price_components: [{ x_rounding: "UP" }] }],
    });
  });

  it("takes a hub's client info with fields it does not define", async () => {
    const { token } = await registeredCpo("HUB");
    const info = { party_id: "XYZ", country_code: "NL", role: "CPO", status: "CONNECTED", last_updated: "2026-05-01T00:00:00Z", x_business_details: { name: "XYZ BV" } };
    expect((await ocpi("PUT", "/ocpi/2.2.1/hubclientinfo/NL/XYZ", { token, body: info })).body.status_code).toBe(1000);
    expect((await ocpi("PUT", "/ocpi/2.2.1/hubclientinfo/NL/XYZ", { token, body: { ...info, role: "DRIVER" } })).body.status_code).toBe(2001);
  });
});

describe("an unregistered token before the body", () => {
  it("answers an unknown token, or a token A outside the handshake, with 401 and 2000 whatever the body", async () => {
    const { token } = await registeredCpo();
    const issued = await call("PUT", `/ocpi-service/platform/${await addPlatform(admin)}/token`, { token: admin });
    for (const who of ["no-such-token", issued.body.data.token as string]) {
      for (const [method, path] of [
        ["PUT", "/ocpi/2.2.1/locations/DE/CPO/L1"],
        ["PUT", "/ocpi/2.2.1/sessions/DE/CPO/S1"],
        ["POST", "/ocpi/2.2.1/cdrs"],
        ["PUT", "/ocpi/2.2.1/tariffs/DE/CPO/T1"],
        ["POST", "/ocpi/2.2.1/tokens/CARD1/authorize"],
      ]) {
        for (const body of [{ raw: "{not json" }, { body: { id: 1 } }]) {
          const res = await ocpi(method, path, { token: who, ...body });
          expect([method, path, res.status, res.body?.status_code]).toEqual([method, path, 401, 2000]);
        }
      }
    }
    // A registered partner's bad body is still a bad body.
    expect((await ocpi("PUT", "/ocpi/2.2.1/locations/DE/CPO/L1", { token, raw: "{not json" })).body.status_code).toBe(2001);
  });
});

describe("tokens: we are the sender", () => {
  it("pages our tokens with Link, X-Total-Count and X-Limit, within date_from and date_to", async () => {
    const { token } = await registeredCpo();
    const stamp = Date.parse("2031-01-01T00:00:00Z");
    for (let i = 0; i < 150; i++) await makeCardRow("0PL002", null, { updatedAt: new Date(stamp + i * 1000) });
    await makeCardRow("0DE001", null, { updatedAt: new Date(stamp + 5000) });
    const seen: string[] = [];
    let next: string | null = "/ocpi/2.2.1/tokens?date_from=2031-01-01T00:00:00Z&date_to=2031-01-02T00:00:00Z&limit=50";
    let pages = 0;
    while (next) {
      const page = await ocpi("GET", next, { token });
      expect(page.body.status_code).toBe(1000);
      expect(page.headers.get("X-Total-Count")).toBe("150");
      expect(page.headers.get("X-Limit")).toBe("50");
      seen.push(...page.body.data.map((t: any) => t.uid));
      expect(page.body.data[0]).toMatchObject({ country_code: "PL", party_id: "PLG", type: "RFID", whitelist: "ALWAYS", valid: false });
      const link = page.headers.get("Link");
      next = link ? new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]).pathname + new URL(/^<([^>]+)>/.exec(link)![1]).search : null;
      pages++;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(150);
    const capped = await ocpi("GET", "/ocpi/2.2.1/tokens?date_from=2031-01-01T00:00:00Z&limit=1000", { token });
    expect(capped.headers.get("X-Limit")).toBe("100");
    expect(capped.body.data).toHaveLength(100);
    expect((await ocpi("GET", "/ocpi/2.2.1/tokens?offset=-1", { token })).body.status_code).toBe(2001);
    expect((await ocpi("GET", "/ocpi/2.2.1/tokens?date_from=yesterday", { token })).status).toBe(400);
  });

  it("authorizes in real time from the registry: ALLOWED, BLOCKED, EXPIRED, NOT_ALLOWED, and 2004 for an unknown token", async () => {
    const { token } = await registeredCpo();
    const driver = await makeCustomerRow("0PL002");
    const limited = await makeCustomerRow("0PL002", { chargeAllPoint: false });
    const valid = await makeCardRow("0PL002", driver.id);
    const blocked = await makeCardRow("0PL002", driver.id, { status: "BLOCKED" });
    const expired = await makeCardRow("0PL002", driver.id, { expiryDate: new Date(Date.now() - 60_000) });
    const elsewhere = await makeCardRow("0PL002", limited.id);
    const foreign = await makeCardRow("0DE001", null);
    const ask = (uid: string, body?: unknown) => ocpi("POST", `/ocpi/2.2.1/tokens/${uid}/authorize?type=RFID`, { token, body });
    const allowed = await ask(valid.idTag, { location_id: "L1", evse_uids: ["E1"] });
    expect(allowed.body.data).toMatchObject({ allowed: "ALLOWED", token: { uid: valid.idTag, valid: true }, location: { location_id: "L1" } });
    expect(allowed.body.data.authorization_reference).toMatch(/^[0-9a-f-]{36}$/);
    expect((await ask(blocked.idTag)).body.data.allowed).toBe("BLOCKED");
    expect((await ask(expired.idTag)).body.data.allowed).toBe("EXPIRED");
    expect((await ask(elsewhere.idTag)).body.data.allowed).toBe("NOT_ALLOWED");
    for (const uid of ["NO-SUCH-CARD", foreign.idTag]) {
      const unknown = await ask(uid);
      expect(unknown.status).toBe(404);
      expect(unknown.body.status_code).toBe(2004);
    }
    expect((await ocpi("POST", `/ocpi/2.2.1/tokens/${valid.idTag}/authorize?type=APP_USER`, { token })).body.status_code).toBe(2004);
    expect((await ask(valid.idTag, { evse_uids: ["E1"] })).body.status_code).toBe(2001);
  });
});

describe("the console's platforms", () => {
  it("hides one operator's platforms from another (404) and refuses an account without the menu (403)", async () => {
    const id = await addPlatform(admin);
    for (const [method, path] of [
      ["GET", `/ocpi-service/platform/${id}`],
      ["PUT", `/ocpi-service/platform/${id}/register`],
      ["PUT", `/ocpi-service/platform/${id}/token`],
      ["DELETE", `/ocpi-service/platform/${id}`],
    ]) {
      expect((await call(method, path, { token: other })).status).toBe(404);
    }
    expect((await call("PUT", `/ocpi-service/platform/${id}`, { token: other, body: { name: "Mine" } })).status).toBe(404);
    expect((await call("GET", "/ocpi-service/platform?size=100", { token: other })).body.data.records.map((r: any) => r.id)).not.toContain(id);
    const without = await tokenWithMenus(admin, ["home"]);
    expect((await call("GET", "/ocpi-service/platform", { token: without })).status).toBe(403);
    expect((await call("POST", "/ocpi-service/platform", { token: without, body: { name: "x" } })).status).toBe(403);
    const invalid = await call("POST", "/ocpi-service/platform", { token: admin, body: { name: "", versionsUrl: "ftp://x" } });
    expect(invalid.status).toBe(400);
    // An empty name says what is missing, not its length (docs/rules/console.md "Forms").
    expect(invalid.body.data.fields).toMatchObject({ name: enForms.formsHelp.validation.name, versionsUrl: en.ocpi.validation.versionsUrl });
  });

  it("keeps a registered platform's URL and token fixed, deletes only unregistered ones, and never answers the token", async () => {
    const { id } = await registeredCpo();
    const got = await call("GET", `/ocpi-service/platform/${id}`, { token: admin });
    expect(JSON.stringify(got.body.data)).not.toContain("cpo-");
    expect((await call("PUT", `/ocpi-service/platform/${id}`, { token: admin, body: { name: "Renamed", versionsUrl: got.body.data.versionsUrl, token: "new" } })).status).toBe(409);
    expect((await call("PUT", `/ocpi-service/platform/${id}`, { token: admin, body: { name: "Renamed", versionsUrl: got.body.data.versionsUrl } })).status).toBe(200);
    const refused = await call("DELETE", `/ocpi-service/platform/${id}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(en.ocpi.errors.unregisterFirst);
    const parties = await call("GET", `/ocpi-service/party?platformId=${id}`, { token: admin });
    expect(parties.body.data.records).toMatchObject([{ countryCode: "DE", partyId: "CPO", role: "CPO", status: "CONNECTED" }]);
  });

  it("pages what partners sent at page size 100 with more than 100 rows, by time in the operator's zone", async () => {
    const id = await addPlatform(admin);
    const operatorId = await operatorIdOf("0PL002");
    const base = Date.parse("2032-03-01T00:00:00Z");
    const insert = env.DB.prepare(
      "INSERT INTO ocpi_sessions (operator_id, platform_id, country_code, party_id, session_id, status, token_uid, location_id, start_at, kwh, currency, data, last_updated, received_at) VALUES (?, ?, 'DE', 'CPO', ?, 'ACTIVE', 'CARD1', 'L1', ?, '1', 'EUR', '{}', ?, ?)",
    );
    await env.DB.batch(Array.from({ length: 150 }, (_, i) => insert.bind(operatorId, id, `P${i}`, base + i * 60_000, base, base)));
    const first = await call("GET", `/ocpi-service/session?platformId=${id}&size=100&current=1`, { token: admin });
    expect(first.body.data.total).toBe(150);
    expect(first.body.data.records).toHaveLength(100);
    expect(first.body.data.records[0].sessionId).toBe("P149");
    expect((await call("GET", `/ocpi-service/session?platformId=${id}&size=100&current=2`, { token: admin })).body.data.records).toHaveLength(50);
    // An instant with its offset, and the same window as the console's datetime-local field writes it.
    const window = await call("GET", `/ocpi-service/session?platformId=${id}&from=2032-03-01T00:10:00Z&to=2032-03-01T00:19:00Z`, { token: admin });
    expect(window.body.data.total).toBe(10);
    const { time_zone: zone } = (await env.DB.prepare("SELECT time_zone FROM parameter_settings WHERE operator_id = ?").bind(operatorId).first<{ time_zone: string }>())!;
    const local = `from=${utcToZoned(base + 600_000, zone)}&to=${utcToZoned(base + 1_140_000, zone)}`;
    expect((await call("GET", `/ocpi-service/session?platformId=${id}&${local}`, { token: admin })).body.data.total).toBe(10);
    const bad = await call("GET", `/ocpi-service/session?from=yesterday`, { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields.from).toBe(en.ocpi.validation.dateTime);
  });

  it("pages our tokens at page size 100 with more than 100, each with its pushes, read in slices", async () => {
    const id = await addPlatform(admin);
    const operatorId = await operatorIdOf("0PL002");
    const customer = await makeCustomerRow("0PL002");
    const ROWS = 120;
    // The newest first: these cards lead the list, card 0 first.
    const cards = [];
    for (let i = 0; i < ROWS; i++) cards.push(await makeCardRow("0PL002", customer.id, { updatedAt: new Date(Date.parse("2041-01-01T00:00:00Z") - i * 60_000) }));
    // Pushes of the first card and of the 95th: the page's pushes are read 85 uids a statement, so they are in two.
    const pushed = [cards[0], cards[94]];
    await env.DB.batch(
      pushed.map((card) =>
        env.DB.prepare("INSERT INTO ocpi_token_pushes (operator_id, platform_id, uid, type, state, attempts, queued_at) VALUES (?, ?, ?, 'RFID', 'SENT', 1, ?)").bind(
          operatorId,
          id,
          card.idTag,
          Date.now(),
        ),
      ),
    );
    const first = await call("GET", "/ocpi-service/token?size=100&current=1", { token: admin });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const records = first.body.data.records as { uid: string; pushes: { platformId: number }[] }[];
    expect(records).toHaveLength(100);
    expect(records.map((r) => r.uid)).toEqual(cards.slice(0, 100).map((c) => c.idTag));
    expect(records.filter((r) => r.pushes.length > 0).map((r) => [r.uid, r.pushes.map((p) => p.platformId)])).toEqual(pushed.map((c) => [c.idTag, [id]]));
    const total = first.body.data.total as number;
    expect(total).toBeGreaterThan(ROWS);
    const second = await call("GET", "/ocpi-service/token?size=100&current=2", { token: admin });
    expect(second.body.data.records).toHaveLength(Math.min(100, total - 100));
    expect(second.body.data.records.slice(0, ROWS - 100).map((r: { uid: string }) => r.uid)).toEqual(cards.slice(100).map((c) => c.idTag));
  });

  it("pages partners' locations, CDRs and tariffs, a platform's parties and the platforms at page size 100 with more than 100 rows", async () => {
    const id = await addPlatform(admin);
    const operatorId = await operatorIdOf("0PL002");
    const at = Date.parse("2033-03-01T00:00:00Z");
    const ROWS = 120;
    const insert = (text: string, row: (i: number) => unknown[]) => env.DB.batch(Array.from({ length: ROWS }, (_, i) => env.DB.prepare(text).bind(...row(i))));
    await insert(
      "INSERT INTO ocpi_locations (operator_id, platform_id, country_code, party_id, location_id, name, city, data, last_updated, received_at) VALUES (?, ?, 'DE', 'CPO', ?, ?, 'Berlin', '{}', ?, ?)",
      (i) => [operatorId, id, `L${i}`, `Location ${i}`, at + i * 60_000, at],
    );
    await insert(
      "INSERT INTO ocpi_cdrs (operator_id, platform_id, country_code, party_id, cdr_id, token_uid, location_id, start_at, end_at, kwh, currency, total_cost, data, last_updated, received_at) VALUES (?, ?, 'DE', 'CPO', ?, 'CARD1', 'L1', ?, ?, '1', 'EUR', '1.00', '{}', ?, ?)",
      (i) => [operatorId, id, `R${i}`, at + i * 60_000, at + i * 60_000 + 30_000, at, at],
    );
    await insert(
      "INSERT INTO ocpi_tariffs (operator_id, platform_id, country_code, party_id, tariff_id, currency, data, last_updated, received_at) VALUES (?, ?, 'DE', 'CPO', ?, 'EUR', '{}', ?, ?)",
      (i) => [operatorId, id, `T${i}`, at + i * 60_000, at],
    );
    await insert("INSERT INTO ocpi_parties (operator_id, platform_id, country_code, party_id, role, last_updated) VALUES (?, ?, 'DE', ?, 'CPO', ?)", (i) => [
      operatorId,
      id,
      `Q${i.toString(36).padStart(2, "0").toUpperCase()}`,
      at,
    ]);
    await insert("INSERT INTO ocpi_platforms (operator_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)", (i) => [operatorId, `Paged platform ${i}`, at, at]);
    const lists: [string, string][] = [
      [`/ocpi-service/location?platformId=${id}`, "locationId"],
      [`/ocpi-service/cdr?platformId=${id}`, "cdrId"],
      [`/ocpi-service/tariff?platformId=${id}`, "tariffId"],
      [`/ocpi-service/party?platformId=${id}`, "partyId"],
      ["/ocpi-service/platform", "id"],
    ];
    for (const [path, key] of lists) {
      const join = path.includes("?") ? "&" : "?";
      const first = await call("GET", `${path}${join}size=100&current=1`, { token: admin });
      expect(first.status, `${path}: ${JSON.stringify(first.body)}`).toBe(200);
      expect(first.body.data.records, path).toHaveLength(100);
      const total = first.body.data.total as number;
      expect(total, path).toBeGreaterThanOrEqual(ROWS);
      const second = await call("GET", `${path}${join}size=100&current=2`, { token: admin });
      expect(second.body.data.records, path).toHaveLength(Math.min(100, total - 100));
      const keys = [...first.body.data.records, ...second.body.data.records].map((r: Record<string, unknown>) => r[key]);
      expect(new Set(keys).size, path).toBe(keys.length);
    }
  });
});

