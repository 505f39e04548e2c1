import { ArrowLeft, Ban, CheckCircle2, HandCoins, PlugZap, ReceiptText, RotateCcw, type LucideIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { HeaderLink, useActionOutcome } from "~/components/page-actions";
import { useIdempotentSubmit } from "~/lib/idempotency";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { MeterCurveChart } from "~/components/live/charts";
import { RecordStatusBadge } from "~/components/records/record-status";
import { RemoteStartBadge, RemoteStartCard } from "~/components/records/remote-start";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { ReceiptView } from "./receipt-view";
import { loadRecordDetail, recordAction } from "./records.server";
import { useRecordPaths } from "./records";
import { partnerOf, RoamingCard } from "./roaming";

/**
 * A charge record's page (docs/rules/records.md "Charge records"): the cost breakdown line by
 * line, the meter curve, the strategy version it was priced with, its payment and its receipt
 * with the public link a driver without an account can open; and the record actions that apply
 * to its state, each after a confirmation (docs/rules/billing.md "Record actions").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRecordDetail(args);
}

export function action(args: ActionFunctionArgs) {
  return recordAction(args);
}

type Action = Awaited<ReturnType<typeof loader>>["actions"][number];

const ACTION_ICON: Record<Action, LucideIcon> = { settle: HandCoins, complete: CheckCircle2, abnormal: Ban, unplug: PlugZap, retry: RotateCcw };

/** The buttons of the actions that apply now; each asks for confirmation, then the page reloads with the new state. */
function RecordActions({ id, actions }: { id: number; actions: Action[] }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  const submitOnce = useIdempotentSubmit(fetcher);
  useActionOutcome<{ intent: Action }>(fetcher, (done) => toast.success(t(`records.actions.done.${done.intent}`)));
  return actions.map((name) => {
    const Icon = ACTION_ICON[name];
    return (
      <Button
        key={name}
        variant={name === "abnormal" ? "outline" : "default"}
        className={name === "abnormal" ? "text-destructive" : undefined}
        disabled={fetcher.state !== "idle"}
        onClick={async () => {
          const ok = await confirm({
            title: t(`records.actions.${name}`),
            message: t(`records.actions.confirm.${name}`, { id }),
            confirmLabel: t(`records.actions.${name}`),
            destructive: name === "abnormal",
          });
          if (ok) submitOnce(JSON.stringify({ intent: name }), { method: "post", encType: "application/json" });
        }}
      >
        <Icon aria-hidden />
        {t(`records.actions.${name}`)}
      </Button>
    );
  });
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => String(data.record.id) };

export default function RecordDetail() {
  const { record, receipt, actions, remoteStart } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, energy, duration, money } = useFormat();
  const paths = useRecordPaths();
  const amount = (minor: number | null) => (minor === null ? t("records.fields.notPriced") : money(minor));
  const receiptUrl = `/tourist/chargingRecordDetails/${record.receiptToken}`;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("records.detail.title", { id: record.id })}
        description={
          record.roaming
            ? t("roaming.description", { cdr: record.roaming.cdrId, partner: partnerOf(record.roaming) })
            : t("records.detail.description", { serial: record.serialNumber, connector: record.connectorId })
        }
        actions={
          <>
            <RecordActions id={record.id} actions={actions} />
            <Button asChild variant="outline">
              <a href={receiptUrl} target="_blank" rel="noreferrer">
                <ReceiptText aria-hidden />
                {t("records.detail.publicLink")}
              </a>
            </Button>
            <HeaderLink to={paths.list} icon={ArrowLeft} label={t("records.detail.back")} variant="outline" />
          </>
        }
      />
      {remoteStart && <RemoteStartCard tag={record.idTag} cost={record.totalCost === null ? null : money(record.totalCost)} actions={actions} />}
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex flex-wrap items-center gap-2">
              {t("records.detail.facts")}
              <RecordStatusBadge status={record.status} />
            </CardTitle>
          </CardHeader>
          <CardContent>
            <DetailList
              items={
                record.roaming
                  ? [
                      [t("records.fields.station"), record.stationName ?? "—"],
                      [t("records.fields.idTag"), <span className="font-mono">{record.idTag}</span>],
                      [t("records.fields.startAt"), dateTime(record.startAt)],
                      [t("records.fields.stopAt"), dateTime(record.stopAt) || "—"],
                      [t("records.fields.duration"), record.chargingTime === null ? "—" : duration(record.chargingTime)],
                      [t("records.fields.energy"), record.energyWh === null ? "—" : energy(record.energyWh)],
                    ]
                  : [
                      [t("records.fields.transactionStatus"), t(`records.transactionStatus.${record.transactionStatus}`)],
                      [t("records.fields.station"), record.stationName ?? "—"],
                      [t("records.fields.point"), <span className="font-mono">{record.serialNumber}</span>],
                      [t("records.fields.connector"), String(record.connectorId)],
                      [
                        t("records.fields.idTag"),
                        <span className="inline-flex flex-wrap items-center gap-2">
                          <span className="font-mono">{record.idTag}</span>
                          {remoteStart && <RemoteStartBadge tag={record.idTag} />}
                        </span>,
                      ],
                      [t("records.fields.startAt"), dateTime(record.startAt)],
                      [t("records.fields.stopAt"), dateTime(record.stopAt) || "—"],
                      [t("records.fields.unplugAt"), dateTime(record.unplugAt) || "—"],
                      [t("records.fields.duration"), record.chargingTime === null ? "—" : duration(record.chargingTime)],
                      [t("records.fields.energy"), record.energyWh === null ? "—" : energy(record.energyWh)],
                      [t("records.fields.meterStart"), energy(record.meterStartWh ?? 0)],
                      [t("records.fields.meterStop"), record.meterStopWh === null ? "—" : energy(record.meterStopWh)],
                      [t("records.fields.stopReason"), record.stopReason ?? record.abnormalReason ?? "—"],
                      [t("records.fields.strategyVersion"), record.strategyVersionId === null ? t("records.fields.notPriced") : `#${record.strategyVersionId}`],
                    ]
              }
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("records.detail.costs")}</CardTitle>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm" data-testid="cost-lines">
              <tbody>
                {record.costLines.map((line) => (
                  <tr key={line.kind} className={line.kind === "total" ? "border-t font-semibold" : undefined}>
                    <th scope="row" className="py-1.5 text-left font-normal text-muted-foreground">
                      {t(`records.cost.${line.kind}`)}
                    </th>
                    <td className="py-1.5 text-right tabular-nums">{amount(line.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <h3 className="mt-6 mb-2 text-sm font-medium">{t("records.detail.payment")}</h3>
            <DetailList
              items={[
                [t("records.fields.paidCost"), amount(record.paidCost)],
                [t("records.fields.balanceBefore"), amount(record.balanceBefore)],
                [t("records.fields.balanceAfter"), amount(record.balanceAfter)],
                [t("records.fields.currency"), record.currency],
                ...(record.unsettledReason ? [[t("records.fields.unsettledReason"), t(`records.unsettledReason.${record.unsettledReason}`)] as [string, string]] : []),
              ]}
            />
          </CardContent>
        </Card>
      </div>
      {record.roaming ? (
        <RoamingCard roaming={record.roaming} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{t("records.detail.curve")}</CardTitle>
          </CardHeader>
          <CardContent>
            {record.curve.length === 0 ? (
              <p className="py-16 text-center text-sm text-muted-foreground">{t("records.detail.curveEmpty")}</p>
            ) : (
              <MeterCurveChart curve={record.curve} />
            )}
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t("records.detail.receipt")}</CardTitle>
        </CardHeader>
        <CardContent>
          <ReceiptView receipt={receipt} />
        </CardContent>
      </Card>
    </div>
  );
}
