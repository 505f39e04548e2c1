/**
 * A stored secret belongs to the place it was entered for (docs/rules/settings.md "Secrets at
 * rest", the destination rule): a payment channel's processor and gateway, a mail server's host,
 * the invoice system's URL, a roaming platform's versions URL. When a record's destination
 * changes, its stored secrets are not carried over: the request enters them anew, or they are
 * cleared. Otherwise anyone who may edit the address, but was never told the secret, could have
 * the product send it to a server of their choosing.
 */

/** The parts of a record that say where its secrets are sent. */
export type Destination = readonly (string | number | null | undefined)[];

/** Blank and missing parts are the same (the processor's public API, no endpoint). */
const part = (value: Destination[number]) => (value === null || value === undefined ? "" : String(value).trim());

/** Whether the destination differs; nothing stored yet (`before` undefined) moves nothing. */
export function destinationMoved(before: Destination | undefined, after: Destination): boolean {
  if (!before) return false;
  return before.length !== after.length || before.some((value, i) => part(value) !== part(after[i]));
}

/**
 * The stored secrets an update may keep: all of them while the destination stays, `cleared`
 * once it moves. What the request enters anew is applied on top by the caller.
 */
export function secretsKept<T>(before: Destination | undefined, after: Destination, stored: T, cleared: T): T {
  return destinationMoved(before, after) ? cleared : stored;
}
