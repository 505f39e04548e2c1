import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import de from "../../domain/i18n/locales/de/stations.json";
import pl from "../../domain/i18n/locales/pl/stations.json";
import { GIF_HEADER, jpegHeader, padded, pngImage } from "../unit/stations-image-samples";
import { boot, connect } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, ORIGIN, tokenFor } from "./support/http";

let counter = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36).slice(-4)}${++counter}`;

const stationBody = (overrides: Record<string, unknown> = {}) => ({
  name: unique("Loc"),
  address: "ul. Marszałkowska 1, 00-001 Warszawa",
  lat: "52.2297",
  lng: "21.0122",
  parkingFee: true,
  parkingFeeAmount: 500,
  servicePhone: "+48 22 123 45 67",
  maintainer: "Serwis Centrum",
  rank: 3,
  price: "1.50 PLN/kWh",
  businessHours: "00:00-24:00",
  description: "Underground car park, level -1",
  powerLimit: 150,
  ...overrides,
});

async function makeStation(token: string, overrides: Record<string, unknown> = {}) {
  const res = await call("POST", "/station-service/station", { token, body: stationBody(overrides) });
  if (res.status !== 200) throw new Error(`makeStation: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; name: string; status: string };
}

async function addPoint(token: string, stationId: number, type: "AC" | "DC" = "DC", connectorCount = 2) {
  const serialNumber = `ST-${Date.now().toString(36)}-${++counter}`;
  const res = await call("POST", "/station-service/point", {
    token,
    body: { stationId, name: serialNumber, serialNumber, pointNo: "01", type, ratedPower: 44, connectorCount },
  });
  if (res.status !== 200) throw new Error(`addPoint: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; serialNumber: string };
}

const operatorId = async (code: string) => (await env.DB.prepare("SELECT id FROM operators WHERE code = ?").bind(code).first<{ id: number }>())!.id;

async function setMap(code: string, map: unknown) {
  await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.map', json(?)) WHERE operator_id = ?")
    .bind(JSON.stringify(map), await operatorId(code))
    .run();
}

async function upload(token: string, kind: string, bytes: Uint8Array<ArrayBuffer> | null, name = "logo.png", lang = "en") {
  const form = new FormData();
  if (bytes) form.append("file", new File([bytes], name, { type: "image/png" }));
  const res = await SELF.fetch(`${ORIGIN}/user-service/file/upload?kind=${kind}&lang=${lang}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: any } };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("stations: add, list, detail, edit, delete", () => {
  it("creates a disabled station with every field and reads it back", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const body = stationBody({ name: "Warszawa Praga", timeZone: "Europe/Warsaw" });
    const created = await call("POST", "/station-service/station", { token, body });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      ...body,
      status: "INVALID",
      logoUrl: null,
      pointCount: 0,
      connectors: { ac: 0, dc: 0 },
    });
    const detail = await call("GET", `/station-service/station/${created.body.data.id}`, { token });
    expect(detail.body.data).toEqual(created.body.data);
    const log = await env.DB.prepare("SELECT operation_type, table_name FROM operation_logs WHERE table_name = 'stations' ORDER BY id DESC LIMIT 1").first();
    expect(log).toEqual({ operation_type: "CREATE", table_name: "stations" });
  });

  it("lists highest rank first with server-side filters and paging", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const tag = unique("Rank");
    const low = await makeStation(token, { name: `${tag} low`, rank: 1, parkingFee: false, parkingFeeAmount: undefined });
    const high = await makeStation(token, { name: `${tag} high`, rank: 900, address: "Plac Defilad 1, Warszawa" });
    const middle = await makeStation(token, { name: `${tag} middle`, rank: 50 });
    const list = await call("GET", `/station-service/station?name=${encodeURIComponent(tag)}`, { token });
    expect(list.body.data).toMatchObject({ total: 3, current: 1, size: 10 });
    expect(list.body.data.records.map((r: { id: number }) => r.id)).toEqual([high.id, middle.id, low.id]);

    const second = await call("GET", `/station-service/station?name=${encodeURIComponent(tag)}&size=1&current=2`, { token });
    expect(second.body.data).toMatchObject({ total: 3, current: 2, size: 1 });
    expect(second.body.data.records.map((r: { id: number }) => r.id)).toEqual([middle.id]);

    const free = await call("GET", `/station-service/station?name=${encodeURIComponent(tag)}&parkingFee=false`, { token });
    expect(free.body.data.records.map((r: { id: number }) => r.id)).toEqual([low.id]);
    const byAddress = await call("GET", `/station-service/station?name=${encodeURIComponent(tag)}&address=Defilad`, { token });
    expect(byAddress.body.data.records.map((r: { id: number }) => r.id)).toEqual([high.id]);
    const enabled = await call("GET", `/station-service/station?name=${encodeURIComponent(tag)}&status=VALID`, { token });
    expect(enabled.body.data.total).toBe(0);
  });

  it("refuses unknown filter and status values with a message instead of reading them as a default", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const status = await call("GET", "/station-service/station?status=ON", { token });
    expect(status.status).toBe(400);
    expect(status.body.msg).toBe("Unknown status");
    const parking = await call("GET", "/station-service/station?parkingFee=maybe&lang=de", { token });
    expect(parking.status).toBe(400);
    expect(parking.body.msg).toBe(de.stations.validation.parkingFeeFilter);
    const station = await makeStation(token);
    const valid = await call("PUT", `/station-service/station/${station.id}/valid`, { token, body: { status: "ENABLED" } });
    expect(valid.status).toBe(400);
    expect(valid.body.data.fields.status).toBe("Unknown status");
    const missing = await call("PUT", `/station-service/station/${station.id}/valid`, { token, body: {} });
    expect(missing.status).toBe(400);
  });

  it("updates a station and deletes it when it is disabled and has no points", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await makeStation(token);
    const updated = await call("PUT", `/station-service/station/${station.id}`, {
      token,
      body: stationBody({ name: "Renamed location", parkingFee: false, parkingFeeAmount: 999, rank: 77, lat: 52.1, lng: 21.2 }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: "Renamed location", parkingFee: false, parkingFeeAmount: null, rank: 77, lat: "52.1", lng: "21.2" });
    expect((await call("DELETE", `/station-service/station/${station.id}`, { token })).status).toBe(200);
    expect((await call("GET", `/station-service/station/${station.id}`, { token })).status).toBe(404);
  });

  it("refuses to delete a station that has points", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await makeStation(token);
    await addPoint(token, station.id);
    const res = await call("DELETE", `/station-service/station/${station.id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("This location still has charging points (1) and cannot be deleted");
    expect((await call("GET", `/station-service/station/${station.id}`, { token })).status).toBe(200);
  });
});

describe("station validation messages", () => {
  it("names each invalid field in English and Polish", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const body = stationBody({ name: "", lat: "91", lng: "-181", rank: -2, servicePhone: "phone", parkingFee: "yes", businessHours: " " });
    const en = await call("POST", "/station-service/station", { token, body });
    expect(en.status).toBe(400);
    expect(en.body.data.fields).toEqual({
      name: "Please enter the location name",
      lat: "Latitude must be a number from -90 to 90 with at most 7 decimals",
      lng: "Longitude must be a number from -180 to 180 with at most 7 decimals",
      rank: "Rank is a whole number from 0 to 9999",
      servicePhone: "Please enter a valid phone number",
      parkingFee: "Please say whether parking is charged",
      businessHours: "Please enter the business hours",
    });
    const polish = await call("POST", "/station-service/station?lang=pl", { token, body });
    expect(polish.body.data.fields).toEqual({
      name: pl.stations.validation.nameRequired,
      lat: pl.stations.validation.latitude,
      lng: pl.stations.validation.longitude,
      rank: pl.stations.validation.rank,
      servicePhone: pl.stations.validation.phone,
      parkingFee: pl.stations.validation.parkingFee,
      businessHours: pl.stations.validation.businessHoursRequired,
    });
    expect(pl.stations.validation.latitude).not.toBe(en.body.data.fields.lat);
  });

  it("wants the parking fee amount when parking is charged, and both coordinates or neither", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const noAmount = await call("POST", "/station-service/station", { token, body: stationBody({ parkingFeeAmount: undefined }) });
    expect(noAmount.body.data.fields).toEqual({ parkingFeeAmount: "Please enter the parking fee" });
    const fraction = await call("POST", "/station-service/station", { token, body: stationBody({ parkingFeeAmount: 1.5 }) });
    expect(fraction.body.data.fields.parkingFeeAmount).toBe("The parking fee is a whole number of minor currency units, 0 or more");
    const half = await call("POST", "/station-service/station?lang=pl", { token, body: stationBody({ lng: "" }) });
    expect(half.body.data.fields).toEqual({ lng: pl.stations.validation.coordinatesBoth });
  });
});

describe("enable and disable", () => {
  it("refuses to enable a station without points: 'The Location has no charging Station'", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await makeStation(token);
    const en = await call("PUT", `/station-service/station/${station.id}/valid`, { token, body: { status: "VALID" } });
    expect(en.status).toBe(409);
    expect(en.body.msg).toBe("The Location has no charging Station");
    const polish = await call("PUT", `/station-service/station/${station.id}/valid?lang=pl`, { token, body: { status: "VALID" } });
    expect(polish.body.msg).toBe(pl.stations.errors.noPoints);
    expect((await call("GET", `/station-service/station/${station.id}`, { token })).body.data.status).toBe("INVALID");
  });

  it("enables a station with a point; then locks where it is, while contact details stay editable", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await makeStation(token, { timeZone: "Europe/Warsaw" });
    await addPoint(token, station.id);
    const enabled = await call("PUT", `/station-service/station/${station.id}/valid`, { token, body: { status: "VALID" } });
    expect(enabled.body.data).toMatchObject({ id: station.id, status: "VALID" });

    const base = stationBody({ name: station.name, timeZone: "Europe/Warsaw" });
    for (const change of [{ address: "Elsewhere 5, Łódź" }, { lat: "52.3" }, { powerLimit: 100 }, { timeZone: "Europe/Berlin" }]) {
      const res = await call("PUT", `/station-service/station/${station.id}`, { token, body: { ...base, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.msg).toBe("This location is enabled: disable it before changing its address, coordinates, time zone or power limit");
    }
    const contact = await call("PUT", `/station-service/station/${station.id}`, {
      token,
      body: {
        ...base,
        lat: 52.2297,
        servicePhone: "+48 600 700 800",
        maintainer: "Nowy serwis",
        businessHours: "06:00-22:00",
        description: "Moved to level -2",
        rank: 40,
      },
    });
    expect(contact.status).toBe(200);
    expect(contact.body.data).toMatchObject({ servicePhone: "+48 600 700 800", businessHours: "06:00-22:00", rank: 40, status: "VALID" });

    const remove = await call("DELETE", `/station-service/station/${station.id}`, { token });
    expect(remove.status).toBe(409);
    expect(remove.body.msg).toBe("Disable this location before deleting it");
  });

  it("disables every point of a disabled station and tells each connected charger ChangeAvailability Inoperative", async () => {
    const made = await makeCharger("0PL002");
    const stationId = (await env.DB.prepare("SELECT station_id AS id FROM points WHERE id = ?").bind(made.pointId).first<{ id: number }>())!.id;
    const token = await tokenFor("0PL002", "demoadmin");
    const offline = await addPoint(token, stationId, "AC", 1);
    await env.DB.prepare("UPDATE points SET status = 'VALID' WHERE id = ?").bind(offline.id).run();
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const asked: unknown[] = [];
    charger.answer("ChangeAvailability", (payload) => {
      asked.push(payload);
      return { status: "Accepted" };
    });

    const res = await call("PUT", `/station-service/station/${stationId}/valid`, { token, body: { status: "INVALID" } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("INVALID");
    expect(res.body.data.points).toEqual(
      expect.arrayContaining([
        { id: made.pointId, serialNumber: made.serialNumber, availability: "Accepted" },
        { id: offline.id, serialNumber: offline.serialNumber, availability: "offline" },
      ]),
    );
    expect(asked).toEqual([{ connectorId: 0, type: "Inoperative" }]);
    const statuses = await env.DB.prepare("SELECT status FROM points WHERE station_id = ?").bind(stationId).all<{ status: string }>();
    expect(statuses.results.map((r) => r.status)).toEqual(["INVALID", "INVALID"]);
    const pointEnable = await call("PUT", `/station-service/point/${made.pointId}/valid`, { token, body: { status: "VALID" } });
    expect(pointEnable.status).toBe(409);
    charger.close();
  });
});

describe("authorised AC/DC connectors of the operator", () => {
  it("counts used connectors by point type (MIXED counts as DC) and enabled ones by enabled points", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const before = (await call("GET", "/station-service/station/connector-quota", { token })).body.data;
    const station = await makeStation(token);
    const dc = await addPoint(token, station.id, "DC", 2);
    await addPoint(token, station.id, "AC", 1);
    const mixed = await call("POST", "/station-service/point", {
      token,
      body: {
        stationId: station.id,
        name: "Mixed",
        serialNumber: `MX-${Date.now().toString(36)}`,
        pointNo: "03",
        type: "MIXED",
        ratedPower: 50,
        connectorCount: 1,
      },
    });
    expect(mixed.status).toBe(200);
    await call("PUT", `/station-service/station/${station.id}/valid`, { token, body: { status: "VALID" } });
    await call("PUT", `/station-service/point/${dc.id}/valid`, { token, body: { status: "VALID" } });
    const after = (await call("GET", "/station-service/station/connector-quota", { token })).body.data;
    expect(after.dc.used - before.dc.used).toBe(3);
    expect(after.ac.used - before.ac.used).toBe(1);
    expect(after.dc.enabled - before.dc.enabled).toBe(2);
    expect(after.ac.enabled - before.ac.enabled).toBe(0);
    expect(after.dc.authorized).toBe(10_000);
    expect(after.dc.remaining).toBe(after.dc.authorized - after.dc.used);
    const row = (await call("GET", `/station-service/station/${station.id}`, { token })).body.data;
    expect(row).toMatchObject({ pointCount: 3, connectors: { ac: 1, dc: 3 } });
  });
});

describe("geocoding through the operator's map settings", () => {
  it("locates an address through Bing, and fills coordinates of a station saved without them", async () => {
    await setMap("0PL002", { provider: "bing", key: "bing-key", endpoint: "https://geocoder.test/bing" });
    const asked: URL[] = [];
    const original = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.host !== "geocoder.test") return original(input, init);
      asked.push(url);
      return Response.json({ resourceSets: [{ resources: [{ point: { type: "Point", coordinates: [50.0617, 19.9373] } }] }] });
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const located = await call("GET", `/station-service/station/geocode?address=${encodeURIComponent("Rynek Główny 1, Kraków")}`, { token });
    expect(located.body.data).toEqual({ address: "Rynek Główny 1, Kraków", lat: "50.0617", lng: "19.9373" });
    expect(asked[0].pathname).toBe("/bing");
    expect(asked[0].searchParams.get("query")).toBe("Rynek Główny 1, Kraków");
    expect(asked[0].searchParams.get("key")).toBe("bing-key");

    const created = await call("POST", "/station-service/station", {
      token,
      body: stationBody({ lat: undefined, lng: undefined, address: "Rynek Główny 1, Kraków" }),
    });
    expect(created.body.data).toMatchObject({ lat: "50.0617", lng: "19.9373" });
  });

  it("locates through Google, and says 'the address did not resolve' when the provider finds nothing", async () => {
    await setMap("0PL002", { provider: "google", key: "g-key", endpoint: "https://geocoder.test/google" });
    const original = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.host !== "geocoder.test") return original(input, init);
      if (url.searchParams.get("address")?.startsWith("Nowhere")) return Response.json({ status: "ZERO_RESULTS", results: [] });
      if (url.searchParams.get("address")?.startsWith("Broken")) return new Response("gateway down", { status: 502 });
      return Response.json({ status: "OK", results: [{ geometry: { location: { lat: 52.4064, lng: 16.9252 } } }] });
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const ok = await call("GET", "/station-service/station/geocode?address=Stary%20Rynek%2C%20Pozna%C5%84", { token });
    expect(ok.body.data).toMatchObject({ lat: "52.4064", lng: "16.9252" });
    const nowhere = await call("GET", "/station-service/station/geocode?address=Nowhere%201", { token });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.msg).toBe("The address did not resolve to latitude or longitude");
    const broken = await call("POST", "/station-service/station?lang=pl", {
      token,
      body: stationBody({ lat: undefined, lng: undefined, address: "Broken street 1" }),
    });
    expect(broken.status).toBe(400);
    expect(broken.body.data.fields).toEqual({ address: pl.stations.validation.unresolved });
  });

  it("says so when the operator has no map provider set up", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const res = await call("GET", "/station-service/station/geocode?address=Friedrichstra%C3%9Fe%2050", { token });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("No map provider is set up: add the map provider and key in the parameter settings");
  });
});

describe("logo upload", () => {
  it("stores a 64×64 PNG logo under the operator's public station files and serves it", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await upload(token, "logo", pngImage(64, 64));
    expect(res.status).toBe(200);
    const id = await operatorId("0PL002");
    expect(res.body.data.key).toMatch(new RegExp(`^operators/${id}/public/stations/logos/[0-9a-f-]{36}\\.png$`));
    expect(res.body.data).toMatchObject({ kind: "logo", width: 64, height: 64 });
    const served = await SELF.fetch(`${ORIGIN}${res.body.data.url}`);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pngImage(64, 64));

    const station = await makeStation(token, { logoKey: res.body.data.key });
    expect((await call("GET", `/station-service/station/${station.id}`, { token })).body.data.logoUrl).toBe(res.body.data.url);
  });

  it("refuses other types, sizes and pixel sizes with their messages, in English and German", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const cases: [string, Uint8Array<ArrayBuffer> | null, string][] = [
      ["logo", GIF_HEADER, "Only JPG or PNG images can be uploaded"],
      ["logo", new TextEncoder().encode("<svg/>"), "Only JPG or PNG images can be uploaded"],
      ["logo", pngImage(65, 64), "The image may be at most 64×64 pixels"],
      ["logo", padded(pngImage(64, 64), 1024 * 1024 + 10), "The file may be at most 1 MB"],
      ["mapIcon", padded(pngImage(32, 32), 81 * 1024), "The file may be at most 80 KB"],
      ["image", jpegHeader(200, 160), "The image may be at most 160×160 pixels"],
      ["logo", null, "Please upload a file first"],
    ];
    for (const [kind, bytes, message] of cases) {
      const res = await upload(token, kind, bytes);
      expect(res.status, message).toBe(400);
      expect(res.body.msg).toBe(message);
    }
    const german = await upload(token, "logo", pngImage(100, 100), "big.png", "de");
    expect(german.status).toBe(400);
    expect(german.body.msg).toBe(de.stations.validation.imagePixels.replace("{{width}}", "64").replace("{{height}}", "64"));
    const unknownKind = await upload(token, "banner", pngImage(10, 10));
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.msg).toBe("Image kind must be logo, mapIcon or image");
    expect((await upload(token, "mapIcon", jpegHeader(300, 300))).status).toBe(200);
    expect((await upload(token, "image", jpegHeader(160, 160, { progressive: true }))).status).toBe(200);
  });

  it("accepts as logo only a key of the operator's own uploads", async () => {
    const plToken = await tokenFor("0PL002", "demoadmin");
    const deToken = await tokenFor("0DE001", "deadmin1");
    const german = await upload(deToken, "logo", pngImage(32, 32));
    const res = await call("POST", "/station-service/station", { token: plToken, body: stationBody({ logoKey: german.body.data.key }) });
    expect(res.status).toBe(400);
    expect(res.body.data.fields.logoKey).toBe("Upload the logo again: this file is not one of your uploads");
    const id = await operatorId("0PL002");
    const missing = await call("POST", "/station-service/station", {
      token: plToken,
      body: stationBody({ logoKey: `operators/${id}/public/stations/logos/none.png` }),
    });
    expect(missing.status).toBe(400);
  });
});

describe("the map icon", () => {
  it("takes a map icon the operator uploaded, shows it with the station and on the dashboard's map, and refuses a logo or another operator's file", async () => {
    const plToken = await tokenFor("0PL002", "demoadmin");
    const deToken = await tokenFor("0DE001", "deadmin1");
    const icon = await upload(plToken, "mapIcon", pngImage(32, 32));
    expect(icon.status).toBe(200);
    expect(icon.body.data.key).toMatch(/\/public\/stations\/map-icons\//);
    const created = await call("POST", "/station-service/station", { token: plToken, body: stationBody({ mapIconKey: icon.body.data.key, lat: "52.2297", lng: "21.0122" }) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const detail = await call("GET", `/station-service/station/${created.body.data.id}`, { token: plToken });
    expect(detail.body.data).toMatchObject({ mapIconKey: icon.body.data.key, mapIconUrl: `/user-service/file/show?key=${encodeURIComponent(icon.body.data.key)}` });
    const shown = await SELF.fetch(`${ORIGIN}${detail.body.data.mapIconUrl}`);
    expect(shown.status).toBe(200);
    const home = await call("GET", "/station-service/dashboard/home", { token: plToken });
    expect(home.body.data.stations.find((s: { id: number }) => s.id === created.body.data.id)).toMatchObject({ mapIconUrl: detail.body.data.mapIconUrl });

    // A logo is not a map icon, and another operator's icon is not this operator's.
    const logo = await upload(plToken, "logo", pngImage(32, 32));
    const asIcon = await call("POST", "/station-service/station", { token: plToken, body: stationBody({ mapIconKey: logo.body.data.key }) });
    expect(asIcon.status).toBe(400);
    expect(asIcon.body.data.fields.mapIconKey).toBe("Upload the map icon again: it must be a JPG or PNG this operator uploaded");
    const german = await upload(deToken, "mapIcon", pngImage(32, 32));
    const foreign = await call("POST", "/station-service/station", { token: plToken, body: stationBody({ mapIconKey: german.body.data.key }) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.data.fields.mapIconKey).toBe("Upload the map icon again: it must be a JPG or PNG this operator uploaded");
  });
});

describe("tenancy and permissions", () => {
  it("never lets another operator read or change a station (404)", async () => {
    const plToken = await tokenFor("0PL002", "demoadmin");
    const deToken = await tokenFor("0DE001", "deadmin1");
    const station = await makeStation(plToken);
    expect((await call("GET", `/station-service/station/${station.id}`, { token: deToken })).status).toBe(404);
    expect((await call("PUT", `/station-service/station/${station.id}`, { token: deToken, body: stationBody() })).status).toBe(404);
    expect((await call("PUT", `/station-service/station/${station.id}/valid`, { token: deToken, body: { status: "INVALID" } })).status).toBe(404);
    expect((await call("DELETE", `/station-service/station/${station.id}`, { token: deToken })).status).toBe(404);
    const list = await call("GET", "/station-service/station?size=100", { token: deToken });
    expect(list.body.data.records.map((r: { id: number }) => r.id)).not.toContain(station.id);
    expect((await call("GET", `/station-service/station/${station.id}`, { token: plToken })).body.data.name).toBe(station.name);
  });

  it("refuses an account without the Locations menu (403), and lets the point screen read but not write", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const none = await makeAccount("0PL002", admin, (await makeRole(admin, { menuCodes: ["home"] })).id);
    const noneToken = (await login("0PL002", none.username, none.password)).body.data.accessToken;
    const denied = await call("GET", "/station-service/station", { token: noneToken });
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toBe("Access denied");
    expect((await call("POST", "/station-service/station", { token: noneToken, body: stationBody() })).status).toBe(403);
    expect((await upload(noneToken, "logo", pngImage(8, 8))).status).toBe(403);

    const reader = await makeAccount("0PL002", admin, (await makeRole(admin, { menuCodes: ["equipment.point"] })).id);
    const readerToken = (await login("0PL002", reader.username, reader.password)).body.data.accessToken;
    expect((await call("GET", "/station-service/station", { token: readerToken })).status).toBe(200);
    const station = await makeStation(admin);
    expect((await call("PUT", `/station-service/station/${station.id}`, { token: readerToken, body: stationBody() })).status).toBe(403);
    expect((await call("PUT", `/station-service/station/${station.id}/valid`, { token: readerToken, body: { status: "VALID" } })).status).toBe(403);
    expect((await call("DELETE", `/station-service/station/${station.id}`, { token: readerToken })).status).toBe(403);
  });
});

describe("the API description", () => {
  it("documents the station verbs and the multipart upload in /openapi.json", async () => {
    const doc = (await (await SELF.fetch(`${ORIGIN}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> };
    for (const path of ["/station-service/station", "/station-service/station/{id}", "/station-service/station/{id}/valid", "/station-service/station/geocode"]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(Object.keys(doc.paths["/station-service/station/{id}"]).sort()).toEqual(["delete", "get", "put"]);
    expect(doc.paths["/user-service/file/upload"].post.requestBody.content).toHaveProperty("multipart/form-data");
  });
});
