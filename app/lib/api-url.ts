/** A value of a query: left out when null or undefined, written as text otherwise. */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * The URL of one API call (docs/rules/console.md "API client"): each `{name}` of the declared path
 * filled from `params` and encoded, the query written out, then `lang` and, on a GET, the
 * cache-buster `v`. A missing param is the caller's bug and throws.
 */
export function apiUrl(
  origin: string,
  path: string,
  options: { params?: Record<string, string | number>; query?: Record<string, QueryValue> | URLSearchParams; lang: string; cacheBuster?: number },
): URL {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = options.params?.[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(filled, origin);
  const query: [string, QueryValue][] = options.query instanceof URLSearchParams ? [...options.query] : Object.entries(options.query ?? {});
  for (const [key, value] of query) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  url.searchParams.set("lang", options.lang);
  if (options.cacheBuster !== undefined) url.searchParams.set("v", String(options.cacheBuster));
  return url;
}
