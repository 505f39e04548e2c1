import { envelopeOf, tokenHeader } from "../../../domain/ocpi/wire";
import type { PullModule } from "../../../domain/schemas/ocpi/sync";
import type { OcpiFetch } from "../../../workers/services/ocpi/client";
import { fakeCpo } from "./fake-cpo";

/**
 * The fake CPO's sender interfaces and tokens receiver (docs/rules/ocpi.md "Pulls", "Token
 * pushes"): its locations, sessions, CDRs and tariffs (a hub's hubclientinfo too) served in
 * pages of `pageSize`, filtered by `date_from` (inclusive) and `date_to` (exclusive) on
 * `last_updated`, with `X-Total-Count`, `X-Limit` and a `Link` to the next page; and the tokens
 * we PUT, kept by uid. Everything else goes to the fake CPO itself (versions, credentials).
 */
export function fakeCpoWithSenders(options: Parameters<typeof fakeCpo>[0] = {}) {
  const cpo = fakeCpo(options);
  const base = new URL(cpo.versionsUrl.replace(/\/versions$/, "/2.2.1"));
  const state = {
    objects: { hubclientinfo: [], locations: [], sessions: [], cdrs: [], tariffs: [] } as Record<PullModule, Record<string, any>[]>,
    pageSize: 2,
    /** The sender requests received, in order. */
    pulls: [] as URL[],
    /** A page (1-based) of every pull answered with HTTP 500 from then on. */
    failPage: undefined as number | undefined,
    /** Token PUTs received: path, query and body. */
    tokenPuts: [] as { path: string; type: string | null; authorization: string | null; body: any }[],
    /** The next so many token PUTs are refused with 2001. */
    refuseTokens: 0,
  };
  const answer = (data: unknown, status = 200, code = 1000, message?: string, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(envelopeOf(data, Date.now(), code, message)), { status, headers: { "Content-Type": "application/json", ...headers } });

  const handler: OcpiFetch = async (request) => {
    const url = new URL(request.url);
    const rest = url.pathname.startsWith(`${base.pathname}/`) ? url.pathname.slice(base.pathname.length + 1) : "";
    const module = rest as PullModule;
    const authorized = [cpo.state.tokenA, cpo.state.tokenC].map(tokenHeader).includes(request.headers.get("Authorization") ?? "");
    if (request.method === "GET" && module in state.objects) {
      if (!authorized) return answer(undefined, 401, 2000, "Unknown token");
      state.pulls.push(url);
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const limit = Math.min(Number(url.searchParams.get("limit") ?? state.pageSize), state.pageSize);
      if (state.failPage !== undefined && offset >= (state.failPage - 1) * limit) return answer(undefined, 500, 3000, "Sender broken");
      const from = url.searchParams.get("date_from");
      const to = url.searchParams.get("date_to");
      const all = state.objects[module].filter((o) => (!from || Date.parse(o.last_updated) >= Date.parse(from)) && (!to || Date.parse(o.last_updated) < Date.parse(to)));
      const page = all.slice(offset, offset + limit);
      const headers: Record<string, string> = { "X-Total-Count": String(all.length), "X-Limit": String(limit) };
      if (offset + page.length < all.length) {
        const next = new URL(url);
        next.searchParams.set("offset", String(offset + page.length));
        headers.Link = `<${next}>; rel="next"`;
      }
      return answer(page, 200, 1000, undefined, headers);
    }
    if (request.method === "PUT" && rest.startsWith("tokens/")) {
      if (!authorized) return answer(undefined, 401, 2000, "Unknown token");
      state.tokenPuts.push({ path: rest, type: url.searchParams.get("type"), authorization: request.headers.get("Authorization"), body: await request.json() });
      if (state.refuseTokens > 0) {
        state.refuseTokens--;
        return answer(undefined, 400, 2001, "Token refused by the fake CPO");
      }
      return answer(undefined);
    }
    return cpo.handler(request);
  };
  return { ...cpo, handler, senders: state };
}

/**
 * Routes the product's own outgoing `fetch` (the queue's deliveries call partners with the global
 * fetch) to the fake partners by host; anything else goes out as before.
 */
export function routeFetchTo(fakes: { versionsUrl: string; handler: OcpiFetch }[], original: typeof fetch): typeof fetch {
  return (input, init) => {
    const request = new Request(input as RequestInfo, init);
    const fake = fakes.find((f) => new URL(f.versionsUrl).host === new URL(request.url).host);
    return fake ? fake.handler(request) : original(request);
  };
}
