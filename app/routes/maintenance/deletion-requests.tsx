import type { ColumnDef } from "@tanstack/react-table";
import { CircleX, ShieldAlert, Trash2, UserX } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DELETION_STATUSES } from "../../../domain/schemas/maintenance";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { TextDialog } from "~/components/text-dialog";
import { Badge } from "~/components/ui/badge";
import { useConfirm } from "~/components/ui/confirm-dialog";
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
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("maintenance.deletion.done")));
  const title = t("page.deletionRequests");
  // A request no mailed code confirmed is completed only through the dialog that asks how the
  // requester's identity was confirmed (docs/rules/maintenance.md "Account deletion").
  const [unverified, setUnverified] = useState<Request | null>(null);
  const decide = async (r: Request, result: "DONE" | "REJECTED") => {
    const done = result === "DONE";
    if (done && !r.verified) return setUnverified(r);
    const message = t(done ? "maintenance.deletion.completeConfirm" : "maintenance.deletion.rejectConfirm", { contact: r.contact });
    if (await confirm({ message, destructive: done, confirmLabel: t(done ? "maintenance.deletion.complete" : "maintenance.deletion.reject") })) {
      fetcher.submit({ id: r.id, result }, { method: "post" });
    }
  };
  const columns: ColumnDef<Request>[] = [
    { accessorKey: "createdAt", header: t("maintenance.deletion.time"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    {
      accessorKey: "contact",
      header: t("maintenance.deletion.contact"),
      cell: ({ row }) => (
        <div className="flex flex-col gap-1">
          <span className="break-all">{row.original.contact}</span>
          {!row.original.verified && row.original.status === "PENDING" && (
            <span className="flex items-start gap-1 text-xs font-medium text-destructive">
              <ShieldAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
              <span>
                <Badge variant="destructive">{t("maintenance.deletion.unverified")}</Badge> {t("maintenance.deletion.unverifiedHint")}
              </span>
            </span>
          )}
        </div>
      ),
    },
    { accessorKey: "customerId", header: t("maintenance.deletion.customer"), meta: { priority: 2 }, cell: ({ row }) => (row.original.customerId ? `#${row.original.customerId}` : t("maintenance.deletion.noCustomer")) },
    { accessorKey: "reason", header: t("maintenance.deletion.reason"), meta: { priority: 3 }, cell: ({ row }) => row.original.reason ?? "—" },
    {
      accessorKey: "status",
      header: t("maintenance.deletion.status"),
      cell: ({ row }) => <Badge variant={VARIANT[row.original.status]}>{t(`maintenance.deletion.statuses.${row.original.status}`)}</Badge>,
    },
    actionsColumn<Request>(t("common.actions"), (r) =>
      r.status === "PENDING"
        ? [
            { label: t("maintenance.deletion.complete"), icon: UserX, destructive: true, onSelect: () => decide(r, "DONE") },
            { label: t("maintenance.deletion.reject"), icon: CircleX, onSelect: () => decide(r, "REJECTED") },
          ]
        : [],
    ),
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("maintenance.deletion.description")} />
      <DataTableToolbar>
        <FilterSelect name="status" label={t("maintenance.deletion.status")} all={t("maintenance.deletion.allStatuses")} options={DELETION_STATUSES.map((s) => [s, t(`maintenance.deletion.statuses.${s}`)] as const)} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.deletion.empty")} label={title} />
      <TextDialog
        open={unverified !== null}
        onClose={() => setUnverified(null)}
        title={t("maintenance.deletion.complete")}
        description={unverified ? t("maintenance.deletion.completeConfirm", { contact: unverified.contact }) : undefined}
        consent={{ label: t("maintenance.deletion.identityConfirmed"), requiredMessage: t("maintenance.validation.identityConfirmedBy") }}
        texts={[{ name: "identityConfirmedBy", label: t("maintenance.deletion.identityChannel"), requiredMessage: t("maintenance.deletion.identityRequired"), maxLength: 200, rows: 2 }]}
        values={{ id: unverified?.id ?? 0, result: "DONE" }}
        submitLabel={t("maintenance.deletion.complete")}
        icon={Trash2}
        successMessage={t("maintenance.deletion.done")}
        idPrefix="deletion-identity"
      >
        <p className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-2 text-sm text-destructive">
          <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t("maintenance.deletion.unverifiedHint")}
        </p>
      </TextDialog>
    </div>
  );
}
