import type { ColumnDef } from "@tanstack/react-table";
import { RotateCw, Send } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useRevalidator, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { FactsCard } from "~/components/detail-list";
import { orDash, useFormat } from "~/components/format";
import { DetailHeader, useActionOutcome } from "~/components/page-actions";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { ChoiceList } from "./choice-list";
import { loadOfflineListDetail, offlineListDetailAction } from "./offline-lists.server";
import { PushStatus } from "./push-status";

/**
 * An offline list: what it names, its push to points and locations (SendLocalList through the push
 * queue), the points it reached with those behind, and every delivery with a retry for failed ones
 * (docs/rules/driver-services.md "Offline lists").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadOfflineListDetail(args);
}

export function action(args: ActionFunctionArgs) {
  return offlineListDetailAction(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.list.name };

type Data = Awaited<ReturnType<typeof loader>>;
type Item = Data["items"]["records"][number];
type ListPoint = Data["points"]["records"][number];

export default function OfflineListDetail() {
  const { list, points, items, targets } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [, setParams] = useSearchParams();
  const revalidator = useRevalidator();
  const fetcher = useFetcher<typeof action>();
  const [pointIds, setPointIds] = useState<number[]>([]);
  const [stationIds, setStationIds] = useState<number[]>([]);

  useActionOutcome<{ intent: "push" | "retry" }>(fetcher, (data) => {
    toast.success(t(data.intent === "retry" ? "driverServices.lists.retried" : "driverServices.lists.pushed"));
    setPointIds([]);
    setStationIds([]);
  });

  const send = (body: Record<string, unknown>) => fetcher.submit(JSON.stringify(body), { method: "post", encType: "application/json" });

  const pointColumns: ColumnDef<ListPoint>[] = [
    { accessorKey: "serialNumber", header: t("driverServices.lists.point") },
    { accessorKey: "stationName", header: t("driverServices.lists.station"), meta: { priority: 2 }, cell: ({ row }) => row.original.stationName ?? "—" },
    { accessorKey: "listVersion", header: t("driverServices.lists.version") },
    { accessorKey: "lastStatus", header: t("driverServices.lists.lastStatus"), cell: ({ row }) => <PushStatus status={row.original.lastStatus} /> },
    {
      accessorKey: "behind",
      header: t("driverServices.lists.state"),
      cell: ({ row }) =>
        row.original.behind ? (
          <Badge variant="warning">{t("driverServices.lists.behind", { changes: row.original.pendingChanges })}</Badge>
        ) : (
          <Badge variant="success">{t("driverServices.lists.upToDate")}</Badge>
        ),
    },
  ];

  const itemColumns: ColumnDef<Item>[] = [
    { accessorKey: "serialNumber", header: t("driverServices.lists.point") },
    { accessorKey: "status", header: t("driverServices.lists.sendStatus"), cell: ({ row }) => <PushStatus status={row.original.status} /> },
    {
      accessorKey: "reason",
      header: t("driverServices.lists.reason"),
      cell: ({ row }) =>
        row.original.waitsUntil
          ? t("driverServices.lists.waitsUntil", { time: dateTime(row.original.waitsUntil) })
          : row.original.reason
            ? t(`driverServices.lists.reasons.${row.original.reason}`, { defaultValue: row.original.reason })
            : "—",
    },
    { id: "update", header: t("driverServices.lists.update"), meta: { priority: 2 }, cell: ({ row }) => (row.original.updateType ? `${row.original.updateType} · v${row.original.listVersion} · ${row.original.entryCount}` : "—") },
    { accessorKey: "pushedAt", header: t("driverServices.lists.pushedAt"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.pushedAt) },
    { accessorKey: "answeredAt", header: t("driverServices.lists.answeredAt"), meta: { priority: 2 }, cell: ({ row }) => orDash(row.original.answeredAt, dateTime) },
    actionsColumn<Item>(t("common.actions"), (item) => [
      item.status === "FAIL" && { label: t("driverServices.lists.retry"), icon: RotateCw, disabled: fetcher.state !== "idle", onSelect: () => send({ intent: "retry", itemId: item.id }) },
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <DetailHeader title={list.name} description={t("driverServices.lists.detail")} backTo="/userManagement/offlineUserList" editTo={`/userManagement/offlineUserList/edit/${list.id}`} />
      <FactsCard
        items={[
          [t("driverServices.lists.chargeableType"), t(`driverServices.lists.types.${list.chargeableType}`)],
          [t("driverServices.lists.effectiveTime"), orDash(list.effectiveTime, dateTime)],
          [t("driverServices.lists.customers"), list.customers.map((c) => c.name).join(", ") || "—"],
          [t("driverServices.lists.groups"), list.groups.map((g) => `${g.name} (${g.code})`).join(", ") || "—"],
          [t("driverServices.lists.userCount"), list.userCount],
          [t("driverServices.lists.pointCount"), list.pushedPointCount],
          [t("driverServices.lists.stationCount"), list.pushedStationCount],
          [t("driverServices.lists.sendStatus"), <PushStatus status={list.sendStatus} />],
        ]}
      />
      <Card>
        <CardHeader>
          <CardTitle>{t("driverServices.lists.pushTitle")}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 md:grid-cols-2">
          <ChoiceList id="push-stations" label={t("driverServices.lists.stations")} options={targets.stations.map((s) => ({ id: s.id, label: s.name }))} value={stationIds} onChange={setStationIds} />
          <ChoiceList id="push-points" label={t("driverServices.lists.points")} options={targets.points.map((p) => ({ id: p.id, label: p.serialNumber }))} value={pointIds} onChange={setPointIds} />
          <div className="flex gap-2 md:col-span-2">
            <Button disabled={fetcher.state !== "idle" || pointIds.length + stationIds.length === 0} onClick={() => send({ intent: "push", pointIds, stationIds })}>
              <Send aria-hidden />
              {t("driverServices.lists.push")}
            </Button>
            <Button variant="outline" onClick={() => revalidator.revalidate()}>
              <RotateCw aria-hidden />
              {t("driverServices.lists.refresh")}
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("driverServices.lists.pointsTitle")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DataTable
            columns={pointColumns}
            page={points}
            onPageChange={(current) =>
              setParams(
                (previous) => {
                  const next = new URLSearchParams(previous);
                  next.set("pointsPage", String(current));
                  return next;
                },
                { preventScrollReset: true },
              )
            }
            getRowId={(r) => String(r.pointId)}
            emptyHint={t("driverServices.lists.noPoints")}
            label={t("driverServices.lists.pointsTitle")}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("driverServices.lists.itemsTitle")}</CardTitle>
        </CardHeader>
        <CardContent>
          <DataTable columns={itemColumns} page={items} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("driverServices.lists.noItems")} label={t("driverServices.lists.itemsTitle")} />
        </CardContent>
      </Card>
    </div>
  );
}
