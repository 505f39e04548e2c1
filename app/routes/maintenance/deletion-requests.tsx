import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DELETION_STATUSES } from "../../../domain/schemas/maintenance";
import { DataTable } from "~/components/data-table/data-table";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { deletionAction, loadDeletions } from "./media.server";

/** Drivers' account deletion requests: complete (erase personal data) or reject each once (docs/rules/maintenance.md "Account deletion"). */
export function loader(args: LoaderFunctionArgs) {
  return loadDeletions(args);
}

export function action(args: ActionFunctionArgs) {
  return deletionAction(args);
}

type Request = Awaited<ReturnType<typeof loader>>["page"]["records"][number];
const VARIANT = { PENDING: "warning", DONE: "success", REJECTED: "muted" } as const;

export default function DeletionRequests() {
  const { page, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("maintenance.deletion.done")));
  const title = t("page.deletionRequests");
  const decide = async (r: Request, result: "DONE" | "REJECTED") => {
    const done = result === "DONE";
    const message = t(done ? "maintenance.deletion.completeConfirm" : "maintenance.deletion.rejectConfirm", { contact: r.contact });
    if (await confirm({ message, destructive: done, confirmLabel: t(done ? "maintenance.deletion.complete" : "maintenance.deletion.reject") })) {
      fetcher.submit({ id: r.id, result }, { method: "post" });
    }
  };
  const columns: ColumnDef<Request>[] = [
    { accessorKey: "createdAt", header: t("maintenance.deletion.time"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { accessorKey: "contact", header: t("maintenance.deletion.contact"), cell: ({ row }) => <span className="break-all">{row.original.contact}</span> },
    { accessorKey: "customerId", header: t("maintenance.deletion.customer"), meta: { priority: 2 }, cell: ({ row }) => (row.original.customerId ? `#${row.original.customerId}` : t("maintenance.deletion.noCustomer")) },
    { accessorKey: "reason", header: t("maintenance.deletion.reason"), meta: { priority: 3 }, cell: ({ row }) => row.original.reason ?? "—" },
    {
      accessorKey: "status",
      header: t("maintenance.deletion.status"),
      cell: ({ row }) => <Badge variant={VARIANT[row.original.status]}>{t(`maintenance.deletion.statuses.${row.original.status}`)}</Badge>,
    },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 240 },
      cell: ({ row }) =>
        row.original.status === "PENDING" ? (
          <div className="flex gap-1">
            <Button variant="ghost" size="sm" className="text-destructive" onClick={() => decide(row.original, "DONE")}>
              {t("maintenance.deletion.complete")}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => decide(row.original, "REJECTED")}>
              {t("maintenance.deletion.reject")}
            </Button>
          </div>
        ) : null,
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("maintenance.deletion.description")} />
      <DataTableToolbar>
        <NativeSelect name="status" aria-label={t("maintenance.deletion.status")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("maintenance.deletion.allStatuses")}</option>
          {DELETION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`maintenance.deletion.statuses.${s}`)}
            </option>
          ))}
        </NativeSelect>
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.deletion.empty")} label={title} />
    </div>
  );
}
