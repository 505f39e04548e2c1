import type { ColumnDef } from "@tanstack/react-table";
import { Ban, CircleCheck, Eye, Pencil, Trash2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { CUSTOMER_STATUSES, MEMBER_LEVELS } from "../../../domain/schemas/drivers";
import { DataTable } from "~/components/data-table/data-table";
import { RowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader, useActionOutcome } from "~/components/page-actions";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { CustomerStatusBadge } from "./badges";
import { customerListAction, loadCustomers } from "./customers.server";
import { GroupFilter } from "./pickers";

/** User management › Customers (docs/rules/drivers.md "Customers"). */
export function loader(args: LoaderFunctionArgs) {
  return loadCustomers(args);
}

export function action(args: ActionFunctionArgs) {
  return customerListAction(args);
}

type Customer = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Customers() {
  const { page, group } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money } = useFormat();
  const { onPageChange } = useUrlPaging();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();

  useActionOutcome<{ intent: string; status: string | null }>(fetcher, (data) =>
    toast.success(t(data.intent === "delete" ? "drivers.customers.deleted" : data.status === "NORMAL" ? "drivers.customers.normalised" : "drivers.customers.blocked")),
  );

  const toggle = async (c: Customer) => {
    const blocking = c.status === "NORMAL";
    const ok = await confirm({
      message: t(blocking ? "drivers.customers.confirmBlock" : "drivers.customers.confirmNormal", { name: c.name }),
      destructive: blocking,
      confirmLabel: t(blocking ? "drivers.customers.block" : "drivers.customers.unblock"),
    });
    if (ok) fetcher.submit({ id: c.id, status: blocking ? "ABNORMAL" : "NORMAL" }, { method: "post" });
  };

  const remove = async (c: Customer) => {
    if (await confirm({ message: t("drivers.customers.confirmDelete", { name: c.name }), destructive: true, confirmLabel: t("common.delete") })) {
      fetcher.submit({ id: c.id, intent: "delete" }, { method: "post" });
    }
  };

  const columns: ColumnDef<Customer>[] = [
    { accessorKey: "name", header: t("drivers.customers.fields.name"), cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
    { accessorKey: "email", header: t("drivers.customers.fields.email"), meta: { priority: 2 } },
    { accessorKey: "phone", header: t("drivers.customers.fields.phone"), meta: { priority: 3 }, cell: ({ row }) => row.original.phone ?? "—" },
    { accessorKey: "memberLevel", header: t("drivers.customers.fields.memberLevel"), meta: { priority: 3 }, cell: ({ row }) => t(`drivers.customers.levels.${row.original.memberLevel}`) },
    { accessorKey: "groupName", header: t("drivers.customers.fields.group"), meta: { priority: 3 }, cell: ({ row }) => row.original.groupName ?? "—" },
    { accessorKey: "balance", header: t("drivers.customers.fields.balance"), meta: { priority: 2 }, cell: ({ row }) => money(row.original.balance) },
    { accessorKey: "status", header: t("common.status"), cell: ({ row }) => <CustomerStatusBadge status={row.original.status} /> },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 260 },
      cell: ({ row }) => (
        <RowActions
          actions={[
            { label: t("common.detail"), icon: Eye, to: `/userManagement/userProfileManagement/customerDetail/${row.original.id}` },
            { label: t("common.edit"), icon: Pencil, to: `/userManagement/userProfileManagement/customerEdit/${row.original.id}` },
            {
              label: t(row.original.status === "NORMAL" ? "drivers.customers.block" : "drivers.customers.unblock"),
              icon: row.original.status === "NORMAL" ? Ban : CircleCheck,
              onSelect: () => toggle(row.original),
            },
            { label: t("common.delete"), icon: Trash2, destructive: true, onSelect: () => remove(row.original) },
          ]}
        />
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("drivers.customers.title")} addTo="/userManagement/userProfileManagement/customerAdd" addLabel={t("drivers.customers.add")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("drivers.customers.fields.name")} />
        <FilterText name="email" label={t("drivers.customers.fields.email")} />
        <FilterText name="phone" label={t("drivers.customers.fields.phone")} />
        <FilterSelect name="memberLevel" label={t("drivers.customers.fields.memberLevel")} all={t("drivers.customers.fields.memberLevel")} options={MEMBER_LEVELS.map((l) => [l, t(`drivers.customers.levels.${l}`)] as const)} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")} options={CUSTOMER_STATUSES.map((s) => [s, t(`drivers.customers.statuses.${s}`)] as const)} />
        <GroupFilter current={group} label={t("drivers.customers.fields.group")} noneLabel={t("drivers.customers.fields.group")} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(c) => String(c.id)} emptyHint={t("drivers.customers.empty")} label={t("drivers.customers.title")} />
    </div>
  );
}
