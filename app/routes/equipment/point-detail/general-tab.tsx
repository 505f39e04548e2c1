import { CalendarDays, Hash, Timer, Wallet, Zap } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { DetailList } from "~/components/detail-list";
import { orDash, useFormat } from "~/components/format";
import { QrImage } from "~/components/live/qr-code";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { useConnectedVersionLabel } from "~/components/protocol-badge";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { useApi } from "~/lib/api";
import type { ConnectorLive } from "~/lib/live";
import { cn } from "~/lib/cn";
import { useChargePageUrl } from "~/lib/charge-page-url";
import { StandardImage } from "../connector-standards";
import { PushStatusBadge } from "../point-parts";
import type { PointView, Report } from "./types";

/** A QR code of the point, 88×88 px, medium error correction (docs/rules/equipment.md "Point pages"), as an image an operator can save or print. */
export function PointQr({ value, label }: { value: string; label: string }) {
  return (
    <span className="inline-flex rounded-lg border bg-white p-1.5">
      <QrImage value={value} label={label} data-testid="point-qr" />
    </span>
  );
}

function Stat({ icon, label, value, hint, testId }: { icon: ReactNode; label: string; value: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="flex items-start gap-3 rounded-lg border bg-muted/20 p-4" data-testid={testId}>
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">{icon}</span>
      <div className="min-w-0">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</p>
        <p className="text-lg font-semibold tabular-nums">{value}</p>
        {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
      </div>
    </div>
  );
}

/**
 * The monthly charge report (docs/rules/equipment.md "Point pages"): a yyyy-MM month picker, this month by default, with
 * energy, amount, duration and count of charges from /charge/record/reportByPoint.
 */
export function MonthlyReport({ pointId, initial }: { pointId: number; initial: Report }) {
  const { t } = useTranslation();
  const api = useApi();
  const { money, duration, energy } = useFormat();
  const [month, setMonth] = useState(initial.reportMonth);
  const [report, setReport] = useState<Report>(initial);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (month === report.reportMonth || !/^\d{4}-\d{2}$/.test(month)) return;
    let current = true;
    setLoading(true);
    api
      .get("/station-service/charge/record/reportByPoint", { query: { pointId, reportMonth: month } })
      .then((next) => current && setReport(next))
      .catch(() => undefined)
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api, month, pointId, report.reportMonth]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("points.report.title")}</CardTitle>
        <CardDescription>{t("points.report.description", { zone: report.timeZone })}</CardDescription>
        <CardAction>
          <label className="flex items-center gap-2 text-sm">
            <CalendarDays className="size-4 text-muted-foreground" aria-hidden />
            <span className="sr-only">{t("points.report.month")}</span>
            <Input
              type="month"
              value={month}
              max={initial.reportMonth}
              onChange={(event) => setMonth(event.target.value)}
              aria-label={t("points.report.month")}
              className="w-40"
            />
          </label>
        </CardAction>
      </CardHeader>
      <CardContent className={cn("grid gap-3 sm:grid-cols-2 xl:grid-cols-4", loading && "opacity-60")} aria-busy={loading}>
        <Stat testId="report-energy" icon={<Zap className="size-4" aria-hidden />} label={t("points.report.energy")} value={energy(report.meterValue * 1000)} />
        <Stat
          testId="report-amount"
          icon={<Wallet className="size-4" aria-hidden />}
          label={t("points.report.amount")}
          value={report.priced ? money(report.deductionCost) : t("points.report.notPriced")}
          hint={report.priced ? undefined : t("points.report.notPricedHint")}
        />
        <Stat testId="report-duration" icon={<Timer className="size-4" aria-hidden />} label={t("points.report.duration")} value={duration(report.chargingTime)} />
        <Stat testId="report-count" icon={<Hash className="size-4" aria-hidden />} label={t("points.report.count")} value={report.chargeCount} />
      </CardContent>
    </Card>
  );
}

