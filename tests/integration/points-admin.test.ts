import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { accounts, operators, parameterSettings, roles, stations } from "../../db/schema";
import { hashPassword } from "../../workers/auth/password";
import { boot, connect } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { row } from "./support/d1";

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${++counter}`;


/** The demo operator's first enabled location. */
async function enabledStation(token: string) {
  const res = await call<{ id: number; name: string; status: string }[]>("GET", "/station-service/point/stations", { token });
  expect(res.status).toBe(200);
  return res.body.data.find((s) => s.status === "VALID")!;
}

async function disabledStation(operatorCode: string) {
  const db = createDb(env.DB);
  const operator = await row<{ id: number }>("SELECT id FROM operators WHERE code = ?", operatorCode);
  const [station] = await db.insert(stations).values({ operatorId: operator!.id, name: unique("Closed "), status: "INVALID" }).returning();
  return station;
}

const pointBody = (stationId: number, overrides: Record<string, unknown> = {}) => ({
  stationId,
  name: "Test charger",
  serialNumber: unique("PT-"),
  pointNo: "01",
  type: "AC",
  ratedPower: 22,
  connectorCount: 2,
  ...overrides,
});

async function createPoint(token: string, body: Record<string, unknown>) {
  const res = await call("POST", "/station-service/point", { token, body });
  if (res.status !== 200) throw new Error(`create point: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; serialNumber: string; status: string; connectors: Record<string, unknown>[] } & Record<string, unknown>;
}

/** An operator of its own with few authorised connectors, an administrator and an enabled location. */
async function smallOperator(authorized: { ac: number; dc: number }) {
  const db = createDb(env.DB);
  const code = unique("Q").toUpperCase().slice(0, 12);
  const [operator] = await db
    .insert(operators)
    .values({ platformId: 1, code, name: `Quota ${code}`, authorizedAcConnectors: authorized.ac, authorizedDcConnectors: authorized.dc })
    .returning();
  await db.insert(parameterSettings).values({ operatorId: operator.id, timeZone: "Europe/Warsaw", currencyCode: "PLN", currencySign: "zł", currencyDecimals: 2 });
  const [role] = await db.insert(roles).values({ operatorId: operator.id, name: "Administrators", code: "ADMIN", type: "SUPER", menuCodes: [] }).returning();
  await db.insert(accounts).values({
    operatorId: operator.id,
    username: "quotaadmin",
    name: "Quota admin",
    passwordHash: await hashPassword("Quota12345", env.PASSWORD_PEPPER),
    adminType: "SUPER",
    roleId: role.id,
    mustChangePassword: false,
  });
  const [station] = await db.insert(stations).values({ operatorId: operator.id, name: "Quota station", status: "VALID" }).returning();
  return { token: await tokenFor(code, "quotaadmin", "Quota12345"), stationId: station.id, code };
}

