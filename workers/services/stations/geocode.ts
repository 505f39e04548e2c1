import { z } from "zod";
import { Conflict, Invalid } from "../../../domain/errors";
import { geocoderOf, type KeyedMapProvider } from "../../../domain/schemas/settings";
import { geocodeQuery, latitude, longitude } from "../../../domain/schemas/stations";
import { operatorSettings } from "../settings/parameter-settings";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * Geocoding of a station's address through the map provider of the operator's parameter settings;
 * the chosen address must resolve to coordinates (docs/rules/equipment.md "Station coordinates").
 */

type Geocoder = NonNullable<ReturnType<typeof geocoderOf>>;

const PUBLIC_ENDPOINTS: Record<KeyedMapProvider, string> = {
  bing: "https://dev.virtualearth.net/REST/v1/Locations",
  google: "https://maps.googleapis.com/maps/api/geocode/json",
};

/** A provider that hangs must not hold the console's request for long. */
const TIMEOUT_MS = 8000;

/** Bing Maps Locations API: `resourceSets[].resources[].point.coordinates` is [lat, lng]. */
const bingAnswer = z.object({
  resourceSets: z.array(z.object({ resources: z.array(z.object({ point: z.object({ coordinates: z.tuple([z.number(), z.number()]) }) })) })),
});

/** Google Geocoding API: `results[].geometry.location` is { lat, lng } when status is OK. */
const googleAnswer = z.object({
  status: z.string(),
  results: z.array(z.object({ geometry: z.object({ location: z.object({ lat: z.number(), lng: z.number() }) }) })),
});

function requestUrl(settings: Geocoder, address: string): string {
  const url = new URL(settings.endpoint ?? PUBLIC_ENDPOINTS[settings.provider]);
  if (settings.provider === "bing") {
    url.searchParams.set("query", address);
    url.searchParams.set("maxResults", "1");
  } else {
    url.searchParams.set("address", address);
  }
  url.searchParams.set("key", settings.key);
  return url.toString();
}

function firstPoint(settings: Geocoder, body: unknown): [number, number] | undefined {
  if (settings.provider === "bing") {
    const parsed = bingAnswer.safeParse(body);
    return parsed.success ? parsed.data.resourceSets.flatMap((set) => set.resources)[0]?.point.coordinates : undefined;
  }
  const parsed = googleAnswer.safeParse(body);
  const location = parsed.success && parsed.data.status === "OK" ? parsed.data.results[0]?.geometry.location : undefined;
  return location ? [location.lat, location.lng] : undefined;
}

/**
 * The operator's default map and its key, or 409 when that map has no key (the map key is
 * required, docs/rules/equipment.md "Station coordinates"; docs/rules/settings.md "Map").
 */
async function mapSettingsOf(ctx: UserCtx) {
  const geocoder = geocoderOf(await operatorSettings(ctx));
  if (!geocoder) throw new Conflict("stations.errors.noMapSettings");
  return geocoder;
}

const unresolved = () => new Invalid("stations.validation.unresolved", {}, { address: "stations.validation.unresolved" });

/**
 * Coordinates of an address as the table keeps them (decimal degrees as text). Anything but a
 * first result with valid coordinates (no result, an error answer, a network failure, a
 * time-out) is 'the address did not resolve to latitude or longitude' (docs/rules/equipment.md
 * "Station coordinates").
 */
export async function resolveAddress(ctx: UserCtx, address: string): Promise<{ lat: string; lng: string }> {
  return resolveWith(await mapSettingsOf(ctx), address);
}

/**
 * A saved station's coordinates from its address, or none when the operator has no geocoder:
 * the address is then kept as typed (docs/rules/equipment.md "Station coordinates").
 */
export async function coordinatesOfAddress(ctx: UserCtx, address: string): Promise<{ lat: string | null; lng: string | null }> {
  const geocoder = geocoderOf(await operatorSettings(ctx));
  return geocoder ? resolveWith(geocoder, address) : { lat: null, lng: null };
}

async function resolveWith(settings: Geocoder, address: string): Promise<{ lat: string; lng: string }> {
  let body: unknown;
  try {
    const response = await fetch(requestUrl(settings, address), { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw unresolved();
    body = await response.json();
  } catch {
    throw unresolved();
  }
  const point = firstPoint(settings, body);
  const lat = latitude.safeParse(point?.[0]);
  const lng = longitude.safeParse(point?.[1]);
  if (!point || !lat.success || !lng.success || lat.data === undefined || lng.data === undefined) throw unresolved();
  return { lat: lat.data, lng: lng.data };
}

/** GET /station-service/station/geocode?address=: the console's "locate" button. */
export const geocodeAddress = verb({ menu: "equipment.station" }, async (ctx, raw: unknown) => {
  const { address } = geocodeQuery.parse(raw);
  return { address, ...(await resolveAddress(ctx, address)) };
});
