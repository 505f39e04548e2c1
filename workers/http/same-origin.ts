import { Forbidden } from "../../domain/errors";

/**
 * Cookie-authenticated requests that change anything must come from the console's own origin
 * (docs/rules/access.md "Cookie sessions and origin"); Bearer-token clients are not exposed to CSRF
 * and are not checked. Shared by the API, the console's actions and `/live`.
 */
export function assertSameOrigin(request: Request) {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site && site !== "same-origin" && site !== "none") throw new Forbidden("errors.crossSite");
  const origin = request.headers.get("Origin");
  if (origin && origin !== new URL(request.url).origin) throw new Forbidden("errors.crossSite");
  if (!site && !origin) throw new Forbidden("errors.crossSite");
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
export const isSafeMethod = (method: string) => SAFE.has(method.toUpperCase());