describe("creating points", () => {
  it("creates the connectors given, with standard, power and charge speed", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await createPoint(
      token,
      pointBody(station.id, {
        type: "MIXED",
        ratedPower: 150,
        connectorCount: 2,
        privateType: "PrivateHidden",
        code: "C-1",
        connectors: [
          { connectorId: 1, standard: "IEC1", power: 150, chargeSpeed: "QUICK", name: "CCS" },
          { connectorId: 2, standard: "IEC2", power: 22, chargeSpeed: "SLOW" },
        ],
      }),
    );
    expect(point).toMatchObject({ type: "MIXED", ratedPower: 150, privateType: "PrivateHidden", code: "C-1", status: "INVALID", pricePushStatus: "NotIssue" });
    expect(point.connectors).toMatchObject([
      { connectorId: 1, standard: "IEC1", power: 150, chargeSpeed: "QUICK", name: "CCS" },
      { connectorId: 2, standard: "IEC2", power: 22, chargeSpeed: "SLOW", name: null },
    ]);
  });

  it("creates a point with 99 connectors in statements D1 accepts", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await createPoint(token, pointBody(station.id, { type: "DC", ratedPower: 990, connectorCount: 99 }));
    expect(point.connectors).toHaveLength(99);
    expect(point.connectors[98]).toMatchObject({ connectorId: 99, standard: "IEC1", power: 10, chargeSpeed: "QUICK" });
  });

  it("refuses unknown enum values with a message instead of reading them as a default, in two languages", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const body = pointBody(station.id, { privateType: "Secret", connectors: [{ connectorId: 1, standard: "TESLA", power: 11, chargeSpeed: "FAST" }, { connectorId: 2, standard: "IEC2", power: 11, chargeSpeed: "SLOW" }] });
    const en = await call("POST", "/station-service/point", { token, body });
    expect(en.status).toBe(400);
    expect(en.body.data.fields).toMatchObject({
      privateType: "Unknown visibility",
      "connectors.0.standard": "Unknown connector standard",
      "connectors.0.chargeSpeed": "Charge speed must be QUICK or SLOW",
    });
    const pl = await call("POST", "/station-service/point?lang=pl", { token, body });
    expect(pl.body.data.fields.privateType).toBe("Nieznany typ widoczności");
    const status = await call("GET", "/station-service/point?status=ENABLED&lang=pl", { token });
    expect(status.status).toBe(400);
    expect(status.body.msg).toBe("Nieznany stan");
  });

  it("checks power decimals, the connector count and the connector list", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const res = await call("POST", "/station-service/point", {
      token,
      body: pointBody(station.id, { ratedPower: 22.005, connectorCount: 2.5 }),
    });
    expect(res.body.data.fields).toMatchObject({ ratedPower: "Power has at most two decimals", connectorCount: "Connector count is a whole number from 1 to 99" });
    const list = await call("POST", "/station-service/point?lang=de", {
      token,
      body: pointBody(station.id, {
        type: "AC",
        ratedPower: 22,
        connectors: [
          { connectorId: 1, standard: "IEC1", power: 11, chargeSpeed: "QUICK" },
          { connectorId: 1, standard: "IEC2", power: 50, chargeSpeed: "SLOW" },
        ],
      }),
    });
    expect(list.status).toBe(400);
    expect(list.body.data.fields).toMatchObject({
      connectors: "Nummerieren Sie die Anschlüsse von 1 bis zur Anschlussanzahl, jeden einmal",
      "connectors.0.standard": "Dieser Steckerstandard passt nicht zum Ladepunkttyp (AC-Standards an AC-Ladepunkten, DC-Standards an DC-Ladepunkten)",
      "connectors.1.power": "Ein Anschluss darf nicht leistungsstärker sein als sein Ladepunkt",
    });
  });

  it("refuses a location of another operator as not found", async () => {
    const deToken = await tokenFor("0DE001", "deadmin1");
    const plStation = await enabledStation(await tokenFor("0PL002", "demoadmin"));
    const res = await call("POST", "/station-service/point", { token: deToken, body: pointBody(plStation.id) });
    expect(res.status).toBe(404);
  });
});

