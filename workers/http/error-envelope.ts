import type { TFunction } from "i18next";
import { ZodError } from "zod";
import { AppError, Invalid } from "../../domain/errors";
import type { Language } from "../../domain/languages";
import { sessionRefusalOf } from "../../domain/session-refusals";
import { translator } from "../i18n";

/**
 * The envelope of a refusal (docs/architecture.md "Errors"), shared by every door that answers
 * one: the API, the console's loaders and actions, and `/live`. Errors carry the catalogue's HTTP
 * status, a business code equal to it, and the message in the request's language; validation
 * errors add `data.fields` (field → message).
 */

/**
 * Zod issues as field messages, the first of each field kept, each a catalogue key (`validation.*`,
 * or an area's own `<area>.validation.*`) or else the generic one; `prefix` sets apart the rows of
 * an import (`"3."` for its third line).
 */
export function issueFields(issues: ZodError["issues"], fields: Record<string, string> = {}, prefix = "") {
  for (const issue of issues) {
    fields[`${prefix}${issue.path.join(".") || "_"}`] ??= /^(\w+\.)?validation\.\w/.test(issue.message) ? issue.message : "validation.invalid";
  }
  return fields;
}

/** Zod issues as our Invalid error: the first message is the headline, each field keeps its own. */
export function invalidFromZod(error: ZodError): Invalid {
  const fields = issueFields(error.issues);
  const first = Object.values(fields)[0] ?? "validation.invalid";
  return new Invalid(first, {}, fields);
}

/**
 * "Data validation failed" naming the fields at fault (docs/rules/console.md "Forms"): each by its
 * catalogue label (formsHelp.fields), else by its name in the body; list indexes dropped.
 */
export function namedInvalid(paths: string[], t: TFunction): string {
  const names = paths.map((path) => {
    const leaf = path.split(".").filter((part) => !/^\d+$/.test(part)).pop() ?? path;
    return leaf === "_" ? null : t(`formsHelp.fields.${leaf}`, { defaultValue: leaf });
  });
  const listed = [...new Set(names.filter((n): n is string => n !== null))];
  return listed.length === 0 ? t("validation.invalid") : t("formsHelp.validation.invalidNamed", { fields: listed.join(", ") });
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
      msg: appError.fields && key === "validation.invalid" ? namedInvalid(Object.keys(appError.fields), t) : t(key, appError.params),
      // A 401 names its reason, which the console carries to the login page (docs/rules/sessions.md "Session messages").
      data: fields ? { fields } : appError.status === 401 ? { reason: sessionRefusalOf(key) ?? "errors.unauthorized" } : (appError.data ?? null),
    },
  };
}
