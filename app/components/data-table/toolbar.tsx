import type { FormEvent, ReactNode } from "react";
import { useLocation, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { RotateCcw, Search } from "lucide-react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";

export interface DataTableToolbarProps {
  /**
   * Filter controls with a `name` and `defaultValue={searchParams.get(name) ?? ""}`. Search writes
   * the non-empty values to the URL (the loader filters on the server); Reset clears them.
   */
  children: ReactNode;
  /** Buttons on the right, such as Add or Export. */
  actions?: ReactNode;
  className?: string;
}

/**
 * Search params that belong to the page rather than its filters and survive a search or reset:
 * the page size, and the tab the table sits on (docs/rules/console.md "Tables").
 */
const KEPT_PARAMS = ["size", "tab"];

export function DataTableToolbar({ children, actions, className }: DataTableToolbarProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();

  const kept = () => {
    const next = new URLSearchParams();
    for (const name of KEPT_PARAMS) {
      const value = searchParams.get(name);
      if (value) next.set(name, value);
    }
    return next;
  };

  // A new search starts again from page 1, hence `current` is dropped.
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = kept();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim() !== "") next.append(name, value.trim());
    }
    setSearchParams(next, { preventScrollReset: true });
  };

  return (
    <div className={cn("flex flex-wrap items-start justify-between gap-3", className)}>
      {/* Keyed by the URL so uncontrolled fields take their values from it again after a reset or back navigation. */}
      <form
        key={location.search}
        role="search"
        onSubmit={search}
        className="flex flex-1 flex-wrap items-center gap-2"
      >
        <div className="contents *:min-w-40 *:flex-1 sm:*:w-52 sm:*:flex-none">{children}</div>
        <div className="flex gap-2">
          <Button type="submit">
            <Search aria-hidden />
            {t("ui.action.search")}
          </Button>
          <Button variant="outline" onClick={() => setSearchParams(kept(), { preventScrollReset: true })}>
            <RotateCcw aria-hidden />
            {t("ui.action.reset")}
          </Button>
        </div>
      </form>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