describe("authorised connector counts", () => {
  it("refuses connectors beyond the authorised AC and DC counts with 409, counting MIXED as DC", async () => {
    const { token, stationId } = await smallOperator({ ac: 4, dc: 2 });
    await createPoint(token, pointBody(stationId, { type: "AC", connectorCount: 3 }));
    const tooMany = await call("POST", "/station-service/point", { token, body: pointBody(stationId, { type: "AC", connectorCount: 2 }) });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.msg).toBe("Adding 2 AC connectors would exceed the 4 your operator is authorised for (3 in use)");
    await createPoint(token, pointBody(stationId, { type: "AC", connectorCount: 1 }));

    const mixed = await createPoint(token, pointBody(stationId, { type: "MIXED", ratedPower: 50, connectorCount: 2 }));
    const dc = await call("POST", "/station-service/point?lang=pl", { token, body: pointBody(stationId, { type: "DC", ratedPower: 50, connectorCount: 1 }) });
    expect(dc.status).toBe(409);
    expect(dc.body.msg).toBe("Dodanie 1 złączy DC przekroczyłoby 2 autoryzowanych dla operatora (w użyciu: 2)");

    const quota = await call("GET", "/station-service/point/quota", { token });
    expect(quota.body.data).toEqual({
      AC: { authorized: 4, used: 4, enabled: 0, remaining: 0 },
      DC: { authorized: 2, used: 2, enabled: 0, remaining: 0 },
    });

    // Growing a point by edit is checked the same way; shrinking never is.
    const grow = await call("PUT", `/station-service/point/${mixed.id}`, { token, body: pointBody(stationId, { serialNumber: mixed.serialNumber, type: "MIXED", ratedPower: 50, connectorCount: 3 }) });
    expect(grow.status).toBe(409);
    const shrink = await call("PUT", `/station-service/point/${mixed.id}`, { token, body: pointBody(stationId, { serialNumber: mixed.serialNumber, type: "MIXED", ratedPower: 50, connectorCount: 1 }) });
    expect(shrink.status).toBe(200);
    expect(shrink.body.data.connectors).toHaveLength(1);
  });

  it("never lets two simultaneous creations pass the count together", async () => {
    const { token, stationId } = await smallOperator({ ac: 2, dc: 0 });
    const results = await Promise.all(
      [1, 2, 3].map(() => call("POST", "/station-service/point", { token, body: pointBody(stationId, { connectorCount: 1 }) })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(1);
  });
});

describe("editing points", () => {
  it("edits a disabled point's defining fields and connectors, keeping connectors when none are listed", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await createPoint(token, pointBody(station.id, { type: "AC", ratedPower: 22, connectorCount: 2 }));
    const serialNumber = unique("PT-EDIT-");
    const edited = await call("PUT", `/station-service/point/${point.id}`, {
      token,
      body: pointBody(station.id, {
        serialNumber,
        name: "Renamed",
        type: "AC",
        ratedPower: 43.5,
        connectorCount: 3,
        connectors: [
          { connectorId: 1, standard: "SAE2", power: 7.4, chargeSpeed: "SLOW", name: "J1772" },
          { connectorId: 2, standard: "IEC3", power: 22, chargeSpeed: "SLOW" },
          { connectorId: 3, standard: "GBT2", power: 43.5, chargeSpeed: "QUICK" },
        ],
      }),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ serialNumber, name: "Renamed", ratedPower: 43.5, connectorCount: 3 });
    expect(edited.body.data.connectors.map((c: { standard: string }) => c.standard)).toEqual(["SAE2", "IEC3", "GBT2"]);

    const kept = await call("PUT", `/station-service/point/${point.id}`, {
      token,
      body: pointBody(station.id, { serialNumber, name: "Kept", type: "AC", ratedPower: 43.5, connectorCount: 2 }),
    });
    expect(kept.body.data.connectors).toMatchObject([
      { connectorId: 1, standard: "SAE2", power: 7.4, name: "J1772" },
      { connectorId: 2, standard: "IEC3", power: 22 },
    ]);
  });

  it("keeps what defines an enabled point, while its name and descriptive fields stay editable", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await createPoint(token, pointBody(station.id));
    expect((await call("PUT", `/station-service/point/${point.id}/valid`, { token, body: { status: "VALID" } })).status).toBe(200);
    const base = { serialNumber: point.serialNumber, type: "AC", ratedPower: 22, connectorCount: 2 };

    const renamed = await call("PUT", `/station-service/point/${point.id}`, {
      token,
      body: pointBody(station.id, { ...base, name: "Front row", pointNo: "09", code: "FR", privateType: "Private", stationType: "Parking" }),
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "Front row", pointNo: "09", code: "FR", privateType: "Private", stationType: "Parking", status: "VALID" });

    for (const change of [{ ratedPower: 11 }, { type: "MIXED" }, { connectorCount: 1 }, { serialNumber: unique("PT-") }]) {
      const res = await call("PUT", `/station-service/point/${point.id}`, { token, body: pointBody(station.id, { ...base, ...change }) });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.msg).toBe("An enabled charging point keeps its type, power, connectors, serial number and location; disable it first to change them");
    }
    const other = await createStationFor();
    expect((await call("PUT", `/station-service/point/${point.id}`, { token, body: pointBody(other, base) })).status).toBe(409);
    const connectorsChanged = await call("PUT", `/station-service/point/${point.id}`, {
      token,
      body: pointBody(station.id, { ...base, connectors: [{ connectorId: 1, standard: "IEC3", power: 11, chargeSpeed: "SLOW" }, { connectorId: 2, standard: "IEC2", power: 11, chargeSpeed: "SLOW" }] }),
    });
    expect(connectorsChanged.status).toBe(409);
  });

  it("refuses a serial number another point has", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await createPoint(token, pointBody(station.id));
    const res = await call("PUT", `/station-service/point/${point.id}?lang=pl`, { token, body: pointBody(station.id, { serialNumber: "PL002-CP01" }) });
    expect(res.status).toBe(400);
    expect(res.body.data.fields.serialNumber).toBe("Ten numer seryjny jest już zarejestrowany");
  });
});

