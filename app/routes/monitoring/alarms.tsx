import type { ColumnDef } from "@tanstack/react-table";
import { CheckCheck, ClipboardList, ClipboardPlus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConnectorLink, PointLink } from "./device-links";
import { useFetcher, useLoaderData, useLocation, useRevalidator, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { ALARM_STATUSES } from "../../../domain/schemas/monitoring";
import { OCPP_FAULT_CODES } from "../../../domain/schemas/operations";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { LiveIndicator } from "~/components/live/live-indicator";
import { useActionOutcome } from "~/components/page-actions";
import { AlarmLevelBadge, AlarmStatusBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { TextDialog } from "~/components/text-dialog";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { useLiveEvents } from "~/lib/live";
import { AlarmExport } from "../operations/alarm-export";
import { disposeAlarmAction, loadAlarms } from "./alarms.server";

/** Every error code a StatusNotification may raise: the catalogue's 14 and EVCommunicationError (OCPP 1.6 §7.6). */
const FAULT_TYPES = ["EVCommunicationError", ...OCPP_FAULT_CODES] as const;

/**
 * Alarm records (open alarms first), alarm history and the sub-operator's alarms: Undisposed →
 * AutoRecovery or ManualDisposed (docs/rules/monitoring.md "Alarms"). New alarms arrive live.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadAlarms(args);
}

export function action(args: ActionFunctionArgs) {
  return disposeAlarmAction(args);
}

type Alarm = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function Alarms() {
  const { page, status, filterError, exportQuery, mayOpenOrders } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const { revalidate } = useRevalidator();
  const [disposing, setDisposing] = useState<Alarm | null>(null);
  // One fetcher for the screen: a row re-rendered by the reload after opening keeps no state of its own.
  const orders = useFetcher<typeof action>();
  const confirm = useConfirm();
  useActionOutcome<{ workOrderId?: number }>(orders, (done) => toast.success(t("ops.alarmOrders.opened", { id: done.workOrderId })));
  const openOrder = async (alarm: Alarm) => {
    const type = t(`monitoring.faultTypes.${alarm.type}`, { defaultValue: alarm.type });
    const ok = await confirm({
      title: t("ops.alarmOrders.open"),
      message: t("ops.alarmOrders.confirm", { type, serial: alarm.serialNumber, connector: alarm.connectorId }),
      confirmLabel: t("ops.alarmOrders.open"),
    });
    if (ok) orders.submit({ intent: "workOrder", id: alarm.id }, { method: "post" });
  };

  const title = pathname.startsWith("/suboperators/")
    ? t("menu.sub.monitoring.alarm")
    : pathname.startsWith("/operationMaintenance/")
      ? t("menu.operation.historicalAlarmInfo")
      : t("menu.monitoring.alarmRecord");
  const history = pathname.startsWith("/operationMaintenance/");

  // A new alarm is announced and listed at once; an open alarm on screen that clears itself reloads too.
  useLiveEvents((event) => {
    if (event.type === "alarm") {
      toast.warning(t("monitoring.alarms.newAlarm", { type: t(`monitoring.faultTypes.${event.alarmType}`, { defaultValue: event.alarmType }), serial: event.serialNumber }));
      void revalidate();
    } else if (
      event.type === "connector" &&
      event.errorCode === "NoError" &&
      page.records.some((a) => a.status === "Undisposed" && a.pointId === event.pointId && a.connectorId === event.connectorId)
    ) {
      void revalidate();
    }
  });

  const columns: ColumnDef<Alarm>[] = [
    { accessorKey: "occurredAt", header: t("monitoring.alarms.time"), meta: { priority: 2, width: 170 }, cell: ({ row }) => dateTime(row.original.occurredAt) },
    { accessorKey: "level", header: t("monitoring.alarms.level"), meta: { priority: 2, width: 100 }, cell: ({ row }) => <AlarmLevelBadge level={row.original.level} /> },
    {
      accessorKey: "type",
      header: t("monitoring.alarms.type"),
      // Folds with time and level: at 1024 px the point, status and both actions take the row.
      meta: { priority: 2 },
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span>{t(`monitoring.faultTypes.${row.original.type}`, { defaultValue: row.original.type })}</span>
          <span className="font-mono text-[11px] text-muted-foreground">{row.original.type}</span>
        </div>
      ),
    },
    {
      accessorKey: "serialNumber",
      header: t("monitoring.common.point"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="inline-flex items-center gap-1 font-mono text-xs font-medium">
            <PointLink pointId={row.original.pointId} serialNumber={row.original.serialNumber} /> ·{" "}
            <ConnectorLink serialNumber={row.original.serialNumber} connectorId={row.original.connectorId}>
              {row.original.connectorId}
            </ConnectorLink>
          </span>
          <span className="text-xs text-muted-foreground">{row.original.stationName ?? "—"}</span>
        </div>
      ),
    },
    {
      accessorKey: "message",
      meta: { priority: 3 },
      header: t("monitoring.alarms.message"),
      cell: ({ row }) => <span className="block max-w-64 truncate" title={row.original.message ?? ""}>{row.original.message || "—"}</span>,
    },
    {
      accessorKey: "status",
      header: t("monitoring.common.status"),
      cell: ({ row }) => (
        <div className="flex flex-wrap items-center gap-1">
          <AlarmStatusBadge status={row.original.status} />
          {row.original.recoveredAt && (
            <span className="text-[11px] text-muted-foreground" title={t("monitoring.alarms.recoveredAt")}>
              {t("monitoring.alarms.recoveredAt")}: {dateTime(row.original.recoveredAt)}
            </span>
          )}
        </div>
      ),
    },
    {
      accessorKey: "comment",
      meta: { priority: 4 },
      header: t("monitoring.alarms.comment"),
      cell: ({ row }) => <span className="block max-w-56 truncate" title={row.original.comment ?? ""}>{row.original.comment || "—"}</span>,
    },
    actionsColumn<Alarm>(t("monitoring.common.actions"), (alarm) => [
      alarm.status === "Undisposed" && { label: t("monitoring.alarms.dispose"), icon: CheckCheck, onSelect: () => setDisposing(alarm) },
      mayOpenOrders &&
        (alarm.workOrderId !== null
          ? { label: t("ops.alarmOrders.workOrder", { id: alarm.workOrderId }), icon: ClipboardList, to: `/operationMaintenance/maintain/workOrder/${alarm.workOrderId}` }
          : { label: t("ops.alarmOrders.open"), icon: ClipboardPlus, disabled: orders.state !== "idle", onSelect: () => openOrder(alarm) }),
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={title}
        description={t(history ? "monitoring.alarms.historyDescription" : "monitoring.alarms.recordDescription")}
        actions={
          <>
            {history && <AlarmExport query={exportQuery} />}
            <LiveIndicator />
          </>
        }
      />
      <DataTableToolbar>
        <FilterSelect
          name="status"
          label={t("monitoring.common.status")}
          all={t("monitoring.common.all")}
          allValue="all"
          fallback={status}
          options={ALARM_STATUSES.map((s) => [s, t(`monitoring.alarms.statuses.${s}`)] as const)}
        />
        <FilterSelect name="level" label={t("monitoring.alarms.level")} all={t("monitoring.alarms.level")}>
          <option value="ERROR">{t("monitoring.alarms.levels.ERROR")}</option>
          <option value="WARN">{t("monitoring.alarms.levels.WARN")}</option>
        </FilterSelect>
        <FilterSelect name="type" label={t("monitoring.alarms.type")} all={t("monitoring.alarms.type")} options={FAULT_TYPES.map((type) => [type, t(`monitoring.faultTypes.${type}`)] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("monitoring.common.serialNumber")} aria-label={t("monitoring.common.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable
        columns={columns}
        page={page}
        onPageChange={onPageChange}
        getRowId={(r) => String(r.id)}
        emptyHint={t(status === "Undisposed" ? "monitoring.alarms.emptyOpen" : "monitoring.alarms.empty")}
        label={title}
      />
      <DisposeDialog alarm={disposing} onClose={() => setDisposing(null)} />
    </div>
  );
}

/** Closes an undisposed alarm with a comment (ManualDisposed, docs/rules/monitoring.md "Alarms"). */
function DisposeDialog({ alarm, onClose }: { alarm: Alarm | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <TextDialog
      open={alarm !== null}
      onClose={onClose}
      title={t("monitoring.alarms.disposeTitle")}
      description={
        alarm &&
        t("monitoring.alarms.disposeText", {
          type: t(`monitoring.faultTypes.${alarm.type}`, { defaultValue: alarm.type }),
          serial: alarm.serialNumber,
          connector: alarm.connectorId,
        })
      }
      texts={[
        {
          name: "comment",
          label: t("monitoring.alarms.comment"),
          placeholder: t("monitoring.alarms.commentPlaceholder"),
          requiredMessage: t("monitoring.validation.commentRequired"),
          maxLength: 500,
        },
      ]}
      values={{ id: alarm?.id ?? 0 }}
      submitLabel={t("monitoring.alarms.disposeSubmit")}
      icon={CheckCheck}
      successMessage={t("monitoring.alarms.disposed")}
      idPrefix="alarm"
    />
  );
}
