import { Fragment } from "react";
import { Link, useLocation, useMatches } from "react-router";
import { useTranslation } from "react-i18next";
import { ChevronRight } from "lucide-react";
import type { MenuEntry } from "../../../tenants/menu-catalogue";
import { cn } from "~/lib/cn";
import { screenAt } from "./screen-place";

/** One breadcrumb: an i18n key or a record's own name; `to` only where a link makes sense. */
export type Crumb = ({ titleKey: string } | { text: string }) & { to?: string };

/**
 * What a detail route exports as its `handle` so that the breadcrumb names the record it shows
 * (the station's name, the point's serial number…) instead of the page's title:
 * `export const handle: RecordCrumb<typeof loader> = { record: (data) => data.station.name }`.
 */
export interface RecordCrumb<Loader extends (...args: never[]) => unknown> {
  record: (data: Awaited<ReturnType<Loader>>) => string;
}

/** Edit pages of one record keep the "modify" crumb (docs/rules/console.md). */
const EDIT_PAGE_KEY = "page.edit";

/**
 * The trail for a path, from the menu catalogue: the groups above the menu leaf, the leaf, and
 * the sub-page when the path is one of the leaf's `pages`, named after its record when the
 * route names one.
 */
export function breadcrumbTrail(menu: readonly MenuEntry[], pathname: string, record?: string): Crumb[] {
  const place = screenAt(menu, pathname);
  if (!place) return [];
  const groups: Crumb[] = place.groups.map((group) => ({ titleKey: group.titleKey }));
  const { leaf, page } = place;
  if (!page) return [...groups, { titleKey: leaf.titleKey }];
  const last: Crumb =
    page.path.includes(":id") && page.titleKey === EDIT_PAGE_KEY
      ? { titleKey: "ui.breadcrumb.modify" }
      : record
        ? { text: record }
        : { titleKey: page.titleKey };
  return [...groups, { titleKey: leaf.titleKey, to: leaf.url }, last];
}

function hasRecordCrumb(handle: unknown): handle is { record: (data: unknown) => string } {
  return typeof handle === "object" && handle !== null && typeof (handle as { record?: unknown }).record === "function";
}

/** The record the deepest route on screen names, if it names one and its data has loaded. */
function useRecordName(): string | undefined {
  const shown = useMatches().findLast((match) => hasRecordCrumb(match.handle) && match.loaderData !== undefined);
  return shown && hasRecordCrumb(shown.handle) ? shown.handle.record(shown.loaderData) : undefined;
}

export function Breadcrumbs({ menu, className }: { menu: readonly MenuEntry[]; className?: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const trail = breadcrumbTrail(menu, pathname, useRecordName());
  if (trail.length === 0) return null;
  return (
    <nav aria-label={t("ui.breadcrumb.label")} className={cn("min-w-0", className)}>
      <ol className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
        {trail.map((crumb, index) => {
          const last = index === trail.length - 1;
          const label = "text" in crumb ? crumb.text : t(crumb.titleKey);
          return (
            <Fragment key={`${index}-${label}`}>
              {index > 0 && (
                <li role="presentation" aria-hidden className="shrink-0">
                  <ChevronRight className="size-3.5 opacity-60" />
                </li>
              )}
              <li className={cn("truncate", last && "font-medium text-foreground")} title={label}>
                {crumb.to && !last ? (
                  <Link to={crumb.to} className="transition-colors hover:text-foreground">
                    {label}
                  </Link>
                ) : (
                  <span aria-current={last ? "page" : undefined}>{label}</span>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
