import type { ColumnDef } from "@tanstack/react-table";
import { Ban } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { PACKAGE_STATES, PACKAGE_TYPES } from "../../../domain/schemas/platform";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader, useActionOutcome } from "~/components/page-actions";
import { toast } from "~/components/ui/toast";
import { loadPackages, voidPackageAction } from "./packages.server";
import { dayOf, PackageStateBadge } from "./platform-badges";

/** Platform › Price packages: every operator's packages, filtered; void (docs/rules/platform.md "Price packages"). */
export function loader(args: LoaderFunctionArgs) {
  return loadPackages(args);
}

export function action(args: ActionFunctionArgs) {
  return voidPackageAction(args);
}

type Package = Awaited<ReturnType<typeof loader>>["records"][number];

export default function Packages() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const { detail } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("packages.voided")));

  const columns: ColumnDef<Package>[] = [
    { accessorKey: "operatorCode", header: t("packages.operator"), meta: { width: 130 }, cell: ({ row }) => <span className="font-medium">{row.original.operatorCode}</span> },
    { accessorKey: "type", header: t("packages.type"), meta: { width: 120 }, cell: ({ row }) => t(`packages.types.${row.original.type}`) },
    { accessorKey: "status", header: t("packages.state"), meta: { width: 150 }, cell: ({ row }) => <PackageStateBadge state={row.original.status} /> },
    { id: "prices", header: t("packages.prices"), meta: { priority: 2 }, cell: ({ row }) => `${row.original.acPrice} / ${row.original.dcPrice} ${row.original.currency}` },
    { id: "connectors", header: t("packages.connectors"), meta: { priority: 2, width: 140 }, cell: ({ row }) => `${row.original.acConnectors} / ${row.original.dcConnectors}` },
    { accessorKey: "beginAt", header: t("packages.beginAt"), meta: { priority: 3, width: 120 }, cell: ({ row }) => dayOf(row.original.beginAt) },
    { accessorKey: "endAt", header: t("packages.endAt"), meta: { priority: 3, width: 120 }, cell: ({ row }) => dayOf(row.original.endAt) },
    actionsColumn<Package>(t("common.actions"), (pkg) => [
      detail(`/platform/pricePackage/detail/${pkg.id}`),
      (pkg.status === "effective" || pkg.status === "ineffective") && {
        label: t("packages.void"),
        icon: Ban,
        destructive: true,
        onSelect: () => fetcher.submit({ id: pkg.id }, { method: "post" }),
        confirm: { message: t("packages.confirmVoid") },
      },
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("packages.title")} addTo="/platform/pricePackage/add" addLabel={t("packages.add")} />
      <DataTableToolbar>
        <FilterText name="operatorCode" label={t("packages.operator")} />
        <FilterSelect name="type" label={t("packages.type")} all={t("packages.type")} options={PACKAGE_TYPES.map((type) => [type, t(`packages.types.${type}`)] as const)} />
        <FilterSelect name="status" label={t("packages.state")} all={t("packages.state")} options={PACKAGE_STATES.map((state) => [state, t(`packages.states.${state}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(p) => String(p.id)} emptyHint={t("packages.empty")} label={t("packages.title")} />
    </div>
  );
}
