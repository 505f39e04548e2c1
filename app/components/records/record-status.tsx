import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import type { ChargeRecordState } from "../../../domain/schemas/records";

/** How each record state looks (docs/rules/records.md "Record states"). */
const VARIANT = {
  CHARGING: "info",
  CHARGE_COMPLETE: "secondary",
  RECORD_COMPLETE: "success",
  RECORD_UNSETTLED: "warning",
  PAY_FAIL: "destructive",
  ABNORMAL: "destructive",
} as const;

export function RecordStatusBadge({ status }: { status: ChargeRecordState }) {
  const { t } = useTranslation();
  return <Badge variant={VARIANT[status]}>{t(`records.status.${status}`)}</Badge>;
}
