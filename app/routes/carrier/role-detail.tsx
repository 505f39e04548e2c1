import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { useFormat } from "~/components/format";
import { DetailHeader } from "~/components/page-actions";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FactsCard } from "~/components/detail-list";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { MenuPicker } from "./menu-picker";
import { loadRole } from "./roles.server";

export function loader(args: LoaderFunctionArgs) {
  return loadRole(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.role.name };

export default function RoleDetail() {
  const { role, catalogue } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  return (
    <div className="flex flex-col gap-4">
      <DetailHeader title={role.name} description={t("roles.detail")} backTo="/carrierSystem/role" editTo={`/carrierSystem/role/edit/${role.id}`} />
      <FactsCard
        items={[
          [t("roles.name"), role.name],
          [t("roles.code"), <span className="font-mono">{role.code}</span>],
          [t("roles.type"), t(`roles.types.${role.type}`)],
          [t("common.status"), <StatusBadge status={role.status} />],
          [t("roles.remark"), role.remark || "—"],
          [t("common.createdAt"), dateTime(role.createdAt)],
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("roles.menus")}</CardTitle>
        </CardHeader>
        <CardContent>{role.type === "SUPER" ? t("common.all") : <MenuPicker catalogue={catalogue} value={role.menuCodes} />}</CardContent>
      </Card>
    </div>
  );
}
