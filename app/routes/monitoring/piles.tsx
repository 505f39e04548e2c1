import type { ColumnDef } from "@tanstack/react-table";
import { CircleAlert, CirclePower, PlugZap, WifiOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { deviceState } from "../../../domain/connector-status";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useFilterLink, useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveOnline, liveStatus, useRevalidateOn } from "~/components/live/live-state";
import { DeviceStateBadge, LiveConnectorStatuses } from "~/components/live/status-badges";
import { ProtocolBadge } from "~/components/protocol-badge";
import { PageHeader } from "~/components/shell/page-header";
import { useLivePoints } from "~/lib/live";
import { useArea } from "./area";
import { PointCell } from "./device-links";
import { loadPiles } from "./devices.server";
import { SummaryCards } from "./summary-cards";

/** Real-time monitoring › Charging points: online, offline, fault, live (docs/rules/monitoring.md "Device states"). */
export function loader(args: LoaderFunctionArgs) {
  return loadPiles(args);
}

type Pile = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Piles() {
  const { page, stations } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, power } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const area = useArea();
  const live = useLivePoints();
  // The counts cover every point, so a point going on- or offline or a status change reloads them.
  useRevalidateOn((event) => event.type === "point" || event.type === "connector", 2000);

  const stateOf = (p: Pile) => {
    const point = live.get(p.id);
    const online = liveOnline(point, p.online);
    return deviceState(online, [...p.connectors.map((c) => liveStatus(point, p.online, c.connectorId, c.status)), point?.connectors[0]?.status]);
  };
  const { chosen, linkTo: filterTo } = useFilterLink("state");

  const columns: ColumnDef<Pile>[] = [
    {
      accessorKey: "serialNumber",
      header: t("monitoring.common.point"),
      cell: ({ row }) => <PointCell pointId={row.original.id} serialNumber={row.original.serialNumber} subtitle={row.original.name} />,
    },
    { accessorKey: "stationName", header: t("monitoring.common.station"), meta: { priority: 3 }, cell: ({ row }) => row.original.stationName ?? "—" },
    { id: "state", header: t("monitoring.common.state"), cell: ({ row }) => <DeviceStateBadge state={stateOf(row.original)} /> },
    {
      id: "connectors",
      meta: { priority: 2 },
      header: t("monitoring.common.connectors"),
      cell: ({ row }) => <LiveConnectorStatuses point={row.original} live={live.get(row.original.id)} />,
    },
    {
      id: "protocol",
      header: t("points.fields.protocol"),
      meta: { priority: 3, width: 120 },
      cell: ({ row }) => <ProtocolBadge point={row.original} online={liveOnline(live.get(row.original.id), row.original.online)} />,
    },
    { accessorKey: "type", header: t("monitoring.common.type"), meta: { priority: 4, width: 90 } },
    { accessorKey: "ratedPower", header: t("monitoring.common.ratedPower"), meta: { priority: 3, align: "right" }, cell: ({ row }) => power(row.original.ratedPower) },
    {
      accessorKey: "onlineChangedAt",
      meta: { priority: 4 },
      header: t("monitoring.common.since"),
      cell: ({ row }) => dateTime(row.original.onlineChangedAt) || "—",
    },
    {
      id: "firmware",
      meta: { priority: 4 },
      header: t("monitoring.common.firmware"),
      cell: ({ row }) => (
        <div className="flex flex-col text-xs">
          <span>{row.original.firmwareVersion ?? "—"}</span>
          <span className="text-muted-foreground">{[row.original.vendor, row.original.model].filter(Boolean).join(" ")}</span>
        </div>
      ),
    },
  ];

  const title = t(area.menuKey("menu.monitoring.chargingPile", "menu.sub.monitoring.chargingPile"));
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("monitoring.piles.description")} actions={<LiveIndicator />} />
      <SummaryCards
        items={[
          { key: "total", label: t("monitoring.piles.total"), value: page.summary.total, tone: "neutral", icon: PlugZap, to: filterTo(), active: !chosen },
          { key: "online", label: t("monitoring.deviceState.online"), value: page.summary.online, tone: "success", icon: CirclePower, to: filterTo("online"), active: chosen === "online" },
          { key: "offline", label: t("monitoring.deviceState.offline"), value: page.summary.offline, tone: "muted", icon: WifiOff, to: filterTo("offline"), active: chosen === "offline" },
          { key: "fault", label: t("monitoring.deviceState.fault"), value: page.summary.fault, tone: "danger", icon: CircleAlert, to: filterTo("fault"), active: chosen === "fault" },
        ]}
      />
      <DataTableToolbar>
        <FilterSelect name="stationId" label={t("monitoring.common.station")} all={t("monitoring.common.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("monitoring.common.serialOrName")} aria-label={t("monitoring.common.serialOrName")} defaultValue={params.get("serialNumber") ?? ""} />
        <FilterSelect name="state" label={t("monitoring.common.state")} all={t("monitoring.common.state")} options={(["online", "offline", "fault"] as const).map((s) => [s, t(`monitoring.deviceState.${s}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("monitoring.piles.empty")} label={title} />
    </div>
  );
}
