import { Unauthorized } from "../../domain/errors";
import { readCookie } from "../http/cookies";
import { errorBody } from "../http/error-envelope";
import { assertSameOrigin } from "../http/same-origin";
import { markPrivate } from "../http/security-headers";
import { contextFromToken, publicCtxOf } from "../services/context";
import { liveScope } from "../services/monitoring/live-access";
import { tenantHubName } from "./events";
import { SCOPE_HEADER } from "./tenant-hub";

/**
 * `/live`: the console's WebSocket to its operator's TenantHub. It follows the API's rules
 * (docs/rules/access.md): a session, the console's own origin for a cookie, the initial
 * password changed, and a menu whose screens listen live.
 */
export async function connectLive(request: Request, env: Env): Promise<Response> {
  const base = publicCtxOf(request, env);
  try {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const bearer = request.headers.get("Authorization")?.match(/^Bearer (.+)$/)?.[1];
    const token = bearer ?? readCookie(request, env.SESSION_COOKIE);
    if (!token) throw new Unauthorized();
    if (!bearer) assertSameOrigin(request);
    const ctx = await contextFromToken(base, token);
    // A sub-operator listens to its parent's hub, limited to the devices assigned to it: points
    // assigned directly and those of assigned stations, as of the moment the socket opens.
    const scope = await liveScope(ctx);
    const headers = new Headers(request.headers);
    headers.set(SCOPE_HEADER, JSON.stringify(scope));
    return env.TENANT_HUB.getByName(tenantHubName(scope.operatorId)).fetch(new Request(request.url, { headers }));
  } catch (error) {
    const { status, body } = errorBody(error, base.lang);
    const refused = Response.json(body, { status });
    markPrivate(refused.headers);
    return refused;
  }
}
