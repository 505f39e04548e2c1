import { CircleCheck, CircleX, LoaderCircle, PlugZap, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { filterNumeric } from "../../../domain/amounts";
import { canStart } from "../../../domain/connector-status";
import type { presentPoint } from "../../../workers/services/points/points";
import { useFormat } from "~/components/format";
import { liveOnline, liveStatus } from "~/components/live/live-state";
import { IdTagField, remoteStartBody } from "~/components/live/remote-start";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Skeleton } from "~/components/ui/skeleton";
import { ApiError, useApi } from "~/lib/api";
import { cn } from "~/lib/cn";
import { useLivePoints } from "~/lib/live";
import { StationOptions } from "../operations/parts";
import { loadStationStart } from "./stations.server";

/**
 * Equipment › Locations › Start charging (`startPoint`, docs/rules/monitoring.md "Remote-control
 * panel"): choose a connector of a location and start a session through
 * PUT /station-service/remoteControl/remoteStart/{pointId}; the charger's answer is shown as it
 * came. Points come live from GET /station-service/point.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStationStart(args);
}

type Point = ReturnType<typeof presentPoint>;
type Outcome = { ok: true; point: string; connector: number; status: string } | { ok: false; point: string; connector: number; message: string };

export default function StationStart() {
  const { stations, remoteIdTag } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { power } = useFormat();
  const api = useApi();
  const confirm = useConfirm();
  const ids = { power: useId(), idTag: useId(), station: useId() };
  const [params, setParams] = useSearchParams();
  const stationId = Number(params.get("stationId")) || stations[0]?.id;
  const [points, setPoints] = useState<Point[] | null>(null);
  const livePoints = useLivePoints();
  const [chosen, setChosen] = useState<{ pointId: number; connectorId: number } | null>(null);
  const [powerLimit, setPowerLimit] = useState("");
  const [idTag, setIdTag] = useState(remoteIdTag);
  const [starting, setStarting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const load = useCallback(async () => {
    if (!stationId) return setPoints([]);
    setPoints(null);
    try {
      const page = await api.get("/station-service/point", { query: { stationId, size: 100 } });
      setPoints(page.records);
    } catch {
      setPoints([]);
    }
  }, [api, stationId]);

  useEffect(() => {
    setChosen(null);
    setOutcome(null);
    void load();
  }, [load]);

  const chosenPoint = points?.find((p) => p.id === chosen?.pointId);

  const start = async () => {
    if (!chosen || !chosenPoint) return;
    const label = chosenPoint.name || chosenPoint.serialNumber;
    if (!(await confirm({ message: t("stations.start.confirm", { point: label, connector: chosen.connectorId }), confirmLabel: t("stations.start.submit") })))
      return;
    setStarting(true);
    try {
      const body = remoteStartBody(chosen.connectorId, { power: powerLimit ? Number(powerLimit) : undefined, idTag });
      const answer = await api.put("/station-service/remoteControl/remoteStart/{id}", { params: { id: chosen.pointId }, body });
      setOutcome({ ok: true, point: label, connector: chosen.connectorId, status: answer.status });
    } catch (error) {
      setOutcome({ ok: false, point: label, connector: chosen.connectorId, message: error instanceof ApiError ? error.message : String(error) });
    } finally {
      setStarting(false);
      void load();
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("stations.start.title")} description={t("stations.start.description")} />
      <Card>
        <CardContent className="flex flex-wrap items-end gap-3">
          <div className="grid min-w-64 gap-2">
            <Label htmlFor={ids.station}>{t("stations.start.station")}</Label>
            <NativeSelect
              id={ids.station}
              value={stationId ?? ""}
              onChange={(event) => setParams(event.target.value ? { stationId: event.target.value } : {}, { replace: true })}
            >
              <StationOptions stations={stations} empty={stationId ? undefined : t("stations.start.chooseStation")} />
            </NativeSelect>
          </div>
          <Button type="button" variant="outline" onClick={() => void load()} disabled={points === null}>
            <RefreshCw aria-hidden className={cn(points === null && "animate-spin")} />
            {t("stations.start.refresh")}
          </Button>
        </CardContent>
      </Card>

      {points === null ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : points.length === 0 ? (
        <p className="rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">{t("stations.start.noPoints")}</p>
      ) : (
        <div role="radiogroup" aria-label={t("stations.start.chooseConnector")} className="grid gap-4 md:grid-cols-2">
          {points.map((point) => {
            // What the charger said since the list was read wins: its online flag and statuses
            // reach the list's query a moment later (docs/rules/ocpp.md "Hot path").
            const live = livePoints.get(point.id);
            const online = liveOnline(live, point.online);
            return (
              <Card key={point.id} className="gap-4">
                <CardHeader>
                  <CardTitle className="flex flex-wrap items-center gap-2">
                    {point.name}
                    <span className="font-mono text-xs font-normal text-muted-foreground">{point.serialNumber}</span>
                  </CardTitle>
                  <CardDescription className="flex flex-wrap items-center gap-2">
                    <span>{point.type}</span>
                    <span aria-hidden>·</span>
                    <span className={online ? "text-success" : undefined}>{t(`stations.online.${online}`)}</span>
                    <StatusBadge status={point.status} />
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-2 sm:grid-cols-2">
                  {point.connectors.map((connector) => {
                    const status = liveStatus(live, point.online, connector.connectorId, connector.status);
                    const usable = point.status === "VALID" && online && canStart(status);
                    const selected = chosen?.pointId === point.id && chosen.connectorId === connector.connectorId;
                    return (
                      <button
                        key={connector.id}
                        type="button"
                        role="radio"
                        aria-checked={selected}
                        aria-label={`${point.name} · ${t("stations.start.connector", { no: connector.connectorId })}`}
                        disabled={!usable}
                        onClick={() => setChosen({ pointId: point.id, connectorId: connector.connectorId })}
                        className={cn(
                          "flex flex-col items-start gap-2 rounded-lg border p-3 text-left transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/30",
                          selected ? "border-primary bg-primary/5 ring-1 ring-primary" : "hover:bg-accent",
                          !usable && "cursor-not-allowed opacity-60 hover:bg-transparent",
                        )}
                      >
                        <span className="flex w-full items-center justify-between gap-2 text-sm font-medium">
                          {t("stations.start.connector", { no: connector.connectorId })}
                          <ConnectorStatusBadge status={status} />
                        </span>
                        <span className="text-xs text-muted-foreground tabular-nums">
                          {connector.standard} · {power(connector.power)}
                        </span>
                      </button>
                    );
                  })}
                </CardContent>
              </Card>
            );
          })}
        </div>
      )}
      {points && points.length > 0 && <p className="text-xs text-muted-foreground">{t("stations.start.notStartable")}</p>}

      <Card>
        <CardContent className="flex flex-wrap items-start gap-4">
          <div className="grid w-48 gap-2">
            <Label htmlFor={ids.power}>{t("stations.start.power")}</Label>
            <div className="relative">
              <Input
                id={ids.power}
                inputMode="decimal"
                autoComplete="off"
                value={powerLimit}
                onChange={(e) => setPowerLimit(filterNumeric(e.target.value, 2))}
                className="pr-10 tabular-nums"
              />
              <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-muted-foreground">kW</span>
            </div>
          </div>
          <IdTagField id={ids.idTag} value={idTag} onChange={setIdTag} className="w-80" />
          <Button type="button" onClick={start} disabled={!chosen || starting} className="mt-[1.375rem]">
            {starting ? <LoaderCircle className="animate-spin" aria-hidden /> : <PlugZap aria-hidden />}
            {t("stations.start.submit")}
          </Button>
        </CardContent>
      </Card>

      {outcome && (
        <div
          role="status"
          data-testid="start-outcome"
          className={cn(
            "flex items-start gap-3 rounded-xl border px-4 py-3",
            outcome.ok ? "border-success/30 bg-success/10" : "border-destructive/30 bg-destructive/10",
          )}
        >
          {outcome.ok ? <CircleCheck className="mt-0.5 size-5 text-success" aria-hidden /> : <CircleX className="mt-0.5 size-5 text-destructive" aria-hidden />}
          <div className="text-sm">
            <p className="font-medium">
              {outcome.ok ? t("stations.start.answer") : t("stations.start.refused")} · {outcome.point} ·{" "}
              {t("stations.start.connector", { no: outcome.connector })}
            </p>
            <p className="text-muted-foreground">{outcome.ok ? t("stations.start.answerStatus", { status: outcome.status }) : outcome.message}</p>
          </div>
        </div>
      )}
    </div>
  );
}
