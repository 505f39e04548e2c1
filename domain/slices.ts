/**
 * A list cut into slices of at most `size` items. D1 binds at most 100 parameters per statement
 * and a Durable Object's SQLite as many, so long lists (ids, serial numbers, rows of a multi-row
 * insert) go one slice per statement; queues take at most 100 messages per `sendBatch`
 * (docs/rules/lists.md "D1's 100 parameters").
 */
export function slices<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
