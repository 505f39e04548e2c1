import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight, Ellipsis } from "lucide-react";
import { PAGE_SIZES } from "../../../domain/paging";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "~/components/ui/select";
import { cn } from "~/lib/cn";

export type PagerItem = number | "gap-before" | "gap-after";

/**
 * Page buttons with ellipses, always showing the first and last page and `slots` entries in all
 * (odd, 7 by default): 1 2 3 4 5 6 … 20 / 1 … 8 9 10 11 12 … 20 / 1 … 15 16 17 18 19 20.
 */
export function pagerItems(current: number, pageCount: number, slots = 7): PagerItem[] {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (pageCount <= slots) return range(1, pageCount);
  const half = (slots - 1) / 2;
  const gapBefore = current > slots - half;
  const gapAfter = current < pageCount - half;
  const middle =
    gapBefore && !gapAfter
      ? range(pageCount - (slots - 2), pageCount - 1)
      : !gapBefore && gapAfter
        ? range(2, slots - 1)
        : range(current - (half - 1), current + (half - 1));
  return [1, ...(gapBefore ? ["gap-before" as const] : []), ...middle, ...(gapAfter ? ["gap-after" as const] : []), pageCount];
}

export function pageCountOf(total: number, size: number) {
  return Math.max(1, Math.ceil(total / size));
}

export interface DataTablePaginationProps {
  total: number;
  current: number;
  size: number;
  onPageChange: (current: number, size: number) => void;
  className?: string;
}

const PAGER_SLOTS = 7;

/** Total, prev, pager, next, jumper; the page size sits with the total (docs/rules/lists.md "Paging"). */
export function DataTablePagination({ total, current, size, onPageChange, className }: DataTablePaginationProps) {
  const { t } = useTranslation();
  const pageCount = pageCountOf(total, size);
  const go = (page: number) => {
    const target = Math.min(Math.max(1, page), pageCount);
    if (target !== current) onPageChange(target, size);
  };
  // An ellipsis jumps over the pages it hides, as the classic pager does.
  const jump = PAGER_SLOTS - 2;

  return (
    <nav
      aria-label={t("ui.table.pagination")}
      className={cn("flex flex-wrap items-center justify-end gap-x-4 gap-y-2 text-sm", className)}
    >
      <div className="mr-auto flex items-center gap-2 text-muted-foreground">
        <span aria-live="polite">{t("ui.table.total", { total })}</span>
        <Select value={String(size)} onValueChange={(value) => onPageChange(1, Number(value))}>
          <SelectTrigger size="sm" className="w-auto gap-1" aria-label={t("ui.table.pageSize")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PAGE_SIZES.map((option) => (
              <SelectItem key={option} value={String(option)}>
                {t("ui.table.perPage", { size: option })}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>

      <div className="flex items-center gap-1">
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => go(current - 1)}
          disabled={current <= 1}
          aria-label={t("ui.table.previous")}
        >
          <ChevronLeft />
        </Button>
        <ol className="hidden items-center gap-1 sm:flex">
          {pagerItems(current, pageCount, PAGER_SLOTS).map((item) =>
            typeof item === "number" ? (
              <li key={item}>
                <Button
                  variant={item === current ? "default" : "ghost"}
                  size="icon-sm"
                  className="w-auto min-w-8 px-2 tabular-nums"
                  aria-current={item === current ? "page" : undefined}
                  aria-label={t("ui.table.goToPage", { page: item })}
                  onClick={() => go(item)}
                >
                  {item}
                </Button>
              </li>
            ) : (
              <li key={item}>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  className="group text-muted-foreground"
                  aria-label={t(item === "gap-before" ? "ui.table.previousPages" : "ui.table.nextPages", { pages: jump })}
                  onClick={() => go(item === "gap-before" ? current - jump : current + jump)}
                >
                  <Ellipsis className="group-hover:hidden group-focus-visible:hidden" />
                  {item === "gap-before" ? (
                    <ChevronsLeft className="hidden group-hover:block group-focus-visible:block" />
                  ) : (
                    <ChevronsRight className="hidden group-hover:block group-focus-visible:block" />
                  )}
                </Button>
              </li>
            ),
          )}
        </ol>
        <span className="px-2 text-muted-foreground tabular-nums sm:hidden">
          {current} / {pageCount}
        </span>
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => go(current + 1)}
          disabled={current >= pageCount}
          aria-label={t("ui.table.next")}
        >
          <ChevronRight />
        </Button>
      </div>

      <PageJumper key={current} current={current} pageCount={pageCount} onJump={go} />
    </nav>
  );
}

/** "Go to [n]": jumps on Enter or when the field loses focus. */
function PageJumper({ current, pageCount, onJump }: { current: number; pageCount: number; onJump: (page: number) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(String(current));
  const submit = () => {
    const page = Number.parseInt(value, 10);
    const target = Number.isFinite(page) ? Math.min(Math.max(1, page), pageCount) : current;
    setValue(String(target));
    if (target !== current) onJump(target);
  };
  return (
    <label className="flex items-center gap-2 text-muted-foreground">
      {t("ui.table.goTo")}
      <Input
        inputMode="numeric"
        value={value}
        onChange={(event) => setValue(event.target.value.replace(/\D/g, ""))}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            submit();
          }
        }}
        onBlur={submit}
        className="h-8 w-14 px-2 text-center tabular-nums"
        aria-label={t("ui.table.jumpTo", { pageCount })}
      />
    </label>
  );
}
