import type { ColumnDef } from "@tanstack/react-table";
import { Ban, CircleCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { CUSTOMER_STATUSES, MEMBER_LEVELS } from "../../../domain/schemas/drivers";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions, type RowAction } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ListHeader, useActionOutcome } from "~/components/page-actions";
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
  const { detail, edit, remove } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();

  useActionOutcome<{ intent: string; status: string | null }>(fetcher, (data) =>
    toast.success(t(data.intent === "delete" ? "drivers.customers.deleted" : data.status === "NORMAL" ? "drivers.customers.normalised" : "drivers.customers.blocked")),
  );

  /** Blocking asks in red, unblocking plainly; each confirm button is named after its action. */
  const blockOrUnblock = (c: Customer): RowAction => {
    const blocking = c.status === "NORMAL";
    return {
      label: t(blocking ? "drivers.customers.block" : "drivers.customers.unblock"),
      icon: blocking ? Ban : CircleCheck,
      onSelect: () => fetcher.submit({ id: c.id, status: blocking ? "ABNORMAL" : "NORMAL" }, { method: "post" }),
      confirm: { message: t(blocking ? "drivers.customers.confirmBlock" : "drivers.customers.confirmNormal", { name: c.name }), destructive: blocking },
    };
  };

  const columns: ColumnDef<Customer>[] = [
    { accessorKey: "name", header: t("drivers.customers.fields.name"), cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
    { accessorKey: "email", header: t("drivers.customers.fields.email"), meta: { priority: 2 } },
    { accessorKey: "phone", header: t("drivers.customers.fields.phone"), meta: { priority: 3 }, cell: ({ row }) => row.original.phone ?? "—" },
    { accessorKey: "memberLevel", header: t("drivers.customers.fields.memberLevel"), meta: { priority: 3 }, cell: ({ row }) => t(`drivers.customers.levels.${row.original.memberLevel}`) },
    { accessorKey: "groupName", header: t("drivers.customers.fields.group"), meta: { priority: 3 }, cell: ({ row }) => row.original.groupName ?? "—" },
    { accessorKey: "balance", header: t("drivers.customers.fields.balance"), meta: { priority: 2 }, cell: ({ row }) => money(row.original.balance) },
    { accessorKey: "status", header: t("common.status"), cell: ({ row }) => <CustomerStatusBadge status={row.original.status} /> },
    actionsColumn<Customer>(
      t("common.actions"),
      (customer) => [
        detail(`/userManagement/userProfileManagement/customerDetail/${customer.id}`),
        edit(`/userManagement/userProfileManagement/customerEdit/${customer.id}`),
        blockOrUnblock(customer),
        remove(() => fetcher.submit({ id: customer.id, intent: "delete" }, { method: "post" }), { message: t("drivers.customers.confirmDelete", { name: customer.name }) }),
      ],
      260,
    ),
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