/** Another enabled location of the demo operator. */
async function createStationFor() {
  const operator = await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'");
  const [station] = await createDb(env.DB).insert(stations).values({ operatorId: operator!.id, name: unique("Other "), status: "VALID" }).returning();
  return station.id;
}

describe("deleting points", () => {
  it("deletes a disabled point without records, and refuses an enabled one or one with charge records", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const point = await createPoint(token, pointBody(station.id));
    await call("PUT", `/station-service/point/${point.id}/valid`, { token, body: { status: "VALID" } });
    const enabled = await call("DELETE", `/station-service/point/${point.id}`, { token });
    expect(enabled.status).toBe(409);
    expect(enabled.body.msg).toBe("Disable the charging point before deleting it");
    await call("PUT", `/station-service/point/${point.id}/valid`, { token, body: { status: "INVALID" } });
    expect((await call("DELETE", `/station-service/point/${point.id}`, { token })).status).toBe(200);
    expect(await row("SELECT id FROM points WHERE id = ?", point.id)).toBeNull();
    expect(await row("SELECT id FROM connectors WHERE point_id = ?", point.id)).toBeNull();

    const used = await createPoint(token, pointBody(station.id));
    const operator = await row<{ id: number }>("SELECT id FROM operators WHERE code = '0PL002'");
    await env.DB.prepare(
      "INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at, status) VALUES (?, ?, 1, 'DEMO0001', 'Accepted', 0, ?, 'COMPLETED')",
    )
      .bind(operator!.id, used.id, Date.now())
      .run();
    const refused = await call("DELETE", `/station-service/point/${used.id}?lang=pl`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("Ten punkt ładowania ma 1 rekord ładowania i nie można go usunąć; wyłącz go zamiast tego");
  });
});

