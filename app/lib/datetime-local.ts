/**
 * `datetime-local` fields give a wall-clock time in the browser's zone; the API takes ISO instants
 * (docs/architecture.md "Time, money and units"). One pair of conversions for every form.
 */

/** A `datetime-local` value as an ISO instant, or nothing when empty. */
export const instantOf = (value: string) => (value ? new Date(value).toISOString() : undefined);

/** An ISO instant as a `datetime-local` value in the browser's zone ("" for none). */
export function localValueOf(iso: string | null) {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
