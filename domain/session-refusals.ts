/**
 * Why a request's session was refused (docs/rules/sessions.md "Session messages"): the catalogue
 * key of the 401. The API sends it as `data.reason` beside the translated `msg`, so the console
 * can carry it to the login page and say it there once.
 */
export const SESSION_REFUSALS = ["errors.unauthorized", "errors.sessionExpired", "errors.refreshFailed"] as const;
export type SessionRefusal = (typeof SESSION_REFUSALS)[number];

/** A reason read from the wire or the address bar: one of ours, or nothing. */
export function sessionRefusalOf(raw: unknown): SessionRefusal | undefined {
  return SESSION_REFUSALS.find((key) => key === raw);
}
