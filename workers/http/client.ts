/**
 * The client address used for login lockouts and the operation log (docs/rules/sessions.md).
 * `CF-Connecting-IP` is set by Cloudflare's edge and cannot be forged through it, so it is
 * trusted only when the configuration says the Worker sits behind Cloudflare
 * (`BEHIND_CLOUDFLARE`, true in wrangler.toml, false in .dev.vars). Anywhere else any client
 * could send the header, so every client counts as one and a lockout keys on the account alone.
 */
export const UNKNOWN_CLIENT = "local";

export function clientAddress(request: Request, env: { BEHIND_CLOUDFLARE?: string }): string {
  if (String(env.BEHIND_CLOUDFLARE) !== "true") return UNKNOWN_CLIENT;
  return request.headers.get("CF-Connecting-IP") ?? UNKNOWN_CLIENT;
}
