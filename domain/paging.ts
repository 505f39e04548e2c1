/** The list answer (docs/rules/lists.md "Paging"). */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

/** Page sizes offered, 10 by default (docs/rules/lists.md "Paging"). */
export const PAGE_SIZES = [10, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
