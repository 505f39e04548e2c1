import { useCallback } from "react";
import { useLocation, useSearchParams } from "react-router";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from "../../../domain/paging";

export interface Paging {
  current: number;
  size: number;
}

/**
 * Reads `current` and `size` from search params, falling back to page 1 and the default size
 * for anything missing or not offered (docs/rules/lists.md "Paging"). Loaders use it on
 * `new URL(request.url).searchParams`.
 */
export function readPaging(params: URLSearchParams): Paging {
  const current = Number(params.get("current"));
  const size = Number(params.get("size"));
  return {
    current: Number.isInteger(current) && current >= 1 ? current : 1,
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/** Paging kept in the URL, so reloads, links and the back button keep the page. */
export function useUrlPaging(): Paging & { onPageChange: (current: number, size: number) => void } {
  const [searchParams, setSearchParams] = useSearchParams();
  const { current, size } = readPaging(searchParams);
  const onPageChange = useCallback(
    (nextCurrent: number, nextSize: number) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set("current", String(nextCurrent));
          next.set("size", String(nextSize));
          return next;
        },
        { preventScrollReset: true },
      );
    },
    [setSearchParams],
  );
  return { current, size, onPageChange };
}

/**
 * One filter kept in the URL, for summary cards that narrow a list: `linkTo(value)` is the same
 * page filtered to `value` (or unfiltered), back on page 1; `chosen` is the value in force.
 */
export function useFilterLink(name: string) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const linkTo = (value?: string) => {
    const next = new URLSearchParams(searchParams);
    next.delete("current");
    if (value) next.set(name, value);
    else next.delete(name);
    return `${pathname}?${next}`;
  };
  return { chosen: searchParams.get(name), linkTo };
}
