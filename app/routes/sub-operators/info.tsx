import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { InfoHeader } from "~/components/page-actions";
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
      <InfoHeader
        title={t("subInfo.title")}
        description={info.parent ? `${t("subOperators.parent")}: ${info.parent.code} · ${info.parent.name}` : undefined}
        editTo="/suboperators/subOperatorInfo/subOperatorInfoEdit"
        editLabel={t("subInfo.edit")}
      />
      <Card>
        <CardContent className="pt-6">
          <ProfileList profile={info} />
        </CardContent>
      </Card>
    </div>
  );
}
