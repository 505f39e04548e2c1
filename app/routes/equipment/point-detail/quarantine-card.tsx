import { ShieldAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { useFormat } from "~/components/format";
import { Button } from "~/components/ui/button";
import { Card, CardAction, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { useApi, useBusyCall } from "~/lib/api";
import type { PointView } from "./types";

/**
 * A quarantined charger on its point page (docs/rules/ocpp.md "A charger that keeps
 * reconnecting"): until when, why, and the button that lifts it. The page is the point menu's, which
 * operates chargers: whoever sees it may lift. Nothing is shown while the charger is not quarantined.
 */
export function QuarantineCard({ point }: { point: Pick<PointView, "id" | "quarantinedUntil" | "quarantineConnections"> }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const api = useApi();
  const confirm = useConfirm();
  const { revalidate } = useRevalidator();
  const [lifting, whileLifting] = useBusyCall();
  if (!point.quarantinedUntil) return null;

  const lift = async () => {
    if (!(await confirm({ message: t("resilience.quarantine.confirmLift"), confirmLabel: t("resilience.quarantine.lift") }))) return;
    await whileLifting(async () => {
      await api.delete("/station-service/point/{id}/quarantine", { params: { id: point.id } });
      toast.success(t("resilience.quarantine.lifted"));
      await revalidate();
    });
  };

  return (
    <Card className="border-amber-300 bg-amber-50/60 dark:border-amber-700 dark:bg-amber-950/40" data-testid="point-quarantine">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlert className="size-4 text-amber-600" aria-hidden />
          {t("resilience.quarantine.title", { until: dateTime(point.quarantinedUntil) })}
        </CardTitle>
        <CardDescription>{t("resilience.quarantine.reason", { count: point.quarantineConnections ?? 0 })}</CardDescription>
        <CardAction>
          <Button variant="outline" onClick={() => void lift()} disabled={lifting}>
            {t("resilience.quarantine.lift")}
          </Button>
        </CardAction>
      </CardHeader>
    </Card>
  );
}
