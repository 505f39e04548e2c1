import type { ColumnDef } from "@tanstack/react-table";
import { Ban, Eye } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { PACKAGE_STATES, PACKAGE_TYPES } from "../../../domain/schemas/platform";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader, RowLink, useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
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
  const [params] = useSearchParams();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("packages.voided")));

  const voidIt = async (pkg: Package) => {
    if (await confirm({ message: t("packages.confirmVoid"), destructive: true, confirmLabel: t("packages.void") })) fetcher.submit({ id: pkg.id }, { method: "post" });
  };

  const columns: ColumnDef<Package>[] = [
    { accessorKey: "operatorCode", header: t("packages.operator"), meta: { width: 130 }, cell: ({ row }) => <span className="font-medium">{row.original.operatorCode}</span> },
    { accessorKey: "type", header: t("packages.type"), meta: { width: 120 }, cell: ({ row }) => t(`packages.types.${row.original.type}`) },
    { accessorKey: "status", header: t("packages.state"), meta: { width: 150 }, cell: ({ row }) => <PackageStateBadge state={row.original.status} /> },
    { id: "prices", header: t("packages.prices"), meta: { priority: 2 }, cell: ({ row }) => `${row.original.acPrice} / ${row.original.dcPrice} ${row.original.currency}` },
    { id: "connectors", header: t("packages.connectors"), meta: { priority: 2, width: 140 }, cell: ({ row }) => `${row.original.acConnectors} / ${row.original.dcConnectors}` },
    { accessorKey: "beginAt", header: t("packages.beginAt"), meta: { priority: 3, width: 120 }, cell: ({ row }) => dayOf(row.original.beginAt) },
    { accessorKey: "endAt", header: t("packages.endAt"), meta: { priority: 3, width: 120 }, cell: ({ row }) => dayOf(row.original.endAt) },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 220 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <RowLink to={`/platform/pricePackage/detail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
          {(row.original.status === "effective" || row.original.status === "ineffective") && (
            <Button variant="ghost" size="sm" onClick={() => voidIt(row.original)}>
              <Ban aria-hidden />
              {t("packages.void")}
            </Button>
          )}
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("packages.title")} addTo="/platform/pricePackage/add" addLabel={t("packages.add")} />
      <DataTableToolbar>
        <Input name="operatorCode" placeholder={t("packages.operator")} aria-label={t("packages.operator")} defaultValue={params.get("operatorCode") ?? ""} />
        <NativeSelect name="type" aria-label={t("packages.type")} defaultValue={params.get("type") ?? ""}>
          <option value="">{t("packages.type")}</option>
          {PACKAGE_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`packages.types.${type}`)}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect name="status" aria-label={t("packages.state")} defaultValue={params.get("status") ?? ""}>
          <option value="">{t("packages.state")}</option>
          {PACKAGE_STATES.map((state) => (
            <option key={state} value={state}>
              {t(`packages.states.${state}`)}
            </option>
          ))}
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(p) => String(p.id)} emptyHint={t("packages.empty")} label={t("packages.title")} />
    </div>
  );
}
