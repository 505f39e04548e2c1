import { BatteryCharging, CircleAlert, CirclePower, Coins, Expand, Shrink, WifiOff, Zap } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { CONNECTOR_STATUSES, deviceState, displayClass } from "../../../domain/connector-status";
import { useFormat } from "~/components/format";
import { EnergyByDayChart } from "~/components/live/charts";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveEnergyWh, liveOnline, livePowerW, liveStatus, useNow, useRevalidateOn } from "~/components/live/live-state";
import { StationMap, type MapStation, type StationHealth } from "~/components/live/station-map";
import { Button } from "~/components/ui/button";
import { useLivePoints, type PointLive } from "~/lib/live";
import { cn } from "~/lib/cn";
import { loadHome } from "./home.server";
import { OnboardingChecklist } from "./onboarding-checklist";

/**
 * Home, the dashboard, also for a big screen (docs/rules/monitoring.md "Home dashboard"): points
 * online, offline and in fault, connectors by status, energy and sessions today and this month in
 * the operator's time zone, energy by day and a map of the stations. Counts follow `/live`; the
 * figures reload when a session starts or ends.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadHome(args);
}

type Dashboard = Awaited<ReturnType<typeof loader>>["dashboard"];
type Device = Dashboard["devices"][number];

/** What a device looks like now: the live view's word where it has one, the loader's otherwise. */
function deviceNow(device: Device, point: PointLive | undefined) {
  const online = liveOnline(point, device.online);
  const statuses = Object.entries(device.connectors).map(([no, status]) => liveStatus(point, device.online, Number(no), status));
  const heardAny = point ? Object.values(point.connectors).some((c) => c.status) : false;
  const state = heardAny || !device.fault ? deviceState(online, [...statuses, point?.connectors[0]?.status]) : online ? "fault" : "offline";
  return { online, state, statuses };
}

