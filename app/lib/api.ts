import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { IDEMPOTENCY_HEADER } from "../../domain/idempotency";
import { sessionRefusalOf, type SessionRefusal } from "../../domain/session-refusals";
import { notifyHttpError } from "~/components/ui/toast";

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

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** `idempotencyKey`: a money form's key for this submit (`useIdempotencyKey`, docs/rules/input.md "Idempotency keys"). */
export interface RequestOptions {
  idempotencyKey?: string;
}

async function request<T>(t: TFunction, lang: string, method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const url = new URL(path, window.location.origin);
  url.searchParams.set("lang", lang);
  if (method === "GET") url.searchParams.set("v", String(Date.now()));
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
      method,
      credentials: "same-origin",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    envelope = (await response.json().catch(() => null)) as typeof envelope;
  } catch {
    notifyHttpError(t, timedOut ? "timeout" : "none");
    throw new ApiError(0, timedOut ? "timeout" : "no response");
  } finally {
    clearTimeout(timer);
  }
  const code = envelope?.code;
  if (response.ok && (code === undefined || code === 200 || code === 1014)) return envelope?.data as T;
  if (response.status === 401) {
    leaveForLogin(sessionRefusalOf((envelope?.data as { reason?: unknown } | null)?.reason) ?? "errors.unauthorized");
    throw new ApiError(401, envelope?.msg ?? "");
  }
  notifyHttpError(t, response.status, envelope?.msg);
  const fields = (envelope?.data as { fields?: Record<string, string> } | null)?.fields;
  throw new ApiError(response.status, envelope?.msg ?? "", fields, envelope?.data ?? null);
}

/** `const api = useApi(); const page = await api<Page<Role>>("GET", "/user-service/role?current=2")`. */
export function useApi() {
  const { t, i18n } = useTranslation();
  return useMemo(
    () =>
      <T>(method: Method, path: string, body?: unknown, options?: RequestOptions) =>
        request<T>(t, i18n.language, method, path, body, options),
    [t, i18n.language],
  );
}
