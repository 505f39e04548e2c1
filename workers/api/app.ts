import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z, type ZodType } from "zod";
import { NotFound, Unauthorized } from "../../domain/errors";
import { IDEMPOTENCY_HEADER } from "../../domain/idempotency";
import type { Language } from "../../domain/languages";
import type { SessionRefusal } from "../../domain/session-refusals";
import { pathId } from "../../domain/schemas/numbers";
import { limitBodies, signedInUploads } from "../http/body-limit";
import { readCookie } from "../http/cookies";
import { readJsonBody } from "../http/json-body";
import { reportError } from "../http/report-error";
import { errorBody } from "../http/error-envelope";
import { assertSameOrigin, isSafeMethod } from "../http/same-origin";
import { markPrivate } from "../http/security-headers";
import { requestLanguage } from "../i18n";
import { contextFromToken, publicCtxOf, type PublicCtx, type UserCtx } from "../services/context";
import { once } from "../services/idempotency";
import { assertAdmitted, type VerbAccess } from "../services/verb";
import { ok } from "./envelope";

export type ApiEnv = { Bindings: Env; Variables: { lang: Language } };
export const api = new OpenAPIHono<ApiEnv>();

api.use(async (c, next) => {
  c.set("lang", requestLanguage(c.req.raw));
  await next();
  markPrivate(c.res.headers);
});
/** Every body, JSON or not (the payment webhook's raw text, uploads), is limited before it is read (docs/rules/input.md "Body size"). */
api.use(limitBodies(signedInUploads));

/** Typed errors become the envelope here and nowhere else (docs/architecture.md "Errors"). */
api.onError((error, c) => {
  const { status, body } = errorBody(error, c.get("lang") ?? "en");
  // A charger that did not answer (504) is not the server failing.
  if (status >= 500 && status !== 504) reportError("api", error, { url: c.req.path });
  return c.json(body, status as 400);
});
api.notFound((c) => c.json(errorBody(new NotFound("errors.noRoute"), c.get("lang") ?? "en").body, 404));

/** Bearer for API clients (checked first); the console's HttpOnly cookie otherwise. */
export function sessionToken(c: Context<ApiEnv>): { token: string; viaCookie: boolean } | undefined {
  const header = c.req.header("Authorization");
  if (header?.startsWith("Bearer ")) return { token: header.slice(7).trim(), viaCookie: false };
  const cookie = readCookie(c.req.raw, c.env.SESSION_COOKIE);
  return cookie ? { token: cookie, viaCookie: true } : undefined;
}

/**
 * The user context of a request, checked in the order that leaks least: a session (401), the
 * console's own origin for a cookie session that changes anything (403), then the verb's
 * declaration (403: initial password, menu). Only then is any input read, so an unauthenticated
 * caller never learns which fields a route takes.
 */
export async function userContext(c: Context<ApiEnv>, access: VerbAccess, unsafe: boolean, refusedAs?: SessionRefusal): Promise<UserCtx> {
  const session = sessionToken(c);
  if (!session) throw new Unauthorized(refusedAs);
  if (session.viaCookie && (unsafe || access.mutates)) assertSameOrigin(c.req.raw);
  const ctx = await contextFromToken(publicCtxOf(c.req.raw, c.env, undefined, (work) => c.executionCtx.waitUntil(work)), session.token).catch((error: unknown) => {
    throw refusedAs && error instanceof Unauthorized ? new Unauthorized(refusedAs) : error;
  });
  assertAdmitted(access, ctx);
  return ctx;
}

export type AnyVerb = ((ctx: never, ...args: never[]) => Promise<unknown>) & { readonly access: VerbAccess };
/** The context the handler gets: public for a public verb, a user's otherwise. */
type CtxFor<V extends AnyVerb> = Parameters<V>[0] extends PublicCtx ? PublicCtx : UserCtx;

export type RouteMethod = "get" | "post" | "put" | "delete";

interface RouteSpec<V extends AnyVerb, M extends RouteMethod, Path extends string, P extends ZodType, Q extends ZodType, B extends ZodType> {
  method: M;
  /** OpenAPI style: `/user-service/role/{id}`. */
  path: Path;
  summary: string;
  tag: string;
  /** The verb the route calls: its declaration says who may call it. */
  verb: V;
  params?: P;
  query?: Q;
  /** A JSON body; declaring it makes it required (docs/rules/input.md). */
  body?: B;
  /** The 401's message when the session is refused, if not the usual one (docs/rules/sessions.md "Session messages"). */
  refusedAs?: SessionRefusal;
}

type Input<P, Q, B> = { params: P; query: Q; body: B };

/**
 * What a route declares, as types for the console's client (docs/rules/console.md "API client"): its
 * literal method and path, the zod input of its query and body (`undefined` when it takes none) and
 * what its handler answers. The types field is never set: only `import type` reads it.
 */
export interface Route<M extends RouteMethod = RouteMethod, Path extends string = string, Query = unknown, Body = unknown, Result = unknown> {
  readonly method: M;
  readonly path: Path;
  readonly types?: { query: Query; body: Body; result: Result };
}

