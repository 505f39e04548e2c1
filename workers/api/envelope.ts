import type { Context } from "hono";
import { ZodError } from "zod";
import { AppError, Invalid } from "../../domain/errors";
import type { Language } from "../../domain/languages";
import { sessionRefusalOf } from "../../domain/session-refusals";
import { translator } from "../i18n";

/**
 * The envelope (docs/architecture.md "Errors"): `{ code, msg, data }`, code 200 on success with
 * HTTP 200. Errors carry the catalogue's HTTP status, a business code equal to it, and the message
 * in the request's language; validation errors add `data.fields` (field → message).
 */
export function ok<T>(c: Context, data: T, lang: Language, msgKey = "api.success") {
  return c.json({ code: 200, msg: translator(lang)(msgKey), data }, 200);
}

/** Zod issues as our Invalid error: the first message is the headline, each field keeps its own. */
export function invalidFromZod(error: ZodError): Invalid {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join(".") || "_";
    // Catalogue keys: `validation.*`, or an area's own `<area>.validation.*`.
    if (!fields[path]) fields[path] = /^(\w+\.)?validation\.\w/.test(issue.message) ? issue.message : "validation.invalid";
  }
  const first = Object.values(fields)[0] ?? "validation.invalid";
  return new Invalid(first, {}, fields);
}

const STATUS_KEYS: Record<number, string> = {
  400: "errors.invalid",
  401: "errors.unauthorized",
  403: "errors.forbidden",
  404: "errors.notFound",
  408: "errors.busy",
  500: "errors.server",
};

export function errorBody(error: unknown, lang: Language) {
  const t = translator(lang);
  const appError =
    error instanceof AppError
      ? error
      : error instanceof ZodError
        ? invalidFromZod(error)
        : // Our own failure, not a refusal: the user can only report it (docs/rules/console.md "Messages and toasts").
          new AppError(500, "errors.serverContact");
  const fields = appError.fields
    ? Object.fromEntries(Object.entries(appError.fields).map(([k, v]) => [k, t(v, appError.params)]))
    : undefined;
  const key = appError.key || STATUS_KEYS[appError.status] || "errors.server";
  return {
    status: appError.status,
    body: {
      code: appError.status,
      msg: t(key, appError.params),
      // A 401 names its reason, which the console carries to the login page (docs/rules/sessions.md "Session messages").
      data: fields ? { fields } : appError.status === 401 ? { reason: sessionRefusalOf(key) ?? "errors.unauthorized" } : (appError.data ?? null),
    },
  };
}
