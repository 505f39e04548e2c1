import { useTranslation } from "react-i18next";
import { OSM_TILES } from "../../../domain/map-tiles";
import { TileMap } from "~/components/map/tile-map";
import { useMapView } from "~/components/format";
import { cn } from "~/lib/cn";

/**
 * The station's place on the map (docs/rules/equipment.md "Station coordinates"): on
 * OpenStreetMap's tiles unless the operator's map settings name a provider with a key
 * (docs/rules/settings.md "Map"). Click to place the marker, or Enter for the map's centre; the
 * operator's other stations are the small dots. Without a marker it opens at the operator's
 * default view.
 */

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
  /** Changing it centres the view on the marker at street level (after locating an address). */
  focusSignal?: number;
  className?: string;
}

/** Six decimals of a degree are about 0.1 m: finer than any click. */
const PICK_DECIMALS = 6;

function parseDegrees(value: string | null | undefined, limit: number): number | undefined {
  if (value === undefined || value === null || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** A picked degree as the form keeps it: rounded, wrapped into ±180° for a map panned past the date line. */
function degrees(value: number, limit: number): string {
  const wrapped = limit === 180 ? ((((value + 180) % 360) + 360) % 360) - 180 : Math.max(-limit, Math.min(limit, value));
  return String(Number(wrapped.toFixed(PICK_DECIMALS)));
}

export function MapPicker({ lat, lng, onPick, others = [], focusSignal, className }: MapPickerProps) {
  const { t } = useTranslation();
  const view = useMapView();
  const markerLat = parseDegrees(lat, 90);
  const markerLng = parseDegrees(lng, 180);
  const marker = markerLat !== undefined && markerLng !== undefined ? { lat: markerLat, lng: markerLng } : null;
  const spots = others.flatMap((o) => {
    const oLat = parseDegrees(o.lat, 90);
    const oLng = parseDegrees(o.lng, 180);
    return oLat === undefined || oLng === undefined ? [] : [{ id: o.id, name: o.name, lat: oLat, lng: oLng }];
  });

  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <TileMap
        tiles={view?.tiles ?? OSM_TILES}
        centre={view && (view.lat !== 0 || view.lng !== 0) ? view : { lat: 20, lng: 0, zoom: 2 }}
        marker={marker}
        spots={spots}
        onPick={onPick && ((pickedLat, pickedLng) => onPick(degrees(pickedLat, 90), degrees(pickedLng, 180)))}
        focusSignal={focusSignal}
        label={t("stations.map.label")}
      />
      {onPick && (
        <p className="text-xs text-muted-foreground" data-testid="map-coordinates">
          {marker ? `${marker.lat}, ${marker.lng}` : t("stations.map.none")} · {t("stations.map.pickHint")}
        </p>
      )}
    </div>
  );
}
