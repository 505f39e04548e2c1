import { Download } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { STATEMENT_GROUPS } from "../../../domain/schemas/statements";
import type { StatementLine } from "../../../workers/services/statements/sums";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { useFormat } from "~/components/format";
import { axis, ChartFrame, tooltipStyle, useTickNumber } from "~/components/live/charts";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { toast } from "~/components/ui/toast";
import { saveSheet } from "~/lib/excel";
import type { statementPage } from "./statements.server";

type Page = Awaited<ReturnType<typeof statementPage>>;
type Statement = NonNullable<Page["statement"]>;
type Row = Statement["rows"][number];

/** The money columns of a statement, in receipt order (docs/rules/statements.md "Statements"). */
const MONEY = [
  ["electricCost", "statements.columns.electricity"],
  ["serviceCost", "statements.columns.service"],
  ["reservationCost", "statements.columns.reservation"],
  ["idleCost", "statements.columns.idle"],
  ["discountCost", "statements.columns.discount"],
  ["taxCost", "statements.columns.tax"],
  ["totalCost", "statements.columns.revenue"],
] as const;

/** Stacked in the revenue chart; the discount is taken off, so it is drawn below zero. */
const STACKED = [
  ["electricCost", "var(--primary)"],
  ["serviceCost", "var(--info)"],
  ["idleCost", "var(--warning)"],
  ["taxCost", "var(--muted-foreground)"],
  ["discountCost", "var(--destructive)"],
] as const;

/** Exported money stays in minor units, as the API answers it, so a spreadsheet sums it exactly. */
async function exportStatement(statement: Statement, t: (key: string) => string, label: (row: Row) => string) {
  const header = [
    t(`statements.groups.${statement.groupBy}`),
    t("statements.columns.sessions"),
    `${t("statements.columns.energy")} (Wh)`,
    ...MONEY.map(([, key]) => `${t(key)} (${statement.currency})`),
    `${t("statements.columns.averageEnergy")} (Wh)`,
    `${t("statements.columns.averageDuration")} (s)`,
    `${t("statements.columns.averageRevenue")} (${statement.currency})`,
  ];
  const line = (name: string, s: StatementLine) => [name, s.sessions, s.energyWh, ...MONEY.map(([k]) => s[k]), s.averageEnergyWh, s.averageDurationS, s.averageRevenue];
  await saveSheet(
    [header, ...statement.rows.map((r) => line(label(r), r)), line(t("statements.totals"), statement.totals)],
    `${t("statements.fileName")}-${statement.from}-${statement.to}.xlsx`,
    [22, 10, 14, ...MONEY.map(() => 14), 14, 14, 14],
  );
}

/** One line of the table: a group's sums, or the totals. */
function StatementRow({ name, line }: { name: string; line: StatementLine }) {
  const { money, energy, number, duration } = useFormat();
  const cell = "text-right tabular-nums";
  return (
    <TableRow>
      <TableCell className="font-medium whitespace-nowrap">{name}</TableCell>
      <TableCell className={cell}>{number(line.sessions, 0)}</TableCell>
      <TableCell className={cell}>{energy(line.energyWh)}</TableCell>
      {MONEY.map(([key]) => (
        <TableCell key={key} className={cell}>
          {money(line[key])}
        </TableCell>
      ))}
      <TableCell className={cell}>{energy(line.averageEnergyWh)}</TableCell>
      <TableCell className={cell}>{duration(line.averageDurationS / 60)}</TableCell>
      <TableCell className={cell}>{money(line.averageRevenue)}</TableCell>
    </TableRow>
  );
}

export interface StatementViewProps {
  page: Page;
  title: string;
  stations?: { id: number; name: string }[];
  /** Kept in the URL by the filters (the sub-operator a parent is looking at). */
  subOperatorId?: number;
  actions?: ReactNode;
}

/**
 * A statement: filters (period, grouping, station), totals, the revenue and energy charts, the
 * table with its totals row, and the xlsx export of what the table shows.
 */