export default function Home() {
  const { dashboard: data, onboarding, now: loadedAt } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { energy, time, power, money } = useFormat();
  const live = useLivePoints();
  const now = useNow(loadedAt);
  const frame = useRef<HTMLDivElement>(null);
  const [full, setFull] = useState(false);
  // A session that starts or ends moves today's figures; connector and online changes are folded in live.
  useRevalidateOn((event) => event.type === "transaction", 1000);

  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement === frame.current);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);
  const toggleFull = () => (document.fullscreenElement ? void document.exitFullscreen() : void frame.current?.requestFullscreen());

  // Every visible point is listed (up to the map's limit): then the counts are exact and live.
  const exact = data.devices.length === data.points.total;
  const devices = data.devices.map((d) => ({ ...d, now: deviceNow(d, live.get(d.id)) }));
  const points = exact
    ? {
        total: devices.length,
        online: devices.filter((d) => d.now.state === "online").length,
        offline: devices.filter((d) => d.now.state === "offline").length,
        fault: devices.filter((d) => d.now.state === "fault").length,
      }
    : data.points;
  const connectorCounts: Record<string, number> = exact ? {} : { ...data.connectors };
  if (exact) for (const d of devices) for (const status of d.now.statuses) connectorCounts[status ?? "offline"] = (connectorCounts[status ?? "offline"] ?? 0) + 1;
  const connectorsTotal = Object.values(connectorCounts).reduce((a, b) => a + b, 0);
  const charging = connectorCounts.Charging ?? 0;
  const powerKw = livePowerW(live, data.devices.map((d) => d.id)) / 1000;

  const todayStart = Date.parse(data.todayStart);
  const monthStart = Date.parse(data.monthStart);
  let liveToday = 0;
  let liveMonth = 0;
  for (const r of data.running) {
    const wh = liveEnergyWh(live.get(r.pointId), r.connectorId, r.transactionId, r.meterStartWh) ?? 0;
    if (Date.parse(r.startAt) >= todayStart) liveToday += wh;
    if (Date.parse(r.startAt) >= monthStart) liveMonth += wh;
  }
  const days = data.energyByDay.map((d, i) => (i === data.energyByDay.length - 1 ? { ...d, energyWh: d.energyWh + liveToday } : d));

  // Each station's points, found once a render: a map of 500 stations over 5 000 points renders at every live change.
  const byStation = new Map<number | null, typeof devices>();
  for (const d of devices) {
    const own = byStation.get(d.stationId);
    if (own) own.push(d);
    else byStation.set(d.stationId, [d]);
  }
  const mapStations: MapStation[] = data.stations
    .filter((s): s is typeof s & { lat: number; lng: number } => s.lat !== null && s.lng !== null && Number.isFinite(s.lat) && Number.isFinite(s.lng))
    .map((s) => {
      const own = byStation.get(s.id) ?? [];
      const online = own.filter((d) => d.now.online).length;
      const health: StationHealth = own.some((d) => d.now.state === "fault")
        ? "fault"
        : own.length === 0 || online === 0
          ? "offline"
          : online < own.length
            ? "partial"
            : "online";
      return {
        id: s.id,
        name: s.name,
        address: s.address,
        lat: s.lat,
        lng: s.lng,
        health,
        iconUrl: s.mapIconUrl,
        pointsTotal: own.length,
        pointsOnline: online,
        charging: own.reduce((n, d) => n + d.now.statuses.filter((st) => st === "Charging").length, 0),
      };
    });

  return (
    <div ref={frame} className={cn("flex flex-col gap-4", full && "overflow-auto bg-canvas p-6")}>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("monitoring.home.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("monitoring.home.subtitle")}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <span className="font-mono text-2xl font-semibold tabular-nums" aria-label={data.timeZone} title={data.timeZone}>
            {time(now, true)}
          </span>
          <LiveIndicator />
          <Button variant="outline" size="sm" onClick={toggleFull}>
            {full ? <Shrink aria-hidden /> : <Expand aria-hidden />}
            {t(full ? "monitoring.home.exitFullScreen" : "monitoring.home.fullScreen")}
          </Button>
        </div>
      </header>

      {onboarding && <OnboardingChecklist checklist={onboarding} />}

      <section className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label={t("monitoring.home.points")}>
        <Tile testId="home-online" icon={CirclePower} tone="success" label={t("monitoring.deviceState.online")} value={points.online} foot={`${t("monitoring.home.points")}: ${points.total}`} strong />
        <Tile testId="home-offline" icon={WifiOff} tone="muted" label={t("monitoring.deviceState.offline")} value={points.offline} foot={`${t("monitoring.home.points")}: ${points.total}`} />
        <Tile testId="home-fault" icon={CircleAlert} tone="danger" label={t("monitoring.deviceState.fault")} value={points.fault} foot={`${t("monitoring.home.points")}: ${points.total}`} strong={points.fault > 0} />
        <Tile testId="home-charging" icon={BatteryCharging} tone="success" label={t("monitoring.home.chargingNow")} value={charging} foot={`${t("monitoring.home.connectors")}: ${connectorsTotal}`} strong={charging > 0} />
        <Tile testId="home-energy-today" icon={Zap} tone="info" label={`${t("monitoring.home.today")} · ${t("monitoring.home.energy")}`} value={energy(data.today.energyWh + liveToday)} foot={t("monitoring.home.sessionsCount", { count: data.today.sessions })} small />
        <Tile testId="home-energy-month" icon={Zap} tone="info" label={`${t("monitoring.home.month")} · ${t("monitoring.home.energy")}`} value={energy(data.month.energyWh + liveMonth)} foot={t("monitoring.home.sessionsCount", { count: data.month.sessions })} small />
        <Tile testId="home-power" icon={Zap} tone="warning" label={t("monitoring.home.livePower")} value={power(powerKw)} small />
        <Tile testId="home-revenue" icon={Coins} tone="muted" label={t("records.home.revenueToday")} value={money(data.revenue.today)} foot={t("records.home.revenueMonth", { amount: money(data.revenue.month) })} small />
      </section>

      {/* One column that may shrink (minmax(0, 1fr)): a long station name is cut, not the page widened. */}
      <section className="grid grid-cols-1 gap-4 xl:grid-cols-3">
        <Panel title={t("monitoring.home.energyByDay")} className="xl:col-span-2">
          <EnergyByDayChart days={days} height={300} />
        </Panel>
        <Panel title={`${t("monitoring.home.connectors")} · ${connectorsTotal}`}>
          <ul className="flex flex-col gap-2.5" aria-label={t("monitoring.home.connectors")}>
            {[...CONNECTOR_STATUSES, "offline" as const]
              .filter((s) => (connectorCounts[s] ?? 0) > 0 || s === "Available" || s === "Charging" || s === "offline")
              .map((status) => {
                const n = connectorCounts[status] ?? 0;
                const cls = status === "offline" ? "info" : displayClass(status);
                return (
                  <li key={status} className="flex flex-col gap-1" data-testid={`home-connectors-${status}`}>
                    <div className="flex items-baseline justify-between text-sm">
                      <span>{t(`monitoring.connectorStatus.${status}`)}</span>
                      <span className="font-semibold tabular-nums">{n}</span>
                    </div>
                    <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
                      <div
                        className={cn("h-full rounded-full transition-[width] duration-700", cls === "success" ? "bg-success" : cls === "danger" ? "bg-destructive" : "bg-info")}
                        style={{ width: `${connectorsTotal ? (n / connectorsTotal) * 100 : 0}%` }}
                      />
                    </div>
                  </li>
                );
              })}
          </ul>
        </Panel>
      </section>

      <section className="grid grid-cols-1 gap-4 xl:grid-cols-3">
        <Panel title={`${t("monitoring.home.map")} · ${data.stations.length}`} aside={<span className="text-xs text-muted-foreground">{t("monitoring.home.mapLegend")}</span>} className="xl:col-span-2">
          <StationMap stations={mapStations} centre={data.mapCentre} />
        </Panel>
        <Panel title={t("monitoring.home.stationList")}>
          <ul className="-mx-2 flex max-h-[26rem] flex-col overflow-y-auto">
            {data.stations.map((s) => {
              const own = devices.filter((d) => d.stationId === s.id);
              const online = own.filter((d) => d.now.online).length;
              const chargingHere = own.reduce((n, d) => n + d.now.statuses.filter((st) => st === "Charging").length, 0);
              const kwHere = livePowerW(live, own.map((d) => d.id)) / 1000;
              const fault = own.some((d) => d.now.state === "fault");
              return (
                <li key={s.id} className="flex items-center gap-3 rounded-md px-2 py-2.5 hover:bg-muted/50">
                  <span
                    className={cn(
                      "size-2.5 shrink-0 rounded-full",
                      fault ? "bg-destructive" : own.length === 0 || online === 0 ? "bg-muted-foreground" : online < own.length ? "bg-warning" : "bg-success",
                    )}
                    aria-hidden
                  />
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate text-sm font-medium">{s.name}</span>
                    <span className="truncate text-xs text-muted-foreground">{t("monitoring.home.stationPoints", { online, total: own.length })}</span>
                  </span>
                  <span className="flex flex-col items-end text-xs tabular-nums">
                    <span className="font-semibold">{power(kwHere)}</span>
                    <span className="text-muted-foreground">
                      {t("monitoring.home.chargingNow")}: {chargingHere}
                    </span>
                  </span>
                </li>
              );
            })}
          </ul>
        </Panel>
      </section>
    </div>
  );
}

