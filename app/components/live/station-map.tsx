import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormat } from "~/components/format";
import { cn } from "~/lib/cn";

/**
 * Stations drawn by latitude and longitude on a plain SVG (no map tiles can load: the console
 * talks to its own origin only). An equirectangular projection, corrected for the latitude's
 * shrinking degrees, is faithful enough at the scale of one operator's network.
 */
export type StationHealth = "online" | "partial" | "fault" | "offline";

export interface MapStation {
  id: number;
  name: string;
  address: string;
  lat: number;
  lng: number;
  health: StationHealth;
  pointsTotal: number;
  pointsOnline: number;
  charging: number;
}

const COLOUR: Record<StationHealth, string> = {
  online: "var(--success)",
  partial: "var(--warning)",
  fault: "var(--destructive)",
  offline: "var(--muted-foreground)",
};

const WIDTH = 800;
const HEIGHT = 380;
const PAD = 56;

/** Where a map without stations looks: the operator's default centre, and how much it shows. */
export interface MapCentre {
  lat: number;
  lng: number;
  zoom: number;
}

/** Projects places into the picture, and back (for the graticule's labels). */
function project(stations: readonly { lat: number; lng: number }[], minSpan = 0.2) {
  const lats = stations.map((s) => s.lat);
  const lngs = stations.map((s) => s.lng);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const xScale = Math.cos((midLat * Math.PI) / 180);
  // A lone station (or a tight cluster) gets a window of about 20 km around it.
  const spanX = Math.max((Math.max(...lngs) - Math.min(...lngs)) * xScale, minSpan);
  const spanY = Math.max(Math.max(...lats) - Math.min(...lats), minSpan);
  const scale = Math.min((WIDTH - 2 * PAD) / spanX, (HEIGHT - 2 * PAD) / spanY);
  const midLng = (Math.min(...lngs) + Math.max(...lngs)) / 2;
  return {
    at: (s: { lat: number; lng: number }) => ({
      x: WIDTH / 2 + (s.lng - midLng) * xScale * scale,
      y: HEIGHT / 2 - (s.lat - midLat) * scale,
    }),
    lngAt: (x: number) => midLng + (x - WIDTH / 2) / (xScale * scale),
    latAt: (y: number) => midLat - (y - HEIGHT / 2) / scale,
  };
}

/** Round steps for the graticule: about four lines across the picture. */
function step(span: number) {
  const raw = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
}

function graticule(projection: ReturnType<typeof project>, number: (value: number, decimals: number) => string) {
  const west = projection.lngAt(0);
  const east = projection.lngAt(WIDTH);
  const north = projection.latAt(0);
  const south = projection.latAt(HEIGHT);
  const lngStep = step(east - west);
  const latStep = step(north - south);
  const digits = (s: number) => Math.max(0, -Math.floor(Math.log10(s)));
  const meridians = [];
  for (let lng = Math.ceil(west / lngStep) * lngStep; lng <= east; lng += lngStep) {
    meridians.push({ x: projection.at({ lat: 0, lng }).x, label: `${number(Math.abs(lng), digits(lngStep))}°${lng >= 0 ? "E" : "W"}` });
  }
  const parallels = [];
  for (let lat = Math.ceil(south / latStep) * latStep; lat <= north; lat += latStep) {
    parallels.push({ y: projection.at({ lat, lng: 0 }).y, label: `${number(Math.abs(lat), digits(latStep))}°${lat >= 0 ? "N" : "S"}` });
  }
  return { meridians, parallels };
}

/**
 * The operator's stations; with none that has coordinates, the view of its map settings around
 * `centre` (a web map's zoom z shows about 360 / 2^z degrees), marked, so that a new operator sees
 * its own region (docs/rules/monitoring.md "Home dashboard").
 */
