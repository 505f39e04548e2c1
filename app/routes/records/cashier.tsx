import { ReceiptText } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useRouteLoaderData, type LoaderFunctionArgs } from "react-router";
import { useFormat } from "~/components/format";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveStatus, useRevalidateOn } from "~/components/live/live-state";
import { DocumentTitle } from "~/components/shell/document-title";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { useLivePoints } from "~/lib/live";
import { cashierState, type CashierState } from "../../../domain/connector-status";
import type { loader as layoutLoader } from "../console/layout";
import { loadCashier } from "./records.server";

/** A station of another operator is the 404 page inside the shell, as for every screen. */
export { ErrorBoundary } from "../console/screen-frame";

/**
 * Cashier mode for an attended site (docs/rules/records.md "Cashier"): the connectors of one
 * station with their cashier state, live, and what each last finished session still owes, with
 * its receipt. Any logged-in user of the station's operator may open it.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadCashier(args);
}

const VARIANT: Record<CashierState, "info" | "warning" | "destructive" | "muted" | "success"> = {
  charging: "info",
  waiting: "warning",
  fault: "destructive",
  offline: "muted",
  free: "success",
};

export default function Cashier() {
  const { cashier } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, money } = useFormat();
  const live = useLivePoints();
  // A session that starts or ends changes what is owed: reload then, never on a timer.
  useRevalidateOn((event) => event.type === "transaction");
  const shell = useRouteLoaderData<typeof layoutLoader>("routes/console/layout");
  const title = t("records.cashier.title");

  return (
    <div className="flex flex-col gap-4">
      <DocumentTitle screen={`${title} · ${cashier.station.name}`} owner={shell?.operator.name} />
      <PageHeader title={title} description={t("records.cashier.description", { name: cashier.station.name })} actions={<LiveIndicator />} />
      {cashier.points.length === 0 && <p className="py-16 text-center text-sm text-muted-foreground">{t("records.cashier.empty")}</p>}
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {cashier.points.flatMap((p) =>
          p.connectors.map((c) => {
            const state = cashierState(liveStatus(live.get(p.id), p.online, c.connectorId, c.status));
            const last = c.lastSession;
            return (
              <Card key={`${p.id}:${c.connectorId}`} data-testid="cashier-connector" data-state={state}>
                <CardHeader>
                  <CardTitle className="flex items-center justify-between gap-2 text-base">
                    <span className="font-mono">
                      {p.serialNumber} · {c.connectorId}
                    </span>
                    <Badge variant={VARIANT[state]}>{t(`records.cashier.states.${state}`)}</Badge>
                  </CardTitle>
                </CardHeader>
                <CardContent className="flex flex-col gap-2 text-sm">
                  {state === "charging" && c.runningSince && <p>{t("records.cashier.runningSince", { time: dateTime(c.runningSince) })}</p>}
                  {last ? (
                    <div className="flex items-center justify-between gap-2">
                      <div>
                        <p className="text-muted-foreground">{t("records.cashier.lastSession", { id: last.transactionId })}</p>
                        <p className="text-lg font-semibold tabular-nums">
                          {t("records.cashier.amountDue")}: {last.amountDue === null ? t("records.fields.notPriced") : money(last.amountDue)}
                        </p>
                      </div>
                      <a className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline" href={`/tourist/chargingRecordDetails/${last.receiptToken}`} target="_blank" rel="noreferrer">
                        <ReceiptText aria-hidden className="size-4" />
                        {t("records.cashier.receipt")}
                      </a>
                    </div>
                  ) : (
                    <p className="text-muted-foreground">{t("records.cashier.noSession")}</p>
                  )}
                </CardContent>
              </Card>
            );
          }),
        )}
      </div>
    </div>
  );
}
