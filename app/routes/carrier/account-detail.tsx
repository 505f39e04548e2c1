import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { DetailHeader } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { loadAccount } from "./accounts.server";

export function loader(args: LoaderFunctionArgs) {
  return loadAccount(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (account) => account.username };

export default function AccountDetail() {
  const account = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  return (
    <div className="flex flex-col gap-4">
      <DetailHeader title={account.username} description={t("accounts.detail")} backTo="/carrierSystem/carrierAcount" editTo={`/carrierSystem/carrierAcount/edit/${account.id}`} />
      <FactsCard
        items={[
          [t("accounts.username"), account.username],
          [t("accounts.name"), account.name],
          [t("accounts.email"), account.email ?? "—"],
          [t("accounts.phone"), account.phone ?? "—"],
          [t("accounts.role"), account.roleName ?? "—"],
          [t("accounts.adminType"), account.adminType],
          [
            t("common.status"),
            <StatusBadge status={account.status} />,
          ],
          [t("accounts.mustChange"), account.mustChangePassword ? t("accounts.mustChangeYes") : "—"],
          [t("accounts.lastLogin"), dateTime(account.lastLoginAt) || "—"],
          [t("common.createdAt"), dateTime(account.createdAt)],
        ]}
      />
    </div>
  );
}
