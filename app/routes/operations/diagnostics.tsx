import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, useRevalidator, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { FormField } from "~/components/form/form-field";
import { PageHeader } from "~/components/shell/page-header";
import { NativeSelect } from "~/components/ui/native-select";
import { useState } from "react";
import { DiagnosticsRequestForm, useDiagnosisColumns } from "../equipment/point-detail/diagnostics-tab";
import { diagnosticsPage } from "./diagnostics.server";
import { StationOptions } from "./parts";

/**
 * Operation and maintenance › Diagnostics: every point's GetDiagnostics requests, newest first,
 * their upload status following DiagnosticsStatusNotification, and the point tab's request form
 * for any point (docs/rules/ocpp.md "Diagnostics").
 */
export function loader(args: LoaderFunctionArgs) {
  return diagnosticsPage(args);
}

type Diagnosis = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Diagnostics() {
  const { page, stations, points, stationId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const [params, setParams] = useSearchParams();
  const { revalidate } = useRevalidator();
  const [pointId, setPointId] = useState<number | null>(null);
  const point = points.find((p) => p.id === pointId);

  const shared = useDiagnosisColumns();
  // The point each request went to, beside the tab's columns.
  const columns: ColumnDef<Diagnosis>[] = [shared[0], { accessorKey: "serialNumber", header: t("operations.lb.serialNumber") }, ...shared.slice(1)];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.operation.diagnosis")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="diag-station" label={t("operations.lb.station")}>
          <NativeSelect
            id="diag-station"
            value={stationId ? String(stationId) : ""}
            onChange={(e) => {
              setPointId(null);
              const next = new URLSearchParams(params);
              if (e.target.value) next.set("stationId", e.target.value);
              else next.delete("stationId");
              setParams(next, { replace: true, preventScrollReset: true });
            }}
          >
            <StationOptions stations={stations} empty={t("ui.form.selectPlaceholder")} />
          </NativeSelect>
        </FormField>
        <FormField id="diag-point" label={t("operations.lb.pointName")}>
          <NativeSelect id="diag-point" value={pointId ? String(pointId) : ""} onChange={(e) => setPointId(Number(e.target.value) || null)}>
            <option value="">{t("ui.form.selectPlaceholder")}</option>
            {points.map((p) => (
              <option key={p.id} value={p.id}>
                {p.serialNumber}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      {point && <DiagnosticsRequestForm pointId={point.id} online={point.online} onSent={revalidate} />}
      <DataTableToolbar>
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")} options={[1, 2, 3, -1].map((s) => [s, t(`points.diagnostics.statuses.${s}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("points.diagnostics.empty")} label={t("menu.operation.diagnosis")} />
    </div>
  );
}
