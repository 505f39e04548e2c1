import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useFormat } from "~/components/format";
import { Skeleton } from "~/components/ui/skeleton";
import { cn } from "~/lib/cn";
import type { LimitLine } from "./limit-lines";
import { useMounted } from "./live-state";

/**
 * Charts of the monitoring screens (recharts). They measure their box, which only the browser
 * can, so the server and the first render draw a placeholder of the same size.
 */
export function ChartFrame({ height, label, children, className }: { height: number; label: string; children: ReactElement; className?: string }) {
  const mounted = useMounted();
  return (
    <figure aria-label={label} className={cn("w-full", className)} style={{ height }}>
      {mounted ? (
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      ) : (
        <Skeleton className="size-full" />
      )}
    </figure>
  );
}

export const axis = { stroke: "var(--muted-foreground)", fontSize: 12, tickLine: false, axisLine: false } as const;
/** A value axis's title, written along the axis on its left (or, turned the other way, its right). */
const axisTitle = (value: string, side: "left" | "right" = "left") =>
  ({ value, angle: side === "left" ? -90 : 90, position: side === "left" ? "insideLeft" : "insideRight", fill: "var(--muted-foreground)", fontSize: 11 }) as const;

/** A fill fading downwards from `top` to `bottom` opacity, for areas and bars; `id` names it for `fill="url(#id)"`. */
const fadingFill = (id: string, colour: string, top: number, bottom: number) => (
  <defs>
    <linearGradient id={id} x1="0" y1="0" x2="0" y2="1">
      <stop offset="0%" stopColor={colour} stopOpacity={top} />
      <stop offset="100%" stopColor={colour} stopOpacity={bottom} />
    </linearGradient>
  </defs>
);

export const tooltipStyle = {
  contentStyle: {
    background: "var(--popover)",
    border: "1px solid var(--border)",
    borderRadius: 8,
    color: "var(--popover-foreground)",
    fontSize: 12,
  },
  labelStyle: { color: "var(--muted-foreground)", marginBottom: 4 },
} as const;

/** A value axis's tick in the console language, with as few decimals as the round tick needs (0, 2.5, 0.25…). */
export function useTickNumber() {
  const { number } = useFormat();
  return (value: number) => number(value, Number.isInteger(value) ? 0 : Number.isInteger(value * 10) ? 1 : 2);
}

/** The next round number (1, 2, 2.5 or 5 × 10ⁿ) at or above a value, for an axis top. */
function niceCeil(value: number) {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((m) => m >= value) ?? value) as number;
}

const kw = (w: number | undefined) => (w === undefined ? undefined : Math.round(w) / 1000);
const kwh = (wh: number | undefined) => (wh === undefined ? undefined : Math.round(wh) / 1000);

export interface CurvePoint {
  at: string;
  energyWh?: number;
  powerW?: number;
}

/** A session's meter curve: power (kW, area) and energy delivered (kWh, line) over time. */
export function MeterCurveChart({ curve, height = 320 }: { curve: readonly CurvePoint[]; height?: number }) {
  const { t } = useTranslation();
  const { time, power, energy } = useFormat();
  const tick = useTickNumber();
  const clock = (at: number) => time(at, true);
  const data = curve.map((p) => ({ at: Date.parse(p.at), power: kw(p.powerW), energy: kwh(p.energyWh) }));
  const powerLabel = t("monitoring.charging.powerAxis");
  const energyLabel = t("monitoring.charging.energyAxis");
  return (
    <ChartFrame height={height} label={t("monitoring.charging.curve")}>
      <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        {fadingFill("curve-power", "var(--primary)", 0.35, 0.02)}
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={clock} {...axis} minTickGap={40} />
        <YAxis yAxisId="power" {...axis} width={56} tickFormatter={tick} label={axisTitle(powerLabel)} />
        <YAxis yAxisId="energy" orientation="right" {...axis} width={64} tickFormatter={tick} label={axisTitle(energyLabel, "right")} />
        <Tooltip
          {...tooltipStyle}
          labelFormatter={(v) => clock(Number(v))}
          formatter={(value, name) => (name === "power" ? [power(Number(value)), powerLabel] : [energy(Number(value) * 1000), energyLabel])}
        />
        <Area yAxisId="power" type="monotone" dataKey="power" stroke="var(--primary)" strokeWidth={2} fill="url(#curve-power)" isAnimationActive={false} connectNulls />
        <Line yAxisId="energy" type="monotone" dataKey="energy" stroke="var(--info)" strokeWidth={2} dot={false} isAnimationActive={false} connectNulls />
      </ComposedChart>
    </ChartFrame>
  );
}

