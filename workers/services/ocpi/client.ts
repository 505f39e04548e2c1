import { z } from "zod";
import { OcpiError, tokenHeader } from "../../../domain/ocpi/wire";
import { envelope } from "../../../domain/schemas/ocpi/common";
import { outgoingCallSignal } from "../../http/outgoing";

/**
 * Every call we make to a partner goes through here (docs/rules/ocpi.md "Calls to partners"): the
 * token header, a fresh X-Request-ID and X-Correlation-ID, our OCPI-from headers, the envelope
 * parsed and its status code checked. `fetch` is injected, so the tests drive a fake CPO without
 * the network; the Worker passes its global `fetch`.
 */
export type OcpiFetch = (input: Request) => Promise<Response>;

/** The Worker's own `fetch`, bounded: a partner that never answers fails the call (workers/http/outgoing.ts). */
export const workerFetch: OcpiFetch = (request) => fetch(request, { signal: outgoingCallSignal() });

export interface CallParty {
  countryCode: string;
  partyId: string;
}

export interface OcpiCall {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  from?: CallParty;
  to?: CallParty;
}

/** A partner that failed: the network, an HTTP error, a malformed envelope, or a status code ≥ 2000. */
export class PartnerFailure extends Error {
  constructor(
    readonly reason: string,
    readonly statusCode?: number,
  ) {
    super(reason);
    this.name = "PartnerFailure";
  }
}

export interface OcpiAnswer<T> {
  data: T;
  statusCode: number;
  headers: Headers;
}

/** Calls `url` with `token` and answers the envelope's data parsed with `schema`. */
export async function callPartner<T extends z.ZodType>(
  send: OcpiFetch,
  url: string,
  token: string,
  schema: T,
  call: OcpiCall = {},
): Promise<OcpiAnswer<z.output<T>>> {
  const headers = new Headers({ Authorization: tokenHeader(token), "X-Request-ID": crypto.randomUUID(), "X-Correlation-ID": crypto.randomUUID() });
  if (call.body !== undefined) headers.set("Content-Type", "application/json");
  if (call.from) {
    headers.set("OCPI-from-country-code", call.from.countryCode);
    headers.set("OCPI-from-party-id", call.from.partyId);
  }
  if (call.to) {
    headers.set("OCPI-to-country-code", call.to.countryCode);
    headers.set("OCPI-to-party-id", call.to.partyId);
  }
  let response: Response;
  try {
    response = await send(new Request(url, { method: call.method ?? "GET", headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }));
  } catch (error) {
    throw new PartnerFailure(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PartnerFailure(`${url}: HTTP ${response.status}, not an OCPI answer`);
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) throw new PartnerFailure(`${url}: HTTP ${response.status}, not an OCPI envelope`);
  const { status_code, status_message } = parsed.data;
  if (!response.ok || status_code >= 2000) {
    throw new PartnerFailure(`${url}: HTTP ${response.status}, ${status_code}${status_message ? ` ${status_message}` : ""}`, status_code);
  }
  const data = schema.safeParse(parsed.data.data);
  if (!data.success) throw new PartnerFailure(`${url}: unexpected data (${data.error.issues[0]?.path.join(".")}: ${data.error.issues[0]?.message})`);
  return { data: data.data, statusCode: status_code, headers: response.headers };
}

/** A failure to answer a partner's own request with (OCPI 2.2.1 §5: 3001 unable to use the client's API). */
export const clientApiError = (failure: PartnerFailure) => new OcpiError(400, 3001, failure.reason);
