import { Gauge, ShieldAlert, Zap } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { deviceState } from "../../../domain/connector-status";
import { orDash, useFormat } from "~/components/format";
import { LoadChart } from "~/components/live/charts";
import { limitLines } from "~/components/live/limit-lines";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveOnline, livePowerW, liveStatus } from "~/components/live/live-state";
import { DeviceStateBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { RowsCard } from "~/components/rows-table";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import { useLivePoints } from "~/lib/live";
import { cn } from "~/lib/cn";
import { useArea } from "./area";
import { loadStationLoad } from "./load.server";
import { StationBar } from "./station-bar";

/**
 * Real-time monitoring › Load monitoring: live power against the station's power limit
 * (docs/rules/monitoring.md "Load monitoring"): the last hour from the chargers' samples, then
 * live from `/live`.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStationLoad(args);
}

type Load = NonNullable<Awaited<ReturnType<typeof loader>>["load"]>;

/** The chart keeps this much history in the browser. */
const WINDOW_MS = 60 * 60 * 1000;

export default function LoadMonitoring() {
  const { stations, load } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const area = useArea();
  const title = t(area.menuKey("menu.monitoring.loadMonitoring", "menu.sub.monitoring.loadMonitoring"));

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("monitoring.load.description")} actions={<LiveIndicator />} />
      {!load ? (
        <p className="rounded-lg border border-dashed p-10 text-center text-sm text-muted-foreground">{t("monitoring.load.noStations")}</p>
      ) : (
        <>
          <StationBar id="load-station" label={t("monitoring.load.pickStation")} stations={stations} stationId={load.station.id} />
          <StationLoad key={load.station.id} load={load} />
        </>
      )}
    </div>
  );
}

function StationLoad({ load }: { load: Load }) {
  const { t } = useTranslation();
  const { power, livePower, percent } = useFormat();
  const live = useLivePoints();
  const pointIds = load.points.map((p) => p.id);
  const heard = pointIds.some((id) => live.has(id));
  const nowW = heard ? livePowerW(live, pointIds) : (load.history.at(-1)?.powerW ?? 0);
  const [series, setSeries] = useState(load.history);

  // Each change of the live total adds a point to the chart; older ones than the window drop off.
  useEffect(() => {
    if (!heard) return;
    const at = Date.now();
    setSeries((list) => {
      const last = list.at(-1);
      const next = last && at - Date.parse(last.at) < 1000 ? list.slice(0, -1) : list;
      return [...next, { at: new Date(at).toISOString(), powerW: nowW }].filter((p) => Date.parse(p.at) >= at - WINDOW_MS);
    });
  }, [nowW, heard]);

  const limit = load.station.powerLimit;
  const usage = limit ? (nowW / 1000 / limit) * 100 : null;
  const over = usage !== null && usage > 100;
  const figures = [
    { key: "now", label: t("monitoring.load.now"), value: livePower(nowW), icon: Zap, tone: over ? "text-destructive" : "text-primary" },
    { key: "limit", label: t("monitoring.load.limit"), value: limit === null ? t("monitoring.load.noLimit") : power(limit), icon: ShieldAlert, tone: "text-foreground" },
    { key: "usage", label: t("monitoring.load.usage"), value: orDash(usage, percent), icon: Gauge, tone: over ? "text-destructive" : "text-foreground" },
    { key: "rated", label: t("monitoring.load.rated"), value: power(load.ratedPower), icon: Zap, tone: "text-muted-foreground" },
  ];

  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {figures.map(({ key, label, value, icon: Icon, tone }) => (
          <Card key={key} className="gap-1 py-4">
            <CardContent className="flex items-center gap-3 px-4">
              <span className={cn("flex size-10 items-center justify-center rounded-lg bg-muted", tone)}>
                <Icon className="size-5" aria-hidden />
              </span>
              <span className="flex flex-col">
                <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
                <span className={cn("text-xl font-semibold tabular-nums", tone)} data-testid={`load-${key}`}>
                  {value}
                </span>
              </span>
            </CardContent>
          </Card>
        ))}
      </div>
      {load.balancing.length > 0 && (
        <ul className="flex flex-col gap-1 rounded-md border px-3 py-2 text-sm" aria-label={t("operations.lb.inForce")}>
          {load.balancing.map((b) => (
            <li key={b.id} data-testid="balancing-limit">
              <span className="font-medium">{t("operations.lb.inForce")}</span>: {b.name} · {power(b.limitNow)} · {t(`operations.lb.purposes.${b.purpose}`)} ·{" "}
              {t(`operations.lb.stackLevels.${b.stackLevel}`)}
            </li>
          ))}
        </ul>
      )}
      {over && (
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm font-medium text-destructive">
          {t("monitoring.load.overLimit")}
        </p>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t("monitoring.load.chart")}</CardTitle>
          <CardDescription>{load.station.name}</CardDescription>
        </CardHeader>
        <CardContent>
          <LoadChart
            series={series}
            limits={limitLines(
              limit === null ? null : { label: t("monitoring.load.limitSeries"), kw: limit },
              load.balancing.map((b) => ({ id: b.id, label: b.name, kw: b.limitNow })),
            )}
          />
        </CardContent>
      </Card>
      <RowsCard
        title={t("monitoring.load.points")}
        empty={<p className="py-8 text-center text-sm text-muted-foreground">{t("monitoring.load.noPoints")}</p>}
        head={
          <>
            <TableHead>{t("monitoring.common.point")}</TableHead>
            <TableHead>{t("monitoring.common.state")}</TableHead>
            <TableHead className="text-right">{t("monitoring.common.ratedPower")}</TableHead>
            <TableHead className="text-right">{t("monitoring.common.livePower")}</TableHead>
            <TableHead className="w-48" />
          </>
        }
        rows={load.points.map((p) => {
          const point = live.get(p.id);
          const online = liveOnline(point, p.online);
          const w = livePowerW(live, [p.id]);
          const share = p.ratedPower > 0 ? Math.min(100, (w / 1000 / p.ratedPower) * 100) : 0;
          return (
            <TableRow key={p.id}>
              <TableCell>
                <span className="font-mono text-xs font-medium">{p.serialNumber}</span>
                <span className="ml-2 text-xs text-muted-foreground">{p.name}</span>
              </TableCell>
              <TableCell>
                <DeviceStateBadge state={deviceState(online, p.connectors.map((c) => liveStatus(point, p.online, c.connectorId, c.status)))} />
              </TableCell>
              <TableCell className="text-right tabular-nums">{power(p.ratedPower)}</TableCell>
              <TableCell className="text-right tabular-nums">{livePower(w)}</TableCell>
              <TableCell>
                <div className="h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden>
                  <div className="h-full rounded-full bg-primary transition-[width] duration-700" style={{ width: `${share}%` }} />
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      />
    </>
  );
}
