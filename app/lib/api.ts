import type { TFunction } from "i18next";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { IDEMPOTENCY_HEADER } from "../../domain/idempotency";
import { sessionRefusalOf, type SessionRefusal } from "../../domain/session-refusals";
import { notifyHttpError } from "~/components/ui/toast";
import { apiUrl, type QueryValue } from "./api-url";
import type { Route } from "../../workers/api/app";
import type { ApiRoute } from "../../workers/api/routes";

/**
 * The browser's client for the JSON API (docs/rules/console.md "API client"): adds `lang` and, on GET, the cache-buster
 * `v`; reads `data` from the envelope; code 200 (or 1014) is success, anything else shows one
 * warning with the server's message and rejects. A 401 goes to login, which says why.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    /** The envelope's `data` of a refusal, such as a charger's reply to a refused command (409). */
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/** A request that takes longer than this fails with 'Loading timeout' (docs/rules/console.md "API client"). */
const TIMEOUT_MS = 30_000;

function cookie(name: string): string | undefined {
  return document.cookie
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([key]) => key === name)?.[1];
}

let leaving = false;

/**
 * A refused session ends the page: the user goes to the remembered operator's login (or
 * homePage), which says why once, however many requests were refused meanwhile
 * (docs/rules/console.md "Messages and toasts").
 */
function leaveForLogin(reason: SessionRefusal) {
  if (leaving) return;
  leaving = true;
  const operatorCode = cookie("operatorCode");
  window.location.assign(`${operatorCode ? `/${operatorCode}/login` : "/homePage"}?msg=${reason}`);
}

type Method = ApiRoute["method"];

/**
 * Every route of a method by its path (a route declared for several paths under each), built once
 * per method: a path's route is one lookup, and a generic helper's path (`P extends ListPath`) is
 * checked against a plain union of paths, not against every route again (`npm run typecheck`
 * spent half its time there).
 */
type RoutesByPath<M extends Method> = { [R in Extract<ApiRoute, { method: M }> as R["path"]]: R };
interface RouteTable {
  get: RoutesByPath<"get">;
  post: RoutesByPath<"post">;
  put: RoutesByPath<"put">;
  delete: RoutesByPath<"delete">;
}
type RouteAt<M extends Method, P extends string> = Extract<RouteTable[M][P & keyof RouteTable[M]], Route>;
type TypesOf<R extends Route> = NonNullable<R["types"]>;

/** The paths the API declares for a method, as in its OpenAPI document: `/station-service/alarm/{id}/dispose`. */
export type ApiPath<M extends Method> = keyof RouteTable[M] & string;

/** The `{name}` segments of a path. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** The paths of a method whose answer is a `Shape`: what a generic helper (a picker, a list tab, an export) may be given. */
export type ApiPathTo<M extends Method, Shape> = { [P in ApiPath<M>]: ApiResult<M, P> extends Shape ? P : never }[ApiPath<M>];

/** The GET routes that answer a page of records (a list, its export, a tab's table), and the record of each. */
export type ListPath = ApiPathTo<"get", { records: readonly unknown[]; total: number }>;
export type RowOf<P extends ListPath> = ApiResult<"get", P> extends { records: readonly (infer Row)[] } ? Row : never;

/** What a route answers in the envelope's `data`. */
export type ApiResult<M extends Method, P extends string> = TypesOf<RouteAt<M, P>>["result"];
/** The query a route reads (its zod schema's input). */
export type ApiQuery<M extends Method, P extends string> = TypesOf<RouteAt<M, P>>["query"];
/** The JSON body a route reads (its zod schema's input). */
export type ApiBody<M extends Method, P extends string> = TypesOf<RouteAt<M, P>>["body"];

/** `idempotencyKey`: a money form's key for this submit (`useIdempotencyKey`, docs/rules/input.md "Idempotency keys"). */
export interface RequestOptions {
  idempotencyKey?: string;
}

/** The options of one call: `params` for each `{name}` of the path, `query`, `body`, as the route declares them. */
type CallOptions<R extends Route> = RequestOptions &
  ([ParamNames<R["path"]>] extends [never] ? { params?: never } : { params: Record<ParamNames<R["path"]>, string | number> }) &
  (TypesOf<R>["query"] extends undefined ? { query?: never } : Partial<TypesOf<R>["query"]> extends TypesOf<R>["query"] ? { query?: QueryOf<R> } : { query: QueryOf<R> }) &
  (TypesOf<R>["body"] extends undefined ? { body?: never } : { body: TypesOf<R>["body"] });