/** A station's load (kW) over time against its limits, one labelled line per configuration (`limitLines`). */
export function LoadChart({ series, limits, height = 300 }: { series: readonly { at: string; powerW: number }[]; limits: readonly LimitLine[]; height?: number }) {
  const { t } = useTranslation();
  const { time, power } = useFormat();
  const tick = useTickNumber();
  const clock = (at: number) => time(at);
  const data = series.map((p) => ({ at: Date.parse(p.at), load: kw(p.powerW) }));
  const peak = Math.max(0, ...data.map((d) => d.load ?? 0));
  const lowest = limits.length ? Math.min(...limits.map((l) => l.kw)) : null;
  const top = niceCeil(Math.max(peak, ...limits.map((l) => l.kw)) * 1.1 || 10);
  const over = lowest !== null && peak > lowest;
  const colour = over ? "var(--destructive)" : "var(--primary)";
  return (
    <ChartFrame height={height} label={t("monitoring.load.chart")}>
      <AreaChart data={data} margin={{ top: 12, right: 12, bottom: 0, left: 0 }}>
        {fadingFill("load-fill", colour, 0.35, 0.02)}
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={["dataMin", "dataMax"]} tickFormatter={clock} {...axis} minTickGap={48} />
        <YAxis {...axis} width={56} domain={[0, top]} ticks={[0, top / 4, top / 2, (top * 3) / 4, top]} tickFormatter={tick} label={axisTitle("kW")} />
        <Tooltip {...tooltipStyle} labelFormatter={(v) => clock(Number(v))} formatter={(value) => [power(Number(value)), t("monitoring.load.series")]} />
        {limits.map((line) => (
          <ReferenceLine
            key={line.key}
            y={line.kw}
            stroke={line.key === "station" ? "var(--destructive)" : "var(--warning)"}
            strokeDasharray="6 4"
            label={{ value: `${line.label} ${power(line.kw)}`, position: line.labelAt, fill: line.key === "station" ? "var(--destructive)" : "var(--warning)", fontSize: 11 }}
          />
        ))}
        <Area type="stepAfter" dataKey="load" stroke={colour} strokeWidth={2} fill="url(#load-fill)" isAnimationActive={false} />
      </AreaChart>
    </ChartFrame>
  );
}

/** Energy per day (kWh), the last bar being today. */
export function EnergyByDayChart({ days, height = 260 }: { days: readonly { day: string; energyWh: number; sessions: number }[]; height?: number }) {
  const { t } = useTranslation();
  const { energy, dayMonth } = useFormat();
  const tick = useTickNumber();
  const data = days.map((d) => ({ label: dayMonth(d.day), energy: kwh(d.energyWh), energyWh: d.energyWh, sessions: d.sessions }));
  return (
    <ChartFrame height={height} label={t("monitoring.home.energyByDay")}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        {fadingFill("day-bar", "var(--primary)", 0.95, 0.45)}
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={16} />
        <YAxis {...axis} width={56} tickFormatter={tick} label={axisTitle("kWh")} />
        <Tooltip
          {...tooltipStyle}
          cursor={{ fill: "var(--muted)", opacity: 0.5 }}
          labelFormatter={(_, payload) => String(payload?.[0]?.payload?.label ?? "")}
          formatter={(_value, _name, item) => [
            `${energy(Number(item?.payload?.energyWh ?? 0))} · ${t("monitoring.home.sessionsCount", { count: Number(item?.payload?.sessions ?? 0) })}`,
            t("monitoring.home.energy"),
          ]}
        />
        <Bar dataKey="energy" fill="url(#day-bar)" radius={[4, 4, 0, 0]} isAnimationActive={false} maxBarSize={28} />
      </BarChart>
    </ChartFrame>
  );
}
