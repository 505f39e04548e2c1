import { envelopeOf, tokenHeader } from "../../../domain/ocpi/wire";
import type { OcpiFetch } from "../../../workers/services/ocpi/client";
import { ocpi } from "./fake-cpo";

/**
 * An eMSP played in the tests (docs/rules/ocpi.md "CPO role"): its versions, its 2.2.1 endpoints
 * (credentials, and the locations and tariffs receivers we push to), answering only its own
 * token. It registers with us with a token A we issued, as a partner does (OCPI 2.2.1 §7.1).
 */
let counter = 0;

export interface Pushed {
  method: string;
  /** The path under its receiver: `{cc}/{pid}/{id}[/{evse_uid}]`. */
  path: string;
  body: any;
  at: number;
}

export function fakeEmsp(options: { countryCode?: string; partyId?: string; role?: "EMSP" | "HUB" } = {}) {
  const n = `${Date.now().toString(36)}${++counter}`;
  const base = `https://emsp${n}.example/ocpi`;
  const countryCode = options.countryCode ?? "NL";
  const partyId = options.partyId ?? "EMS";
  const state = {
    /** The token we use with it (its credentials' token). */
    tokenC: `emsp-c-${n}`,
    /** The token it uses with us once registered. */
    ourToken: undefined as string | undefined,
    locations: [] as Pushed[],
    tariffs: [] as Pushed[],
    /** The next so many pushes are refused with 2001. */
    refuse: 0,
  };
  const answer = (data: unknown, status = 200, code = 1000, message?: string) =>
    new Response(JSON.stringify(envelopeOf(data, Date.now(), code, message)), { status, headers: { "Content-Type": "application/json" } });
  const handler: OcpiFetch = async (request) => {
    const url = new URL(request.url);
    if (request.headers.get("Authorization") !== tokenHeader(state.tokenC)) return answer(undefined, 401, 2000, "Unknown token");
    if (url.pathname === "/ocpi/versions") return answer([{ version: "2.2.1", url: `${base}/2.2.1` }]);
    if (url.pathname === "/ocpi/2.2.1") {
      return answer({
        version: "2.2.1",
        endpoints: [
          ...["credentials", "tokens", "commands"].map((identifier) => ({ identifier, role: "SENDER", url: `${base}/2.2.1/${identifier}` })),
          ...["credentials", "locations", "tariffs", "sessions", "cdrs"].map((identifier) => ({ identifier, role: "RECEIVER", url: `${base}/2.2.1/${identifier}` })),
        ],
      });
    }
    const receiver = /^\/ocpi\/2\.2\.1\/(locations|tariffs)\/(.+)$/.exec(url.pathname);
    if (receiver) {
      const text = request.method === "DELETE" ? "" : await request.text();
      const pushed = { method: request.method, path: decodeURIComponent(receiver[2]), body: text ? JSON.parse(text) : undefined, at: Date.now() };
      if (state.refuse > 0) {
        state.refuse--;
        return answer(undefined, 400, 2001, "Refused by the fake eMSP");
      }
      state[receiver[1] as "locations" | "tariffs"].push(pushed);
      return answer(undefined);
    }
    return answer(undefined, 404, 2000, "Unknown endpoint");
  };

  const credentials = (role: "CPO" | "EMSP" | "HUB" = options.role ?? "EMSP") => ({
    token: state.tokenC,
    url: `${base}/versions`,
    roles: [{ role, business_details: { name: `Fake eMSP ${n}` }, party_id: partyId, country_code: countryCode }],
  });

  /** Registers with us with the token A we issued: our versions, our details, then its credentials. */
  async function register(tokenA: string, role?: "CPO" | "EMSP" | "HUB") {
    const answered = await ocpi("POST", "/ocpi/2.2.1/credentials", { token: tokenA, body: credentials(role), send: handler });
    if (answered.status === 200) state.ourToken = answered.body.data.token;
    return answered;
  }

  return { handler, state, versionsUrl: `${base}/versions`, countryCode, partyId, register, credentials };
}
