import type { Page } from "../domain/paging";
import { IN_LIST, slices } from "./statements";

/** What a list asks for: `current` from 1, `size` from 1 to 100. */
export interface PageRequest {
  current: number;
  size: number;
}

/**
 * One page of a list and the total, read on the server (docs/rules/lists.md). The rows and
 * the count are two queries run side by side; `rows` receives the window to read.
 */
export async function pageOf<T>(
  request: PageRequest,
  rows: (window: { limit: number; offset: number }) => Promise<T[]>,
  total: () => Promise<number>,
): Promise<Page<T>> {
  const [records, count] = await Promise.all([rows({ limit: request.size, offset: (request.current - 1) * request.size }), total()]);
  return { records, total: count, current: request.current, size: request.size };
}

/**
 * The rows that belong to a page's records (connectors of points, points of stations). D1
 * binds at most 100 parameters per statement, so a page of 100 ids is read in slices that
 * each leave room for the tenant filter and a few more.
 */
export async function rowsFor<Id, T>(ids: readonly Id[], read: (slice: Id[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(ids)];
  return (await Promise.all(slices(unique, IN_LIST).map(read))).flat();
}

/** Groups child rows under their parent's key, keeping their order. */
export function groupBy<K, T>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
