/** The list answer of ARCHITECTURE.md §4. */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}

/** SPEC.md §9: page sizes offered, 10 by default. */
export const PAGE_SIZES = [10, 30, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
