import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";

/** Enabled (VALID) or disabled (INVALID), as every record with a status shows it. */
export function StatusBadge({ status }: { status: "VALID" | "INVALID" }) {
  const { t } = useTranslation();
  return <Badge variant={status === "VALID" ? "success" : "muted"}>{t(`common.statusValues.${status}`)}</Badge>;
}
