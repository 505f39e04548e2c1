import { ArrowLeft, Square } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DetailList } from "~/components/detail-list";
import { orDash, useFormat } from "~/components/format";
import { MeterCurveChart, type CurvePoint } from "~/components/live/charts";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveReadings, liveStatus, useNow, useRevalidateOn } from "~/components/live/live-state";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { RemoteStartBadge } from "~/components/records/remote-start";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { useApi, useBusyCall } from "~/lib/api";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { HeaderLink } from "~/components/page-actions";
import { useLiveEvents, useLivePoint } from "~/lib/live";
import { useArea } from "./area";
import { loadChargingDetail } from "./charging.server";

/**
 * A charging session with its meter curve, which grows live while the session runs. Whoever may
 * operate chargers can stop it here; watching alone does not allow it (docs/rules/access.md).
 */
export function loader(args: LoaderFunctionArgs) {
  return loadChargingDetail(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => String(data.session.transactionId) };

export default function ChargingDetail() {
  const { session, now: loadedAt, mayOperate, remoteStart } = useLoaderData<typeof loader>();
  return <SessionView key={session.transactionId} session={session} loadedAt={loadedAt} mayOperate={mayOperate} remoteStart={remoteStart} />;
}

type Session = Awaited<ReturnType<typeof loader>>["session"];

/** Remote stop (OCPP 1.6 §5.12) of a running session, after a confirmation. */
function StopButton({ session }: { session: Session }) {
  const { t } = useTranslation();
  const api = useApi();
  const confirm = useConfirm();
  const [stopping, whileStopping] = useBusyCall();
  const stop = async () => {
    const message = t("monitoring.remote.confirmStop", { no: session.connectorId, serial: session.serialNumber });
    if (!(await confirm({ message, destructive: true, confirmLabel: t("monitoring.remote.stop") }))) return;
    await whileStopping(async () => {
      await api.put("/station-service/remoteControl/{id}/remoteStop/{transaction}", { params: { id: session.pointId, transaction: session.transactionId } });
      toast.success(t("monitoring.remote.stopped"));
    });
  };
  return (
    <Button variant="destructive" onClick={() => void stop()} disabled={stopping}>
      <Square aria-hidden />
      {t("monitoring.remote.stop")}
    </Button>
  );
}

function SessionView({ session, loadedAt, mayOperate, remoteStart }: { session: Session; loadedAt: number; mayOperate: boolean; remoteStart: boolean }) {
  const { t } = useTranslation();
  const { dateTime, energy, duration, livePower, current, voltage, percent } = useFormat();
  const area = useArea();
  const live = useLivePoint(session.pointId);
  const now = useNow(loadedAt);
  const running = session.status === "ACTIVE";
  const [heard, setHeard] = useState<CurvePoint[]>([]);

  // Meter readings of this session extend the curve as they arrive.
  useLiveEvents((event) => {
    if (!running || event.type !== "meter" || event.pointId !== session.pointId || event.transactionId !== session.transactionId) return;
    const point: CurvePoint = {
      at: new Date(event.at).toISOString(),
      ...(event.energyWh !== undefined && { energyWh: Math.max(0, event.energyWh - session.meterStartWh) }),
      ...(event.powerW !== undefined && { powerW: event.powerW }),
    };
    setHeard((list) => [...list, point]);
  });
  useRevalidateOn((event) => event.type === "transaction" && event.transactionId === session.transactionId, 300);

  const readings = liveReadings(live, session.connectorId);
  const ownReadings = running && readings.transactionId === session.transactionId;
  const energyWh = ownReadings && readings.registerWh !== undefined ? Math.max(0, readings.registerWh - session.meterStartWh) : session.energyWh;
  const curve = [...session.curve, ...heard.filter((p) => p.at > (session.curve.at(-1)?.at ?? ""))];
  const endedAt = session.stopAt ? Date.parse(session.stopAt) : now;
  const status = running ? liveStatus(live, session.online, session.connectorId, "Charging") : null;

  const figures: [string, string][] = [
    [t("monitoring.common.energy"), energyWh === null || energyWh === undefined ? "—" : energy(energyWh)],
    [t("monitoring.common.power"), ownReadings ? orDash(readings.powerW, livePower) : "—"],
    [t("monitoring.common.current"), ownReadings ? orDash(readings.currentA, current) : "—"],
    [t("monitoring.common.voltage"), ownReadings ? orDash(readings.voltageV, voltage) : "—"],
    [t("monitoring.common.soc"), ownReadings ? orDash(readings.soc, percent) : "—"],
    [t("monitoring.common.duration"), duration((endedAt - Date.parse(session.startAt)) / 60_000)],
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("monitoring.charging.detailTitle", { id: session.transactionId })}
        description={t("monitoring.charging.detailDescription", { serial: session.serialNumber, connector: session.connectorId })}
        actions={
          <>
            {running && <LiveIndicator />}
            {running && mayOperate && <StopButton session={session} />}
            <HeaderLink to={area.chargingList} icon={ArrowLeft} label={t("monitoring.common.back")} variant="outline" />
          </>
        }
      />
      <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-6">
        {figures.map(([label, value]) => (
          <Card key={label} className="gap-1 py-4">
            <CardContent className="px-4">
              <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</p>
              <p className="mt-1 text-xl font-semibold tabular-nums">{value}</p>
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("monitoring.charging.curve")}</CardTitle>
        </CardHeader>
        <CardContent>
          {curve.length === 0 ? (
            <p className="py-16 text-center text-sm text-muted-foreground">{t("monitoring.charging.curveEmpty")}</p>
          ) : (
            <MeterCurveChart curve={curve} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            {t("monitoring.charging.facts")}
            {status ? <ConnectorStatusBadge status={status} /> : <Badge variant={session.status === "ABNORMAL" ? "destructive" : "secondary"}>{t(`monitoring.transactionStatus.${session.status}`)}</Badge>}
          </CardTitle>
        </CardHeader>
        <CardContent>
          <DetailList
            items={[
              [t("monitoring.common.station"), session.stationName ?? "—"],
              [t("monitoring.common.point"), <span className="font-mono">{session.serialNumber}</span>],
              [t("monitoring.common.connector"), String(session.connectorId)],
              [
                t("monitoring.common.idTag"),
                <span className="inline-flex flex-wrap items-center gap-2">
                  <span className="font-mono">{session.idTag}</span>
                  {remoteStart && <RemoteStartBadge tag={session.idTag} />}
                </span>,
              ],
              [t("monitoring.charging.authStatus"), session.authStatus],
              [t("monitoring.common.startAt"), dateTime(session.startAt)],
              [t("monitoring.common.stopAt"), dateTime(session.stopAt) || "—"],
              [t("monitoring.charging.meterStart"), energy(session.meterStartWh)],
              [t("monitoring.charging.meterStop"), session.meterStopWh === null ? "—" : energy(session.meterStopWh)],
              [t("monitoring.charging.stopReason"), session.stopReason ?? "—"],
              ...(session.abnormalReason ? ([[t("monitoring.charging.abnormalReason"), session.abnormalReason]] as [string, string][]) : []),
            ]}
          />
        </CardContent>
      </Card>
    </div>
  );
}
