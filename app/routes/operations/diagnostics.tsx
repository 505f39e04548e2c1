import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, useRevalidator, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { FormField } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { NativeSelect } from "~/components/ui/native-select";
import { useState } from "react";
import { DiagnosticsRequestForm, DIAGNOSIS_STATUS_VARIANT } from "../equipment/point-detail/diagnostics-tab";
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
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params, setParams] = useSearchParams();
  const { revalidate } = useRevalidator();
  const [pointId, setPointId] = useState<number | null>(null);
  const point = points.find((p) => p.id === pointId);

  const columns: ColumnDef<Diagnosis>[] = [
    { accessorKey: "requestedAt", header: t("points.diagnostics.requestedAt"), meta: { width: 180 }, cell: ({ row }) => dateTime(row.original.requestedAt) },
    { accessorKey: "serialNumber", header: t("operations.lb.serialNumber") },
    { accessorKey: "type", header: t("points.diagnostics.type"), meta: { priority: 2, width: 120 }, cell: ({ row }) => t(`points.diagnostics.types.${row.original.type}`) },
    { accessorKey: "fileName", header: t("points.diagnostics.fileName"), meta: { priority: 3 }, cell: ({ row }) => row.original.fileName ?? "—" },
    {
      accessorKey: "status",
      header: t("common.status"),
      meta: { width: 140 },
      cell: ({ row }) => <Badge variant={DIAGNOSIS_STATUS_VARIANT[row.original.status] ?? "muted"}>{t(`points.diagnostics.statuses.${row.original.status}`)}</Badge>,
    },
    { accessorKey: "updatedAt", header: t("points.diagnostics.updatedAt"), meta: { priority: 3, width: 180 }, cell: ({ row }) => dateTime(row.original.updatedAt) },
  ];

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
        <NativeSelect name="status" aria-label={t("common.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("common.status")}</option>
          {[1, 2, 3, -1].map((s) => (
            <option key={s} value={s}>
              {t(`points.diagnostics.statuses.${s}`)}
            </option>
          ))}
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("points.diagnostics.empty")} label={t("menu.operation.diagnosis")} />
    </div>
  );
}
