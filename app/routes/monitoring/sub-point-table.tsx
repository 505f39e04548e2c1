import type { ColumnDef } from "@tanstack/react-table";
import { Eye } from "lucide-react";
import { useTranslation } from "react-i18next";
import { deviceState, type DeviceState } from "../../../domain/connector-status";
import type { Page } from "../../../domain/paging";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { useFormat } from "~/components/format";
import { liveOnline, liveReadings, liveStatus } from "~/components/live/live-state";
import { DeviceStateBadge, LiveConnectorStatuses } from "~/components/live/status-badges";
import { ProtocolBadge, type PointProtocol } from "~/components/protocol-badge";
import { useLivePoints } from "~/lib/live";

/** A charging point as the sub-operator's lists answer it. */
export interface SubPoint extends PointProtocol {
  id: number;
  serialNumber: string;
  name: string;
  stationName: string | null;
  type: string;
  ratedPower: number;
  online: boolean;
  state: DeviceState;
  connectors: { connectorId: number; status: string | null }[];
}

/** The sub-operator's charging points with their live state (point list and location detail). */
export function SubPointTable({ page, onPageChange, emptyHint }: { page: Page<SubPoint>; onPageChange: (current: number, size: number) => void; emptyHint: string }) {
  const { t } = useTranslation();
  const { number, power } = useFormat();
  const live = useLivePoints();

  const columns: ColumnDef<SubPoint>[] = [
    {
      accessorKey: "serialNumber",
      header: t("monitoring.common.point"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-mono text-xs font-medium">{row.original.serialNumber}</span>
          <span className="text-xs text-muted-foreground">{row.original.name}</span>
        </div>
      ),
    },
    { accessorKey: "stationName", header: t("monitoring.common.station"), meta: { priority: 3 }, cell: ({ row }) => row.original.stationName ?? "—" },
    {
      id: "state",
      header: t("monitoring.common.state"),
      cell: ({ row }) => {
        const point = live.get(row.original.id);
        const statuses = row.original.connectors.map((c) => liveStatus(point, row.original.online, c.connectorId, c.status));
        return <DeviceStateBadge state={deviceState(liveOnline(point, row.original.online), statuses)} />;
      },
    },
    {
      id: "connectors",
      meta: { priority: 2 },
      header: t("monitoring.common.connectors"),
      cell: ({ row }) => <LiveConnectorStatuses point={row.original} live={live.get(row.original.id)} />,
    },
    {
      id: "power",
      header: t("monitoring.common.livePower"),
      meta: { priority: 2, align: "right" },
      cell: ({ row }) => {
        const point = live.get(row.original.id);
        const w = row.original.connectors.reduce((sum, c) => sum + (liveReadings(point, c.connectorId).powerW ?? 0), 0);
        return <span className="tabular-nums">{liveOnline(point, row.original.online) ? `${number(w / 1000, 2)} / ${power(row.original.ratedPower)}` : "—"}</span>;
      },
    },
    {
      id: "protocol",
      header: t("points.fields.protocol"),
      meta: { priority: 3, width: 120 },
      cell: ({ row }) => <ProtocolBadge point={row.original} online={liveOnline(live.get(row.original.id), row.original.online)} />,
    },
    { accessorKey: "type", header: t("monitoring.common.type"), meta: { priority: 4, width: 90 } },
    actionsColumn<SubPoint>(t("monitoring.common.actions"), (record) => [{ label: t("monitoring.common.detail"), icon: Eye, to: `/suboperators/point/pointDetail/${record.id}` }], 120),
  ];
  return <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={emptyHint} label={t("menu.sub.equipment.point")} />;
}
