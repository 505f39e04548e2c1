import type { ColumnDef } from "@tanstack/react-table";
import { Eye } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { orDash, useFormat } from "~/components/format";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveEnergyWh, liveReadings, liveStatus, useNow, useRevalidateOn } from "~/components/live/live-state";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { IdTagCell } from "~/components/records/remote-start";
import { PageHeader } from "~/components/shell/page-header";
import { useLivePoints } from "~/lib/live";
import { useArea } from "./area";
import { ConnectorLink, PointCell } from "./device-links";
import { SuspectFlag } from "./suspect-flag";
import { loadCharging } from "./charging.server";

/** Real-time monitoring › Charging sessions: ongoing transactions, live (docs/rules/monitoring.md "Charging sessions"). */
export function loader(args: LoaderFunctionArgs) {
  return loadCharging(args);
}

type Session = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Charging() {
  const { page, stations, now: loadedAt, suspects, remoteTag } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, energy, duration, livePower } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const area = useArea();
  const live = useLivePoints();
  const now = useNow(loadedAt);
  // A session that starts or ends changes the list: reload it then, never on a timer.
  useRevalidateOn((event) => event.type === "transaction");

  const columns: ColumnDef<Session>[] = [
    {
      accessorKey: "transactionId",
      header: t("monitoring.common.transaction"),
      meta: { width: 120 },
      cell: ({ row }) => <span className="font-mono text-xs">#{row.original.transactionId}</span>,
    },
    { accessorKey: "stationName", header: t("monitoring.common.station"), meta: { priority: 4 }, cell: ({ row }) => row.original.stationName ?? "—" },
    {
      accessorKey: "serialNumber",
      header: t("monitoring.common.point"),
      cell: ({ row }) => <PointCell pointId={row.original.pointId} serialNumber={row.original.serialNumber} subtitle={row.original.pointName} />,
    },
    {
      accessorKey: "connectorId",
      header: t("monitoring.common.connector"),
      meta: { priority: 3, width: 100, align: "center" },
      cell: ({ row }) => (
        <ConnectorLink serialNumber={row.original.serialNumber} connectorId={row.original.connectorId}>
          {row.original.connectorId}
        </ConnectorLink>
      ),
    },
    {
      accessorKey: "idTag",
      header: t("monitoring.common.idTag"),
      meta: { priority: 3 },
      cell: ({ row }) => <IdTagCell idTag={row.original.idTag} remoteTag={remoteTag} />,
    },
    { accessorKey: "startAt", header: t("monitoring.common.startAt"), meta: { priority: 4 }, cell: ({ row }) => dateTime(row.original.startAt) },
    {
      id: "duration",
      meta: { priority: 3 },
      header: t("monitoring.common.duration"),
      cell: ({ row }) => <span className="tabular-nums">{duration((now - Date.parse(row.original.startAt)) / 60_000)}</span>,
    },
    {
      id: "energy",
      header: t("monitoring.charging.energyNow"),
      meta: { priority: 2, align: "right" },
      cell: ({ row }) => {
        const r = row.original;
        const wh = liveEnergyWh(live.get(r.pointId), r.connectorId, r.transactionId, r.meterStartWh);
        return <span className="tabular-nums">{wh === undefined ? "—" : energy(wh)}</span>;
      },
    },
    {
      id: "power",
      header: t("monitoring.charging.powerNow"),
      meta: { priority: 2, align: "right" },
      cell: ({ row }) => {
        const powerW = liveReadings(live.get(row.original.pointId), row.original.connectorId).powerW;
        return <span className="tabular-nums" data-testid="session-power">{orDash(powerW, livePower)}</span>;
      },
    },
    {
      id: "status",
      header: t("monitoring.common.status"),
      cell: ({ row }) => (
        <ConnectorStatusBadge status={liveStatus(live.get(row.original.pointId), row.original.online, row.original.connectorId, "Charging")} />
      ),
    },
    actionsColumn<Session>(t("monitoring.common.actions"), (record) => [{ label: t("monitoring.common.detail"), icon: Eye, to: area.chargingDetail(record.transactionId) }], 120),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t(area.menuKey("menu.monitoring.charging", "menu.sub.monitoring.charging"))}
        description={t("monitoring.charging.description")}
        actions={<LiveIndicator />}
      />
      <SuspectFlag count={suspects} to={area.suspectSessions} />
      <DataTableToolbar>
        <FilterSelect name="stationId" label={t("monitoring.common.station")} all={t("monitoring.common.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("monitoring.common.serialNumber")} aria-label={t("monitoring.common.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
        <FilterText name="idTag" label={t("monitoring.common.idTag")} />
      </DataTableToolbar>
      <DataTable
        columns={columns}
        page={page}
        onPageChange={onPageChange}
        getRowId={(r) => String(r.transactionId)}
        emptyHint={t("monitoring.charging.empty")}
        label={t(area.menuKey("menu.monitoring.charging", "menu.sub.monitoring.charging"))}
      />
    </div>
  );
}
