import { ocpiListQuery, platformInput } from "../../../domain/schemas/ocpi/console";
import { pageQuery } from "../../../domain/schemas/account-service";
import { getLocationRecord, listCdrs, listLocations, listSessions, listTariffs } from "../../services/ocpi/lists";
import * as platforms from "../../services/ocpi/platforms";
import { listTokensForConsole } from "../../services/ocpi/token-push";
import { rejectCdr, releaseCdr } from "../../services/ocpi/cdr-billing";
import { getPullProgress, startPull } from "../../services/ocpi/pulls";
import { forcePushTokens } from "../../services/ocpi/token-push";
import { pullInput, tokenPushInput } from "../../../domain/schemas/ocpi/sync";
import { route } from "../app";
import { resource } from "../resource";

/** Roaming as an eMSP, for the console and API clients (docs/rules/ocpi.md "Console"). */
const tag = "OCPI service";
const platform = resource(tag, "/ocpi-service/platform");
const cdr = resource(tag, "/ocpi-service/cdr");
const ocpiService = resource(tag, "/ocpi-service");

export const routes = [
  platform.list("Partner platforms (q: name, status: Registered|Unregistered)", platforms.listPlatforms, ocpiListQuery),
  platform.create("Add a partner platform: { name, versionsUrl, token } (token: the partner's token A)", platforms.createPlatform, platformInput),
  platform.detail("One partner platform, with our country code, party id and versions URL", platforms.getPlatform),
  platform.update("Change a platform (URL and token only while unregistered; an empty token keeps it)", platforms.updatePlatform, platformInput),
  platform.remove("Delete an unregistered platform and what it sent", platforms.deletePlatform),
  platform.put("/{id}/register", "Run the credentials handshake now (409 with the partner's reason when it fails)", platforms.registerPlatform),
  platform.put("/{id}/unregister", "Unregister: DELETE at the partner, our token revoked", platforms.unregisterPlatform),
  platform.put("/{id}/token", "Issue a token A for a partner that registers with us (shown once)", platforms.issuePlatformToken),
  ocpiService.get("/party", "Parties behind the platforms (platformId, q, status: role)", platforms.listParties, ocpiListQuery),
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
  ocpiService.get("/location/{id}", "One location with its EVSEs and connectors", getLocationRecord),
  // Held CDRs, reviewed by the operator (docs/rules/ocpi.md "What a CDR may bill").
  cdr.put("/{id}/release", "Bill a HELD CDR after review (the sign rules and a credit's cap still apply; 409 otherwise)", releaseCdr),
  cdr.put("/{id}/reject", "Reject a HELD CDR: it is never billed", rejectCdr),
  ocpiService.get("/token", "Our tokens as partners see them", listTokensForConsole, pageQuery),

  // Pulls and token pushes (docs/rules/ocpi.md "Pulls", "Token pushes").
  platform.post("/{id}/pull", "Pull the partner's senders now, on the queue: { modules?: [locations|sessions|cdrs|tariffs] }", startPull, pullInput),
  platform.get("/{id}/pull", "Progress of the pulls of each module", getPullProgress),
  ocpiService.post("/token/push", "Push tokens to partners again now: { platformId?, uids? } (all when left out)", forcePushTokens, tokenPushInput),
];
