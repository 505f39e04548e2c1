import type { ColumnDef } from "@tanstack/react-table";
import { ChevronDown, Download, FileSpreadsheet, Plus, Power, Send, Upload } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { POINT_TYPES } from "../../../domain/schemas/equipment";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { ProtocolBadge } from "~/components/protocol-badge";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";
import { datedFileName } from "~/lib/excel";
import { useLivePoints } from "~/lib/live";
import { StandardImage } from "./connector-standards";
import { collectRows } from "~/components/export/xlsx";
import { downloadTemplate, exportPoints } from "./point-excel";
import { PointImportDialog } from "./point-import-dialog";
import { OnlineBadge, PushStatusBadge, QuotaSummary } from "./point-parts";
import { loadPoints, pointsAction } from "./points.server";

/**
 * Equipment › Charging points: server-filtered list, enable and disable, import and export
 * (docs/rules/equipment.md "Points").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPoints(args);
}

export function action(args: ActionFunctionArgs) {
  return pointsAction(args);
}

type Point = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Points() {
  const { page, stations, quota } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { power, dateTime, timeZone } = useFormat();
  const api = useApi();
  const live = useLivePoints();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const confirm = useConfirm();
  const { detail, edit, remove, toggle } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();
  const [selected, setSelected] = useState<Point[]>([]);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState<string>();

  useActionOutcome<{ intent: string; count?: number }>(fetcher, (data) => {
    const key = { delete: "points.deleted", enabled: "points.enabled", disabled: "points.disabled", enableSelected: "points.enabledSelected" }[data.intent];
    toast.success(t(key ?? "common.operationSuccess", { count: data.count ?? 0 }));
  });

  const enableSelected = async () => {
    const ok = await confirm({ message: t("points.confirmEnableSelected", { count: selected.length }), confirmLabel: t("common.enable") });
    if (ok) fetcher.submit({ intent: "enableSelected", ids: selected.map((p) => String(p.id)) }, { method: "post" });
  };

  /** Queues the current price of these points for their chargers (docs/rules/pricing.md "Price push"). */
  const pushPrice = async (ids: number[]) => {
    const [only] = ids;
    const done = await (ids.length === 1 && only !== undefined
      ? api.post("/station-service/point/{id}/issue-price", { params: { id: only } })
      : api.post("/station-service/point/issue-price", { body: { pointIds: ids } })
    ).catch(() => undefined);
    if (done) toast.success(t("points.pricePushQueued", { count: done.queued.length }));
  };

  const exportList = async () => {
    const rows = await collectRows(api, "/station-service/point", params, (count) => setExporting(t("points.exporting", { count })));
    await exportPoints(t, rows, datedFileName(t("points.exportFile"), timeZone));
    setExporting(undefined);
    toast.success(t("points.exported", { count: rows.length }));
  };

  const columns: ColumnDef<Point>[] = [
    {
      accessorKey: "serialNumber",
      header: t("points.fields.serialNumber"),
      cell: ({ row }) => (
        <Link to={`/equipmentManagement/point/pointDetail/${row.original.id}`} className="font-mono text-xs font-medium text-primary hover:underline">
          {row.original.serialNumber}
        </Link>
      ),
    },
    { accessorKey: "name", header: t("points.fields.name"), meta: { priority: 2 }, cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
    { accessorKey: "stationName", header: t("points.fields.station"), meta: { priority: 3 }, cell: ({ row }) => row.original.stationName ?? "—" },
    {
      accessorKey: "type",
      header: t("points.typeAndPower"),
      meta: { priority: 2, width: 150 },
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-2">
          <Badge variant={row.original.type === "AC" ? "info" : "success"}>{t(`points.types.${row.original.type}`)}</Badge>
          <span className="tabular-nums">{power(row.original.ratedPower)}</span>
        </span>
      ),
    },
    {
      id: "connectors",
      header: t("points.fields.connectors"),
      meta: { priority: 4, width: 124 },
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-1">
          {row.original.connectors.slice(0, 2).map((c) => (
            <StandardImage key={c.connectorId} standard={c.standard} size={24} />
          ))}
          <span className="ml-1 text-xs text-muted-foreground tabular-nums">× {row.original.connectorCount}</span>
        </span>
      ),
    },
    {
      accessorKey: "status",
      header: t("common.status"),
      // Its badges wrap: narrow enough that serial number, status and actions fit at 1024 px.
      meta: { width: 200 },
      cell: ({ row }) => {
        const online = live.get(row.original.id)?.online ?? row.original.online;
        // The protocol beside the connection it describes (docs/rules/equipment.md "Points").
        return (
          <span className="inline-flex flex-wrap items-center gap-1.5">
            <StatusBadge status={row.original.status} />
            <OnlineBadge online={online} />
            <ProtocolBadge point={row.original} online={online} />
          </span>
        );
      },
    },
    {
      accessorKey: "pricePushStatus",
      header: t("points.fields.pricePushStatus"),
      meta: { priority: 3, width: 170 },
      cell: ({ row }) => (
        <span className="inline-flex flex-col gap-0.5">
          <PushStatusBadge status={row.original.pricePushStatus} />
          {row.original.pushedAt && <span className="text-xs text-muted-foreground tabular-nums">{dateTime(row.original.pushedAt)}</span>}
        </span>
      ),
    },
    // Detail and edit inline, the rest in the row's menu: the status and actions columns fit beside the serial number at 1024 px.
    actionsColumn<Point>(t("common.actions"), (point) => [
      detail(`/equipmentManagement/point/pointDetail/${point.id}`),
      edit(`/equipmentManagement/point/pointEdit/${point.id}`),
      toggle(point.status === "VALID", () => fetcher.submit({ intent: "status", id: point.id, status: point.status === "VALID" ? "INVALID" : "VALID" }, { method: "post" }), {
        enable: t("points.confirmEnable", { name: point.name }),
        disable: t("points.confirmDisable", { name: point.name }),
      }),
      { label: t("points.pushPrice"), icon: Send, onSelect: () => void pushPrice([point.id]), disabled: point.chargeStrategyId === null },
      // An enabled point is disabled before it is deleted (docs/rules/equipment.md "Points").
      remove(() => fetcher.submit({ intent: "delete", id: point.id }, { method: "post" }), {
        message: t("points.confirmDelete", { name: point.name }),
        disabled: point.status === "VALID",
        hint: point.status === "VALID" ? t("points.deleteDisabledFirst") : undefined,
      }),
    ], 216),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("points.title")}
        description={<QuotaSummary quota={quota} />}
        actions={
          <>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="outline" disabled={Boolean(exporting)}>
                  <FileSpreadsheet aria-hidden />
                  {exporting ?? t("points.excel")}
                  <ChevronDown aria-hidden />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem onSelect={() => setImporting(true)}>
                  <Upload aria-hidden />
                  {t("points.import.open")}
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void downloadTemplate(t, { stationName: stations[0]?.name ?? "" })}>
                  <Download aria-hidden />
                  {t("points.import.template")}
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => void exportList()}>
                  <FileSpreadsheet aria-hidden />
                  {t("points.export")}
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
            <Button asChild>
              <Link to="/equipmentManagement/point/pointAdd">
                <Plus aria-hidden />
                {t("points.add")}
              </Link>
            </Button>
          </>
        }
      />
      <DataTableToolbar
        actions={
          selected.length > 0 && (
            <>
              <Button variant="secondary" onClick={() => void enableSelected()} disabled={fetcher.state !== "idle"}>
                <Power aria-hidden />
                {t("points.enableSelected", { count: selected.length })}
              </Button>
              <Button variant="secondary" onClick={() => void pushPrice(selected.map((p) => p.id))}>
                <Send aria-hidden />
                {t("points.pushPriceSelected", { count: selected.length })}
              </Button>
            </>
          )
        }
      >
        <SerialNumberPicker name="serialNumber" placeholder={t("points.fields.serialNumber")} aria-label={t("points.fields.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
        <FilterText name="name" label={t("points.fields.name")} />
        <FilterSelect name="stationId" label={t("points.fields.station")} all={t("points.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <FilterSelect name="type" label={t("points.fields.type")} all={t("points.fields.type")} options={POINT_TYPES.map((type) => [type, t(`points.types.${type}`)] as const)} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")}>
          <option value="VALID">{t("common.statusValues.VALID")}</option>
          <option value="INVALID">{t("common.statusValues.INVALID")}</option>
        </FilterSelect>
        <FilterSelect name="online" label={t("points.fields.online")} all={t("points.fields.online")}>
          <option value="true">{t("points.online")}</option>
          <option value="false">{t("points.offline")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable
        columns={columns}
        page={page}
        onPageChange={onPageChange}
        selectable
        onSelectionChange={setSelected}
        getRowId={(p) => String(p.id)}
        emptyHint={t("points.empty")}
        label={t("points.title")}
      />
      <PointImportDialog open={importing} onOpenChange={setImporting} />
    </div>
  );
}
