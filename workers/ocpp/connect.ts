import { basicCredentials, chargerKeyMatches } from "../auth/charger-key";
import { publicCtxOf } from "../services/context";
import { findCharger } from "../services/ocpp/charger-records";
import { chargePointName, IDENTITY_HEADER, type ChargerIdentity } from "./identity";

export const OCPP_SUBPROTOCOL = "ocpp1.6";

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

/**
 * The Worker's side of a charger's connection (docs/rules/ocpp.md "Connection"): find the point (404 before
 * any key is checked), check HTTP Basic auth (401), pick the `ocpp1.6` subprotocol, then hand
 * the upgrade to the ChargePoint Durable Object of that charger.
 */
export async function connectCharger(request: Request, env: Env): Promise<Response> {
  const target = parseOcppPath(new URL(request.url).pathname);
  if (!target) return plain(404, "Unknown charge point");
  const row = await findCharger(publicCtxOf(request, env), target.serialNumber);
  if (!row || (target.operatorCode && target.operatorCode !== row.operatorCode)) return plain(404, "Unknown charge point");

  const credentials = basicCredentials(request.headers.get("Authorization"));
  const authorised =
    credentials?.username === target.serialNumber && chargerKeyMatches(credentials.password, row.point.keyHash, env.CHARGER_KEY_PEPPER);
  if (!authorised) return plain(401, "Unauthorized", { "WWW-Authenticate": 'Basic realm="OCPP", charset="UTF-8"' });

  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return plain(426, "Expected a WebSocket upgrade", { Upgrade: "websocket" });
  const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  // OCPP-J 1.6 §3.1.2: the client offers the subprotocol; this server speaks only ocpp1.6.
  if (!offered.includes(OCPP_SUBPROTOCOL)) return plain(400, "Unsupported subprotocol: this server speaks ocpp1.6");

  const identity: ChargerIdentity = {
    pointId: row.point.id,
    operatorId: row.point.operatorId,
    operatorCode: row.operatorCode,
    serialNumber: row.point.serialNumber,
    enabled: row.point.status === "VALID",
  };
  const stub = env.CHARGE_POINT.getByName(chargePointName(identity.operatorId, identity.serialNumber));
  const headers = new Headers(request.headers);
  headers.set(IDENTITY_HEADER, JSON.stringify(identity));
  return stub.fetch(new Request(request.url, { headers, method: "GET" }));
}
