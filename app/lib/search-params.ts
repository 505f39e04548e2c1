/** A request's search params as a plain object, for a verb's zod query schema to parse. */
export function searchParamsObject(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
