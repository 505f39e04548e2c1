import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { DetailHeader } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { StatusBadge } from "~/components/status-badge";
import { amountInput } from "../../../domain/schemas/stations";
import { loadOperator } from "./operators.server";
import { dayOf, ValidityBadge } from "./platform-badges";

/** One operator as the platform sees it: settings, domains, owner account (docs/rules/platform.md "Operators"). */
export function loader(args: LoaderFunctionArgs) {
  return loadOperator(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (operator) => operator.code };

export default function OperatorDetail() {
  const operator = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const dash = (value: string | null | undefined) => value || "—";
  return (
    <div className="flex flex-col gap-4">
      <DetailHeader title={`${operator.code} · ${operator.name}`} description={t("operators.detail")} backTo="/platform/operator" editTo={`/platform/operator/edit/${operator.id}`} />
      <FactsCard
        items={[
          [t("operators.code"), operator.code],
          [t("operators.name"), operator.name],
          [t("operators.edition"), t(`operators.editions.${operator.edition}`)],
          [t("common.status"), <StatusBadge status={operator.status} />],
          [t("operators.validity"), <ValidityBadge validity={operator.validity} />],
          [t("operators.validFrom"), dayOf(operator.validFrom)],
          [t("operators.validUntil"), dayOf(operator.validUntil)],
          [t("operators.authorized"), `${operator.authorizedAcConnectors} / ${operator.authorizedDcConnectors}`],
          [t("pickers.subscription.label"), operator.subscriptionAmount === null ? "—" : `${amountInput(operator.subscriptionAmount, operator.currencyDecimals)} ${operator.currency}`],
          [t("operators.timeZone"), operator.timeZone],
          [t("operators.currency"), `${operator.currency} (${operator.currencySign}, ${operator.currencyDecimals})`],
          [t("operators.defaultLanguage"), operator.defaultLanguage],
          [t("operators.contactName"), dash(operator.contactName)],
          [t("operators.contactPhone"), dash(operator.contactPhone)],
          [t("operators.contactEmail"), dash(operator.contactEmail)],
          [t("operators.chargeAccount"), dash(operator.chargeAccount)],
          [t("operators.clearingAccount"), dash(operator.clearingAccount)],
          [t("operators.cardPaymentAccount"), dash(operator.cardPaymentAccount)],
          [t("operators.paypalAccount"), dash(operator.paypalAccount)],
          [t("operators.domains"), operator.domains.length ? operator.domains.join(", ") : "—"],
          [t("operators.homeUrl"), dash(operator.homeUrl)],
          [t("operators.openingHours"), dash(operator.openingHours)],
          [t("operators.eipaAccount"), dash(operator.eipaAccount)],
          [t("operators.eipaPassword"), operator.eipaPasswordSet ? t("operators.eipaPasswordSet") : "—"],
          [t("operators.joinOcpi"), operator.joinOcpi ? t("operators.yes") : t("operators.no")],
          [t("operators.admin"), operator.admin ? `${operator.admin.username} (${operator.admin.name})` : "—"],
          [t("common.createdAt"), dateTime(operator.createdAt)],
        ]}
      />
    </div>
  );
}
