import { Invalid, NotFound } from "../../domain/errors";
import { pathId, recordId } from "../../domain/schemas/numbers";
import { readJsonBody } from "../../workers/http/json-body";

/**
 * The console's actions and loaders read their input as the API does (docs/rules/input.md
 * "Console input"): the same strict JSON body, the same path ids, ids in bodies as whole numbers.
 * Wire input is parsed, never cast.
 */

/**
 * An action's JSON body. A missing, empty, malformed, `null` or non-JSON body is the API's 400
 * with its localized message, one over 1 MB its 413; call it inside the action's `try`, so that
 * `actionError` answers it as the action's usual error, and nothing has changed.
 */
export function actionJson<T = Record<string, unknown>>(request: Request): Promise<T> {
  return readJsonBody(request) as Promise<T>;
}

/**
 * An action's form. A body that does not read as the form it claims (a multipart body without
 * its boundary, JSON or text where a form is read) is a 400 with a localized message, never a
 * 500 from `request.formData()`; call it inside the action's `try`, as `actionJson`. Outside it,
 * `workers/http/page-errors.ts` answers the 400 (docs/rules/input.md "Console input").
 */
export async function actionForm(request: Pick<Request, "formData">): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Invalid("errors.formMalformed");
  }
}

/**
 * A record id from the address (`params.id`): decimal digits only, as the API takes them. Any
 * other address (`0x3`, `3.0`, ` 3`) names no record: the 404 page, inside the shell.
 */
export function routeId(value: string | undefined): number {
  const parsed = pathId.safeParse(value);
  if (!parsed.success) throw new NotFound();
  return parsed.data;
}

const bodyIdSchema = recordId();

/**
 * A record id posted in a body or a form (`id`, `itemId`): a whole number of at least 1, or its
 * decimal digits; `true`, `"0x3"` or an empty field is a 400, never record 1 or 3.
 */
export function bodyId(value: unknown): number {
  return bodyIdSchema.parse(value);
}

/** A record id a form may leave out (blank when adding a record); present, it is `bodyId`'s. */
export function optionalBodyId(value: unknown): number | undefined {
  return value === null || value === undefined || value === "" ? undefined : bodyId(value);
}