export function StatementView({ page, title, stations, subOperatorId, actions }: StatementViewProps) {
  const { t } = useTranslation();
  const { money, energy, number, dayMonth } = useFormat();
  const tick = useTickNumber();
  const [exporting, setExporting] = useState(false);
  const { statement, query, error } = page;
  const label = (row: Row) => {
    if (statement?.groupBy === "day") return dayMonth(row.key);
    return "label" in row && row.label ? String(row.label) : row.key;
  };
  const download = async () => {
    if (!statement) return;
    setExporting(true);
    try {
      await exportStatement(statement, t, label);
      toast.success(t("statements.exported"));
    } finally {
      setExporting(false);
    }
  };
  const totals = statement?.totals;
  const chartData = (statement?.rows ?? []).map((r) => ({
    label: label(r),
    ...Object.fromEntries(STACKED.map(([k]) => [k, k === "discountCost" ? -r[k] : r[k]])),
    energy: r.energyWh / 1000,
    sessions: r.sessions,
    raw: r,
  }));
  const empty = statement !== null && statement.totals.sessions === 0;

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={statement ? t("statements.timeZoneNote", { timeZone: statement.timeZone }) : undefined} actions={actions} />
      <DataTableToolbar
        actions={
          <Button variant="outline" onClick={() => void download()} disabled={!statement || exporting}>
            <Download aria-hidden />
            {t("statements.export")}
          </Button>
        }
      >
        {subOperatorId !== undefined && <input type="hidden" name="subOperatorId" value={subOperatorId} />}
        <DateRangePicker daysOnly required defaultFrom={String(query.from)} defaultTo={String(query.to)} />
        <FilterSelect name="groupBy" label={t("statements.groupBy")} fallback={String(query.groupBy)} options={STATEMENT_GROUPS.map((g) => [g, t(`statements.groups.${g}`)] as const)} />
        {stations && (
          <FilterSelect
            name="stationId"
            label={t("statements.groups.station")}
            all={t("records.list.allStations")}
            fallback={String(query.stationId ?? "")}
            options={stations.map((s) => [s.id, s.name] as const)}
          />
        )}
      </DataTableToolbar>
      {error && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {error.message}
        </p>
      )}
      {totals && (
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="statement-totals">
          {[
            [t("statements.columns.sessions"), number(totals.sessions, 0)],
            [t("statements.columns.energy"), energy(totals.energyWh)],
            [t("statements.columns.revenue"), money(totals.totalCost)],
            [t("statements.columns.averageRevenue"), money(totals.averageRevenue)],
          ].map(([name, value]) => (
            <div key={name} className="rounded-xl border bg-card px-4 py-3 text-card-foreground shadow-sm">
              <dt className="text-sm text-muted-foreground">{name}</dt>
              <dd className="text-xl font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {statement && !empty && (
        <div className="grid gap-4 xl:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>{t("statements.revenueChart")}</CardTitle>
            </CardHeader>
            <CardContent>
              <ChartFrame height={280} label={t("statements.revenueChart")}>
                <BarChart data={chartData} stackOffset="sign" margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                  <CartesianGrid stroke="var(--border)" vertical={false} />
                  <XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={16} />
                  <YAxis {...axis} width={64} tickFormatter={(v: number) => money(v)} />
                  <Tooltip {...tooltipStyle} cursor={{ fill: "var(--muted)", opacity: 0.5 }} formatter={(value, name) => [money(Math.abs(Number(value))), String(name)]} />
                  <Legend wrapperStyle={{ fontSize: 12 }} />
                  {STACKED.map(([key, colour]) => (
                    <Bar key={key} dataKey={key} name={t(MONEY.find(([k]) => k === key)![1])} stackId="money" fill={colour} isAnimationActive={false} maxBarSize={32} />
                  ))}
                </BarChart>
              </ChartFrame>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>{t("statements.energyChart")}</CardTitle>
            </CardHeader>
            <CardContent>
              <ChartFrame height={280} label={t("statements.energyChart")}>
                <ComposedChart data={chartData} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                  <CartesianGrid stroke="var(--border)" vertical={false} />
                  <XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={16} />
                  <YAxis yAxisId="energy" {...axis} width={56} tickFormatter={tick} label={{ value: "kWh", angle: -90, position: "insideLeft", fill: "var(--muted-foreground)", fontSize: 11 }} />
                  <YAxis yAxisId="sessions" orientation="right" {...axis} width={40} allowDecimals={false} />
                  <Tooltip
                    {...tooltipStyle}
                    cursor={{ fill: "var(--muted)", opacity: 0.5 }}
                    formatter={(value, name) => (name === "energy" ? [energy(Math.round(Number(value) * 1000)), t("statements.columns.energy")] : [number(Number(value), 0), t("statements.columns.sessions")])}
                  />
                  <Bar yAxisId="energy" dataKey="energy" fill="var(--primary)" radius={[4, 4, 0, 0]} isAnimationActive={false} maxBarSize={28} />
                  <Line yAxisId="sessions" dataKey="sessions" stroke="var(--info)" strokeWidth={2} dot={false} isAnimationActive={false} />
                </ComposedChart>
              </ChartFrame>
            </CardContent>
          </Card>
        </div>
      )}
      {statement && (
        <Card className="py-0">
          {/* Focusable so that a keyboard can scroll the wide table (WCAG 2.1.1). */}
          <div className="overflow-x-auto" role="region" aria-label={title} tabIndex={0}>
            <Table aria-label={title} data-testid="statement-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t(`statements.groups.${statement.groupBy}`)}</TableHead>
                  <TableHead className="text-right">{t("statements.columns.sessions")}</TableHead>
                  <TableHead className="text-right">{t("statements.columns.energy")}</TableHead>
                  {MONEY.map(([key, name]) => (
                    <TableHead key={key} className="text-right">
                      {t(name)}
                    </TableHead>
                  ))}
                  <TableHead className="text-right">{t("statements.columns.averageEnergy")}</TableHead>
                  <TableHead className="text-right">{t("statements.columns.averageDuration")}</TableHead>
                  <TableHead className="text-right">{t("statements.columns.averageRevenue")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {empty ? (
                  <TableRow>
                    <TableCell colSpan={MONEY.length + 6} className="py-8 text-center text-muted-foreground">
                      {t("statements.empty")}
                    </TableCell>
                  </TableRow>
                ) : (
                  statement.rows.map((row) => <StatementRow key={row.key} name={label(row)} line={row} />)
                )}
              </TableBody>
              <TableFooter>
                <StatementRow name={t("statements.totals")} line={statement.totals} />
              </TableFooter>
            </Table>
          </div>
        </Card>
      )}
    </div>
  );

}
