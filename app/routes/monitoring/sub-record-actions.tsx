import { ArrowLeft } from "lucide-react";
import { useTranslation } from "react-i18next";
import { LiveIndicator } from "~/components/live/live-indicator";
import { HeaderLink } from "~/components/page-actions";

/** The header actions of a sub-operator's location or point: that its values are live, and Back to its list. */
export function SubRecordActions({ backTo }: { backTo: string }) {
  const { t } = useTranslation();
  return (
    <>
      <LiveIndicator />
      <HeaderLink to={backTo} icon={ArrowLeft} label={t("monitoring.common.back")} variant="outline" />
    </>
  );
}
