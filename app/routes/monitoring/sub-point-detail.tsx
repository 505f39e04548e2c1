import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { deviceState } from "../../../domain/connector-status";
import { DetailList } from "~/components/detail-list";
import { orDash, useFormat } from "~/components/format";
import { liveOnline, liveReadings, liveStatus } from "~/components/live/live-state";
import { QrCode } from "~/components/live/qr-code";
import { useChargePageUrl } from "~/lib/charge-page-url";
import { ConnectorStatusBadge, DeviceStateBadge } from "~/components/live/status-badges";
import { useConnectedVersionLabel } from "~/components/protocol-badge";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { RowsCard } from "~/components/rows-table";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { useLivePoint } from "~/lib/live";
import { SubRecordActions } from "./sub-record-actions";
import { loadSubPoint } from "./sub-operator.server";

/** Sub-operator › one assigned charging point: its connectors live and its latest sessions. */
export function loader(args: LoaderFunctionArgs) {
  return loadSubPoint(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (point) => point.serialNumber };

export default function SubPointDetail() {
  const point = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const qrValue = useChargePageUrl(point.serialNumber);
  const { dateTime, energy, power, livePower, current, voltage } = useFormat();
  const live = useLivePoint(point.id);
  const online = liveOnline(live, point.online);
  const statuses = point.connectors.map((c) => liveStatus(live, point.online, c.connectorId, c.status));
  const connectedVersion = useConnectedVersionLabel();

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={point.serialNumber} description={point.name} actions={<SubRecordActions backTo="/suboperators/point" />} />
      <Card>
        <CardContent className="flex flex-col gap-6 sm:flex-row">
          <QrCode value={qrValue} label={t("monitoring.remote.qr", { serial: point.serialNumber })} className="shrink-0 border p-1" />
          <div className="flex-1">
            <DetailList
              items={[
                [t("monitoring.common.state"), <DeviceStateBadge state={deviceState(online, statuses)} />],
                [t("monitoring.common.station"), point.stationName ?? "—"],
                [t("monitoring.common.type"), point.type],
                [t("points.fields.ocppVersion"), t(`points.ocppVersions.${point.ocppVersion}`)],
                [t("points.fields.connectedVersion"), connectedVersion(online ? point.connectedVersion : null)],
                [t("monitoring.common.ratedPower"), power(point.ratedPower)],
                [t("monitoring.common.firmware"), point.firmwareVersion ?? "—"],
                [t("monitoring.common.vendorModel"), [point.vendor, point.model].filter(Boolean).join(" ") || "—"],
                [t("monitoring.common.since"), dateTime(point.onlineChangedAt) || "—"],
                [t("monitoring.common.status"), <Badge variant={point.status === "VALID" ? "success" : "muted"}>{t(point.status === "VALID" ? "monitoring.common.enabled" : "monitoring.common.disabled")}</Badge>],
              ]}
            />
          </div>
        </CardContent>
      </Card>
      <div className="grid gap-4 md:grid-cols-2">
        {point.connectors.map((c, index) => {
          const readings = liveReadings(live, c.connectorId);
          const status = statuses[index];
          return (
            <Card key={c.connectorId} className="gap-3">
              <CardHeader>
                <CardTitle className="flex items-center justify-between gap-2">
                  <span>{t("monitoring.common.connectorNo", { no: c.connectorId })}</span>
                  <ConnectorStatusBadge status={status} />
                </CardTitle>
              </CardHeader>
              <CardContent>
                <dl className="grid grid-cols-3 gap-3 text-sm">
                  {[
                    [t("monitoring.common.power"), status ? orDash(readings.powerW, livePower) : "—"],
                    [t("monitoring.common.current"), status ? orDash(readings.currentA, current) : "—"],
                    [t("monitoring.common.voltage"), status ? orDash(readings.voltageV, voltage) : "—"],
                  ].map(([label, value]) => (
                    <div key={label}>
                      <dt className="text-xs text-muted-foreground">{label}</dt>
                      <dd className="font-semibold tabular-nums">{value}</dd>
                    </div>
                  ))}
                </dl>
                <p className="mt-3 text-xs text-muted-foreground">
                  {c.standard} · {power(c.power)} · {c.chargeSpeed}
                </p>
              </CardContent>
            </Card>
          );
        })}
      </div>
      <RowsCard
        title={t("monitoring.sub.recentTransactions")}
        empty={<p className="py-6 text-center text-sm text-muted-foreground">{t("monitoring.sub.noTransactions")}</p>}
        head={
          <>
            <TableHead>{t("monitoring.common.transaction")}</TableHead>
            <TableHead>{t("monitoring.common.connector")}</TableHead>
            <TableHead>{t("monitoring.common.idTag")}</TableHead>
            <TableHead>{t("monitoring.common.startAt")}</TableHead>
            <TableHead>{t("monitoring.common.stopAt")}</TableHead>
            <TableHead className="text-right">{t("monitoring.common.energy")}</TableHead>
            <TableHead>{t("monitoring.common.status")}</TableHead>
          </>
        }
        rows={point.transactions.map((tx) => (
          <TableRow key={tx.transactionId}>
            <TableCell>
              <Link to={`/suboperators/monitoring/charging/detail/${tx.transactionId}`} className="font-mono text-xs text-primary hover:underline">
                #{tx.transactionId}
              </Link>
            </TableCell>
            <TableCell>{tx.connectorId}</TableCell>
            <TableCell className="font-mono text-xs">{tx.idTag}</TableCell>
            <TableCell>{dateTime(tx.startAt)}</TableCell>
            <TableCell>{dateTime(tx.stopAt) || "—"}</TableCell>
            <TableCell className="text-right tabular-nums">{tx.energyWh === null ? "—" : energy(tx.energyWh)}</TableCell>
            <TableCell>
              <Badge variant={tx.status === "ACTIVE" ? "success" : tx.status === "ABNORMAL" ? "destructive" : "secondary"}>{t(`monitoring.transactionStatus.${tx.status}`)}</Badge>
            </TableCell>
          </TableRow>
        ))}
      />
    </div>
  );
}
