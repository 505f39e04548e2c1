import { useLayoutEffect, useMemo, useState, type RefObject } from "react";

/** A column as the fit sees it: its id, the width it needs and its priority (1: always shown). */
export interface FitColumn {
  id: string;
  width: number;
  priority: number;
}

/**
 * The order in which columns leave the row for its expandable details: the highest priority
 * number first, and among equals the rightmost first. Priority 1 columns never leave.
 */
export function hidingOrder(columns: readonly FitColumn[]): string[] {
  return columns
    .map((column, index) => ({ ...column, index }))
    .filter((column) => column.priority > 1)
    .sort((a, b) => b.priority - a.priority || b.index - a.index)
    .map((column) => column.id);
}

/**
 * How many columns, in hiding order, must leave so that the declared widths fit `available`
 * pixels; `detailsWidth` is the room the expand toggle takes once anything has left.
 */
export function columnsToHide(columns: readonly FitColumn[], available: number, detailsWidth: number): number {
  const order = hidingOrder(columns);
  const widths = new Map(columns.map((c) => [c.id, c.width]));
  let total = columns.reduce((sum, c) => sum + c.width, 0);
  let hidden = 0;
  while (hidden < order.length && total + (hidden > 0 ? detailsWidth : 0) > available) {
    total -= widths.get(order[hidden]) ?? 0;
    hidden++;
  }
  return hidden;
}

/**
 * The columns that do not fit the table's box (docs/rules/console.md: a table fits the screen
 * without hiding the status and actions columns). Declared widths decide first; when the
 * content is still wider than the box, one more column leaves at a time until it fits. The
 * server cannot measure, so it renders every column and the browser settles before painting.
 */
export function useColumnFit(box: RefObject<HTMLElement | null>, columns: readonly FitColumn[], detailsWidth: number, content: unknown): Set<string> {
  const [fit, setFit] = useState<{ width?: number; extra: number; content: unknown }>({ extra: 0, content });
  // New records bring new content widths: measure again from the declared widths.
  if (fit.content !== content) setFit({ ...fit, extra: 0, content });

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setFit((current) => (current.width === element.clientWidth ? current : { ...current, width: element.clientWidth, extra: 0 }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box]);

  const order = hidingOrder(columns);
  const count = fit.width === undefined ? 0 : Math.min(order.length, columnsToHide(columns, fit.width, detailsWidth) + fit.extra);
  const hiddenKey = order.slice(0, count).join(",");

  useLayoutEffect(() => {
    const element = box.current;
    if (!element || fit.width === undefined || count >= order.length) return;
    if (element.scrollWidth > element.clientWidth + 1) setFit((current) => ({ ...current, extra: current.extra + 1 }));
  }, [box, fit.width, fit.content, hiddenKey, count, order.length]);

  return useMemo(() => new Set(hiddenKey ? hiddenKey.split(",") : []), [hiddenKey]);
}
