import { Crosshair, Globe, Minus, Plus } from "lucide-react";
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import { useMapView } from "~/components/format";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";

/**
 * A coordinate picker that needs no map tiles: the page's CSP allows only 'self' and the
 * console must work offline, so this is an equirectangular graticule (lines of latitude and
 * longitude, labelled) with the station's marker and the operator's other stations as dots.
 * Click to place, drag to pan, double-click or the buttons to zoom; arrow keys pan, + and − zoom.
 */

/** Drawn at its real pixel size (measured), so labels keep their size on any width; this until measured. */
const INITIAL_WIDTH = 720;
/** Level 0 shows the whole world (360° × 180°); each level halves the span. */
const MAX_LEVEL = 20;
/** The level a located address opens at: about 6 km across. */
const FOCUS_LEVEL = 12;
const STEPS = [45, 30, 15, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005, 0.00002, 0.00001];

interface View {
  lat: number;
  lng: number;
  level: number;
}

export interface MapPoint {
  id: number;
  name: string;
  lat: string | null;
  lng: string | null;
}

export interface MapPickerProps {
  lat?: string;
  lng?: string;
  /** Absent: the picker only shows. */
  onPick?: (lat: string, lng: string) => void;
  others?: MapPoint[];
  /** Changing it centres the view on the marker at street-level zoom (after locating an address). */
  focusSignal?: number;
  className?: string;
}

const spanOf = (level: number) => ({ lng: 360 / 2 ** level, lat: 180 / 2 ** level });
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const decimalsOf = (step: number) => (String(step).split(".")[1] ?? "").length;

function bounded(view: View): View {
  const span = spanOf(view.level);
  return {
    level: view.level,
    lat: clamp(view.lat, -90 + span.lat / 2, 90 - span.lat / 2),
    lng: clamp(view.lng, -180 + span.lng / 2, 180 - span.lng / 2),
  };
}

