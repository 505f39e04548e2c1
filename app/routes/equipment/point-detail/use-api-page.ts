import { useCallback, useEffect, useState } from "react";
import type { Page } from "../../../../domain/paging";
import { useApi } from "~/lib/api";

/**
 * One page of an API list for a tab of the point page, fetched from the browser when the tab
 * shows (lists answer `{ records, total, current, size }`, filtered and paged on the server).
 */
export function useApiPage<T>(path: string, query: Record<string, string | number | undefined> = {}) {
  const api = useApi();
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [page, setPage] = useState<Page<T>>();
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, current: paging.current, size: paging.size })) {
    if (value !== undefined && String(value) !== "") search.set(key, String(value));
  }
  const url = `${path}?${search}`;

  useEffect(() => {
    let current = true;
    setLoading(true);
    api<Page<T>>("GET", url)
      .then((next) => current && setPage(next))
      .catch(() => current && setPage((previous) => previous ?? { records: [], total: 0, current: 1, size: 10 }))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api, url, version]);

  const onPageChange = useCallback((current: number, size: number) => setPaging({ current, size }), []);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const firstPage = useCallback(() => setPaging((p) => ({ ...p, current: 1 })), []);
  return { page, loading, onPageChange, reload, firstPage };
}
