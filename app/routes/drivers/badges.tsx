import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";

const CARD_VARIANT = { VALID: "success", BLOCKED: "destructive", EXPIRED: "warning", LOST: "muted" } as const;

/** A card's status: VALID, BLOCKED, EXPIRED or LOST. */
export function CardStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Badge variant={CARD_VARIANT[status as keyof typeof CARD_VARIANT] ?? "muted"}>{t(`drivers.cards.statuses.${status}`)}</Badge>;
}

export function BindBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Badge variant={status === "BIND" ? "info" : "muted"}>{t(`drivers.cards.bindStatuses.${status}`)}</Badge>;
}

/** A customer's user status: NORMAL, or ABNORMAL (may not charge). */
export function CustomerStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Badge variant={status === "NORMAL" ? "success" : "destructive"}>{t(`drivers.customers.statuses.${status}`)}</Badge>;
}
