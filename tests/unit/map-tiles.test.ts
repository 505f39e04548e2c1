import { describe, expect, it } from "vitest";
import { OSM_TILES, quadkey, tileSourceOf } from "../../domain/map-tiles";

const keys = { bing: null, google: null };

describe("map tiles (docs/rules/settings.md \"Map\")", () => {
  it("draws on OpenStreetMap's tiles, with their attribution, unless a provider has its key", () => {
    expect(tileSourceOf({ provider: "osm", keys })).toBe(OSM_TILES);
    expect(tileSourceOf({ provider: "google", keys })).toBe(OSM_TILES);
    expect(tileSourceOf({ provider: "bing", keys: { bing: null, google: "g-key" } })).toBe(OSM_TILES);
    expect(OSM_TILES.attribution).toContain('href="https://www.openstreetmap.org/copyright"');
  });

  it("lets a provider with its key replace them", () => {
    const bing = tileSourceOf({ provider: "bing", keys: { bing: "b key", google: null } });
    expect(bing.provider).toBe("bing");
    expect(bing.url).toContain("{q}");
    expect(bing.url).toContain("key=b%20key");
    expect(tileSourceOf({ provider: "google", keys: { bing: null, google: "g-key" } }).url).toContain("key=g-key");
  });

  it("names Bing's tiles by quadkey", () => {
    // Bing Maps Tile System: tile (3, 5) at level 3 is quadkey 213.
    expect(quadkey(3, 5, 3)).toBe("213");
    expect(quadkey(0, 0, 1)).toBe("0");
    expect(quadkey(1, 1, 1)).toBe("3");
  });
});
