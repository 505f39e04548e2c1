import { createExecutionContext, env, SELF } from "cloudflare:test";
import { envelopeOf, tokenHeader } from "../../../domain/ocpi/wire";
import { createOcpiApp } from "../../../workers/ocpi/app";
import type { OcpiFetch } from "../../../workers/services/ocpi/client";
import { ORIGIN } from "./http";

/**
 * A CPO played in the tests (docs/rules/ocpi.md "Calls to partners"): its versions, its 2.2.1 endpoints and
 * its credentials module, answering only the tokens it knows. It is a function handed to the
 * product as its `fetch`, so nothing leaves the test.
 */
let counter = 0;

export interface Received {
  method: string;
  path: string;
  authorization: string | null;
  headers: Headers;
  body: any;
}

/** Every fake CPO made in this test file, so the product's own `fetch` can be routed to them (`routeFetchTo`). */
export const fakeCpos: { versionsUrl: string; handler: OcpiFetch }[] = [];

export function fakeCpo(
  options: {
    countryCode?: string;
    partyId?: string;
    versions?: string[];
    role?: "CPO" | "HUB";
    /** Its credentials also carry 2.1.1's top-level party and fields nobody defines, as real hubs send them. */
    legacy?: boolean;
  } = {},
) {
  const n = `${Date.now().toString(36)}${++counter}`;
  const base = `https://cpo${n}.example/ocpi`;
  const state = {
    /** Token A we are given to register with; the token it gives us afterwards (C). */
    tokenA: `cpo-a-${n}`,
    tokenC: `cpo-c-${n}`,
    /** The token this CPO will use with us (what our credentials gave it). */
    ourToken: undefined as string | undefined,
    received: [] as Received[],
    /** The next credentials answer fails with this, once. */
    refuse: undefined as { status: number; code: number; message: string } | undefined,
    /** Commands its commands receiver took, and the answers to give them in order (then ACCEPTED, 30 s). */
    commands: [] as { command: string; body: any }[],
    commandAnswers: [] as { status?: number; code?: number; data?: unknown }[],
  };
  const accepted = () => [state.tokenA, state.tokenC].map(tokenHeader);
  const answer = (data: unknown, status = 200, code = 1000, message?: string) =>
    new Response(JSON.stringify(envelopeOf(data, Date.now(), code, message)), { status, headers: { "Content-Type": "application/json" } });
  const countryCode = options.countryCode ?? "DE";
  const partyId = options.partyId ?? "CPO";
  const handler: OcpiFetch = async (request) => {
    const path = new URL(request.url).pathname;
    const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.text();
    state.received.push({ method: request.method, path, authorization: request.headers.get("Authorization"), headers: request.headers, body: text ? JSON.parse(text) : undefined });
    if (!accepted().includes(request.headers.get("Authorization") ?? "")) return answer(undefined, 401, 2000, "Unknown token");
    if (path === "/ocpi/versions") return answer((options.versions ?? ["2.1.1", "2.2.1"]).map((version) => ({ version, url: `${base}/${version}` })));
    if (path === "/ocpi/2.2.1") {
      return answer({
        version: "2.2.1",
        endpoints: [
          ...["credentials", "locations", "sessions", "cdrs", "tariffs"].map((identifier) => ({ identifier, role: "SENDER", url: `${base}/2.2.1/${identifier}` })),
          ...["credentials", "tokens", "commands"].map((identifier) => ({ identifier, role: "RECEIVER", url: `${base}/2.2.1/${identifier}` })),
          // A hub lists the parties behind it (OCPI 2.2.1 §17.2.1).
          ...(options.role === "HUB" ? [{ identifier: "hubclientinfo", role: "SENDER", url: `${base}/2.2.1/hubclientinfo` }] : []),
          { identifier: "x-private", role: "RECEIVER", url: `${base}/2.2.1/private` },
        ],
      });
    }
    if (path === "/ocpi/2.2.1/credentials") {
      if (state.refuse) {
        const { status, code, message } = state.refuse;
        state.refuse = undefined;
        return answer(undefined, status, code, message);
      }
      if (request.method === "DELETE") return answer(undefined);
      state.ourToken = JSON.parse(text).token;
      const businessDetails = { name: `Fake CPO ${n}` };
      const roles = [{ role: options.role ?? "CPO", business_details: options.legacy ? { ...businessDetails, x_vat_id: "DE123" } : businessDetails, party_id: partyId, country_code: countryCode }];
      const legacy = options.legacy ? { party_id: partyId, country_code: countryCode, business_details: businessDetails, x_hub_region: { zone: "EU" } } : {};
      return answer({ token: state.tokenC, url: `${base}/versions`, roles, ...legacy });
    }
    const command = /^\/ocpi\/2\.2\.1\/commands\/([A-Z_]+)$/.exec(path);
    if (command && request.method === "POST") {
      state.commands.push({ command: command[1], body: JSON.parse(text) });
      const next = state.commandAnswers.shift() ?? { data: { result: "ACCEPTED", timeout: 30 } };
      return answer(next.data, next.status, next.code);
    }
    return answer(undefined, 404, 2000, "Unknown endpoint");
  };
  const made = { handler, state, versionsUrl: `${base}/versions`, countryCode, partyId };
  fakeCpos.push(made);
  return made;
}

export interface OcpiAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * One request to our OCPI side as a partner makes it: `Token <base64>` unless `plain`, JSON bodies.
 * With `send`, through an instance of the OCPI app that calls partners with it (registration).
 */
export async function ocpi(
  method: string,
  path: string,
  options: { token?: string; plain?: boolean; body?: unknown; raw?: string; headers?: Record<string, string>; send?: OcpiFetch } = {},
): Promise<OcpiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = options.plain ? `Token ${options.token}` : tokenHeader(options.token);
  if (options.body !== undefined || options.raw !== undefined) headers["Content-Type"] = "application/json";
  const request = new Request(`${ORIGIN}${path}`, { method, headers, body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)) });
  const res = options.send ? await createOcpiApp(options.send).fetch(request, env, createExecutionContext()) : await SELF.fetch(request);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/**
 * The CPO posts the charger's CommandResult to the `response_url` of a command it took
 * (OCPI 2.2.1 §13.2.2), with its token unless another is given.
 */
export function postCommandResult(cpo: ReturnType<typeof fakeCpo>, responseUrl: string, result: unknown, token = cpo.state.ourToken) {
  return ocpi("POST", new URL(responseUrl).pathname, { token, body: result });
}
