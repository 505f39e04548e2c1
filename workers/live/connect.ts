import { createDb } from "../../db/client";
import { Unauthorized } from "../../domain/errors";
import { errorBody } from "../api/envelope";
import { assertSameOrigin } from "../api/security";
import { clientAddress } from "../http/client";
import { readCookie } from "../http/cookies";
import { requestLanguage } from "../i18n";
import { contextFromToken } from "../services/context";
import { deviceScope } from "../services/sub-operators/scope";
import { tenantHubName } from "./events";
import { SCOPE_HEADER, type LiveScope } from "./tenant-hub";

/**
 * `/live`: the console's WebSocket to its operator's TenantHub. The session is checked like any
 * API call, and a cookie-authenticated upgrade must come from the console's own origin.
 */
export async function connectLive(request: Request, env: Env): Promise<Response> {
  const lang = requestLanguage(request);
  try {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const bearer = request.headers.get("Authorization")?.match(/^Bearer (.+)$/)?.[1];
    const token = bearer ?? readCookie(request, env.SESSION_COOKIE);
    if (!token) throw new Unauthorized();
    if (!bearer) assertSameOrigin(request);
    const ctx = await contextFromToken(
      {
        db: createDb(env.DB),
        env,
        lang,
        now: Date.now,
        request: { ip: clientAddress(request), url: "/live", method: "GET", userAgent: request.headers.get("User-Agent") },
      },
      token,
    );
    // A sub-operator listens to its parent's hub, limited to the devices assigned to it: points
    // assigned directly and those of assigned stations, as of the moment the socket opens.
    const devices = deviceScope(ctx);
    const scope: LiveScope = { operatorId: devices.operatorId, accountId: ctx.actor.accountId, pointIds: await devices.pointIds() };
    const headers = new Headers(request.headers);
    headers.set(SCOPE_HEADER, JSON.stringify(scope));
    return env.TENANT_HUB.getByName(tenantHubName(devices.operatorId)).fetch(new Request(request.url, { headers }));
  } catch (error) {
    const { status, body } = errorBody(error, lang);
    return Response.json(body, { status });
  }
}
