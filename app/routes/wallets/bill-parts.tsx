import { useTranslation } from "react-i18next";
import type { Bill } from "../../../workers/services/wallets/bills";
import { Badge } from "~/components/ui/badge";

/** A bill's payment state: paid, paying or failed. */
export function BillStatusBadge({ status }: { status: Bill["status"] }) {
  const { t } = useTranslation();
  return <Badge variant={status === "PaySuccess" ? "success" : status === "PayFail" ? "destructive" : "warning"}>{t(`wallets.bills.statuses.${status}`)}</Badge>;
}

/** What a bill's remark says: a `Member` bill's source (or its expiry) by name, any other remark as written. */
export function useBillRemark() {
  const { t } = useTranslation();
  // A Member bill's source (1, 2, 3) or the housekeeping's EXPIRED, by name.
  return (b: Pick<Bill, "type" | "remark">) =>
    b.type === "Member" && b.remark && /^([123]|EXPIRED)$/.test(b.remark) ? t(`wallets.bills.sources.${b.remark}`) : (b.remark ?? "—");
}

/** A level change as "NORMAL → SILVER", translated; empty when the level stayed. */
export function useLevelChange() {
  const { t } = useTranslation();
  return (b: Pick<Bill, "memberLevelBefore" | "memberLevelAfter">) =>
    b.memberLevelBefore && b.memberLevelAfter && b.memberLevelBefore !== b.memberLevelAfter
      ? `${t(`drivers.customers.levels.${b.memberLevelBefore}`)} → ${t(`drivers.customers.levels.${b.memberLevelAfter}`)}`
      : "";
}
