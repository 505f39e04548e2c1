import { localBound } from "../../domain/time";

/** A request's search params as a plain object, for a verb's zod query schema to parse. */
export function searchParamsObject(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}

/**
 * A list's `from`/`to` as typed in the operator's time zone (a day or a local date-time, `to`
 * included: docs/rules/lists.md "Filters and sorting") → the UTC instants (ISO) a verb taking
 * instants filters by. Text that is neither goes on as typed, for the verb to refuse.
 */
export function localPeriodParams(raw: Record<string, string>, timeZone: string): { from?: string; to?: string } {
  const instant = (text: string | undefined, edge: "from" | "to") => {
    if (!text) return undefined;
    const at = localBound(text, timeZone, edge);
    return at === undefined ? text : new Date(at).toISOString();
  };
  return { from: instant(raw.from, "from"), to: instant(raw.to, "to") };
}

/** What a list's export asks the API for: the loader's filter (times already in UTC), without the page. */
export function exportQueryOf(filter: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== "current" && entry[0] !== "size"));
}