const TONES = {
  success: "text-success bg-success/10",
  danger: "text-destructive bg-destructive/10",
  muted: "text-muted-foreground bg-muted",
  info: "text-info bg-info/10",
  warning: "text-warning bg-warning/10",
} as const;

function Tile({
  icon: Icon,
  tone,
  label,
  value,
  foot,
  small,
  strong,
  testId,
}: {
  icon: typeof Zap;
  tone: keyof typeof TONES;
  label: string;
  value: ReactNode;
  foot?: string;
  small?: boolean;
  /** Draws the figure in the tile's colour, for what needs a look. */
  strong?: boolean;
  testId: string;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-3 rounded-xl border bg-card p-4 shadow-xs">
      <div className="flex items-center gap-2">
        <span className={cn("flex size-8 shrink-0 items-center justify-center rounded-lg", TONES[tone])}>
          <Icon className="size-4" aria-hidden />
        </span>
        <span className="truncate text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
      </div>
      <span className={cn("truncate font-semibold tabular-nums", small ? "text-xl" : "text-4xl", strong && TONES[tone].split(" ")[0])} data-testid={testId}>
        {value}
      </span>
      {foot && <span className="truncate text-xs text-muted-foreground">{foot}</span>}
    </div>
  );
}

function Panel({ title, aside, className, children }: { title: string; aside?: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section className={cn("flex min-w-0 flex-col gap-4 rounded-xl border bg-card p-5 shadow-xs", className)}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}
