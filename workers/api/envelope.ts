import type { Context } from "hono";
import type { Language } from "../../domain/languages";
import { translator } from "../i18n";

/**
 * The envelope (docs/architecture.md "Errors"): `{ code, msg, data }`, code 200 on success with
 * HTTP 200. A refusal's envelope is built by `errorBody` (`workers/http/error-envelope.ts`), which
 * the console and `/live` share with the API.
 */
export function ok<T>(c: Context, data: T, lang: Language, msgKey = "api.success") {
  return c.json({ code: 200, msg: translator(lang)(msgKey), data }, 200);
}