/** One connector: its standard's image, rated power and speed, and its live status and readings. */
export function ConnectorCard({ connector, live, online }: { connector: PointView["connectors"][number]; live: ConnectorLive | undefined; online: boolean }) {
  const { t } = useTranslation();
  const { power, livePower, current, voltage, percent } = useFormat();
  const status = online ? (live?.status ?? connector.status) : null;
  return (
    <li className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-xs" data-testid="connector-card">
      <div className="flex items-start gap-3">
        <StandardImage standard={connector.standard} size={56} />
        <div className="min-w-0 flex-1">
          <p className="flex items-center justify-between gap-2 font-semibold">
            <span className="truncate">{connector.name || t("points.connectorNo", { no: connector.connectorId })}</span>
            <ConnectorStatusBadge status={status} />
          </p>
          <p className="text-xs text-muted-foreground">
            {t(`points.standards.${connector.standard}`)} · {power(connector.power)} · {t(`points.chargeSpeeds.${connector.chargeSpeed}`)}
          </p>
          {online && (live?.errorCode ?? connector.errorCode) && (live?.errorCode ?? connector.errorCode) !== "NoError" && (
            <p className="mt-1 text-xs font-medium text-destructive">{live?.errorCode ?? connector.errorCode}</p>
          )}
        </div>
      </div>
      <dl className="grid grid-cols-4 gap-2 text-center text-xs">
        {[
          [t("points.live.power"), orDash(live?.powerW, livePower)],
          [t("points.live.current"), orDash(live?.currentA, current)],
          [t("points.live.voltage"), orDash(live?.voltageV, voltage)],
          [t("points.live.soc"), orDash(live?.soc, percent)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-md bg-muted/50 px-1 py-1.5">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

/** The general tab: QR code, the point's facts, its connectors live and the monthly report. */
export function GeneralTab({
  point,
  online,
  connectorsLive,
  report,
}: {
  point: PointView;
  online: boolean;
  connectorsLive: Record<number, ConnectorLive> | undefined;
  report: Report;
}) {
  const { t } = useTranslation();
  const { dateTime, power } = useFormat();
  const connectedVersion = useConnectedVersionLabel();
  const qrValue = useChargePageUrl(point.serialNumber);
  const dash = (value: string | number | null | undefined) => (value === null || value === undefined || value === "" ? "—" : value);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 lg:grid-cols-[16rem_1fr]">
        <Card className="items-center gap-3 text-center">
          <CardContent className="flex flex-col items-center gap-3">
            <PointQr value={qrValue} label={t("points.qrLabel", { serialNumber: point.serialNumber })} />
            <div>
              <p className="font-mono text-sm font-semibold">{point.serialNumber}</p>
              <p className="text-xs text-muted-foreground">{t("points.qrHint")}</p>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardContent>
            <DetailList
              items={[
                [t("points.fields.station"), dash(point.stationName)],
                [t("points.fields.pointNo"), dash(point.pointNo)],
                [t("points.fields.code"), dash(point.code)],
                [t("points.fields.type"), t(`points.types.${point.type}`)],
                [t("points.fields.ratedPower"), power(point.ratedPower)],
                [t("points.fields.connectorCount"), point.connectorCount],
                [t("points.fields.privateType"), t(`points.privateTypes.${point.privateType}`)],
                [t("points.fields.stationType"), dash(point.stationType)],
                [t("points.fields.ocppVersion"), <span data-testid="ocpp-version">{t(`points.ocppVersions.${point.ocppVersion}`)}</span>],
                [t("points.fields.connectedVersion"), <span data-testid="connected-version">{connectedVersion(online ? point.connectedVersion : null)}</span>],
                [t("points.fields.vendor"), dash(point.vendor)],
                [t("points.fields.model"), dash(point.model)],
                [t("points.fields.firmwareVersion"), dash(point.firmwareVersion)],
                [t("points.fields.boxSerialNumber"), dash(point.boxSerialNumber)],
                [t("points.fields.iccid"), dash(point.iccid)],
                [t("points.fields.imsi"), dash(point.imsi)],
                [t("points.fields.meterSerialNumber"), dash(point.meterSerialNumber)],
                [t("points.fields.meterType"), dash(point.meterType)],
                [t("points.fields.lastBootAt"), dash(dateTime(point.lastBootAt))],
                [t("points.fields.onlineChangedAt"), dash(dateTime(point.onlineChangedAt))],
                [t("points.fields.firmwareStatus"), dash(point.firmwareStatus)],
                [t("points.fields.diagnosticsStatus"), dash(point.diagnosticsStatus)],
                [t("points.fields.pricePushStatus"), <PushStatusBadge status={point.pricePushStatus} />],
                [t("points.fields.currencyPushStatus"), <PushStatusBadge status={point.currencyPushStatus} />],
                [t("points.fields.preAuthPushStatus"), <PushStatusBadge status={point.preAuthPushStatus} />],
                [t("points.fields.pushedAt"), dash(dateTime(point.pushedAt))],
                [t("points.fields.key"), <span data-testid="key-state">{point.hasKey ? t("points.key.setAt", { at: dateTime(point.keySetAt) }) : t("points.key.none")}</span>],
              ]}
            />
          </CardContent>
        </Card>
      </div>
      <section aria-labelledby="connectors-title" className="flex flex-col gap-3">
        <h2 id="connectors-title" className="text-base font-semibold">
          {t("points.sections.connectors")}
        </h2>
        <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
          {point.connectors.map((c) => (
            <ConnectorCard key={c.id} connector={c} live={connectorsLive?.[c.connectorId]} online={online} />
          ))}
        </ul>
      </section>
      <MonthlyReport pointId={point.id} initial={report} />
    </div>
  );
}
