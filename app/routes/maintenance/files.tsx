import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toast";
import { DeleteRowButton } from "../operations/parts";
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
  const [params] = useSearchParams();
  const title = t("menu.users.fileManagement");
  const fetcher = useFetcher<typeof action>();
  const upload = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("maintenance.files.deleted")));
  useActionOutcome(upload, () => toast.success(t("maintenance.files.uploaded")));
  const columns: ColumnDef<StoredFile>[] = [
    { accessorKey: "name", header: t("maintenance.files.name"), cell: ({ row }) => <span className="break-all">{row.original.name}</span> },
    { accessorKey: "bytes", header: t("maintenance.files.size"), meta: { width: 110, priority: 2 }, cell: ({ row }) => fileSize(row.original.bytes) },
    { accessorKey: "uploadedBy", header: t("maintenance.files.uploadedBy"), meta: { priority: 3 } },
    { accessorKey: "createdAt", header: t("maintenance.files.time"), meta: { priority: 2, width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 240 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <Button asChild variant="ghost" size="sm">
            <a href={row.original.downloadUrl} download={row.original.name}>
              <Download aria-hidden />
              {t("maintenance.files.download")}
            </a>
          </Button>
          <DeleteRowButton message={t("maintenance.files.deleteConfirm", { name: row.original.name })} onConfirmed={() => fetcher.submit({ id: row.original.id }, { method: "post" })} />
        </div>
      ),
    },
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
        <Input name="name" placeholder={t("maintenance.files.name")} aria-label={t("maintenance.files.name")} defaultValue={params.get("name") ?? ""} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.files.empty")} label={title} />
    </div>
  );
}
