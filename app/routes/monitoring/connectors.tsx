import type { ColumnDef } from "@tanstack/react-table";
import { BatteryCharging, CircleAlert, CircleCheck, WifiOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { CONNECTOR_STATUSES, displayClass } from "../../../domain/connector-status";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useFilterLink, useUrlPaging } from "~/components/data-table/use-url-paging";
import { orDash, useFormat } from "~/components/format";
import { LiveIndicator } from "~/components/live/live-indicator";
import { liveReadings, liveStatus, useRevalidateOn } from "~/components/live/live-state";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { useLivePoints } from "~/lib/live";
import { useArea } from "./area";
import { ConnectorLink, PointCell } from "./device-links";
import { loadConnectors } from "./devices.server";
import { SummaryCards } from "./summary-cards";

/**
 * Real-time monitoring › Connectors: every connector with its status and display class, live
 * (docs/rules/monitoring.md "Connector states").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadConnectors(args);
}

type Row = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Connectors() {
  const { page, stations } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, power, livePower } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const area = useArea();
  const live = useLivePoints();
  useRevalidateOn((event) => event.type === "point" || event.type === "connector", 2000);

  const count = (statuses: readonly string[]) => statuses.reduce((sum, s) => sum + (page.summary[s] ?? 0), 0);
  const danger = CONNECTOR_STATUSES.filter((s) => displayClass(s) === "danger");
  const { chosen, linkTo: filterTo } = useFilterLink("status");

  const columns: ColumnDef<Row>[] = [
    {
      accessorKey: "serialNumber",
      header: t("monitoring.common.point"),
      cell: ({ row }) => <PointCell pointId={row.original.pointId} serialNumber={row.original.serialNumber} subtitle={row.original.pointName} />,
    },
    { accessorKey: "stationName", header: t("monitoring.common.station"), meta: { priority: 3 }, cell: ({ row }) => row.original.stationName ?? "—" },
    {
      accessorKey: "connectorId",
      header: t("monitoring.common.connector"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <ConnectorLink serialNumber={row.original.serialNumber} connectorId={row.original.connectorId} />
          {row.original.name && <span className="text-xs text-muted-foreground">{row.original.name}</span>}
        </div>
      ),
    },
    {
      id: "status",
      header: t("monitoring.common.status"),
      cell: ({ row }) => <ConnectorStatusBadge status={liveStatus(live.get(row.original.pointId), row.original.online, row.original.connectorId, row.original.status)} />,
    },
    {
      accessorKey: "errorCode",
      meta: { priority: 2 },
      header: t("monitoring.common.errorCode"),
      cell: ({ row }) => {
        const heard = live.get(row.original.pointId)?.connectors[row.original.connectorId]?.errorCode;
        const code = heard ?? row.original.errorCode;
        return code && code !== "NoError" ? <span className="text-destructive">{t(`monitoring.faultTypes.${code}`, { defaultValue: code })}</span> : "—";
      },
    },
    {
      id: "power",
      header: t("monitoring.common.livePower"),
      meta: { priority: 2, align: "right" },
      cell: ({ row }) => {
        const point = live.get(row.original.pointId);
        const status = liveStatus(point, row.original.online, row.original.connectorId, row.original.status);
        const powerW = liveReadings(point, row.original.connectorId).powerW;
        return <span className="tabular-nums">{status ? orDash(powerW, livePower) : "—"}</span>;
      },
    },
    { id: "standard", header: t("monitoring.common.standard"), meta: { priority: 4 }, cell: ({ row }) => `${t(`points.standards.${row.original.standard}`)} · ${power(row.original.power)}` },
    { accessorKey: "statusAt", header: t("monitoring.common.since"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.statusAt) || "—" },
    {
      id: "transaction",
      meta: { priority: 2 },
      header: t("monitoring.common.transaction"),
      cell: ({ row }) => {
        const id = liveReadings(live.get(row.original.pointId), row.original.connectorId).transactionId ?? row.original.transactionId;
        return id ? (
          <Link to={area.chargingDetail(id)} className="font-mono text-xs text-primary hover:underline">
            #{id}
          </Link>
        ) : (
          "—"
        );
      },
    },
  ];

  const title = t(area.menuKey("menu.monitoring.connector", "menu.sub.monitoring.connector"));
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("monitoring.connectors.description")} actions={<LiveIndicator />} />
      <SummaryCards
        items={[
          { key: "available", label: t("monitoring.connectorStatus.Available"), value: count(["Available"]), tone: "success", icon: CircleCheck, to: filterTo("Available"), active: chosen === "Available" },
          { key: "charging", label: t("monitoring.connectorStatus.Charging"), value: count(["Charging"]), tone: "success", icon: BatteryCharging, to: filterTo("Charging"), active: chosen === "Charging" },
          { key: "attention", label: t("monitoring.connectors.attention"), value: count(danger), tone: "danger", icon: CircleAlert },
          { key: "offline", label: t("monitoring.connectorStatus.offline"), value: count(["offline"]), tone: "info", icon: WifiOff, to: filterTo("offline"), active: chosen === "offline" },
        ]}
      />
      <DataTableToolbar>
        <FilterSelect name="stationId" label={t("monitoring.common.station")} all={t("monitoring.common.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("monitoring.common.serialOrName")} aria-label={t("monitoring.common.serialOrName")} defaultValue={params.get("serialNumber") ?? ""} />
        <FilterSelect name="status" label={t("monitoring.common.status")} all={t("monitoring.common.status")} options={[...CONNECTOR_STATUSES, "offline" as const].map((s) => [s, t(`monitoring.connectorStatus.${s}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("monitoring.connectors.empty")} label={title} />
    </div>
  );
}