/** A route's query, or a screen's own search parameters passed on as they are (a list's filters to its export). */
type QueryOf<R extends Route> = TypesOf<R>["query"] | URLSearchParams;

/** Options may be left out when nothing in them is required. */
type CallArgs<R extends Route> = Partial<CallOptions<R>> extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

type Caller<M extends Method> = <P extends ApiPath<M>>(path: P, ...options: CallArgs<RouteAt<M, P>>) => Promise<ApiResult<M, P>>;

/** The options of a call whose path a generic helper (a list tab, a picker, an export) takes from its caller. */
export interface LooseOptions extends RequestOptions {
  params?: Record<string, string | number>;
  query?: Record<string, QueryValue> | URLSearchParams;
  body?: unknown;
}

export interface ApiClient {
  get: Caller<"get">;
  post: Caller<"post">;
  put: Caller<"put">;
  delete: Caller<"delete">;
  /** For a helper given its path by its caller: the path is still one the API declares, the result its route's. */
  call: <M extends Method, P extends ApiPath<M>>(method: M, path: P, options?: LooseOptions) => Promise<ApiResult<M, P>>;
}

/** `t` null: a public page, which shows a refusal itself (no toast, no login). */
async function request(t: TFunction | null, lang: string, method: Method, path: string, options: LooseOptions = {}): Promise<unknown> {
  const url = apiUrl(window.location.origin, path, { ...options, lang, cacheBuster: method === "get" ? Date.now() : undefined });
  const { body } = options;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
  // A timer rather than AbortSignal.timeout, so that the time-out runs on the page's clock.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, TIMEOUT_MS);
  let response: Response;
  let envelope: { code?: number; msg?: string; data?: unknown } | null;
  try {
    response = await fetch(url, {
      method: method.toUpperCase(),
      credentials: "same-origin",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    envelope = (await response.json().catch(() => null)) as typeof envelope;
  } catch {
    if (t) notifyHttpError(t, timedOut ? "timeout" : "none");
    throw new ApiError(0, timedOut ? "timeout" : "no response");
  } finally {
    clearTimeout(timer);
  }
  const code = envelope?.code;
  if (response.ok && (code === undefined || code === 200 || code === 1014)) return envelope?.data;
  if (response.status === 401 && t) {
    leaveForLogin(sessionRefusalOf((envelope?.data as { reason?: unknown } | null)?.reason) ?? "errors.unauthorized");
    throw new ApiError(401, envelope?.msg ?? "");
  }
  if (t) notifyHttpError(t, response.status, envelope?.msg);
  const fields = (envelope?.data as { fields?: Record<string, string> } | null)?.fields;
  throw new ApiError(response.status, envelope?.msg ?? "", fields, envelope?.data ?? null);
}

function clientOf(t: TFunction | null, lang: string): ApiClient {
  // The route types are checked at each call; the request itself is one for every route.
  const caller = (method: Method) => ((path: string, options?: LooseOptions) => request(t, lang, method, path, options)) as never;
  return {
    get: caller("get"),
    post: caller("post"),
    put: caller("put"),
    delete: caller("delete"),
    call: (method, path, options) => request(t, lang, method, path, options) as never,
  };
}

/**
 * The API client, typed by the API's own routes (`workers/api/routes.ts`): `api.get("/station-service/alarm", { query })`,
 * `api.put("/station-service/alarm/{id}/dispose", { params: { id }, body })`. The answer is what the route's handler returns.
 */
export function useApi(): ApiClient {
  const { t, i18n } = useTranslation();
  return useMemo(() => clientOf(t, i18n.language), [t, i18n.language]);
}

/**
 * The same client for the public pages (a charger's page, its ad-hoc panel, feedback): they show a
 * refusal's message where it happened, so nothing toasts and a 401 leads to no login.
 */
export function usePublicApi(): ApiClient {
  const { i18n } = useTranslation();
  return useMemo(() => clientOf(null, i18n.language), [i18n.language]);
}

/**
 * A console call behind a control that waits for it: `busy` while `run`'s work goes on. A refusal
 * or a lost connection has already been shown by the client (one toast), so the work says only
 * what success does; anything but an `ApiError` is a fault of the page and is thrown on.
 */
export function useBusyCall(): [busy: boolean, run: (work: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
