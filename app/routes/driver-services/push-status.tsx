import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";

const VARIANT = { SUCCESS: "success", FAIL: "destructive", PENDING: "info" } as const;

/** A delivery's outcome: SUCCESS, FAIL or PENDING (docs/rules/driver-services.md "Offline lists"); none before the first push. */
export function PushStatus({ status }: { status: keyof typeof VARIANT | null }) {
  const { t } = useTranslation();
  if (!status) return <span className="text-muted-foreground">{t("driverServices.lists.notPushed")}</span>;
  return <Badge variant={VARIANT[status]}>{t(`driverServices.lists.statuses.${status}`)}</Badge>;
}