function parseDegrees(value: string | undefined, limit: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

const hemisphere = (value: number, positive: string, negative: string, decimals: number) =>
  `${Math.abs(value).toFixed(decimals)}°${value === 0 ? "" : value > 0 ? positive : negative}`;

export function MapPicker({ lat, lng, onPick, others = [], focusSignal, className }: MapPickerProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const marker = { lat: parseDegrees(lat, 90), lng: parseDegrees(lng, 180) };
  const hasMarker = marker.lat !== undefined && marker.lng !== undefined;
  // Without a marker the picker opens at the operator's default map view (docs/rules/settings.md "Map").
  const home = useMapView();
  const [view, setView] = useState<View>(() =>
    hasMarker
      ? bounded({ lat: marker.lat!, lng: marker.lng!, level: FOCUS_LEVEL })
      : home
        ? bounded({ lat: home.lat, lng: home.lng, level: Math.min(MAX_LEVEL, home.zoom) })
        : { lat: 0, lng: 0, level: 0 },
  );
  const [hover, setHover] = useState<{ lat: number; lng: number } | null>(null);
  const drag = useRef<{ x: number; y: number; view: View; moved: boolean } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const picked = useRef<string | null>(null);
  const [width, setWidth] = useState(INITIAL_WIDTH);
  const height = width / 2;

  useEffect(() => {
    const element = svg.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.round(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const span = spanOf(view.level);
  const west = view.lng - span.lng / 2;
  const north = view.lat + span.lat / 2;
  const toX = (value: number) => ((value - west) / span.lng) * width;
  const toY = (value: number) => ((north - value) / span.lat) * height;
  // Grid lines about 70 to 140 px apart, whatever the width.
  const step = STEPS.find((s) => (s / span.lng) * width <= 140) ?? STEPS[STEPS.length - 1];
  const labelDecimals = decimalsOf(step);
  const pickDecimals = Math.min(7, labelDecimals + 2);

  // Centre on the marker when asked (an address was located), and when coordinates were typed
  // rather than picked here: at street level if the view was wider, or just moved if it is off view.
  useEffect(() => {
    if (marker.lat === undefined || marker.lng === undefined) return;
    setView((current) => bounded({ lat: marker.lat!, lng: marker.lng!, level: Math.max(current.level, FOCUS_LEVEL) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusSignal]);
  useEffect(() => {
    if (marker.lat === undefined || marker.lng === undefined) return;
    if (picked.current === `${lat},${lng}`) return;
    const inView = Math.abs(marker.lat - view.lat) <= span.lat / 2 && Math.abs(marker.lng - view.lng) <= span.lng / 2;
    if (!inView || view.level < FOCUS_LEVEL) {
      setView((current) => bounded({ lat: marker.lat!, lng: marker.lng!, level: Math.max(current.level, FOCUS_LEVEL) }));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lat, lng]);

  const degreesAt = (event: PointerEvent<SVGSVGElement> | { clientX: number; clientY: number }) => {
    const box = svg.current!.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * width;
    const y = ((event.clientY - box.top) / box.height) * height;
    return { lat: clamp(north - (y / height) * span.lat, -90, 90), lng: clamp(west + (x / width) * span.lng, -180, 180) };
  };

  const pick = (point: { lat: number; lng: number }) => {
    if (!onPick) return;
    const pickedLat = String(Number(point.lat.toFixed(pickDecimals)));
    const pickedLng = String(Number(point.lng.toFixed(pickDecimals)));
    picked.current = `${pickedLat},${pickedLng}`;
    onPick(pickedLat, pickedLng);
  };

  const zoom = (by: number, around?: { lat: number; lng: number }) =>
    setView((current) => {
      const level = clamp(current.level + by, 0, MAX_LEVEL);
      return bounded(around ? { ...around, level } : { ...current, level });
    });

  const pan = (dx: number, dy: number) => setView((current) => bounded({ ...current, lng: current.lng + dx * span.lng, lat: current.lat + dy * span.lat }));

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, view, moved: false };
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    setHover(degreesAt(event));
    const start = drag.current;
    if (!start) return;
    const box = svg.current!.getBoundingClientRect();
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 4) return;
    start.moved = true;
    const startSpan = spanOf(start.view.level);
    setView(bounded({ ...start.view, lng: start.view.lng - (dx / box.width) * startSpan.lng, lat: start.view.lat + (dy / box.height) * startSpan.lat }));
  };
  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    drag.current = null;
    if (start && !start.moved) pick(degreesAt(event));
  };
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const moves: Record<string, [number, number]> = { ArrowLeft: [-0.25, 0], ArrowRight: [0.25, 0], ArrowUp: [0, 0.25], ArrowDown: [0, -0.25] };
    if (moves[event.key]) pan(...moves[event.key]);
    else if (event.key === "+" || event.key === "=") zoom(1);
    else if (event.key === "-") zoom(-1);
    else if (event.key === "Enter") pick(view);
    else return;
    event.preventDefault();
  };

  const lines = (from: number, to: number) => {
    const out: number[] = [];
    for (let v = Math.ceil(from / step) * step; v <= to + 1e-12 && out.length < 60; v += step) out.push(Number(v.toFixed(labelDecimals + 1)));
    return out;
  };
  const meridians = lines(Math.max(-180, west), Math.min(180, west + span.lng));
  const parallels = lines(Math.max(-90, north - span.lat), Math.min(90, north));
  const visibleOthers = others.flatMap((o) => {
    const oLat = parseDegrees(o.lat ?? undefined, 90);
    const oLng = parseDegrees(o.lng ?? undefined, 180);
    return oLat === undefined || oLng === undefined ? [] : [{ ...o, x: toX(oLng), y: toY(oLat) }];
  });
  const markerX = hasMarker ? toX(marker.lng!) : 0;
  const markerY = hasMarker ? toY(marker.lat!) : 0;

  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <div className="relative overflow-hidden rounded-lg border bg-muted/40">
        <svg
          ref={svg}
          viewBox={`0 0 ${width} ${height}`}
          className={cn(
            "block aspect-[2/1] w-full touch-none select-none outline-none focus-visible:ring-[3px] focus-visible:ring-ring/30",
            onPick ? "cursor-crosshair" : "cursor-grab",
          )}
          role="application"
          aria-labelledby={titleId}
          aria-roledescription={t("stations.map.label")}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => setHover(null)}
          onDoubleClick={(event) => zoom(1, degreesAt(event))}
          onKeyDown={onKeyDown}
        >
          <title id={titleId}>{t("stations.map.label")}</title>
          <rect x={toX(-180)} y={toY(90)} width={toX(180) - toX(-180)} height={toY(-90) - toY(90)} className="fill-card" />
          {meridians.map((v) => (
            <line
              key={`m${v}`}
              x1={toX(v)}
              x2={toX(v)}
              y1={0}
              y2={height}
              className={v === 0 ? "stroke-primary/50" : "stroke-border"}
              strokeWidth={v === 0 ? 1.5 : 1}
            />
          ))}
          {parallels.map((v) => (
            <line
              key={`p${v}`}
              y1={toY(v)}
              y2={toY(v)}
              x1={0}
              x2={width}
              className={v === 0 ? "stroke-primary/50" : "stroke-border"}
              strokeWidth={v === 0 ? 1.5 : 1}
            />
          ))}
          {/* Labels keep clear of the buttons (top right) and the read-outs (bottom). */}
          {meridians
            .filter((v) => toX(v) > 24 && toX(v) < width - 90)
            .map((v) => (
              <text key={`ml${v}`} x={toX(v) + 3} y={13} className="fill-muted-foreground text-[10px] tabular-nums">
                {hemisphere(v, "E", "W", labelDecimals)}
              </text>
            ))}
          {parallels
            .filter((v) => toY(v) > 24 && toY(v) < height - 30)
            .map((v) => (
              <text key={`pl${v}`} x={4} y={toY(v) - 3} className="fill-muted-foreground text-[10px] tabular-nums">
                {hemisphere(v, "N", "S", labelDecimals)}
              </text>
            ))}
          {visibleOthers.map((o) => (
            <circle key={o.id} cx={o.x} cy={o.y} r={4} className="fill-muted-foreground/60 stroke-card" strokeWidth={1.5}>
              <title>{o.name}</title>
            </circle>
          ))}
          {hasMarker && (
            <g transform={`translate(${markerX} ${markerY})`} data-testid="map-marker">
              <circle r={14} className="fill-primary/15" />
              <path d="M0 0 C -3 -8 -10 -12 -10 -20 A 10 10 0 1 1 10 -20 C 10 -12 3 -8 0 0 Z" className="fill-primary stroke-card" strokeWidth={1.5} />
              <circle cy={-20} r={3.5} className="fill-card" />
            </g>
          )}
        </svg>
        <div className="absolute top-2 right-2 flex flex-col gap-1">
          <Button type="button" variant="outline" size="icon-sm" aria-label={t("stations.map.zoomIn")} title={t("stations.map.zoomIn")} onClick={() => zoom(1)}>
            <Plus aria-hidden />
          </Button>
          <Button
            type="button"
            variant="outline"
            size="icon-sm"
            aria-label={t("stations.map.zoomOut")}
            title={t("stations.map.zoomOut")}
            onClick={() => zoom(-1)}
          >
            <Minus aria-hidden />
          </Button>
          <Button
            type="button"
            variant="outline"
            size="icon-sm"
            aria-label={t("stations.map.center")}
            title={t("stations.map.center")}
            disabled={!hasMarker}
            onClick={() => setView(bounded({ lat: marker.lat!, lng: marker.lng!, level: Math.max(view.level, FOCUS_LEVEL) }))}
          >
            <Crosshair aria-hidden />
          </Button>
          <Button
            type="button"
            variant="outline"
            size="icon-sm"
            aria-label={t("stations.map.world")}
            title={t("stations.map.world")}
            onClick={() => setView({ lat: 0, lng: 0, level: 0 })}
          >
            <Globe aria-hidden />
          </Button>
        </div>
        <div className="pointer-events-none absolute bottom-2 left-2 rounded-md bg-background/85 px-2 py-1 font-mono text-xs text-muted-foreground tabular-nums shadow-xs">
          {hover
            ? `${hover.lat.toFixed(pickDecimals)}, ${hover.lng.toFixed(pickDecimals)}`
            : hasMarker
              ? `${marker.lat}, ${marker.lng}`
              : t("stations.map.none")}
        </div>
        <div className="pointer-events-none absolute right-2 bottom-2 rounded-md bg-background/85 px-2 py-1 text-xs text-muted-foreground shadow-xs">
          {t("stations.map.grid", { step })}
        </div>
      </div>
      {onPick && <p className="text-xs text-muted-foreground">{t("stations.map.hint")}</p>}
    </div>
  );
}
