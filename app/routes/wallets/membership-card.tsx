import { Crown, ReceiptText } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { MEMBER_LEVELS, type MemberLevel } from "../../../domain/schemas/drivers";
import { MAX_MEMBER_MONTHS } from "../../../domain/schemas/wallets";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { useIdempotentSubmit } from "~/lib/idempotency";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { FormDialogFooter } from "~/components/form/dialog-footer";

interface Member {
  id: number;
  name: string;
  memberLevel: MemberLevel;
  memberUntil: string | null;
}

/**
 * The customer's membership (docs/rules/wallets.md "Membership"): its level and paid period, a
 * change of level (any direction, renewal included) with the fee it costs, confirmed before it is
 * sent, and a link to the customer's bills.
 */
export function MembershipCard({ customer, fees }: { customer: Member; fees: Record<MemberLevel, number> }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const [changing, setChanging] = useState(false);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>{t("wallets.membership.title")}</CardTitle>
        <Button variant="outline" size="sm" onClick={() => setChanging(true)}>
          <Crown aria-hidden />
          {t("wallets.membership.change")}
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <DetailList
          items={[
            [t("wallets.membership.level"), t(`drivers.customers.levels.${customer.memberLevel}`)],
            [t("wallets.membership.until"), customer.memberUntil ? dateTime(customer.memberUntil) : "—"],
          ]}
        />
        <Link className="inline-flex items-center gap-1 text-sm text-primary hover:underline" to={`/financialManagement/billManagement?customerId=${customer.id}`}>
          <ReceiptText className="size-4" aria-hidden />
          {t("wallets.bills.forCustomer")}
        </Link>
      </CardContent>
      <LevelDialog open={changing} onClose={() => setChanging(false)} customer={customer} fees={fees} />
    </Card>
  );
}

function LevelDialog({ open, onClose, customer, fees }: { open: boolean; onClose: () => void; customer: Member; fees: Record<MemberLevel, number> }) {
  const { t } = useTranslation();
  const { money } = useFormat();
  const confirm = useConfirm();
  const fetcher = useFetcher();
  const submitOnce = useIdempotentSubmit(fetcher);
  const levelId = useId();
  const monthsId = useId();
  const [level, setLevel] = useState<MemberLevel>(customer.memberLevel);
  const [months, setMonths] = useState(1);
  const fee = fees[level] * months;
  const levelName = t(`drivers.customers.levels.${level}`);
  useActionOutcome<{ customer: Member }>(fetcher, ({ customer: changed }) => {
    toast.success(t("wallets.membership.done", { level: t(`drivers.customers.levels.${changed.memberLevel}`) }));
    onClose();
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await confirm({
      message: t("wallets.membership.confirm", { name: customer.name, level: levelName, months, fee: fee === 0 ? t("wallets.membership.free") : money(fee) }),
      confirmLabel: t("wallets.membership.change"),
    });
    if (ok) submitOnce({ level, months }, { method: "post", encType: "application/json" });
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t("wallets.membership.change")}</DialogTitle>
            <DialogDescription>{customer.name}</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-2">
            <Label htmlFor={levelId}>{t("wallets.membership.level")}</Label>
            <NativeSelect id={levelId} value={level} onChange={(e) => setLevel(e.target.value as MemberLevel)}>
              {MEMBER_LEVELS.map((l) => (
                <option key={l} value={l}>
                  {t(`drivers.customers.levels.${l}`)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={monthsId}>{t("wallets.membership.months")}</Label>
            <Input
              id={monthsId}
              type="number"
              min={1}
              max={MAX_MEMBER_MONTHS}
              step={1}
              value={months}
              disabled={level === "NORMAL"}
              onChange={(e) => setMonths(Math.min(MAX_MEMBER_MONTHS, Math.max(1, Math.trunc(Number(e.target.value) || 1))))}
            />
          </div>
          <p className="text-sm">
            {t("wallets.membership.fee")}: <span className="font-medium tabular-nums">{fee === 0 ? t("wallets.membership.free") : money(fee)}</span>
          </p>
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} submitLabel={t("wallets.membership.change")} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
