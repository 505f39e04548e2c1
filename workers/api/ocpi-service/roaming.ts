import { ocpiListQuery, platformInput } from "../../../domain/schemas/ocpi/console";
import { pageQuery } from "../../../domain/schemas/account-service";
import { getLocationRecord, listCdrs, listLocations, listSessions, listTariffs } from "../../services/ocpi/lists";
import {
  createPlatform,
  deletePlatform,
  getPlatform,
  issuePlatformToken,
  listParties,
  listPlatforms,
  registerPlatform,
  unregisterPlatform,
  updatePlatform,
} from "../../services/ocpi/platforms";
import { listTokensForConsole } from "../../services/ocpi/token-push";
import { rejectCdr, releaseCdr } from "../../services/ocpi/cdr-billing";
import { getPullProgress, startPull } from "../../services/ocpi/pulls";
import { forcePushTokens } from "../../services/ocpi/token-push";
import { pullInput, tokenPushInput } from "../../../domain/schemas/ocpi/sync";
import { idParam, route } from "../app";

/** Roaming as an eMSP, for the console and API clients (docs/rules/ocpi.md "Console"). */
const tag = "OCPI service";

export const routes = [
  route({ method: "get", path: "/ocpi-service/platform", summary: "Partner platforms (q: name, status: Registered|Unregistered)", tag, verb: listPlatforms, query: ocpiListQuery }, (ctx, { query }) =>
    listPlatforms(ctx, query),
  ),
  route(
    { method: "post", path: "/ocpi-service/platform", summary: "Add a partner platform: { name, versionsUrl, token } (token: the partner's token A)", tag, verb: createPlatform, body: platformInput },
    (ctx, { body }) => createPlatform(ctx, body),
  ),
  route({ method: "get", path: "/ocpi-service/platform/{id}", summary: "One partner platform, with our country code, party id and versions URL", tag, verb: getPlatform, params: idParam }, (ctx, { params }) =>
    getPlatform(ctx, params.id),
  ),
  route(
    { method: "put", path: "/ocpi-service/platform/{id}", summary: "Change a platform (URL and token only while unregistered; an empty token keeps it)", tag, verb: updatePlatform, params: idParam, body: platformInput },
    (ctx, { params, body }) => updatePlatform(ctx, params.id, body),
  ),
  route({ method: "delete", path: "/ocpi-service/platform/{id}", summary: "Delete an unregistered platform and what it sent", tag, verb: deletePlatform, params: idParam }, (ctx, { params }) =>
    deletePlatform(ctx, params.id),
  ),
  route(
    { method: "put", path: "/ocpi-service/platform/{id}/register", summary: "Run the credentials handshake now (409 with the partner's reason when it fails)", tag, verb: registerPlatform, params: idParam },
    (ctx, { params }) => registerPlatform(ctx, params.id),
  ),
  route(
    { method: "put", path: "/ocpi-service/platform/{id}/unregister", summary: "Unregister: DELETE at the partner, our token revoked", tag, verb: unregisterPlatform, params: idParam },
    (ctx, { params }) => unregisterPlatform(ctx, params.id),
  ),
  route(
    { method: "put", path: "/ocpi-service/platform/{id}/token", summary: "Issue a token A for a partner that registers with us (shown once)", tag, verb: issuePlatformToken, params: idParam },
    (ctx, { params }) => issuePlatformToken(ctx, params.id),
  ),
  route({ method: "get", path: "/ocpi-service/party", summary: "Parties behind the platforms (platformId, q, status: role)", tag, verb: listParties, query: ocpiListQuery }, (ctx, { query }) =>
    listParties(ctx, query),
  ),
];

export const partnerListRoutes = (
  [
    ["/ocpi-service/location", "Locations partners sent (platformId, q, from, to)", listLocations],
    ["/ocpi-service/session", "Sessions partners sent (platformId, q, status, from, to)", listSessions],
    ["/ocpi-service/cdr", "CDRs partners sent (platformId, q, from, to)", listCdrs],
    ["/ocpi-service/tariff", "Tariffs partners sent (platformId, q, status: type, from, to)", listTariffs],
  ] as const
).map(([path, what, list]) => route({ method: "get", path, summary: what, tag, verb: list, query: ocpiListQuery }, (ctx, { query }) => list(ctx, query)));

export const recordRoutes = [
  route({ method: "get", path: "/ocpi-service/location/{id}", summary: "One location with its EVSEs and connectors", tag, verb: getLocationRecord, params: idParam }, (ctx, { params }) =>
    getLocationRecord(ctx, params.id),
  ),
  // Held CDRs, reviewed by the operator (docs/rules/ocpi.md "What a CDR may bill").
  route(
    { method: "put", path: "/ocpi-service/cdr/{id}/release", summary: "Bill a HELD CDR after review (the sign rules and a credit's cap still apply; 409 otherwise)", tag, verb: releaseCdr, params: idParam },
    (ctx, { params }) => releaseCdr(ctx, params.id),
  ),
  route({ method: "put", path: "/ocpi-service/cdr/{id}/reject", summary: "Reject a HELD CDR: it is never billed", tag, verb: rejectCdr, params: idParam }, (ctx, { params }) =>
    rejectCdr(ctx, params.id),
  ),
  route({ method: "get", path: "/ocpi-service/token", summary: "Our tokens as partners see them", tag, verb: listTokensForConsole, query: pageQuery }, (ctx, { query }) =>
    listTokensForConsole(ctx, query),
  ),

  // Pulls and token pushes (docs/rules/ocpi.md "Pulls", "Token pushes").
  route(
    { method: "post", path: "/ocpi-service/platform/{id}/pull", summary: "Pull the partner's senders now, on the queue: { modules?: [locations|sessions|cdrs|tariffs] }", tag, verb: startPull, params: idParam, body: pullInput },
    (ctx, { params, body }) => startPull(ctx, params.id, body),
  ),
  route({ method: "get", path: "/ocpi-service/platform/{id}/pull", summary: "Progress of the pulls of each module", tag, verb: getPullProgress, params: idParam }, (ctx, { params }) =>
    getPullProgress(ctx, params.id),
  ),
  route(
    { method: "post", path: "/ocpi-service/token/push", summary: "Push tokens to partners again now: { platformId?, uids? } (all when left out)", tag, verb: forcePushTokens, body: tokenPushInput },
    (ctx, { body }) => forcePushTokens(ctx, body),
  ),
];