export function StationMap({ stations, centre, className }: { stations: readonly MapStation[]; centre?: MapCentre | null; className?: string }) {
  const { t } = useTranslation();
  const { number } = useFormat();
  const [hover, setHover] = useState<number | null>(null);
  const { placed, lines, mark } = useMemo(() => {
    if (stations.length === 0) {
      if (!centre) return { placed: [], lines: { meridians: [], parallels: [] }, mark: null };
      const projection = project([centre], Math.min(Math.max(360 / 2 ** centre.zoom, 0.2), 90));
      return { placed: [], lines: graticule(projection, number), mark: projection.at(centre) };
    }
    const projection = project(stations);
    return { placed: stations.map((s) => ({ ...s, ...projection.at(s) })), lines: graticule(projection, number), mark: null };
  }, [stations, centre, number]);

  if (placed.length === 0 && !mark) {
    return (
      <div className={cn("flex min-h-60 items-center justify-center rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground", className)}>
        {t("monitoring.home.mapEmpty")}
      </div>
    );
  }
  const shown = placed.find((s) => s.id === hover);
  const labelled = placed.length <= 12;

  return (
    <div className={cn("relative overflow-hidden rounded-lg border bg-gradient-to-br from-muted/60 via-background to-accent/40", className)}>
      {/* A group, not an image: the station markers inside it take the keyboard's focus. */}
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="group" aria-label={t("monitoring.home.map")} className="block h-auto w-full">
        <defs>
          <pattern id="map-grid" width="40" height="40" patternUnits="userSpaceOnUse">
            <path d="M 40 0 L 0 0 0 40" fill="none" stroke="var(--border)" strokeWidth="1" />
          </pattern>
          <radialGradient id="map-glow">
            <stop offset="0%" stopColor="var(--primary)" stopOpacity="0.16" />
            <stop offset="100%" stopColor="var(--primary)" stopOpacity="0" />
          </radialGradient>
        </defs>
        <rect width={WIDTH} height={HEIGHT} fill="url(#map-grid)" opacity="0.45" />
        {lines.meridians.map((m) => (
          <g key={`m${m.label}`}>
            <line x1={m.x} x2={m.x} y1={0} y2={HEIGHT} stroke="var(--muted-foreground)" strokeOpacity={0.25} strokeDasharray="2 6" />
            <text x={m.x + 4} y={HEIGHT - 8} fontSize={10} fill="var(--muted-foreground)">
              {m.label}
            </text>
          </g>
        ))}
        {lines.parallels.map((p) => (
          <g key={`p${p.label}`}>
            <line x1={0} x2={WIDTH} y1={p.y} y2={p.y} stroke="var(--muted-foreground)" strokeOpacity={0.25} strokeDasharray="2 6" />
            <text x={6} y={p.y - 4} fontSize={10} fill="var(--muted-foreground)">
              {p.label}
            </text>
          </g>
        ))}
        {mark && (
          <g transform={`translate(${mark.x} ${mark.y})`} data-testid="map-centre" stroke="var(--primary)" strokeWidth={2}>
            <circle r={48} fill="url(#map-glow)" stroke="none" />
            <line x1={-10} x2={10} y1={0} y2={0} />
            <line x1={0} x2={0} y1={-10} y2={10} />
          </g>
        )}
        {placed.map((s) => (
          <circle key={`glow-${s.id}`} cx={s.x} cy={s.y} r={48} fill="url(#map-glow)" />
        ))}
        {placed.map((s) => (
          <g
            key={s.id}
            transform={`translate(${s.x} ${s.y})`}
            onMouseEnter={() => setHover(s.id)}
            onMouseLeave={() => setHover(null)}
            onFocus={() => setHover(s.id)}
            onBlur={() => setHover(null)}
            tabIndex={0}
            role="img"
            aria-label={`${s.name}: ${t("monitoring.home.stationPoints", { online: s.pointsOnline, total: s.pointsTotal })}`}
            data-health={s.health}
            className="cursor-default outline-none"
          >
            {s.charging > 0 && (
              <circle r={10} fill="none" stroke={COLOUR[s.health]} strokeWidth={2} className="animate-ping" style={{ transformBox: "fill-box", transformOrigin: "center" }} opacity={0.7} />
            )}
            <circle r={9} fill={COLOUR[s.health]} stroke="var(--background)" strokeWidth={3} />
            {s.charging > 0 && <circle r={3} fill="var(--background)" />}
            {labelled && (
              <text y={-16} textAnchor="middle" fontSize={13} fontWeight={600} fill="var(--foreground)" paintOrder="stroke" stroke="var(--background)" strokeWidth={4}>
                {s.name}
              </text>
            )}
          </g>
        ))}
      </svg>
      {mark && <p className="absolute inset-x-0 bottom-8 px-4 text-center text-sm text-muted-foreground">{t("monitoring.home.mapEmpty")}</p>}
      {shown && (
        <div
          className="pointer-events-none absolute z-10 w-60 -translate-x-1/2 rounded-md border bg-popover p-3 text-xs text-popover-foreground shadow-md"
          style={{ left: `${(shown.x / WIDTH) * 100}%`, top: `calc(${(shown.y / HEIGHT) * 100}% + 16px)` }}
        >
          <p className="font-semibold">{shown.name}</p>
          {shown.address && <p className="mt-0.5 text-muted-foreground">{shown.address}</p>}
          <p className="mt-1.5">{t("monitoring.home.stationPoints", { online: shown.pointsOnline, total: shown.pointsTotal })}</p>
          {shown.charging > 0 && <p className="text-success">{t("monitoring.home.chargingNow")}: {shown.charging}</p>}
        </div>
      )}
    </div>
  );
}
