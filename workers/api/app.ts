import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z, type ZodType } from "zod";
import { createDb } from "../../db/client";
import { Forbidden, NotFound, Unauthorized } from "../../domain/errors";
import type { Language } from "../../domain/languages";
import { readCookie } from "../http/cookies";
import { clientAddress } from "../http/client";
import { requestLanguage } from "../i18n";
import { contextFromToken, requireMenu, type Ctx, type PublicCtx } from "../services/context";
import { errorBody, ok } from "./envelope";
import { assertSameOrigin, isSafeMethod } from "./security";

export type ApiEnv = { Bindings: Env; Variables: { lang: Language } };
export const api = new OpenAPIHono<ApiEnv>();

api.use(async (c, next) => {
  c.set("lang", requestLanguage(c.req.raw));
  await next();
});

/** Typed errors become the envelope here and nowhere else (CONVENTIONS.md 6). */
api.onError((error, c) => {
  const { status, body } = errorBody(error, c.get("lang") ?? "en");
  // A charger that did not answer (504) is not the server failing.
  if (status >= 500 && status !== 504) console.error(error);
  return c.json(body, status as 400);
});
api.notFound((c) => c.json(errorBody(new NotFound("errors.noRoute"), c.get("lang") ?? "en").body, 404));

export function publicCtx(c: Context<ApiEnv>, body?: unknown): PublicCtx {
  const request = c.req.raw;
  return {
    db: createDb(c.env.DB),
    env: c.env,
    lang: c.get("lang"),
    now: Date.now,
    request: {
      ip: clientAddress(request),
      url: new URL(request.url).pathname,
      method: request.method,
      userAgent: request.headers.get("User-Agent"),
      body,
    },
  };
}

/** Bearer for API clients (checked first); the console's HttpOnly cookie otherwise. */
export function sessionToken(c: Context<ApiEnv>): { token: string; viaCookie: boolean } | undefined {
  const header = c.req.header("Authorization");
  if (header?.startsWith("Bearer ")) return { token: header.slice(7).trim(), viaCookie: false };
  const cookie = readCookie(c.req.raw, c.env.SESSION_COOKIE);
  return cookie ? { token: cookie, viaCookie: true } : undefined;
}

/** Verbs a user with an initial password may still call before changing it. */
const ALLOWED_BEFORE_PASSWORD_CHANGE = new Set(["person.read", "person.password", "auth.session"]);

/** Who may call a verb: anyone, any session, or a session holding one of these menu codes. */
type Access = "public" | "session" | { menu: string | string[] };

interface RouteSpec<P extends ZodType, Q extends ZodType, B extends ZodType> {
  method: "get" | "post" | "put" | "delete";
  /** OpenAPI style: `/user-service/role/{id}`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  /** Groups verbs for the initial-password rule. */
  scope?: "person.read" | "person.password" | "auth.session";
  params?: P;
  query?: Q;
  body?: B;
  /** Commands a charger from a GET (SPEC.md §7): checked like a mutation. */
  mutating?: boolean;
}

type Input<P, Q, B> = { params: P; query: Q; body: B };

/**
 * Declares one API verb: documents it in /openapi.json, parses params, query and body with
 * its zod schemas, builds the context, checks session, origin and menu permission, and wraps
 * the verb's result in the envelope. Route modules stay a few lines each.
 */
export function route<P extends ZodType, Q extends ZodType, B extends ZodType>(
  spec: RouteSpec<P, Q, B> & { access: "public" },
  handler: (ctx: PublicCtx, input: Input<z.output<P>, z.output<Q>, z.output<B>>, c: Context<ApiEnv>) => Promise<unknown>,
): void;
export function route<P extends ZodType = ZodType<unknown>, Q extends ZodType = ZodType<unknown>, B extends ZodType = ZodType<unknown>>(
  spec: RouteSpec<P, Q, B>,
  handler: (ctx: Ctx & PublicCtx, input: Input<z.output<P>, z.output<Q>, z.output<B>>) => Promise<unknown>,
): void;
export function route(spec: RouteSpec<ZodType, ZodType, ZodType>, handler: (...args: never[]) => Promise<unknown>) {
  api.openAPIRegistry.registerPath({
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tags: [spec.tag],
    security: spec.access === "public" ? [] : [{ bearer: [] }],
    request: {
      params: spec.params as never,
      query: spec.query as never,
      body: spec.body ? { content: { "application/json": { schema: spec.body as never } } } : undefined,
    },
    responses: {
      200: { description: "`{ code: 200, msg, data }`" },
      400: { description: "Invalid input (`data.fields` names each field's message)" },
      401: { description: "No session" },
      403: { description: "No permission" },
      404: { description: "Not found, or another tenant's" },
    },
  });
  const honoPath = spec.path.replace(/\{(\w+)\}/g, ":$1");
  api.on(spec.method.toUpperCase(), honoPath, async (c) => {
    const params = spec.params ? spec.params.parse(c.req.param()) : c.req.param();
    const query = spec.query ? spec.query.parse(c.req.query()) : c.req.query();
    const rawBody = spec.body ? await c.req.json().catch(() => undefined) : undefined;
    const body = spec.body ? spec.body.parse(rawBody ?? {}) : undefined;
    const base = publicCtx(c, rawBody);
    const input = { params, query, body };
    if (spec.access === "public") {
      return ok(c, await (handler as (...a: unknown[]) => Promise<unknown>)(base, input, c), base.lang);
    }
    const session = sessionToken(c);
    if (!session) throw new Unauthorized();
    if (session.viaCookie && (!isSafeMethod(spec.method) || spec.mutating)) assertSameOrigin(c.req.raw);
    const ctx = await contextFromToken(base, session.token);
    if (ctx.actor.mustChangePassword && !(spec.scope && ALLOWED_BEFORE_PASSWORD_CHANGE.has(spec.scope))) {
      throw new Forbidden("errors.changePasswordFirst");
    }
    if (typeof spec.access === "object") requireMenu(ctx, spec.access.menu);
    return ok(c, await (handler as (...a: unknown[]) => Promise<unknown>)(ctx, input, c), base.lang);
  });
}

/** `{id}` path parameter of a record. */
export const idParam = z.object({ id: z.coerce.number().int().positive() });
