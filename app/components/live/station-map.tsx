import { useTranslation } from "react-i18next";
import { OSM_TILES } from "../../../domain/map-tiles";
import { useMapView } from "~/components/format";
import { TileMap } from "~/components/map/tile-map";
import { cn } from "~/lib/cn";

/**
 * The operator's stations on the map of its map settings (OpenStreetMap unless a provider with a
 * key replaces it; docs/rules/settings.md "Map"), each dot coloured by its points' health and
 * named, with its points online, on hover and focus.
 */
export type StationHealth = "online" | "partial" | "fault" | "offline";

export interface MapStation {
  id: number;
  name: string;
  address: string;
  lat: number;
  lng: number;
  health: StationHealth;
  /** The station's map icon, when the operator uploaded one. */
  iconUrl?: string | null;
  pointsTotal: number;
  pointsOnline: number;
  charging: number;
}

/** Leaflet draws its dots as SVG attributes, which take colours, not the theme's variables. */
const COLOUR: Record<StationHealth, string> = {
  online: "#16a34a",
  partial: "#d97706",
  fault: "#dc2626",
  offline: "#64748b",
};

/** Where a map without stations looks: the operator's default centre, and how much it shows. */
export interface MapCentre {
  lat: number;
  lng: number;
  zoom: number;
}

/**
 * With no station that has coordinates, the map opens at the view of the operator's map settings
 * (`centre`), so that a new operator sees its own region (docs/rules/monitoring.md "Home dashboard").
 */
export function StationMap({ stations, centre, className }: { stations: readonly MapStation[]; centre?: MapCentre | null; className?: string }) {
  const { t } = useTranslation();
  const view = useMapView();
  const spots = stations.map((s) => ({
    id: s.id,
    name: s.name,
    lat: s.lat,
    lng: s.lng,
    colour: COLOUR[s.health],
    iconUrl: s.iconUrl ?? undefined,
    detail: [s.address, t("monitoring.home.stationPoints", { online: s.pointsOnline, total: s.pointsTotal })].filter(Boolean).join(" · "),
  }));
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <TileMap tiles={view?.tiles ?? OSM_TILES} centre={centre ?? { lat: 20, lng: 0, zoom: 2 }} spots={spots} label={t("monitoring.home.map")} className="min-h-60" />
      {stations.length === 0 && <p className="text-sm text-muted-foreground">{t("monitoring.home.mapEmpty")}</p>}
    </div>
  );
}
