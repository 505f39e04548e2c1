import type { ColumnDef } from "@tanstack/react-table";
import { Receipt } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { DetailList } from "~/components/detail-list";
import { InfoHeader } from "~/components/page-actions";
import { Card, CardContent } from "~/components/ui/card";
import { ProfileList } from "../sub-operators/profile-list";
import { loadCarrierInfo } from "./packages.server";
import { dayOf, PackageStateBadge } from "./platform-badges";

/** Carrier system › Operator info: the operator, its edition, quota and price packages (docs/rules/platform.md "Price packages"). */
export function loader(args: LoaderFunctionArgs) {
  return loadCarrierInfo(args);
}

type Package = Awaited<ReturnType<typeof loader>>["packages"]["records"][number];

export default function CarrierInfo() {
  const { operator, info, packages } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const columns: ColumnDef<Package>[] = [
    { accessorKey: "type", header: t("packages.type"), meta: { width: 120 }, cell: ({ row }) => t(`packages.types.${row.original.type}`) },
    { accessorKey: "status", header: t("packages.state"), meta: { width: 150 }, cell: ({ row }) => <PackageStateBadge state={row.original.status} /> },
    { id: "prices", header: t("packages.prices"), meta: { priority: 2 }, cell: ({ row }) => `${row.original.acPrice} / ${row.original.dcPrice} ${row.original.currency}` },
    { id: "connectors", header: t("packages.connectors"), meta: { priority: 2, width: 140 }, cell: ({ row }) => `${row.original.acConnectors} / ${row.original.dcConnectors}` },
    { id: "period", header: `${t("packages.beginAt")} – ${t("packages.endAt")}`, meta: { priority: 3, width: 220 }, cell: ({ row }) => `${dayOf(row.original.beginAt)} – ${dayOf(row.original.endAt)}` },
    actionsColumn<Package>(t("common.actions"), (record) => [{ label: t("carrierInfo.bills"), icon: Receipt, to: `/carrierSystem/carrierInfo/authorizationBillingDetail/${record.id}` }], 140),
  ];
  return (
    <div className="flex flex-col gap-4">
      <InfoHeader title={t("carrierInfo.title")} description={`${operator.code} · ${operator.name}`} editTo="/carrierSystem/carrierInfo/carrierInfoEdit" editLabel={t("carrierInfo.edit")} />
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <DetailList
            items={[
              [t("operators.edition"), t(`operators.editions.${operator.edition}`)],
              [t("operators.authorized"), `${operator.authorizedAc} / ${operator.authorizedDc}`],
              [t("operators.eipaAccount"), info.eipaAccount || "—"],
              [t("operators.domains"), info.domains.join(", ") || "—"],
            ]}
          />
          <ProfileList profile={info} />
        </CardContent>
      </Card>
      <h2 className="text-base font-semibold">{t("carrierInfo.packages")}</h2>
      <DataTable columns={columns} page={packages} onPageChange={onPageChange} getRowId={(p) => String(p.id)} emptyHint={t("carrierInfo.packagesEmpty")} label={t("carrierInfo.packages")} heightOffset={420} />
    </div>
  );
}
