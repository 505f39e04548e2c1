/**
 * Excel export in the browser (docs/architecture.md "Toolchain": exceljs is too heavy for a
 * Worker): the list is read page by page from the API as filtered on the screen, then written as
 * an xlsx file with `saveSheet` (`~/lib/excel`).
 */

import type { ApiClient, ListPath, RowOf } from "~/lib/api";

/** Pages of 100 read at most for one export (5 000 rows). */
export const EXPORT_PAGES = 50;

/** Every row of a list as filtered by `params` (paging dropped), page by page; `progress` hears the count so far. */
export async function collectRows<P extends ListPath>(api: ApiClient, path: P, params: URLSearchParams, progress: (count: number) => void): Promise<RowOf<P>[]> {
  const filters = new URLSearchParams(params);
  filters.set("size", "100");
  const rows: RowOf<P>[] = [];
  for (let current = 1; current <= EXPORT_PAGES; current++) {
    progress(rows.length);
    filters.set("current", String(current));
    const data = await api.call("get", path, { query: filters }).catch(() => undefined);
    if (!data) break;
    // `P` is a list's path, so its answer is a page of its rows (`ListPath`); TypeScript cannot follow a generic path's answer.
    const chunk = data as unknown as { records: RowOf<P>[]; total: number };
    rows.push(...chunk.records);
    if (rows.length >= chunk.total || chunk.records.length === 0) break;
  }
  return rows;
}
