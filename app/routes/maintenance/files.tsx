import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useDeleteRowAction } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { toast } from "~/components/ui/toast";
import { fileAction, loadFiles } from "./media.server";
import { UploadButton } from "./upload-button";

/** File management: the operator's own files in R2, uploaded, listed, downloaded and deleted (docs/rules/maintenance.md "File management"). */
export function loader(args: LoaderFunctionArgs) {
  return loadFiles(args);
}

export function action(args: ActionFunctionArgs) {
  return fileAction(args);
}

type StoredFile = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function FilesScreen() {
  const { page, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, fileSize } = useFormat();
  const { onPageChange } = useUrlPaging();
  const title = t("menu.users.fileManagement");
  const deleteRow = useDeleteRowAction(t("maintenance.files.deleted"));
  const upload = useFetcher<typeof action>();
  useActionOutcome(upload, () => toast.success(t("maintenance.files.uploaded")));
  const columns: ColumnDef<StoredFile>[] = [
    { accessorKey: "name", header: t("maintenance.files.name"), cell: ({ row }) => <span className="break-all">{row.original.name}</span> },
    { accessorKey: "bytes", header: t("maintenance.files.size"), meta: { width: 110, priority: 2 }, cell: ({ row }) => fileSize(row.original.bytes) },
    { accessorKey: "uploadedBy", header: t("maintenance.files.uploadedBy"), meta: { priority: 3 } },
    { accessorKey: "createdAt", header: t("maintenance.files.time"), meta: { priority: 2, width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    actionsColumn<StoredFile>(t("common.actions"), (file) => [
      { label: t("maintenance.files.download"), icon: Download, to: file.downloadUrl, download: file.name },
      deleteRow({ id: file.id }, { message: t("maintenance.files.deleteConfirm", { name: file.name }) }),
    ]),
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={title}
        description={t("maintenance.files.description")}
        actions={
          <UploadButton
            label={t("maintenance.files.upload")}
            busy={upload.state !== "idle"}
            onFile={(file) => {
              const data = new FormData();
              data.append("file", file);
              upload.submit(data, { method: "post", encType: "multipart/form-data" });
            }}
          />
        }
      />
      <DataTableToolbar>
        <FilterText name="name" label={t("maintenance.files.name")} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.files.empty")} label={title} />
    </div>
  );
}
