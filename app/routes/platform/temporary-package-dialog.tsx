import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/components/format";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";

export interface TemporaryOffer {
  offer: {
    acConnectors: number;
    dcConnectors: number;
    acPrice: string;
    dcPrice: string;
    currency: string;
    currencyDecimals: number;
    endAt: string;
    days: number;
    dailyAmount: number;
    totalAmount: number;
  };
  quota: { kind: "AC" | "DC"; adding: number; used: number; authorized: number; missing: number };
}

/**
 * When points go beyond the quota, the temporary package with its price, before confirming
 * (docs/rules/platform.md "Temporary package"). Confirming accepts it at the prices shown, then
 * `onAccepted` saves again.
 */
export function TemporaryPackageDialog({ temporary, onClose, onAccepted }: { temporary: TemporaryOffer | null; onClose: () => void; onAccepted: () => void }) {
  const { t } = useTranslation();
  const { number, dateTime } = useFormat();
  const api = useApi();
  const [busy, setBusy] = useState(false);
  if (!temporary) return null;
  const { offer, quota } = temporary;
  const money = (minor: number) => `${number(minor / 10 ** offer.currencyDecimals, offer.currencyDecimals)} ${offer.currency}`;
  const accept = async () => {
    setBusy(true);
    try {
      await api.post("/platform-service/price-package/temporary", {
        body: { acConnectors: offer.acConnectors, dcConnectors: offer.dcConnectors, acPrice: offer.acPrice, dcPrice: offer.dcPrice },
      });
      toast.success(t("temporary.accepted"));
      onAccepted();
    } catch {
      // The client has shown the server's message (a changed price answers the new offer).
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t("temporary.title")}</DialogTitle>
          <DialogDescription>{t("temporary.text", { ...quota, endAt: dateTime(offer.endAt) })}</DialogDescription>
        </DialogHeader>
        <ul className="space-y-1 text-sm" data-testid="temporary-offer">
          <li>{t("temporary.price", { price: quota.kind === "AC" ? offer.acPrice : offer.dcPrice, currency: offer.currency })}</li>
          <li>{t("temporary.daily", { amount: money(offer.dailyAmount) })}</li>
          <li className="font-medium">{t("temporary.total", { days: offer.days, amount: money(offer.totalAmount) })}</li>
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button onClick={accept} disabled={busy}>
            {t("temporary.confirm")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
