import { env } from "cloudflare:test";
import { expect } from "vitest";
import { contextFromToken } from "../../../workers/services/context";
import { registerPlatform } from "../../../workers/services/ocpi/platforms";
import { operatorIdOf } from "./driver-rows";
import { fakeCpo } from "./fake-cpo";
import type { fakeEmsp } from "./fake-emsp";
import { call, ORIGIN, testCtx, tokenFor } from "./http";

/**
 * A partner registered with an operator, for the roaming tests (docs/rules/ocpi.md): our OCPI
 * identity in the parameter settings, a platform added through the console's API, and the
 * credentials handshake run against a fake CPO.
 */

/** Our country code, party id and roles on the wire, straight into the settings document. */
export const setIdentity = async (code: string, identity: { countryCode: string | null; partyId: string | null; roles?: ("CPO" | "EMSP")[] }) =>
  env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.ocpi', json(?)) WHERE operator_id = ?")
    .bind(JSON.stringify(identity), await operatorIdOf(code))
    .run();

/** The CPO tests' two operators, both roaming as CPO and eMSP: 0PL002 as PL*PLC, 0DE001 as DE*DEX; their admins' tokens. */
export async function operatorsInBothRoles() {
  await setIdentity("0PL002", { countryCode: "PL", partyId: "PLC", roles: ["CPO", "EMSP"] });
  await setIdentity("0DE001", { countryCode: "DE", partyId: "DEX", roles: ["CPO", "EMSP"] });
  return { admin: await tokenFor("0PL002", "demoadmin"), other: await tokenFor("0DE001", "deadmin1") };
}

export const userCtx = (token: string) =>
  contextFromToken(testCtx({ request: { ip: "10.9.9.9", origin: ORIGIN, url: "/test", method: "PUT", userAgent: "vitest" } }), token);

export async function addPlatform(token: string, cpo?: ReturnType<typeof fakeCpo>) {
  const res = await call("POST", "/ocpi-service/platform", { token, body: { name: `CPO ${Date.now()}`, versionsUrl: cpo?.versionsUrl, token: cpo?.state.tokenA } });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

/** A CPO registered by our handshake with the operator `admin` logs into; the token it uses with us. */
export async function registeredCpo(admin: string, role: "CPO" | "HUB" = "CPO") {
  const cpo = fakeCpo({ role });
  const id = await addPlatform(admin, cpo);
  await registerPlatform(await userCtx(admin), id, cpo.handler);
  return { cpo, id, token: cpo.state.ourToken! };
}

/**
 * Registers `emsp` with the operator `admin` logs into, as an eMSP or a hub of our CPO role
 * (docs/rules/ocpi.md "CPO role"): a platform added through the console's API, a token A we issued,
 * and the partner's credentials handshake with it.
 */
export async function registerEmsp(admin: string, emsp: Pick<ReturnType<typeof fakeEmsp>, "register">, platform: { name: string; role: "EMSP" | "HUB" }) {
  const created = await call("POST", "/ocpi-service/platform", { token: admin, body: platform });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const issued = await call("PUT", `/ocpi-service/platform/${created.body.data.id}/token`, { token: admin });
  const registered = await emsp.register(issued.body.data.token);
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  return { id: created.body.data.id as number, tokenA: issued.body.data.token as string };
}

let cdrs = 0;

/** A CDR of the fake CPO (DE*CPO) for a token we issued as PL*PLG, one hour of 12.5 kWh. */
export function cdrFor(uid: string, overrides: Record<string, unknown> = {}) {
  return {
    country_code: "DE",
    party_id: "CPO",
    id: `CDR${Date.now().toString(36)}${++cdrs}`,
    start_date_time: "2026-05-02T08:00:00Z",
    end_date_time: "2026-05-02T09:00:00Z",
    cdr_token: { country_code: "PL", party_id: "PLG", uid, type: "RFID", contract_id: `PL-PLG-C${uid}`.slice(0, 36) },
    auth_method: "AUTH_REQUEST",
    cdr_location: {
      id: "L1",
      name: "Hauptbahnhof",
      address: "Europaplatz 1",
      city: "Berlin",
      country: "DEU",
      coordinates: { latitude: "52.52500", longitude: "13.36940" },
      evse_uid: "E1",
      evse_id: "DE*CPO*E1",
      connector_id: "1",
      connector_standard: "IEC_62196_T2",
      connector_format: "SOCKET",
      connector_power_type: "AC_3_PHASE",
    },
    currency: "PLN",
    charging_periods: [{ start_date_time: "2026-05-02T08:00:00Z", dimensions: [{ type: "ENERGY", volume: 12.5 }] }],
    total_cost: { excl_vat: 20, incl_vat: 24.6 },
    total_energy_cost: { excl_vat: 18, incl_vat: 22.14 },
    total_time_cost: { excl_vat: 2, incl_vat: 2.46 },
    total_energy: 12.5,
    total_time: 1,
    last_updated: "2026-05-02T09:00:00Z",
    ...overrides,
  };
}
