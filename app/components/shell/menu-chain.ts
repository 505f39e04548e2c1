import type { MenuEntry } from "../../../tenants/menu-catalogue";

/** The entries from the top of the tree down to `target`, both included; undefined when absent. */
export function menuChain(tree: readonly MenuEntry[], target: MenuEntry): MenuEntry[] | undefined {
  for (const entry of tree) {
    if (entry === target) return [entry];
    const below = entry.children && menuChain(entry.children, target);
    if (below) return [entry, ...below];
  }
  return undefined;
}
