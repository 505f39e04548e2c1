import { useEffect, useRef } from "react";
import type * as Leaflet from "leaflet";
import { quadkey, type TileSource } from "../../../domain/map-tiles";
import { cn } from "~/lib/cn";

export interface MapSpot {
  id: number | string;
  name: string;
  lat: number;
  lng: number;
  /** A CSS colour for the dot; the theme's muted colour unless set. */
  colour?: string;
  /** Shown on hover and focus. */
  detail?: string;
  /** The place's own icon (a station's map icon), ringed in `colour`; a dot without one. */
  iconUrl?: string;
}

export interface TileMapProps {
  tiles: TileSource;
  /** Where the map opens when it has no marker and no spots. */
  centre: { lat: number; lng: number; zoom: number };
  /** The place being picked, drawn as the map's main marker. */
  marker?: { lat: number; lng: number } | null;
  spots?: readonly MapSpot[];
  /** Clicking the map (or Enter on it, for its centre) picks a place. */
  onPick?: (lat: number, lng: number) => void;
  /** Changing it flies to the marker (after an address is located, say). */
  focusSignal?: number;
  /** The map's accessible name. */
  label: string;
  className?: string;
}

/** The zoom a single place opens at: a few streets around it. */
const PLACE_ZOOM = 15;

/**
 * A tiled map (docs/rules/settings.md "Map"). Leaflet touches `window`, so it is loaded in the
 * browser only, when the map is first drawn, and never in the server's bundle; until then the
 * frame keeps its size. Markers are drawn as vectors, not images, so nothing else is fetched, but for a
 * station's own map icon (docs/rules/equipment.md "Images").
 */
export function TileMap({ tiles, centre, marker, spots = [], onPick, focusSignal, label, className }: TileMapProps) {
  const frame = useRef<HTMLDivElement>(null);
  const state = useRef<{ L: typeof Leaflet; map: Leaflet.Map; marker: Leaflet.CircleMarker | null; spots: Leaflet.LayerGroup } | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const latest = useRef({ marker, spots });
  latest.current = { marker, spots };

  useEffect(() => {
    let cancelled = false;
    let map: Leaflet.Map | undefined;
    void Promise.all([import("leaflet"), import("leaflet/dist/leaflet.css")]).then(([module]) => {
      if (cancelled || !frame.current) return;
      const L = (module as unknown as { default?: typeof Leaflet }).default ?? (module as unknown as typeof Leaflet);
      map = L.map(frame.current, { attributionControl: false, keyboard: true });
      L.control.attribution({ prefix: false }).addTo(map);
      // Bing names its tiles by quadkey (`{q}`), which Leaflet's template does not know.
      const Layer = L.TileLayer.extend({
        getTileUrl(this: Leaflet.TileLayer, coords: Leaflet.Coords) {
          const url = L.TileLayer.prototype.getTileUrl.call(this, coords);
          return url.replace("{q}", quadkey(coords.x, coords.y, coords.z));
        },
      }) as unknown as typeof Leaflet.TileLayer;
      new Layer(tiles.url, { subdomains: tiles.subdomains || "abc", maxZoom: tiles.maxZoom, attribution: tiles.attribution }).addTo(map);
      // The view comes first: Leaflet draws a vector marker against the map's bounds, which a map
      // without a view does not have yet.
      const { marker: m, spots: s } = latest.current;
      if (m) map.setView([m.lat, m.lng], PLACE_ZOOM);
      else if (s.length > 1) map.fitBounds(L.latLngBounds(s.map((p) => [p.lat, p.lng] as [number, number])), { padding: [32, 32], maxZoom: PLACE_ZOOM });
      else if (s.length === 1) map.setView([s[0].lat, s[0].lng], PLACE_ZOOM - 2);
      else map.setView([centre.lat, centre.lng], centre.zoom);
      const group = L.layerGroup().addTo(map);
      state.current = { L, map, marker: null, spots: group };
      map.on("click", (event: Leaflet.LeafletMouseEvent) => pick.current?.(event.latlng.lat, event.latlng.lng));
      map.getContainer().addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || !pick.current || event.target !== map?.getContainer()) return;
        const at = map.getCenter();
        pick.current(at.lat, at.lng);
        event.preventDefault();
      });
      draw();
    });
    return () => {
      cancelled = true;
      map?.remove();
      state.current = null;
    };
    // The map is made once per tile source; markers and spots follow below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tiles.url]);

  const draw = () => {
    const current = state.current;
    if (!current) return;
    const { L, map } = current;
    const { marker: m, spots: s } = latest.current;
    current.spots.clearLayers();
    for (const spot of s) {
      const dot = spot.iconUrl
        ? L.marker([spot.lat, spot.lng], { icon: L.divIcon({ html: iconElement(spot.iconUrl, spot.colour ?? "#64748b"), className: "", iconSize: [32, 32], iconAnchor: [16, 16] }), keyboard: false })
        : L.circleMarker([spot.lat, spot.lng], { radius: 7, weight: 2, color: "#fff", fillColor: spot.colour ?? "#64748b", fillOpacity: 1 });
      dot.bindTooltip(spot.detail ? `${escapeHtml(spot.name)}<br>${escapeHtml(spot.detail)}` : escapeHtml(spot.name));
      current.spots.addLayer(dot);
      // Each spot is an image named like its tooltip, so the map reads as a list of places (docs/rules/console.md "Accessibility").
      const element = dot.getElement();
      element?.setAttribute("role", "img");
      element?.setAttribute("aria-label", spot.detail ? `${spot.name}: ${spot.detail}` : spot.name);
    }
    if (m) {
      if (current.marker) current.marker.setLatLng([m.lat, m.lng]);
      else current.marker = L.circleMarker([m.lat, m.lng], { radius: 9, weight: 3, color: "#fff", fillColor: "#16a34a", fillOpacity: 1 }).addTo(map);
      current.marker.getElement()?.setAttribute("data-testid", "map-marker");
    } else if (current.marker) {
      current.marker.remove();
      current.marker = null;
    }
  };

  useEffect(draw);

  useEffect(() => {
    const current = state.current;
    if (!current || !marker || focusSignal === undefined) return;
    current.map.setView([marker.lat, marker.lng], Math.max(current.map.getZoom(), PLACE_ZOOM));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusSignal]);

  return (
    <div
      ref={frame}
      role="group"
      aria-label={label}
      data-testid="tile-map"
      data-provider={tiles.provider}
      className={cn("relative z-0 aspect-[2/1] w-full overflow-hidden rounded-lg border bg-muted/40", onPick && "cursor-crosshair", className)}
    />
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A place's own icon in a ring of its colour. Built as elements with their style set from script,
 * not as an HTML string, so the console's content security policy lets it be drawn
 * (docs/rules/input.md "Response headers").
 */
function iconElement(url: string, colour: string): HTMLElement {
  const ring = document.createElement("span");
  Object.assign(ring.style, { display: "block", width: "32px", height: "32px", borderRadius: "9999px", border: `3px solid ${colour}`, background: "#fff", overflow: "hidden", boxSizing: "border-box" });
  const image = document.createElement("img");
  image.src = url;
  image.alt = "";
  Object.assign(image.style, { width: "100%", height: "100%", objectFit: "contain" });
  ring.appendChild(image);
  return ring;
}
