/**
 * Editions decide the menus an operator can have (docs/rules/platform.md "Editions", the table
 * in docs/editions.md). Each edition names menu codes of the catalogue: a group code brings
 * every screen below it, a screen code that screen alone. Every edition has home, monitoring and
 * equipment; `ultimate` has every menu. The platform's own area is not an edition's.
 */
import type { Edition } from "../domain/schemas/platform";

export type { Edition };

const BASIC = [
  "home",
  "monitoring",
  "equipment",
  "carrier",
  "sub.monitoring",
  "sub.equipment",
  "sub.system",
] as const;

const STANDARD = [...BASIC, "finance", "operation", "users", "subOperator", "sub.finance", "sub.operation"] as const;

/** `"*"`: every menu of the catalogue. */
export const EDITION_MENUS: Record<Edition, readonly string[] | "*"> = {
  basic: BASIC,
  standard: STANDARD,
  ultimate: "*",
};

/**
 * Whether an edition has a menu entry, given the codes of its ancestors (outermost first): the
 * entry or one of its ancestors is listed. A group with a listed screen below it is kept by the
 * catalogue's pruning, so it needs no entry here.
 */
export function editionHas(edition: Edition, code: string, ancestors: readonly string[]): boolean {
  const menus = EDITION_MENUS[edition];
  if (menus === "*") return true;
  return menus.includes(code) || ancestors.some((a) => menus.includes(a));
}
