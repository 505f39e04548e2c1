import { matchPath } from "react-router";
import type { MenuEntry, MenuPage } from "../../../tenants/menu-catalogue";
import { entryForPath } from "../../../tenants/permissions";
import { menuChain } from "./menu-chain";

/** Where a path sits in the user's menu: the groups above its leaf, the leaf, and the leaf's sub-page when it is one. */
export interface ScreenPlace {
  groups: MenuEntry[];
  leaf: MenuEntry;
  page?: MenuPage;
}

export function screenAt(menu: readonly MenuEntry[], pathname: string): ScreenPlace | undefined {
  const leaf = entryForPath(menu, pathname);
  if (!leaf) return undefined;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const onLeaf = leaf.url !== undefined && matchPath({ path: leaf.url, end: true }, path) !== null;
  const page = onLeaf ? undefined : leaf.pages?.find((p) => matchPath({ path: p.path, end: true }, path) !== null);
  return { groups: (menuChain(menu, leaf) ?? [leaf]).slice(0, -1), leaf, page };
}

/** The catalogue key of a screen's own title: its sub-page's, else its menu entry's. */
export function screenTitleKey(place: ScreenPlace): string {
  return place.page?.titleKey ?? place.leaf.titleKey;
}
