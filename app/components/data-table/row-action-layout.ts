/**
 * How a row's actions are laid out (docs/rules/console.md "Row actions"): at most two show as
 * buttons with an icon and a label, the first two in the list's order; with more, the rest go
 * into the row's "⋯" menu, so every list's action column has the same shape and width.
 */
export const INLINE_ACTIONS = 2;

export function layoutRowActions<T>(actions: readonly (T | false | null | undefined)[]): { inline: T[]; menu: T[] } {
  const shown = actions.filter((a): a is T => Boolean(a));
  if (shown.length <= INLINE_ACTIONS) return { inline: shown, menu: [] };
  return { inline: shown.slice(0, INLINE_ACTIONS), menu: shown.slice(INLINE_ACTIONS) };
}
