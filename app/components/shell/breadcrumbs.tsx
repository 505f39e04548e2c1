import { Fragment } from "react";
import { Link, matchPath, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { ChevronRight } from "lucide-react";
import type { MenuEntry } from "../../../tenants/menu-catalogue";
import { entryForPath } from "../../../tenants/permissions";
import { cn } from "~/lib/cn";
import { menuChain } from "./menu-chain";

/** One breadcrumb: an i18n key, or the "modify" crumb; `to` only where a link makes sense. */
export interface Crumb {
  titleKey: string;
  to?: string;
}

/** Sub-pages with an id that SPEC.md §2 names "modify" in the breadcrumb. */
const MODIFY_PAGE_KEYS = new Set(["page.detail", "page.edit"]);

/**
 * The trail for a path, from route meta (SPEC.md §2): the groups above the menu leaf, the leaf,
 * and the sub-page when the path is one of the leaf's `pages`.
 */
export function breadcrumbTrail(menu: readonly MenuEntry[], pathname: string): Crumb[] {
  const leaf = entryForPath(menu, pathname);
  if (!leaf) return [];
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  const onLeaf = leaf.url !== undefined && matchPath({ path: leaf.url, end: true }, path) !== null;
  const page = onLeaf ? undefined : leaf.pages?.find((p) => matchPath({ path: p.path, end: true }, path) !== null);
  const groups = (menuChain(menu, leaf) ?? [leaf]).slice(0, -1).map((group) => ({ titleKey: group.titleKey }));
  if (!page) return [...groups, { titleKey: leaf.titleKey }];
  const modify = page.path.includes(":id") && MODIFY_PAGE_KEYS.has(page.titleKey);
  return [...groups, { titleKey: leaf.titleKey, to: leaf.url }, { titleKey: modify ? "ui.breadcrumb.modify" : page.titleKey }];
}

export function Breadcrumbs({ menu, className }: { menu: readonly MenuEntry[]; className?: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const trail = breadcrumbTrail(menu, pathname);
  if (trail.length === 0) return null;
  return (
    <nav aria-label={t("ui.breadcrumb.label")} className={cn("min-w-0", className)}>
      <ol className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
        {trail.map((crumb, index) => {
          const last = index === trail.length - 1;
          return (
            <Fragment key={`${index}-${crumb.titleKey}`}>
              {index > 0 && (
                <li role="presentation" aria-hidden className="shrink-0">
                  <ChevronRight className="size-3.5 opacity-60" />
                </li>
              )}
              <li className={cn("truncate", last && "font-medium text-foreground")}>
                {crumb.to && !last ? (
                  <Link to={crumb.to} className="transition-colors hover:text-foreground">
                    {t(crumb.titleKey)}
                  </Link>
                ) : (
                  <span aria-current={last ? "page" : undefined}>{t(crumb.titleKey)}</span>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
