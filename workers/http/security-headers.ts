import { TILE_HOSTS } from "../../domain/map-tiles";

/**
 * Headers of every console page (docs/rules/input.md): a CSP with a per-request nonce,
 * nosniff, no framing and no caching. The Vite dev server's module graph needs eval and its own
 * websocket, so development loosens only what it must.
 */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function withSecurityHeaders(response: Response, nonce: string, dev: boolean): Response {
  const headers = new Headers(response.headers);
  const scriptSrc = dev ? `'self' 'nonce-${nonce}' 'unsafe-eval'` : `'self' 'nonce-${nonce}' 'strict-dynamic'`;
  headers.set(
    "Content-Security-Policy",
    [
      "default-src 'self'",
      `script-src ${scriptSrc}`,
      "style-src 'self' 'unsafe-inline'",
      // Map tiles come from the operator's map provider, OpenStreetMap by default (docs/rules/settings.md "Map").
      `img-src 'self' data: blob: ${TILE_HOSTS.join(" ")}`,
      "font-src 'self' data:",
      "connect-src 'self' ws: wss:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
  );
  headers.set("X-Content-Type-Options", "nosniff");
  // Each page carries its own nonce and, once logged in, the operator's data: never cached.
  headers.set("Cache-Control", "no-store");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Answers about one session's data (the API's JSON, `/live`'s refusals): never cached unless the
 * route said otherwise, never sniffed (docs/rules/input.md "Response headers").
 */
export function markPrivate(headers: Headers): void {
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  headers.set("X-Content-Type-Options", "nosniff");
}
