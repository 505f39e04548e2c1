import { Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { ProfileList } from "./profile-list";
import { loadOwnInfo } from "./sub-operators.server";

/** The sub-operator's own info (docs/rules/platform.md "Sub-operators"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOwnInfo(args);
}

export default function SubOperatorInfo() {
  const info = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("subInfo.title")}
        description={info.parent ? `${t("subOperators.parent")}: ${info.parent.code} · ${info.parent.name}` : undefined}
        actions={
          <Button asChild>
            <Link to="/suboperators/subOperatorInfo/subOperatorInfoEdit">
              <Pencil aria-hidden />
              {t("subInfo.edit")}
            </Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <ProfileList profile={info} />
        </CardContent>
      </Card>
    </div>
  );
}
