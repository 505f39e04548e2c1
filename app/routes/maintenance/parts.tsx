import { useTranslation } from "react-i18next";
import type { WorkOrderStatus } from "../../../domain/schemas/maintenance";
import { Badge } from "~/components/ui/badge";

const VARIANT = { ALREADY: "warning", PASS: "info", CLOSE: "success" } as const;

/** A work order's state: to do, processed, closed (docs/rules/maintenance.md "Work orders"). */
export function WorkOrderStatusBadge({ status }: { status: WorkOrderStatus }) {
  const { t } = useTranslation();
  return <Badge variant={VARIANT[status]}>{t(`maintenance.ui.statuses.${status}`)}</Badge>;
}
