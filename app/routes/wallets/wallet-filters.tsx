import { Download } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { collectRows } from "~/components/export/xlsx";
import { useFormat } from "~/components/format";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useApi, type ListPath, type RowOf } from "~/lib/api";
import { datedFileName, saveSheet } from "~/lib/excel";
import { CustomerSelect, type Option } from "../drivers/pickers";

/** The customer a list is filtered by: type to search, choose; sent as `customerId` with the toolbar's search. */
export function CustomerFilter({ current }: { current: Option | null }) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState<number | null>(current?.id ?? null);
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {t("wallets.recharge.customer")}
      </label>
      <CustomerSelect id={id} value={value} onChange={setValue} current={current} />
      <input type="hidden" name="customerId" value={value ?? ""} />
    </div>
  );
}

/**
 * The list as filtered on the screen, as an xlsx file (docs/rules/wallets.md "Screens"): read
 * page by page from the API, one row per record with `cells`, under `headers`.
 */
export function WalletExport<P extends ListPath>({ path, query, file, headers, cells, widths }: { path: P; query: string; file: string; headers: string[]; cells: (row: RowOf<P>) => (string | number | null)[]; widths: number[] }) {
  const { t } = useTranslation();
  const { timeZone } = useFormat();
  const api = useApi();
  const [exporting, setExporting] = useState<string>();
  const run = async () => {
    const params = new URLSearchParams(query);
    params.delete("current");
    const rows = await collectRows(api, path, params, (count) => setExporting(t("wallets.exporting", { count })));
    await saveSheet([headers, ...rows.map(cells)], datedFileName(file, timeZone), widths);
    setExporting(undefined);
    toast.success(t("wallets.exported", { count: rows.length }));
  };
  return (
    <Button variant="outline" onClick={() => void run()} disabled={exporting !== undefined}>
      <Download aria-hidden />
      {exporting ?? t("wallets.export")}
    </Button>
  );
}
