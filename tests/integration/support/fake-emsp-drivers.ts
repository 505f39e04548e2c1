import { envelopeOf, tokenHeader } from "../../../domain/ocpi/wire";
import type { OcpiFetch } from "../../../workers/services/ocpi/client";
import { fakeEmsp } from "./fake-emsp";

/**
 * An eMSP whose drivers charge at our chargers (docs/rules/ocpi.md "Partners' drivers at our
 * chargers"): the fake eMSP of the CPO tests, plus its sessions and CDRs receivers, its real-time
 * authorization (`tokens/{uid}/authorize`, answered per uid: ALLOWED, BLOCKED, or never in time)
 * and the `response_url`s of its commands.
 */
export function fakeEmspWithDrivers(options: Parameters<typeof fakeEmsp>[0] = {}) {
  const emsp = fakeEmsp(options);
  const base = emsp.versionsUrl.replace(/\/versions$/, "");
  const drivers = {
    sessions: [] as { method: string; path: string; body: any }[],
    cdrs: [] as any[],
    results: [] as { path: string; body: any }[],
    authorizations: [] as { uid: string; type: string | null; body: any }[],
    /** How its real-time authorization answers a uid; a uid left out is ALLOWED. */
    answers: new Map<string, "ALLOWED" | "BLOCKED" | "SILENT">(),
    /** Its CDRs receiver is down (HTTP 503) while this is true. */
    cdrsDown: false,
  };
  const answer = (data: unknown, status = 200, code = 1000, message?: string) =>
    new Response(JSON.stringify(envelopeOf(data, Date.now(), code, message)), { status, headers: { "Content-Type": "application/json" } });
  const handler: OcpiFetch = async (request) => {
    const url = new URL(request.url);
    if (request.headers.get("Authorization") !== tokenHeader(emsp.state.tokenC)) return emsp.handler(request);
    const text = request.method === "GET" ? "" : await request.text();
    const body = text ? JSON.parse(text) : undefined;
    const session = /^\/ocpi\/2\.2\.1\/sessions\/(.+)$/.exec(url.pathname);
    if (session) {
      drivers.sessions.push({ method: request.method, path: decodeURIComponent(session[1]), body });
      return answer(undefined);
    }
    if (url.pathname === "/ocpi/2.2.1/cdrs" && request.method === "POST") {
      if (drivers.cdrsDown) return new Response("Service Unavailable", { status: 503 });
      drivers.cdrs.push(body);
      return answer(undefined, 201);
    }
    const authorize = /^\/ocpi\/2\.2\.1\/tokens\/([^/]+)\/authorize$/.exec(url.pathname);
    if (authorize) {
      const uid = decodeURIComponent(authorize[1]);
      drivers.authorizations.push({ uid, type: url.searchParams.get("type"), body });
      const verdict = drivers.answers.get(uid) ?? "ALLOWED";
      if (verdict === "SILENT") await new Promise((resolve) => setTimeout(resolve, 8_000));
      return answer({ allowed: verdict === "SILENT" ? "ALLOWED" : verdict, token: { uid }, authorization_reference: `AUTH-${uid}` });
    }
    if (url.pathname.startsWith("/ocpi/2.2.1/results/")) {
      drivers.results.push({ path: url.pathname, body });
      return answer(undefined);
    }
    // Its own requests (versions, credentials) and the locations and tariffs receivers.
    return emsp.handler(new Request(request.url, { method: request.method, headers: request.headers, body: text || undefined }));
  };
  let n = 0;
  return { ...emsp, handler, drivers, responseUrl: (command: string) => `${base}/2.2.1/results/${command}/${++n}` };
}
