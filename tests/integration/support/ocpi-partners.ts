import { env } from "cloudflare:test";
import { expect } from "vitest";
import { contextFromToken } from "../../../workers/services/context";
import { registerPlatform } from "../../../workers/services/ocpi/platforms";
import { operatorIdOf } from "./driver-rows";
import { fakeCpo } from "./fake-cpo";
import { call, ORIGIN, testCtx } from "./http";

/** Partner platforms of an operator, as the roaming tests need them (docs/rules/ocpi.md). */

/** Our OCPI country code and party id in an operator's parameter settings. */
export const setOcpiIdentity = async (code: string, identity: { countryCode: string | null; partyId: string | null }) =>
  env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.ocpi', json(?)) WHERE operator_id = ?")
    .bind(JSON.stringify(identity), await operatorIdOf(code))
    .run();

/** A user's context, to call a verb with an injected `fetch` (the fake CPO). */
export const userCtxOf = (token: string) =>
  contextFromToken(testCtx({ request: { ip: "10.9.9.9", origin: ORIGIN, url: "/test", method: "PUT", userAgent: "vitest" } }), token);

export async function addPartnerPlatform(token: string, cpo?: ReturnType<typeof fakeCpo>) {
  const res = await call("POST", "/ocpi-service/platform", { token, body: { name: `CPO ${Date.now()}`, versionsUrl: cpo?.versionsUrl, token: cpo?.state.tokenA } });
  expect(res.status).toBe(200);
  return res.body.data.id as number;
}

/** A fake CPO registered with the admin's operator by our handshake, and the token it uses with us. */
export async function registeredPartner(admin: string, options: Parameters<typeof fakeCpo>[0] = {}) {
  const cpo = fakeCpo(options);
  const id = await addPartnerPlatform(admin, cpo);
  await registerPlatform(await userCtxOf(admin), id, cpo.handler);
  return { cpo, id, token: cpo.state.ourToken! };
}
