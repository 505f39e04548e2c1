import { useCallback, useEffect, useState } from "react";
import type { Page } from "../../../../domain/paging";
import { useApi, type ApiResult, type ListPath } from "~/lib/api";

/**
 * One page of an API list for a tab of the point page, fetched from the browser when the tab
 * shows (lists answer `{ records, total, current, size }`, filtered and paged on the server).
 * `params` fills the path's `{name}`s; empty filters are left out of the query.
 */
export function useApiPage<P extends ListPath>(path: P, { params, query = {} }: { params?: Record<string, string | number>; query?: Record<string, string | number | undefined> } = {}) {
  const api = useApi();
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [page, setPage] = useState<ApiResult<"get", P>>();
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const filters = Object.fromEntries(Object.entries({ ...query, ...paging }).filter(([, value]) => value !== undefined && String(value) !== ""));
  // One key for what the request depends on, so that a new object with the same values does not fetch again.
  const request = JSON.stringify({ params, filters });

  useEffect(() => {
    let current = true;
    const { params, filters } = JSON.parse(request) as { params?: Record<string, string | number>; filters: Record<string, string | number> };
    setLoading(true);
    api
      .call("get", path, { params, query: filters })
      .then((next) => current && setPage(next))
      // An empty page of the route's own shape (what the API answers when nothing matches).
      .catch(() => current && setPage((previous) => previous ?? ({ records: [], total: 0, current: 1, size: 10 } as Page<never> as ApiResult<"get", P>)))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api, path, request, version]);

  const onPageChange = useCallback((current: number, size: number) => setPaging({ current, size }), []);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const firstPage = useCallback(() => setPaging((p) => ({ ...p, current: 1 })), []);
  return { page, loading, onPageChange, reload, firstPage };
}
