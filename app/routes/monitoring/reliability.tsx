import type { ColumnDef } from "@tanstack/react-table";
import { ClipboardList, Download, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLoaderData, useLocation, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { EXCLUSION_REASONS } from "../../../domain/uptime";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { collectRows } from "~/components/export/xlsx";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";
import { saveSheet } from "~/lib/excel";
import { excludeOutageAction, loadReliability } from "./reliability.server";

/**
 * Real-time monitoring › Reliability (docs/rules/monitoring.md "Uptime"): uptime by port as
 * 23 CFR 680.116 counts it, the ports below the minimum, the outages with their causes and work
 * orders (the operator excludes those outside its control), and the charging success rate, for a
 * period in the operator's time; the monthly figures export as xlsx.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadReliability(args);
}

export function action(args: ActionFunctionArgs) {
  return excludeOutageAction(args);
}

type Data = Awaited<ReturnType<typeof loader>>;
type Port = Data["ports"]["records"][number];
type Outage = Data["outages"]["records"][number];

export default function Reliability() {
  const { query, range, presets, tab, stations, summary, ports, outages, filterError, mayExclude } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, number } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const [excluding, setExcluding] = useState<Outage | null>(null);
  const below = (percent: number) => percent < ports.minimumPercent;
  const periodLink = (period: { from: string; to: string }) => {
    const next = new URLSearchParams(params);
    next.set("from", period.from);
    next.set("to", period.to);
    next.delete("current");
    return `${pathname}?${next}`;
  };

  const portColumns: ColumnDef<Port>[] = [
    {
      accessorKey: "serialNumber",
      header: t("reliability.port"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-mono text-xs font-medium">
            {row.original.serialNumber} · {row.original.connectorId}
          </span>
          <span className="text-xs text-muted-foreground">{row.original.stationName}</span>
        </div>
      ),
    },
    { accessorKey: "minutes", header: t("reliability.minutes"), meta: { priority: 3 }, cell: ({ row }) => number(row.original.minutes, 0) },
    { accessorKey: "outageMinutes", header: t("reliability.outageMinutes"), cell: ({ row }) => number(row.original.outageMinutes, 0) },
    { accessorKey: "excludedMinutes", header: t("reliability.excludedMinutes"), meta: { priority: 2 }, cell: ({ row }) => number(row.original.excludedMinutes, 0) },
    {
      accessorKey: "uptimePercent",
      header: t("reliability.uptime"),
      cell: ({ row }) =>
        below(row.original.uptimePercent) ? (
          <Badge variant="destructive" title={t("reliability.belowMinimum", { percent: ports.minimumPercent })}>
            {number(row.original.uptimePercent, 2)} % · {t("reliability.below")}
          </Badge>
        ) : (
          <Badge variant="success">{number(row.original.uptimePercent, 2)} %</Badge>
        ),
    },
  ];

  const outageColumns: ColumnDef<Outage>[] = [
    {
      accessorKey: "serialNumber",
      header: t("reliability.port"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-mono text-xs font-medium">
            {row.original.serialNumber} · {row.original.connectorId === 0 ? t("reliability.wholePoint") : row.original.connectorId}
          </span>
          <span className="text-xs text-muted-foreground">{row.original.stationName}</span>
        </div>
      ),
    },
    { accessorKey: "cause", header: t("reliability.cause"), cell: ({ row }) => t(`reliability.causes.${row.original.cause}`, { defaultValue: row.original.cause ?? "" }) },
    { accessorKey: "startedAt", header: t("reliability.startedAt"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.startedAt) },
    {
      accessorKey: "endedAt",
      header: t("reliability.endedAt"),
      meta: { width: 170 },
      cell: ({ row }) => (row.original.endedAt ? dateTime(row.original.endedAt) : <Badge variant="warning">{t("reliability.ongoing")}</Badge>),
    },
    { accessorKey: "minutes", header: t("reliability.duration"), meta: { priority: 2 }, cell: ({ row }) => t("reliability.minutesValue", { count: row.original.minutes }) },
    {
      accessorKey: "excludedReason",
      header: t("reliability.exclusion"),
      cell: ({ row }) =>
        row.original.excludedReason ? (
          <div className="flex flex-col">
            <Badge variant="info">{t(`reliability.reasons.${row.original.excludedReason}`)}</Badge>
            {row.original.excludedNote && <span className="mt-1 block max-w-56 truncate text-xs text-muted-foreground" title={row.original.excludedNote}>{row.original.excludedNote}</span>}
          </div>
        ) : (
          <span className="text-xs text-muted-foreground">{t("reliability.counted")}</span>
        ),
    },
    {
      id: "workOrders",
      header: t("reliability.workOrders"),
      meta: { priority: 3 },
      cell: ({ row }) =>
        row.original.workOrders.length === 0 ? (
          "—"
        ) : (
          <div className="flex flex-wrap gap-1">
            {row.original.workOrders.map((o) => (
              <Button key={o.id} asChild variant="ghost" size="sm">
                <Link to={`/operationMaintenance/maintain/workOrder/${o.id}`} title={o.faultCode}>
                  <ClipboardList aria-hidden />#{o.id}
                </Link>
              </Button>
            ))}
          </div>
        ),
    },
    ...(mayExclude ? [actionsColumn<Outage>(t("reliability.actions"), (outage) => [{ label: t("reliability.exclude"), icon: ShieldCheck, onSelect: () => setExcluding(outage) }], 140)] : []),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.monitoring.reliability")} description={t("reliability.description", { percent: ports.minimumPercent })} actions={<MonthlyExport query={query} />} />
      <DataTableToolbar>
        <FilterSelect name="stationId" label={t("reliability.station")} all={t("reliability.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <DateRangePicker defaultFrom={range.from} defaultTo={range.to} daysOnly required />
      </DataTableToolbar>
      {/* The trailing year the federal average is taken over: a period the picker's presets do not offer. */}
      <div className="flex flex-wrap gap-2 text-sm">
        <Button asChild variant="outline" size="sm">
          <Link to={periodLink(presets.year)}>{t("reliability.trailingYear")}</Link>
        </Button>
      </div>
      <FilterError message={filterError} />
      {summary && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Card>
            <CardHeader>
              <CardDescription>{t("reliability.portsBelow", { percent: summary.minimumPercent })}</CardDescription>
              <CardTitle className={summary.belowCount > 0 ? "text-destructive" : "text-success"}>{number(summary.belowCount, 0)}</CardTitle>
            </CardHeader>
            {summary.below.length > 0 && (
              <CardContent className="flex flex-wrap gap-1">
                {summary.below.slice(0, 12).map((p) => (
                  <Badge key={`${p.pointId}:${p.connectorId}`} variant="destructive">
                    {p.serialNumber} · {p.connectorId}: {number(p.uptimePercent, 2)} %
                  </Badge>
                ))}
              </CardContent>
            )}
          </Card>
          <Card>
            <CardHeader>
              <CardDescription>{t("reliability.successRate")}</CardDescription>
              <CardTitle>{summary.successPercent === null ? "—" : `${number(summary.successPercent, 2)} %`}</CardTitle>
            </CardHeader>
            <CardContent className="text-sm text-muted-foreground">
              {t("reliability.successDetail", { delivered: summary.sessionsDelivered, started: summary.sessionsStarted })}
            </CardContent>
          </Card>
        </div>
      )}
      <Tabs
        value={tab}
        onValueChange={(value) => {
          const next = new URLSearchParams(params);
          next.set("tab", value);
          next.delete("current");
          setParams(next);
        }}
      >
        <TabsList>
          <TabsTrigger value="ports">{t("reliability.byPort")}</TabsTrigger>
          <TabsTrigger value="outages">{t("reliability.outages")}</TabsTrigger>
        </TabsList>
        {/* Each tab controls its own panel (an aria-controls naming no element is an accessibility violation). */}
        <TabsContent value="ports">
          <DataTable columns={portColumns} page={ports} onPageChange={onPageChange} getRowId={(r) => `${r.pointId}:${r.connectorId}`} emptyHint={t("reliability.noPorts")} label={t("reliability.byPort")} />
        </TabsContent>
        <TabsContent value="outages">
          <DataTable columns={outageColumns} page={outages} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("reliability.noOutages")} label={t("reliability.outages")} />
        </TabsContent>
      </Tabs>
      <ExclusionDialog outage={excluding} onClose={() => setExcluding(null)} />
    </div>
  );
}

