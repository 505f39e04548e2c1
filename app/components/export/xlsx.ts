/**
 * Excel export in the browser (docs/architecture.md "Toolchain": exceljs is too heavy for a
 * Worker): the list is read page by page from the API as filtered on the screen, then written as
 * an xlsx file with `saveSheet` (`~/lib/excel`).
 */

/** Pages of 100 read at most for one export (5 000 rows). */
export const EXPORT_PAGES = 50;

type Api = <T>(method: "GET", path: string) => Promise<T>;

/** Every row of a list as filtered by `params` (paging dropped), page by page; `progress` hears the count so far. */
export async function collectRows<T>(api: Api, path: string, params: URLSearchParams, progress: (count: number) => void, pick?: (data: unknown) => { records: T[]; total: number }): Promise<T[]> {
  const filters = new URLSearchParams(params);
  filters.set("size", "100");
  const rows: T[] = [];
  for (let current = 1; current <= EXPORT_PAGES; current++) {
    progress(rows.length);
    filters.set("current", String(current));
    const data = await api<unknown>("GET", `${path}?${filters}`).catch(() => undefined);
    if (!data) break;
    const chunk = pick ? pick(data) : (data as { records: T[]; total: number });
    rows.push(...chunk.records);
    if (rows.length >= chunk.total || chunk.records.length === 0) break;
  }
  return rows;
}

