import { Hono, type Context } from "hono";
import { ZodError } from "zod";
import { AppError } from "../../domain/errors";
import { envelopeOf, invalidParameters, OcpiError, tokensOfHeader } from "../../domain/ocpi/wire";
import { OCPI_STATUS } from "../../domain/schemas/ocpi/common";
import { OUR_VERSION } from "../../domain/schemas/ocpi/versions";
import { limitBodies } from "../http/body-limit";
import { reportError } from "../http/report-error";
import { publicCtxOf } from "../services/context";
import { workerFetch, type OcpiFetch } from "../services/ocpi/client";
import { ourIdentity, VERSION_PATH, VERSIONS_PATH } from "../services/ocpi/identity";
import { acceptCredentials, callerPlatform, dropCredentials, getOurCredentials, isCallerParty, partnerOf, registeredCaller } from "../services/ocpi/partner";
import {
  cdrPath,
  deleteTariff,
  getCdr,
  getLocation,
  getSession,
  getTariff,
  patchLocation,
  patchSession,
  postCdr,
  putLocation,
  putSession,
  putTariff,
  STALE,
} from "../services/ocpi/receivers";
import { authorizeOurToken, listOurTokens } from "../services/ocpi/tokens";
import { callerIsHub, getClientInfo, putClientInfo } from "../services/ocpi/hub";
import { COMMANDS_PATH, receiveCommandResult } from "../services/ocpi/commands";
import { CPO_MODULES } from "./cpo";
import { ocpiBody as body, pagedReply, reply, type OcpiEnv } from "./reply";
import { cpoModulePath, sidesOf, sideGate } from "./roles";

/**
 * The partner side of the Worker, under `/ocpi/` (docs/rules/ocpi.md "On the wire"): OCPI 2.2.1
 * as an eMSP and, for an operator that takes the role, as a CPO under `/ocpi/2.2.1/cpo/`
 * (docs/rules/ocpi.md "CPO role"). Every answer is the OCPI envelope with an OCPI status code; the token names the
 * partner and its operator; X-Request-ID and X-Correlation-ID are echoed. `send` is how we call
 * partners back (the credentials handshake): injected, so tests play the partner.
 */
/** Our modules in 2.2.1 and our role in each (OCPI 2.2.1 §6.2.2 Endpoint). */
const CREDENTIALS_ENDPOINTS = [
  ["credentials", "SENDER"],
  ["credentials", "RECEIVER"],
] as const;

/** Our eMSP modules; the CPO ones are `CPO_MODULES`. */
const OUR_ENDPOINTS = [
  ["locations", "RECEIVER"],
  ["sessions", "RECEIVER"],
  ["cdrs", "RECEIVER"],
  ["tariffs", "RECEIVER"],
  ["tokens", "SENDER"],
  ["commands", "SENDER"],
] as const;

/** A PUT or PATCH left alone because a newer version is stored still succeeds (OCPI 2.2.1 §3.4). */
const applied = (c: Context<OcpiEnv>, result: { applied: boolean }) => reply(c, undefined, result.applied ? undefined : STALE);

const locationPath = (c: Context<OcpiEnv>) => ({
  countryCode: c.req.param("cc")!,
  partyId: c.req.param("pid")!,
  id: c.req.param("id")!,
  evseUid: c.req.param("evse"),
  connectorId: c.req.param("connector"),
});

