import { Download } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { collectRows } from "~/components/export/xlsx";
import { datedFileName, saveSheet } from "~/lib/excel";
import { useFormat } from "~/components/format";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";

/**
 * The alarm history as an xlsx file, filtered as on the screen (docs/rules/operations.md
 * "Failures"): the loader's own filter, in UTC, read page by page from the API.
 */
export function AlarmExport({ query }: { query: Record<string, string> }) {
  const { t } = useTranslation();
  const { dateTime, timeZone } = useFormat();
  const api = useApi();
  const [exporting, setExporting] = useState<string>();
  const run = async () => {
    const rows = await collectRows(api, "/station-service/alarm", new URLSearchParams(query), (count) => setExporting(t("operations.exporting", { count })));
    await saveSheet(
      [
        ["monitoring.alarms.time", "monitoring.alarms.level", "monitoring.alarms.type", "monitoring.common.point", "operations.lb.station", "monitoring.alarms.message", "monitoring.common.status", "monitoring.alarms.recoveredAt", "monitoring.alarms.comment"].map((key) => t(key)),
        ...rows.map((a) => [
          dateTime(a.occurredAt),
          a.level,
          a.type,
          `${a.serialNumber ?? ""} · ${a.connectorId}`,
          a.stationName,
          a.message,
          t(`monitoring.alarms.statuses.${a.status}`),
          a.recoveredAt ? dateTime(a.recoveredAt) : null,
          a.comment,
        ]),
      ],
      datedFileName(t("operations.alarmFile"), timeZone),
      [20, 10, 22, 20, 22, 30, 16, 20, 30],
    );
    setExporting(undefined);
    toast.success(t("operations.exported", { count: rows.length }));
  };
  return (
    <Button variant="outline" onClick={run} disabled={exporting !== undefined}>
      <Download aria-hidden />
      {exporting ?? t("operations.export")}
    </Button>
  );
}
