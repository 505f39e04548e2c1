import type { ColumnDef } from "@tanstack/react-table";
import { Eye, Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { EDITIONS, VALIDITIES } from "../../../domain/schemas/platform";
import { DataTable } from "~/components/data-table/data-table";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { ListHeader, RowLink, useActionOutcome } from "~/components/page-actions";
import { StatusToggle } from "~/components/status-toggle";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { loadOperators, operatorStatusAction } from "./operators.server";
import { dayOf, ValidityBadge } from "./platform-badges";

/** Platform › Operators: list, filters, enable and disable (docs/rules/platform.md "Operators"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOperators(args);
}

export function action(args: ActionFunctionArgs) {
  return operatorStatusAction(args);
}

type Operator = Awaited<ReturnType<typeof loader>>["records"][number];

export default function Operators() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome<{ status: string }>(fetcher, (data) => toast.success(t(data.status === "VALID" ? "operators.enabled" : "operators.disabled")));

  const columns: ColumnDef<Operator>[] = [
    { accessorKey: "code", header: t("operators.code"), meta: { width: 130 }, cell: ({ row }) => <span className="font-medium">{row.original.code}</span> },
    { accessorKey: "name", header: t("operators.name") },
    { accessorKey: "edition", header: t("operators.edition"), meta: { priority: 2, width: 120 }, cell: ({ row }) => t(`operators.editions.${row.original.edition}`) },
    { accessorKey: "validity", header: t("operators.validity"), meta: { width: 140 }, cell: ({ row }) => <ValidityBadge validity={row.original.validity} /> },
    { accessorKey: "validUntil", header: t("operators.validUntil"), meta: { priority: 3, width: 130 }, cell: ({ row }) => dayOf(row.original.validUntil) },
    {
      id: "authorized",
      header: t("operators.authorized"),
      meta: { priority: 3 },
      cell: ({ row }) => `${row.original.authorizedAcConnectors} / ${row.original.authorizedDcConnectors}`,
    },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 320 },
      cell: ({ row }) => (
        <div className="flex gap-1">
          <RowLink to={`/platform/operator/detail/${row.original.id}`} icon={Eye} label={t("common.detail")} />
          <RowLink to={`/platform/operator/edit/${row.original.id}`} icon={Pencil} label={t("common.edit")} />
          <StatusToggle id={row.original.id} status={row.original.status} fetcher={fetcher} />
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <ListHeader title={t("operators.title")} addTo="/platform/operator/add" addLabel={t("operators.add")} />
      <DataTableToolbar>
        <Input name="code" placeholder={t("operators.code")} aria-label={t("operators.code")} defaultValue={params.get("code") ?? ""} />
        <Input name="name" placeholder={t("operators.name")} aria-label={t("operators.name")} defaultValue={params.get("name") ?? ""} />
        <NativeSelect name="edition" aria-label={t("operators.edition")} defaultValue={params.get("edition") ?? ""}>
          <option value="">{t("operators.edition")}</option>
          {EDITIONS.map((e) => (
            <option key={e} value={e}>
              {t(`operators.editions.${e}`)}
            </option>
          ))}
        </NativeSelect>
        <NativeSelect name="validity" aria-label={t("operators.validity")} defaultValue={params.get("validity") ?? ""}>
          <option value="">{t("operators.validity")}</option>
          {VALIDITIES.map((v) => (
            <option key={v} value={v}>
              {t(`operators.validities.${v}`)}
            </option>
          ))}
        </NativeSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(o) => String(o.id)} emptyHint={t("operators.empty")} label={t("operators.title")} />
    </div>
  );
}