/** The zod input of an optional schema; `undefined` when the route declares none. */
export type InputOf<S extends ZodType> = unknown extends z.input<S> ? undefined : z.input<S>;

/** The header a money-moving route documents (docs/rules/input.md "Idempotency keys"). */
const IDEMPOTENCY_HEADERS = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .max(255)
    .optional()
    .meta({ description: "1 to 255 printable characters; the same key and body within 24 h answers the first result again and moves nothing; another body is 409" }),
});

/** The access line of a route's OpenAPI description, from its verb's declaration. */
export const describeAccess = (access: VerbAccess) =>
  access.actors.includes("public")
    ? "Public."
    : access.menu === "session"
      ? "Any session."
      : `Menus (one of): ${access.menu.join(", ")}.${access.mutates ? " Acts: a cookie session must come from the console's origin." : ""}`;

/**
 * Declares one API route: documents it in /openapi.json from its schemas and its verb's
 * declaration, checks session, origin and permission, parses params, query and body with its zod
 * schemas, and wraps the result in the envelope. Route modules stay a few lines each.
 */
export function route<
  V extends AnyVerb,
  M extends RouteMethod,
  Path extends string,
  R extends Promise<unknown>,
  P extends ZodType = ZodType<unknown>,
  Q extends ZodType = ZodType<unknown>,
  B extends ZodType = ZodType<unknown>,
>(
  spec: RouteSpec<V, M, Path, P, Q, B>,
  handler: (ctx: CtxFor<V>, input: Input<z.output<P>, z.output<Q>, z.output<B>>, c: Context<ApiEnv>) => R,
): Route<M, Path, InputOf<Q>, InputOf<B>, Awaited<R>> {
  const { access } = spec.verb;
  const isPublic = access.actors.includes("public");
  api.openAPIRegistry.registerPath({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: describeAccess(access),
    tags: [spec.tag],
    security: isPublic ? [] : [{ bearer: [] }],
    "x-menu": access.menu === "session" ? [] : [...access.menu],
    request: {
      params: spec.params as never,
      query: spec.query as never,
      headers: access.movesMoney ? (IDEMPOTENCY_HEADERS as never) : undefined,
      body: spec.body ? { required: true, content: { "application/json": { schema: spec.body as never } } } : undefined,
    },
    responses: {
      200: { description: "`{ code: 200, msg, data }`" },
      400: { description: "Invalid input (`data.fields` names each field's message), or a missing or malformed JSON body" },
      401: { description: "No session" },
      403: { description: "No permission" },
      404: { description: "Not found, or another tenant's" },
      413: { description: "A JSON body over 1 MB" },
      ...(access.movesMoney ? { 409: { description: "A business rule refuses; or the Idempotency-Key was used for another request, or its first request still runs" } } : {}),
    },
  });
  const honoPath = spec.path.replace(/\{(\w+)\}/g, ":$1");
  api.on(spec.method.toUpperCase(), honoPath, async (c) => {
    const ctx = isPublic ? publicCtxOf(c.req.raw, c.env) : await userContext(c, access, !isSafeMethod(spec.method), spec.refusedAs);
    const params = spec.params ? spec.params.parse(c.req.param()) : c.req.param();
    const query = spec.query ? spec.query.parse(c.req.query()) : c.req.query();
    const rawBody = spec.body ? await readJsonBody(c.req.raw) : undefined;
    const body = spec.body ? spec.body.parse(rawBody) : undefined;
    ctx.request.body = rawBody;
    const input = { params, query, body } as Input<z.output<P>, z.output<Q>, z.output<B>>;
    const run = () => handler(ctx as CtxFor<V>, input, c);
    if (!access.movesMoney) return ok(c, await run(), ctx.lang);
    // A money-moving verb is a user's (docs/rules/input.md "Idempotency keys").
    const { value, replayed } = await once(ctx as UserCtx, c.req.raw, rawBody, run);
    if (replayed) c.header("Idempotent-Replayed", "true");
    return ok(c, value, ctx.lang);
  });
  return { method: spec.method, path: spec.path };
}

/**
 * Documents a route that takes one file as multipart form data (field `file`); such routes are
 * declared by hand because `route()` reads JSON bodies, and pass the same checks through
 * `userContext`.
 */
export function documentUpload(spec: { path: string; summary: string; tag: string; access: VerbAccess; query: ZodType; ok: string; refused: string }) {
  api.openAPIRegistry.registerPath({
    method: "post",
    path: spec.path,
    summary: spec.summary,
    description: describeAccess(spec.access),
    "x-menu": [...(spec.access.menu === "session" ? [] : spec.access.menu)],
    tags: [spec.tag],
    security: [{ bearer: [] }],
    request: {
      query: spec.query as never,
      body: { content: { "multipart/form-data": { schema: z.object({ file: z.string().meta({ format: "binary" }) }) as never } } },
    },
    responses: {
      200: { description: spec.ok },
      400: { description: spec.refused },
      401: { description: "No session" },
      403: { description: "No permission" },
    },
  });
}

/** `{id}` path parameter of a record: decimal digits only. */
export const idParam = z.object({ id: pathId });
