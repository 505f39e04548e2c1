import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { DetailHeader } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { RowsCard } from "~/components/rows-table";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import { CustomerStatusBadge } from "./badges";
import { loadGroupDetail } from "./groups.server";

export function loader(args: LoaderFunctionArgs) {
  return loadGroupDetail(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (group) => group.name };

/** A group with its leader and members, and whose balance each member charges on. */
export default function GroupDetail() {
  const group = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime } = useFormat();
  return (
    <div className="flex flex-col gap-4">
      <DetailHeader title={group.name} description={t("drivers.groups.detail")} backTo="/userManagement/userGroupManagement" editTo={`/userManagement/userGroupManagement/groupEdit/${group.id}`} />
      <FactsCard
        items={[
          [t("drivers.groups.fields.code"), <span key="code" className="font-mono">{group.code}</span>],
          [t("drivers.groups.fields.leader"), group.leaderName ?? "—"],
          [t("drivers.groups.fields.deductionAccount"), group.deductionAccount ?? "—"],
          [t("drivers.groups.fields.deductionEmail"), group.deductionEmail ?? "—"],
          [t("drivers.groups.fields.memberCount"), String(group.members.length)],
          [t("common.createdAt"), dateTime(group.createdAt)],
        ]}
      />
      <RowsCard
        title={t("drivers.groups.fields.members")}
        head={
          <>
            <TableHead>{t("drivers.customers.fields.name")}</TableHead>
            <TableHead>{t("drivers.customers.fields.email")}</TableHead>
            <TableHead>{t("drivers.customers.fields.payWay")}</TableHead>
            <TableHead>{t("drivers.customers.paysFrom")}</TableHead>
            <TableHead>{t("drivers.customers.fields.balance")}</TableHead>
            <TableHead>{t("common.status")}</TableHead>
          </>
        }
        rows={group.members.map((m) => (
          <TableRow key={m.id}>
            <TableCell>
              <Link className="text-primary hover:underline" to={`/userManagement/userProfileManagement/customerDetail/${m.id}`}>
                {m.name}
              </Link>
              {m.id === group.leaderId && <span className="ml-2 text-xs text-muted-foreground">({t("drivers.groups.fields.leader")})</span>}
            </TableCell>
            <TableCell>{m.email}</TableCell>
            <TableCell>{t(`drivers.customers.payWays.${m.payWay}`)}</TableCell>
            <TableCell>{m.paysFrom ?? "—"}</TableCell>
            <TableCell className="tabular-nums">{money(m.balance)}</TableCell>
            <TableCell>
              <CustomerStatusBadge status={m.status} />
            </TableCell>
          </TableRow>
        ))}
      />
    </div>
  );
}
