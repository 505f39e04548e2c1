import type { ColumnDef } from "@tanstack/react-table";
import { CalendarClock, Pencil, Power, Send, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { DeliveryStatus } from "../../../domain/schemas/operations";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { useRevalidateOn } from "~/components/live/live-state";
import { LiveIndicator } from "~/components/live/live-indicator";
import { HeaderLink, useActionOutcome } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";
import { loadBalancingAction, loadBalancingPage } from "./load-balancing.server";

/**
 * A load-balancing configuration: its settings, the limit in force now, and each point's delivery
 * as the chargers answer, live (docs/rules/operations.md "Delivery"); deliver, enable or disable,
 * delete, and a point's composite schedule on demand.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadBalancingPage(args);
}

export function action(args: ActionFunctionArgs) {
  return loadBalancingAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.name };

type Config = Awaited<ReturnType<typeof loader>>;
type PointDelivery = Config["points"][number];

const DELIVERY_VARIANT: Record<DeliveryStatus, "muted" | "info" | "success" | "destructive" | "warning"> = {
  NotSent: "muted",
  Queued: "info",
  Sent: "info",
  Accepted: "success",
  Rejected: "destructive",
  Offline: "warning",
  Failed: "destructive",
};

interface Schedule {
  scheduleStart?: string;
  chargingSchedule?: { chargingRateUnit: string; chargingSchedulePeriod: { startPeriod: number; limit: number }[] };
}

export default function LoadBalancingDetail() {
  const config = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, power } = useFormat();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const api = useApi();
  const fetcher = useFetcher<typeof action>();
  const [schedule, setSchedule] = useState<{ serialNumber: string; reply: Schedule } | null>(null);
  useRevalidateOn((event) => event.type === "delivery" && event.loadBalancingId === config.id, 300);
  useActionOutcome(fetcher, (data: { intent: string }) => {
    toast.success(t(`operations.lb.done.${data.intent}`));
    if (data.intent === "delete") navigate("/equipmentManagement/loadingBalance");
  });

  const run = async (intent: string, message: string, extra: Record<string, string> = {}, destructive = false) => {
    if (await confirm({ message, destructive })) fetcher.submit({ intent, ...extra }, { method: "post" });
  };

  const askSchedule = async (p: PointDelivery) => {
    const reply = await api.get("/station-service/load-balancing/{id}/composite-schedule", { params: { id: config.id }, query: { pointId: p.pointId } }).catch(() => null);
    if (reply) setSchedule({ serialNumber: p.serialNumber, reply });
  };

  const columns: ColumnDef<PointDelivery>[] = [
    { accessorKey: "serialNumber", header: t("operations.lb.serialNumber") },
    { accessorKey: "name", header: t("operations.lb.pointName"), meta: { priority: 3 } },
    {
      accessorKey: "action",
      header: t("operations.lb.command"),
      meta: { priority: 2, width: 190 },
      cell: ({ row }) => (row.original.action === "set" ? "SetChargingProfile" : "ClearChargingProfile"),
    },
    {
      accessorKey: "delivery",
      header: t("operations.lb.delivery"),
      meta: { width: 140 },
      cell: ({ row }) => (
        <Badge variant={DELIVERY_VARIANT[row.original.delivery]} data-testid={`delivery-${row.original.serialNumber}`}>
          {t(`operations.lb.deliveries.${row.original.delivery}`)}
        </Badge>
      ),
    },
    { accessorKey: "detail", header: t("operations.lb.reply"), meta: { priority: 3 }, cell: ({ row }) => row.original.detail ?? "—" },
    { accessorKey: "updatedAt", header: t("operations.lb.updatedAt"), meta: { priority: 3, width: 180 }, cell: ({ row }) => dateTime(row.original.updatedAt) },
    actionsColumn<PointDelivery>(t("common.actions"), (point) => [{ label: t("operations.lb.composite"), icon: CalendarClock, disabled: !point.online, onSelect: () => askSchedule(point) }], 200),
  ];

  const enabled = config.status === "VALID";
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={config.name}
        description={config.stationName ?? ""}
        actions={
          <>
            <LiveIndicator />
            <HeaderLink to={`/equipmentManagement/loadingBalance/edit/${config.id}`} icon={Pencil} label={t("common.edit")} variant="outline" />
            <Button variant="outline" onClick={() => run("status", t(enabled ? "operations.lb.confirmDisable" : "operations.lb.confirmEnable"), { status: enabled ? "INVALID" : "VALID" }, enabled)}>
              <Power aria-hidden />
              {enabled ? t("common.disable") : t("common.enable")}
            </Button>
            <Button variant="outline" className="text-destructive" onClick={() => run("delete", t("operations.lb.confirmDelete"), {}, true)}>
              <Trash2 aria-hidden />
              {t("common.delete")}
            </Button>
            <Button disabled={!enabled || fetcher.state !== "idle"} onClick={() => run("deliver", t("operations.lb.confirmDeliver", { count: config.pointCount }))}>
              <Send aria-hidden />
              {t("operations.lb.deliver")}
            </Button>
          </>
        }
      />
      <FactsCard
        items={[
          [t("common.status"), <StatusBadge key="s" status={config.status} />],
          [t("operations.lb.powerLimit"), power(config.powerLimit)],
          [t("operations.lb.limitNow"), config.limitNow === null ? "—" : power(config.limitNow)],
          [t("operations.lb.stationLoadLabel"), config.stationPowerLimit === null ? "—" : power(config.stationPowerLimit)],
          [t("operations.lb.purpose"), t(`operations.lb.purposes.${config.purpose}`)],
          [t("operations.lb.stackLevel"), t(`operations.lb.stackLevels.${config.stackLevel}`)],
          [t("operations.lb.repeat"), t(`operations.lb.repeats.${config.repeat}`)],
          [
            t("operations.lb.slots"),
            config.slots.length ? config.slots.map((s) => `${s.start}–${s.end} ${power(s.limitKw)}`).join(", ") : "—",
          ],
          [t("operations.lb.timeZone"), config.timeZone],
          [t("operations.lb.validFrom"), config.validFrom ? dateTime(config.validFrom) : "—"],
          [t("operations.lb.validTo"), config.validTo ? dateTime(config.validTo) : "—"],
          [t("operations.lb.deliveredAt"), config.deliveredAt ? dateTime(config.deliveredAt) : "—"],
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("operations.lb.progress")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DataTable
            columns={columns}
            page={{ records: config.points, total: config.points.length, current: 1, size: Math.max(1, config.points.length) }}
            getRowId={(r) => String(r.pointId)}
            emptyHint={t("operations.lb.noPoints")}
            label={t("operations.lb.progress")}
            onPageChange={() => undefined}
            heightOffset={520}
          />
        </CardContent>
      </Card>
      <Dialog open={schedule !== null} onOpenChange={(open) => !open && setSchedule(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t("operations.lb.composite")}</DialogTitle>
            <DialogDescription>{schedule?.serialNumber}</DialogDescription>
          </DialogHeader>
          <ul className="flex flex-col gap-1 text-sm">
            <SchedulePeriods schedule={schedule?.reply} />
          </ul>
        </DialogContent>
      </Dialog>
    </div>
  );
}

/** A composite schedule's periods; an empty list is the charger saying that no limit applies (OCPP 1.6 §7 ChargingSchedule). */
function SchedulePeriods({ schedule }: { schedule: Schedule | undefined }) {
  const { t } = useTranslation();
  const periods = schedule?.chargingSchedule?.chargingSchedulePeriod;
  if (!periods) return <li>{t("operations.lb.noSchedule")}</li>;
  if (periods.length === 0) return <li data-testid="composite-no-limit">{t("operations.lb.noLimit")}</li>;
  return periods.map((p) => (
    <li key={p.startPeriod}>
      {t("operations.lb.fromSecond", { seconds: p.startPeriod })}: {p.limit} {schedule?.chargingSchedule?.chargingRateUnit}
    </li>
  ));
}