/** Puts an outage down to a cause outside the operator's control, or counts it again. */
function ExclusionDialog({ outage, onClose }: { outage: Outage | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const [error, setError] = useState<string>();
  const close = () => {
    setError(undefined);
    onClose();
  };
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("reliability.saved"));
      close();
    },
    (_name, message) => setError(message),
  );
  return (
    <Dialog open={outage !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        {outage && (
          <fetcher.Form method="post" className="flex flex-col gap-4">
            <DialogHeader>
              <DialogTitle>{t("reliability.excludeTitle")}</DialogTitle>
              <DialogDescription>{t("reliability.excludeText", { serial: outage.serialNumber, connector: outage.connectorId })}</DialogDescription>
            </DialogHeader>
            <input type="hidden" name="id" value={outage.id} />
            <div className="flex flex-col gap-2">
              <Label htmlFor="outage-reason">{t("reliability.reason")}</Label>
              <NativeSelect id="outage-reason" name="reason" defaultValue={outage.excludedReason ?? ""}>
                <option value="">{t("reliability.noReason")}</option>
                {EXCLUSION_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {t(`reliability.reasons.${r}`)}
                  </option>
                ))}
              </NativeSelect>
              <p className="text-xs text-muted-foreground">{t("reliability.scheduledHint")}</p>
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="outage-note">{t("reliability.note")}</Label>
              <Textarea id="outage-note" name="note" maxLength={500} rows={3} defaultValue={outage.excludedNote ?? ""} aria-invalid={error !== undefined} />
              {error && (
                <p role="alert" className="text-xs text-destructive">
                  {error}
                </p>
              )}
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close}>
                {t("ui.confirm.cancel")}
              </Button>
              <Button type="submit" disabled={fetcher.state !== "idle"}>
                <ShieldCheck aria-hidden />
                {t("reliability.save")}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The period's uptime in the regulators' shape, one row per port per month (23 CFR 680.116(b)), as
 * an xlsx file read page by page from the API.
 */
function MonthlyExport({ query }: { query: { from: string; to: string; stationId?: string } }) {
  const { t } = useTranslation();
  const api = useApi();
  const [exporting, setExporting] = useState<string>();
  const run = async () => {
    const params = new URLSearchParams({ ...query, by: "month" });
    const ports = await collectRows(api, "/station-service/uptime", params, (count) => setExporting(t("reliability.exporting", { count })));
    const rows = ports.flatMap((p) => (p.periods ?? []).map((m) => [m.period, p.stationName, p.stationId, p.serialNumber, p.connectorId, m.minutes, m.outageMinutes, m.excludedMinutes, m.uptimePercent]));
    await saveSheet(
      [["month", "station", "stationId", "serialNumber", "port", "minutes", "outageMinutes", "excludedMinutes", "uptimePercent"].map((key) => t(`reliability.columns.${key}`)), ...rows],
      `${t("reliability.file")}-${query.from}-${query.to}.xlsx`,
      [10, 24, 10, 20, 8, 12, 14, 14, 12],
    );
    setExporting(undefined);
    toast.success(t("reliability.exported", { count: rows.length }));
  };
  return (
    <Button variant="outline" onClick={run} disabled={exporting !== undefined}>
      <Download aria-hidden />
      {exporting ?? t("reliability.export")}
    </Button>
  );
}
