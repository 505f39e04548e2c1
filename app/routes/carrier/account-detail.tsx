import { Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { getAccount } from "../../../workers/services/accounts/accounts";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { requireCtx } from "../../lib/ctx.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return getAccount(ctx, Number(params.id));
}

export default function AccountDetail() {
  const account = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={account.username}
        description={t("accounts.detail")}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/carrierSystem/carrierAcount">{t("common.back")}</Link>
            </Button>
            <Button asChild>
              <Link to={`/carrierSystem/carrierAcount/edit/${account.id}`}>
                <Pencil aria-hidden />
                {t("common.edit")}
              </Link>
            </Button>
          </>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <DetailList
            items={[
              [t("accounts.username"), account.username],
              [t("accounts.name"), account.name],
              [t("accounts.email"), account.email ?? "—"],
              [t("accounts.phone"), account.phone ?? "—"],
              [t("accounts.role"), account.roleName ?? "—"],
              [t("accounts.adminType"), account.adminType],
              [
                t("common.status"),
                <Badge variant={account.status === "VALID" ? "success" : "muted"}>{t(`common.statusValues.${account.status}`)}</Badge>,
              ],
              [t("accounts.mustChange"), account.mustChangePassword ? t("accounts.mustChangeYes") : "—"],
              [t("accounts.lastLogin"), dateTime(account.lastLoginAt) || "—"],
              [t("common.createdAt"), dateTime(account.createdAt)],
            ]}
          />
        </CardContent>
      </Card>
    </div>
  );
}
