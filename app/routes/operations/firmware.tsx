import type { ColumnDef } from "@tanstack/react-table";
import { Eye, Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader, RowLink, useActionOutcome } from "~/components/page-actions";
import { Badge } from "~/components/ui/badge";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { DeleteRowButton } from "./parts";
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
  const [params] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("operations.fw.deleted")));

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
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 300 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <RowLink to={`/operationMaintenance/ocppUpdateConfig/detail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
          <RowLink to={`/operationMaintenance/ocppUpdateConfig/edit/${row.original.id}`} icon={Pencil} label={t("common.edit")} />
          <DeleteRowButton
            disabled={row.original.issued}
            title={row.original.issued ? t("operations.errors.versionIssued") : undefined}
            onConfirmed={() => fetcher.submit({ id: row.original.id, intent: "delete" }, { method: "post" })}
          />
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("menu.operation.ocppUpdateConfig")} addTo="/operationMaintenance/ocppUpdateConfig/add" addLabel={t("operations.fw.add")} />
      <DataTableToolbar>
        <Input name="version" placeholder={t("operations.fw.version")} aria-label={t("operations.fw.version")} defaultValue={params.get("version") ?? ""} />
        <NativeSelect name="issued" aria-label={t("operations.fw.issued")} defaultValue={params.get("issued") ?? ""}>
          <option value="">{t("operations.fw.issued")}</option>
          <option value="true">{t("operations.fw.issuedYes")}</option>
          <option value="false">{t("operations.fw.issuedNo")}</option>
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("operations.fw.empty")} label={t("menu.operation.ocppUpdateConfig")} />
    </div>
  );
}
