import { RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Page } from "../../../../domain/paging";
import { DataTable, type DataTableProps } from "~/components/data-table/data-table";
import { Button } from "~/components/ui/button";

/** What `useApiPage` hands a tab: the page shown, whether it is loading, and how to page or reload it. */
type TabList<T> = { page: Page<T> | undefined; loading: boolean; onPageChange: (current: number, size: number) => void; reload: () => void };

/** A point tab's Refresh button: fetches the page shown again, disabled while it loads (docs/rules/equipment.md "Point pages"). */
export function RefreshButton({ list }: { list: Pick<TabList<unknown>, "reload" | "loading"> }) {
  const { t } = useTranslation();
  return (
    <Button variant="outline" size="sm" onClick={list.reload} disabled={list.loading}>
      <RefreshCw aria-hidden />
      {t("points.refresh")}
    </Button>
  );
}

/**
 * A point tab's list of API records (docs/rules/equipment.md "Point pages"): the page `useApiPage`
 * fetched, paged on the server, rows keyed by their id unless the tab keys them otherwise.
 */
export function TabTable<T extends object>({ list, ...table }: { list: TabList<T> } & Omit<DataTableProps<T>, "page" | "loading" | "onPageChange">) {
  return <DataTable page={list.page} loading={list.loading} onPageChange={list.onPageChange} getRowId={(row, index) => String("id" in row ? row.id : index)} {...table} />;
}
