import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useRevalidator, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DetailHeader, useActionOutcome } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { StatusToggle } from "~/components/status-toggle";
import { Card, CardContent } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { ProfileList } from "./profile-list";
import { loadSubOperator, subOperatorStatusAction } from "./sub-operators.server";

/** A sub-operator's details; on its enable page (`enable/:id`) and here, enable or disable it. */
export function loader(args: LoaderFunctionArgs) {
  return loadSubOperator(args);
}

export function action(args: ActionFunctionArgs) {
  return subOperatorStatusAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (sub) => sub.code };

export default function SubOperatorDetail() {
  const sub = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const { revalidate } = useRevalidator();
  useActionOutcome<{ status: string }>(fetcher, (data) => {
    toast.success(t(data.status === "VALID" ? "subOperators.enabled" : "subOperators.disabled"));
    void revalidate();
  });
  return (
    <div className="flex flex-col gap-4">
      <DetailHeader title={`${sub.code} · ${sub.name}`} description={t("subOperators.detail")} backTo="/SubOperator/operatorAcount" editTo={`/SubOperator/operatorAcount/accountEdit/${sub.id}`} />
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <ProfileList profile={sub} />
          <div className="flex items-center gap-2">
            <span className="text-sm text-muted-foreground">{t("subOperators.enableTitle")}</span>
            <StatusToggle id={sub.id} status={sub.status} fetcher={fetcher} />
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