export function createOcpiApp(send: OcpiFetch = workerFetch) {
  const app = new Hono<OcpiEnv>();

  // Every body (the JSON of a push, the raw text of a token's authorization) is limited before it is read (docs/rules/input.md "Body size").
  app.use(limitBodies(() => "none", () => new OcpiError(413, OCPI_STATUS.invalidParameters, "Body over 1 MB")));

  app.use(async (c, next) => {
    await next();
    // Echoed so the partner can match answers and trace a call across hubs (OCPI 2.2.1 §4.1.2).
    c.res.headers.set("X-Request-ID", c.req.header("X-Request-ID") ?? crypto.randomUUID());
    c.res.headers.set("X-Correlation-ID", c.req.header("X-Correlation-ID") ?? crypto.randomUUID());
    c.res.headers.set("Cache-Control", "no-store");
    const from = { cc: c.req.header("OCPI-from-country-code"), pid: c.req.header("OCPI-from-party-id") };
    if (from.cc && from.pid) {
      c.res.headers.set("OCPI-to-country-code", from.cc);
      c.res.headers.set("OCPI-to-party-id", from.pid);
    }
  });

  /** The partner behind the token; its routing headers must name it and us (OCPI 2.2.1 §4.1.3). */
  app.use(async (c, next) => {
    const ctx = publicCtxOf(c.req.raw, c.env, undefined, (work) => c.executionCtx.waitUntil(work));
    const tokens = tokensOfHeader(c.req.header("Authorization"));
    const partner = await partnerOf(ctx, tokens);
    c.set("partner", partner);
    c.set("token", tokens[0]);
    const identity = await ourIdentity(partner).catch(() => undefined);
    const to = { cc: c.req.header("OCPI-to-country-code"), pid: c.req.header("OCPI-to-party-id") };
    if (identity && to.cc && to.pid && (to.cc !== identity.countryCode || to.pid !== identity.partyId)) {
      throw invalidParameters(`OCPI-to ${to.cc}*${to.pid} is not this party`);
    }
    const from = { cc: c.req.header("OCPI-from-country-code"), pid: c.req.header("OCPI-from-party-id") };
    const platform = await callerPlatform(partner);
    if (platform.registerStatus === "Registered" && from.cc && from.pid && !(await isCallerParty(partner, from.cc, from.pid))) {
      throw invalidParameters(`OCPI-from ${from.cc}*${from.pid} is not a party of this connection`);
    }
    await next();
    if (identity) {
      c.res.headers.set("OCPI-from-country-code", identity.countryCode);
      c.res.headers.set("OCPI-from-party-id", identity.partyId);
    }
  });

  app.onError((error, c) => {
    const [http, code, message] =
      error instanceof OcpiError
        ? [error.httpStatus, error.statusCode, error.message]
        : error instanceof ZodError
          ? [400, OCPI_STATUS.invalidParameters, error.issues[0]?.message ?? "Invalid parameters"]
          : error instanceof AppError && error.status < 500
            ? [error.status === 401 ? 401 : error.status === 409 ? 500 : error.status, error.status === 409 ? OCPI_STATUS.serverError : OCPI_STATUS.clientError, error.key]
            : [500, OCPI_STATUS.serverError, "Server error"];
    if (http >= 500) reportError("ocpi", error, { url: c.req.path });
    const answer = c.json(envelopeOf(undefined, Date.now(), code, message), http as 400);
    answer.headers.set("X-Request-ID", c.req.header("X-Request-ID") ?? crypto.randomUUID());
    answer.headers.set("X-Correlation-ID", c.req.header("X-Correlation-ID") ?? crypto.randomUUID());
    return answer;
  });
  app.notFound((c) => c.json(envelopeOf(undefined, Date.now(), OCPI_STATUS.clientError, "No such OCPI endpoint"), 404));

  const origin = (c: Context<OcpiEnv>) => new URL(c.req.url).origin;

  app.get(VERSIONS_PATH, (c) => reply(c, [{ version: OUR_VERSION, url: `${origin(c)}${VERSION_PATH}` }]));
  app.get(VERSION_PATH, async (c) => {
    // Only the modules the caller may call: the sides the operator takes and the partner's role reaches (docs/rules/ocpi.md "CPO role").
    const sides = await sidesOf(c.var.partner);
    const emsp = sides.includes("EMSP") ? [...OUR_ENDPOINTS, ...((await callerIsHub(c.var.partner)) ? ([["hubclientinfo", "RECEIVER"]] as const) : [])] : [];
    // hubclientinfo is offered to a hub only (OCPI 2.2.1 §17).
    const endpoints = [...CREDENTIALS_ENDPOINTS, ...emsp].map(([identifier, role]) => ({ identifier, role, url: `${origin(c)}${VERSION_PATH}/${identifier}` }));
    const cpo = sides.includes("CPO") ? CPO_MODULES.map((m) => ({ identifier: m.identifier, role: m.role, url: `${origin(c)}${cpoModulePath(m.identifier)}` })) : [];
    return reply(c, { version: OUR_VERSION, endpoints: [...endpoints, ...cpo] });
  });

  const base = VERSION_PATH;
  // Every module but the handshake wants a registered partner, and says so before it reads a body:
  // an unknown or token A caller with a bad body is 401, never a validation error (OCPI 2.2.1 §7.1).
  app.use(`${base}/*`, async (c, next) => {
    if (c.req.path !== `${base}/credentials`) await registeredCaller(c.var.partner);
    await next();
  });
  // Which partners reach which of our sides, in one place (docs/decisions/0082-ocpi-role-gate.md).
  app.use(`${base}/*`, sideGate);
  for (const module of CPO_MODULES) module.mount(app, { base: cpoModulePath(module.identifier), send });
  app.get(`${base}/credentials`, async (c) => reply(c, await getOurCredentials(c.var.partner, c.var.token)));
  app.post(`${base}/credentials`, async (c) => reply(c, await acceptCredentials(c.var.partner, "POST", await body(c), send)));
  app.put(`${base}/credentials`, async (c) => reply(c, await acceptCredentials(c.var.partner, "PUT", await body(c), send)));
  app.delete(`${base}/credentials`, async (c) => reply(c, await dropCredentials(c.var.partner)));

  for (const path of [`${base}/locations/:cc/:pid/:id`, `${base}/locations/:cc/:pid/:id/:evse`, `${base}/locations/:cc/:pid/:id/:evse/:connector`]) {
    app.get(path, async (c) => reply(c, await getLocation(c.var.partner, locationPath(c))));
    app.put(path, async (c) => applied(c, await putLocation(c.var.partner, locationPath(c), await body(c))));
    app.patch(path, async (c) => applied(c, await patchLocation(c.var.partner, locationPath(c), await body(c))));
  }

  const sessionPath = `${base}/sessions/:cc/:pid/:id`;
  app.get(sessionPath, async (c) => reply(c, await getSession(c.var.partner, locationPath(c))));
  app.put(sessionPath, async (c) => applied(c, await putSession(c.var.partner, locationPath(c), await body(c))));
  app.patch(sessionPath, async (c) => applied(c, await patchSession(c.var.partner, locationPath(c), await body(c))));

  const tariffPath = `${base}/tariffs/:cc/:pid/:id`;
  app.get(tariffPath, async (c) => reply(c, await getTariff(c.var.partner, locationPath(c))));
  app.put(tariffPath, async (c) => applied(c, await putTariff(c.var.partner, locationPath(c), await body(c))));
  app.delete(tariffPath, async (c) => applied(c, await deleteTariff(c.var.partner, locationPath(c))));

  app.post(`${base}/cdrs`, async (c) => {
    const { id } = await postCdr(c.var.partner, await body(c));
    const answer = reply(c, undefined, undefined, 201);
    answer.headers.set("Location", `${origin(c)}${cdrPath(id)}`);
    return answer;
  });
  app.get(`${base}/cdrs/:id{[1-9][0-9]{0,14}}`, async (c) => reply(c, await getCdr(c.var.partner, Number(c.req.param("id")))));

  const hubPath = `${base}/hubclientinfo/:cc/:pid`;
  app.get(hubPath, async (c) => reply(c, await getClientInfo(c.var.partner, c.req.param("cc"), c.req.param("pid"))));
  app.put(hubPath, async (c) => applied(c, await putClientInfo(c.var.partner, c.req.param("cc"), c.req.param("pid"), await body(c))));

  app.get(`${base}/tokens`, async (c) => {
    const { tokens, ...page } = await listOurTokens(c.var.partner, c.req.query());
    return pagedReply(c, { ...page, items: tokens });
  });
  app.post(`${base}/tokens/:uid/authorize`, async (c) => {
    const text = await c.req.text();
    let raw: unknown;
    try {
      raw = text.trim() ? JSON.parse(text) : undefined;
    } catch {
      throw invalidParameters("The body is not JSON");
    }
    return reply(c, await authorizeOurToken(c.var.partner, c.req.param("uid"), c.req.query("type"), raw));
  });

  // The asynchronous CommandResult of a command we sent, at the response_url we gave (OCPI 2.2.1 §13.2.2).
  app.post(`${COMMANDS_PATH}/:command/:uid`, async (c) => {
    const { applied } = await receiveCommandResult(c.var.partner, c.req.param("command"), c.req.param("uid"), await body(c));
    return reply(c, undefined, applied ? undefined : "Already recorded: the first result is kept");
  });

  return app;
}

/** The Worker's own instance, calling partners over the network. */
export const ocpiApp = createOcpiApp();
export const isOcpiPath = (pathname: string) => pathname === "/ocpi" || pathname.startsWith("/ocpi/");
