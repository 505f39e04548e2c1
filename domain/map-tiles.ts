import type { MapSettings } from "./schemas/settings";

/**
 * Where the console's maps get their tiles (docs/rules/settings.md "Map"): OpenStreetMap's public
 * tiles unless the operator chose Bing or Google and set its key, which then replaces them. The
 * page's CSP admits exactly these hosts (workers/http/security-headers.ts `TILE_HOSTS`).
 */
export interface TileSource {
  provider: "osm" | "bing" | "google";
  /** A Leaflet URL template: `{z}/{x}/{y}`, `{s}` for a subdomain, `{q}` for Bing's quadkey. */
  url: string;
  subdomains: string;
  /** HTML, as the tile provider's terms ask it shown on the map. */
  attribution: string;
  maxZoom: number;
}

/** OpenStreetMap's tile usage policy asks for this attribution, linked to the copyright page. */
export const OSM_TILES: TileSource = {
  provider: "osm",
  url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  subdomains: "",
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  maxZoom: 19,
};

export const TILE_HOSTS = ["https://tile.openstreetmap.org", "https://*.tiles.virtualearth.net", "https://mt0.google.com", "https://mt1.google.com", "https://mt2.google.com", "https://mt3.google.com"];

export function tileSourceOf(map: Pick<MapSettings, "provider" | "keys">): TileSource {
  if (map.provider === "bing" && map.keys.bing) {
    return {
      provider: "bing",
      url: `https://ecn.t{s}.tiles.virtualearth.net/tiles/r{q}.png?g=1&key=${encodeURIComponent(map.keys.bing)}`,
      subdomains: "0123",
      attribution: "&copy; Microsoft",
      maxZoom: 19,
    };
  }
  if (map.provider === "google" && map.keys.google) {
    return {
      provider: "google",
      url: `https://mt{s}.google.com/vt/lyrs=m&x={x}&y={y}&z={z}&key=${encodeURIComponent(map.keys.google)}`,
      subdomains: "0123",
      attribution: "&copy; Google",
      maxZoom: 20,
    };
  }
  return OSM_TILES;
}

/** Bing's quadkey of a tile: one base-4 digit per zoom level, from the tile's x and y bits. */
export function quadkey(x: number, y: number, z: number): string {
  let key = "";
  for (let level = z; level > 0; level--) {
    const mask = 1 << (level - 1);
    key += String((x & mask ? 1 : 0) + (y & mask ? 2 : 0));
  }
  return key;
}
