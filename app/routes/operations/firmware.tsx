import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions, useDeleteRowAction } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader } from "~/components/page-actions";
import { Badge } from "~/components/ui/badge";
import { firmwareAction, firmwareList } from "./firmware.server";

/** Operation and maintenance › Firmware updates: versions and how far each was rolled out (docs/rules/operations.md "Firmware"). */
export function loader(args: LoaderFunctionArgs) {
  return firmwareList(args);
}

export function action(args: ActionFunctionArgs) {
  return firmwareAction(args);
}

type Firmware = Awaited<ReturnType<typeof loader>>["records"][number];

export default function FirmwareList() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { detail, edit } = useCommonRowActions();
  const deleteRow = useDeleteRowAction(t("operations.fw.deleted"));

  const columns: ColumnDef<Firmware>[] = [
    { accessorKey: "version", header: t("operations.fw.version"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.version}</span> },
    { accessorKey: "location", header: t("operations.fw.location"), meta: { priority: 3 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.location}</span> },
    {
      accessorKey: "issued",
      header: t("operations.fw.issued"),
      meta: { width: 130 },
      cell: ({ row }) => <Badge variant={row.original.issued ? "info" : "muted"}>{t(row.original.issued ? "operations.fw.issuedYes" : "operations.fw.issuedNo")}</Badge>,
    },
    {
      id: "progress",
      header: t("operations.fw.installed"),
      meta: { priority: 2, width: 140 },
      cell: ({ row }) => `${row.original.installedCount} / ${row.original.pointCount}`,
    },
    { accessorKey: "createdAt", header: t("common.createdAt"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    actionsColumn<Firmware>(t("common.actions"), (firmware) => [
      detail(`/operationMaintenance/ocppUpdateConfig/detail/${firmware.id}`),
      edit(`/operationMaintenance/ocppUpdateConfig/edit/${firmware.id}`),
      deleteRow({ id: firmware.id, intent: "delete" }, {
        disabled: firmware.issued,
        hint: firmware.issued ? t("operations.errors.versionIssued") : undefined,
      }),
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("menu.operation.ocppUpdateConfig")} addTo="/operationMaintenance/ocppUpdateConfig/add" addLabel={t("operations.fw.add")} />
      <DataTableToolbar>
        <FilterText name="version" label={t("operations.fw.version")} />
        <FilterSelect name="issued" label={t("operations.fw.issued")} all={t("operations.fw.issued")}>
          <option value="true">{t("operations.fw.issuedYes")}</option>
          <option value="false">{t("operations.fw.issuedNo")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("operations.fw.empty")} label={t("menu.operation.ocppUpdateConfig")} />
    </div>
  );
}
