import { publicCtxOf } from "../services/context";
import { findCharger } from "../services/ocpp/charger-lookup";
import { chargePointName, IDENTITY_HEADER, REGISTRATION_HEADER, registrationOf, STALE_ROUTE_HEADER, type ChargerIdentity } from "./identity";
import { chooseVersion, type AdmittedVersions, type OcppVersion } from "./protocol";
import type { Registration } from "./registration";

/** `/ocpp/<chargeBoxId>` or `/ocpp/<operatorCode>/<chargeBoxId>`. */
export function parseOcppPath(pathname: string): { operatorCode?: string; serialNumber: string } | null {
  const parts = pathname.split("/").slice(2).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return "";
    }
  });
  if (parts.length === 1 && parts[0]) return { serialNumber: parts[0] };
  if (parts.length === 2 && parts[0] && parts[1]) return { operatorCode: parts[0], serialNumber: parts[1] };
  return null;
}

const plain = (status: number, text: string, headers: HeadersInit = {}) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain", ...headers } });

const REFUSED_VERSIONS: Record<AdmittedVersions, string> = {
  AUTO: "Unsupported subprotocol: this server speaks ocpp2.0.1 and ocpp1.6",
  OCPP16: "Unsupported subprotocol: this charge point is set to ocpp1.6",
  OCPP201: "Unsupported subprotocol: this charge point is set to ocpp2.0.1",
};

/**
 * The version a charger's upgrade is taken in (after its key was accepted), or why it cannot be:
 * not an upgrade 426; none of the subprotocols offered admitted by the point 400 (OCPP-J 1.6
 * §3.1.2, 2.0.1 Part 4 §3.1.2: the client offers, the server chooses; docs/rules/ocpp.md
 * "Connection").
 */
export function upgradeVersion(request: Request, admitted: AdmittedVersions = "AUTO"): { version: OcppVersion } | { refused: Response } {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return { refused: plain(426, "Expected a WebSocket upgrade", { Upgrade: "websocket" }) };
  const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const version = chooseVersion(offered, admitted);
  return version ? { version } : { refused: plain(400, REFUSED_VERSIONS[admitted]) };
}

/**
 * Which Durable Object serves a chargeBoxId, kept by this isolate: a point's id, operator and
 * serial never change, so a reconnecting charger costs no D1 read here. A route that went out of
 * date (the point deleted, or made again under another operator) is refused by the Durable
 * Object and read again (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
const routes = new Map<string, Omit<ChargerIdentity, "enabled">>();
const MAX_ROUTES = 100_000;

async function route(request: Request, env: Env, serialNumber: string) {
  const known = routes.get(serialNumber);
  if (known) return { identity: known, registration: undefined };
  const row = await findCharger(publicCtxOf(request, env), serialNumber);
  if (!row) return undefined;
  const identity = { pointId: row.point.id, operatorId: row.point.operatorId, operatorCode: row.operatorCode, serialNumber: row.point.serialNumber };
  if (routes.size >= MAX_ROUTES) routes.clear();
  routes.set(serialNumber, identity);
  return { identity, registration: registrationOf(row) };
}

function handOver(request: Request, env: Env, identity: Omit<ChargerIdentity, "enabled">, registration: Registration | undefined) {
  const stub = env.CHARGE_POINT.getByName(chargePointName(identity.operatorId, identity.serialNumber));
  const headers = new Headers(request.headers);
  headers.set(IDENTITY_HEADER, JSON.stringify(identity));
  if (registration) headers.set(REGISTRATION_HEADER, JSON.stringify(registration));
  else headers.delete(REGISTRATION_HEADER);
  return stub.fetch(new Request(request.url, { headers, method: "GET" }));
}

/**
 * The Worker's side of a charger's connection (docs/rules/ocpp.md "Connection"): find the point
 * (404 before any key is checked), then hand the upgrade to the ChargePoint Durable Object of
 * that charger, which checks HTTP Basic auth against the key it keeps (401) and the upgrade and
 * the subprotocol (`ocpp2.0.1` or `ocpp1.6`, as the point admits).
 */
export async function connectCharger(request: Request, env: Env): Promise<Response> {
  const target = parseOcppPath(new URL(request.url).pathname);
  if (!target) return plain(404, "Unknown charge point");
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await route(request, env, target.serialNumber);
    if (!found || (target.operatorCode && target.operatorCode !== found.identity.operatorCode)) return plain(404, "Unknown charge point");
    const response = await handOver(request, env, found.identity, found.registration);
    if (!response.headers.has(STALE_ROUTE_HEADER)) return response;
    routes.delete(target.serialNumber);
  }
  return plain(404, "Unknown charge point");
}