describe("enabling points in a batch", () => {
  it("enables every point whose location is enabled, and nothing when any location is disabled", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const a = await createPoint(token, pointBody(station.id));
    const b = await createPoint(token, pointBody(station.id));
    const closed = await disabledStation("0PL002");
    const c = await createPoint(token, pointBody(closed.id));

    const refused = await call("PUT", "/station-service/point/valid/points", { token, body: { ids: [a.id, c.id] } });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(`Nothing was enabled: the location of ${c.serialNumber} is disabled`);
    expect(refused.body.data.blocked).toEqual([{ id: c.id, serialNumber: c.serialNumber }]);
    expect(await row("SELECT status FROM points WHERE id = ?", a.id)).toEqual({ status: "INVALID" });

    const done = await call("PUT", "/station-service/point/valid/points", { token, body: { ids: [a.id, b.id, a.id] } });
    expect(done.status).toBe(200);
    expect(done.body.data.enabled).toBe(2);
    expect(done.body.data.results).toHaveLength(2);
    expect(done.body.data.results[0]).toMatchObject({ status: "VALID", availability: "offline" });

    const empty = await call("PUT", "/station-service/point/valid/points?lang=pl", { token, body: { ids: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe("Wybierz od 1 do 100 punktów ładowania");
  });
});

describe("importing points", () => {
  const rowOf = (stationName: string, overrides: Record<string, unknown> = {}) => ({
    stationName,
    name: "Imported",
    serialNumber: unique("IMP-"),
    pointNo: "1",
    type: "AC",
    ratedPower: 22,
    connectorCount: 2,
    ...overrides,
  });

  it("imports every row with its connectors, or nothing with a message per bad cell", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const station = await enabledStation(token);
    const good = [rowOf(station.name, { line: 2 }), rowOf(station.name, { line: 3, type: "DC", ratedPower: 60, connectorCount: 1, standard: "GBT1", chargeSpeed: "QUICK" })];
    const bad = [
      ...good,
      rowOf("Nowhere", { line: 4, type: "PLASMA" }),
      rowOf(station.name, { line: 5, serialNumber: good[0].serialNumber, ratedPower: 1.234 }),
      rowOf(station.name, { line: 6, serialNumber: "PL002-CP01", standard: "IEC1" }),
    ];
    const refused = await call("POST", "/station-service/point/import", { token, body: { rows: bad } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe("3 rows have errors; nothing was imported");
    expect(refused.body.data.fields).toEqual({
      "4.stationName": "No location has this name",
      "4.type": "Unknown point type",
      "5.ratedPower": "Power has at most two decimals",
      "5.serialNumber": "This serial number appears twice in the file",
      "6.serialNumber": "This serial number is already registered",
      "6.standard": "This connector standard does not fit the point type (AC standards on AC points, DC standards on DC points)",
    });
    expect(await row("SELECT id FROM points WHERE serial_number = ?", good[0].serialNumber)).toBeNull();

    const twice = await call("POST", "/station-service/point/import?lang=pl", { token, body: { rows: [good[0], { ...good[0], line: 3 }, rowOf("Nowhere", { line: 4 })] } });
    expect(twice.body.data.fields).toEqual({ "3.serialNumber": "Ten numer seryjny występuje w pliku dwa razy", "4.stationName": "Żadna lokalizacja nie ma takiej nazwy" });

    const imported = await call("POST", "/station-service/point/import", { token, body: { rows: good } });
    expect(imported.status).toBe(200);
    expect(imported.body.data.imported).toBe(2);
    const dc = await call("GET", `/station-service/point/${imported.body.data.ids[1]}`, { token });
    expect(dc.body.data).toMatchObject({ type: "DC", status: "INVALID", connectors: [{ connectorId: 1, standard: "GBT1", power: 60, chargeSpeed: "QUICK" }] });
    const ac = await call("GET", `/station-service/point/${imported.body.data.ids[0]}`, { token });
    expect(ac.body.data.connectors).toMatchObject([
      { connectorId: 1, standard: "IEC2", power: 11, chargeSpeed: "SLOW" },
      { connectorId: 2, standard: "IEC2", power: 11, chargeSpeed: "SLOW" },
    ]);
  });

  it("imports nothing when the file exceeds the authorised connectors", async () => {
    const { token } = await smallOperator({ ac: 3, dc: 0 });
    const rows = [rowOf("Quota station", { connectorCount: 2 }), rowOf("Quota station", { connectorCount: 2 })];
    const res = await call("POST", "/station-service/point/import", { token, body: { rows } });
    expect(res.status).toBe(409);
    expect((await call("GET", "/station-service/point", { token })).body.data.total).toBe(0);
  });

  it("imports a long file within D1's limits", async () => {
    const { token } = await smallOperator({ ac: 1000, dc: 0 });
    const rows = Array.from({ length: 120 }, (_, i) => rowOf("Quota station", { line: i + 2, connectorCount: 4, ratedPower: 44 }));
    const res = await call("POST", "/station-service/point/import", { token, body: { rows } });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    expect(res.body.data.imported).toBe(120);
    expect((await call("GET", "/station-service/point/quota", { token })).body.data.AC.used).toBe(480);
  });
});

describe("charger keys", () => {
  it("shows a new key once and lets the charger connect with it only", async () => {
    const made = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", `/station-service/point/${made.pointId}/key`, { token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data.key).toMatch(/^[0-9a-f]{40}$/);
    const detail = await call("GET", `/station-service/point/detail/${made.pointId}`, { token });
    expect(JSON.stringify(detail.body.data)).not.toContain(res.body.data.key);
    expect(detail.body.data.hasKey).toBe(true);
    expect((await connect(made.serialNumber, { key: made.key })).status).toBe(401);
    const fresh = await connect(made.serialNumber, { key: res.body.data.key });
    expect(fresh.status).toBe(101);
    fresh.charger!.close();
  });

  it("pushes a new key to a connected charger that accepts it", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    let pushed: { key: string; value: string } | undefined;
    charger.answer("ChangeConfiguration", (payload) => {
      pushed = payload;
      return { status: "Accepted" };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", `/station-service/point/${made.pointId}/key`, { token, body: { push: true } });
    expect(res.status).toBe(200);
    expect(pushed).toEqual({ key: "AuthorizationKey", value: res.body.data.key });
    charger.close();
  });
});

describe("chosen charger keys (OCPP 1.6 security whitepaper AuthorizationKey: 16 to 40 bytes)", () => {
  const hexOf = (text: string) => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  const rawOf = (hex: string) => String.fromCharCode(...hex.match(/../g)!.map((h) => parseInt(h, 16)));
  const connects = async (serialNumber: string, key: string) => {
    const res = await connect(serialNumber, { key });
    res.charger?.close();
    return res.status;
  };

  it("sets a key given as hex or as text, and the charger connects with it as its bytes or as their hex", async () => {
    const made = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const setKey = (key: string, keyFormat: string) => call("POST", `/station-service/point/${made.pointId}/key`, { token, body: { key, keyFormat } });

    const hex = "00112233445566778899AABBCCDDEEFF";
    const byHex = await setKey(hex, "hex");
    expect(byHex.status, JSON.stringify(byHex.body)).toBe(200);
    expect(byHex.body.data).toMatchObject({ key: hex.toLowerCase(), pushed: false });
    expect(await connects(made.serialNumber, made.key)).toBe(401);
    expect(await connects(made.serialNumber, hex.toLowerCase())).toBe(101);
    expect(await connects(made.serialNumber, rawOf(hex.toLowerCase()))).toBe(101);

    const text = "Delivered-Key_2024!";
    const byText = await setKey(text, "text");
    expect(byText.status, JSON.stringify(byText.body)).toBe(200);
    expect(byText.body.data.key).toBe(hexOf(text));
    expect(await connects(made.serialNumber, hex.toLowerCase())).toBe(401);
    expect(await connects(made.serialNumber, text)).toBe(101);
    expect(await connects(made.serialNumber, hexOf(text))).toBe(101);

    // Text made of hex digits is still its own characters; 40 bytes given as 80 hex digits fits.
    const hexLooking = "0123456789abcdef0123456789abcdef01234567";
    expect((await setKey(hexLooking, "text")).status).toBe(200);
    expect(await connects(made.serialNumber, hexLooking)).toBe(101);
    const longest = "ab".repeat(40);
    expect((await setKey(longest, "hex")).status).toBe(200);
    expect(await connects(made.serialNumber, longest)).toBe(101);
    expect(await connects(made.serialNumber, rawOf(longest))).toBe(101);
    expect(await row("SELECT key_set_at IS NOT NULL AS isSet FROM points WHERE id = ?", made.pointId)).toEqual({ isSet: 1 });
  });

  it("refuses a key too short, too long, of odd or non-hex digits, or with unprintable text, on the field, and keeps the old key", async () => {
    const made = await makeCharger("0PL002");
    const token = await tokenFor("0PL002", "demoadmin");
    const setKey = (body: Record<string, unknown>) => call("POST", `/station-service/point/${made.pointId}/key`, { token, body });
    const hexMessage = "A key in hex is an even number of hex digits, 32 to 80 (16 to 40 bytes)";
    const textMessage = "A key as text is 16 to 40 printable characters, without spaces";
    for (const key of ["ab".repeat(15), "ab".repeat(41), `${"ab".repeat(16)}a`, `${"ab".repeat(15)}zz`]) {
      const res = await setKey({ key, keyFormat: "hex" });
      expect(res.status, key).toBe(400);
      expect(res.body.data.fields, key).toEqual({ key: hexMessage });
    }
    for (const key of ["fifteen-chars!!", "x".repeat(41), "with a space inside", "zażółć-gęślą-jaźń"]) {
      const res = await setKey({ key, keyFormat: "text" });
      expect(res.status, key).toBe(400);
      expect(res.body.data.fields, key).toEqual({ key: textMessage });
    }
    const unsaid = await setKey({ key: "Delivered-Key_2024!" });
    expect(unsaid.status).toBe(400);
    expect(unsaid.body.data.fields).toEqual({ keyFormat: "Say whether the key is given as hex or as text" });
    const pl = await call("POST", `/station-service/point/${made.pointId}/key?lang=pl`, { token, body: { key: "abc", keyFormat: "hex" } });
    expect(pl.body.data.fields).toEqual({ key: "Klucz szesnastkowy to parzysta liczba cyfr szesnastkowych, od 32 do 80 (16–40 bajtów)" });
    expect(await connects(made.serialNumber, made.key)).toBe(101);
  });

  it("pushes a chosen key as hex with ChangeConfiguration AuthorizationKey, and keeps the old one when refused", async () => {
    const made = await makeCharger("0PL002");
    const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(charger);
    const pushed: unknown[] = [];
    let answer = "Rejected";
    charger.answer("ChangeConfiguration", (payload) => {
      pushed.push(payload);
      return { status: answer };
    });
    const token = await tokenFor("0PL002", "demoadmin");
    const text = "Delivered-Key_2024!";
    const refused = await call("POST", `/station-service/point/${made.pointId}/key`, { token, body: { key: text, keyFormat: "text", push: true } });
    expect(refused.status).toBe(409);
    expect(await connects(made.serialNumber, text)).toBe(401);
    answer = "Accepted";
    const res = await call("POST", `/station-service/point/${made.pointId}/key`, { token, body: { key: text, keyFormat: "text", push: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ key: hexOf(text), pushed: true });
    expect(pushed).toEqual([
      { key: "AuthorizationKey", value: hexOf(text) },
      { key: "AuthorizationKey", value: hexOf(text) },
    ]);
    charger.close();
    expect(await connects(made.serialNumber, text)).toBe(101);
  });
});

describe("tenancy and permissions", () => {
  it("answers 404 for another operator's point on every verb", async () => {
    const { pointId } = await makeCharger("0PL002", { enabled: false });
    const de = await tokenFor("0DE001", "deadmin1");
    const deStation = await enabledStation(de);
    const attempts = [
      call("GET", `/station-service/point/${pointId}`, { token: de }),
      call("GET", `/station-service/point/detail/${pointId}`, { token: de }),
      call("PUT", `/station-service/point/${pointId}`, { token: de, body: pointBody(deStation.id) }),
      call("DELETE", `/station-service/point/${pointId}`, { token: de }),
      call("PUT", `/station-service/point/${pointId}/valid`, { token: de, body: { status: "VALID" } }),
      call("PUT", "/station-service/point/valid/points", { token: de, body: { ids: [pointId] } }),
      call("POST", `/station-service/point/${pointId}/key`, { token: de, body: {} }),
      call("POST", `/station-service/point/${pointId}/diagnose`, { token: de, body: { location: "ftp://files.example.com/" } }),
      call("GET", `/station-service/diagnosis?pointId=${pointId}`, { token: de }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await row("SELECT status FROM points WHERE id = ?", pointId)).toEqual({ status: "INVALID" });
  });

  it("refuses an account without the points menu with 403; the Locations menu reads points but never changes them", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["home", "equipment.station"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    const { pointId } = await makeCharger("0PL002", { enabled: false });
    const station = await enabledStation(admin);
    expect((await call("GET", "/station-service/point", { token })).status).toBe(200);
    expect((await call("GET", "/station-service/point/quota", { token })).status).toBe(200);
    const attempts = [
      call("POST", "/station-service/point", { token, body: pointBody(station.id) }),
      call("PUT", `/station-service/point/${pointId}`, { token, body: pointBody(station.id) }),
      call("DELETE", `/station-service/point/${pointId}`, { token }),
      call("PUT", "/station-service/point/valid/points", { token, body: { ids: [pointId] } }),
      call("POST", "/station-service/point/import", { token, body: { rows: [{ stationName: station.name }] } }),
      call("POST", `/station-service/point/${pointId}/key`, { token, body: {} }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(403);

    const viewer = await makeRole(admin, { menuCodes: ["home", "monitoring.chargingPile"] });
    const viewerAccount = await makeAccount("0PL002", admin, viewer.id);
    const viewerToken = await tokenFor("0PL002", viewerAccount.username, viewerAccount.password);
    // Watching is not operating: the monitoring menu reads points through the monitoring list only.
    expect((await call("GET", "/station-service/point", { token: viewerToken })).status).toBe(403);
    expect((await call("GET", "/station-service/monitoring/point", { token: viewerToken })).status).toBe(200);
    expect((await call("DELETE", `/station-service/point/${pointId}`, { token: viewerToken })).status).toBe(403);
  });
});
