import { useTranslation } from "react-i18next";
import { DetailList } from "~/components/detail-list";
import { StatusBadge } from "~/components/status-badge";
import { dayOf, ValidityBadge } from "../platform/platform-badges";

interface Profile {
  code: string;
  name: string;
  status: "VALID" | "INVALID";
  validity: "valid" | "disabled" | "expired" | "future";
  validFrom: string | null;
  validUntil: string | null;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  chargeAccount: string | null;
  clearingAccount: string | null;
  cardPaymentAccount: string | null;
  paypalAccount: string | null;
  homeUrl: string | null;
  openingHours: string | null;
}

/** What the parent and the sub-operator itself see of a sub-operator. */
export function ProfileList({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const dash = (value: string | null) => value || "—";
  return (
    <DetailList
      items={[
        [t("operators.code"), profile.code],
        [t("operators.name"), profile.name],
        [t("common.status"), <StatusBadge status={profile.status} />],
        [t("operators.validity"), <ValidityBadge validity={profile.validity} />],
        [t("operators.validFrom"), dayOf(profile.validFrom)],
        [t("operators.validUntil"), dayOf(profile.validUntil)],
        [t("operators.contactName"), dash(profile.contactName)],
        [t("operators.contactPhone"), dash(profile.contactPhone)],
        [t("operators.contactEmail"), dash(profile.contactEmail)],
        [t("operators.chargeAccount"), dash(profile.chargeAccount)],
        [t("operators.clearingAccount"), dash(profile.clearingAccount)],
        [t("operators.cardPaymentAccount"), dash(profile.cardPaymentAccount)],
        [t("operators.paypalAccount"), dash(profile.paypalAccount)],
        [t("operators.homeUrl"), dash(profile.homeUrl)],
        [t("operators.openingHours"), dash(profile.openingHours)],
      ]}
    />
  );
}
