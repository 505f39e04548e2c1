import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { operators, points, subOperatorDevices } from "../../db/schema";
import { connect } from "./support/charger";
import { makeCharger } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";

/** A request with exactly this body text and content type (what a broken client sends). */
const raw = (method: string, path: string, token: string, body: string | undefined, type: string | null = "application/json") =>
  SELF.fetch(`${ORIGIN}${path}${path.includes("?") ? "&" : "?"}lang=de`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(type ? { "Content-Type": type } : {}) },
    body,
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as { msg: string }, headers: res.headers }));

const subOperatorId = async () => {
  const db = createDb(env.DB);
  const [sub] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, "0PL002A"));
  return sub.id;
};

describe("a route that declares a body", () => {
  it("refuses a missing, empty, malformed, null or non-JSON body with 400 and a localized message", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const path = "/user-service/role";
    const cases: [string | undefined, string | null, string][] = [
      [undefined, null, "Die Anfrage hat keinen Inhalt: Senden Sie die Felder als JSON"],
      ["", "application/json", "Die Anfrage hat keinen Inhalt: Senden Sie die Felder als JSON"],
      ['{"name":', "application/json", "Der Anfrageinhalt ist kein gültiges JSON"],
      ["null", "application/json", "Die Anfrage hat keinen Inhalt: Senden Sie die Felder als JSON"],
      ['{"name":"Role X"}', "text/plain", "Der Anfrageinhalt muss JSON sein (Content-Type: application/json)"],
    ];
    for (const [body, type, message] of cases) {
      const res = await raw("POST", path, token, body, type);
      expect(res.status, String(body)).toBe(400);
      expect(res.body.msg).toBe(message);
    }
  });

  it("never reads a broken body as {}: a sub-operator's devices stay assigned", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId } = await makeCharger("0PL002");
    const id = await subOperatorId();
    const path = `/user-service/sub-operator/${id}/devices`;
    expect((await call("PUT", path, { token, body: { stationIds: [], pointIds: [pointId] } })).status).toBe(200);
    for (const body of [undefined, "", '{"name":', "null", "{}"]) {
      expect((await raw("PUT", path, token, body)).status, String(body)).toBe(400);
    }
    const rows = await createDb(env.DB).select().from(subOperatorDevices).where(eq(subOperatorDevices.subOperatorId, id));
    expect(rows.map((r) => r.pointId)).toContain(pointId);
  });

  it("never rotates a charger's key on a broken body: the charger keeps its key", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId, serialNumber, key } = await makeCharger("0PL002");
    const before = (await createDb(env.DB).select({ keyHash: points.keyHash }).from(points).where(eq(points.id, pointId)))[0];
    for (const body of [undefined, "", '{"push":']) {
      expect((await raw("POST", `/station-service/point/${pointId}/key`, token, body)).status).toBe(400);
    }
    const after = (await createDb(env.DB).select({ keyHash: points.keyHash }).from(points).where(eq(points.id, pointId)))[0];
    expect(after.keyHash).toBe(before.keyHash);
    const { charger } = await connect(serialNumber, { key });
    expect(charger).toBeDefined();
    charger?.close();
  });

  it("refuses a JSON body over 1 MB with 413", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const big = JSON.stringify({ name: "x".repeat(1024 * 1024) });
    const res = await raw("POST", "/user-service/role", token, big);
    expect(res.status).toBe(413);
    expect(res.body.msg).toBe("Der Anfrageinhalt ist zu groß (höchstens 1 MB)");
  });
});

describe("numbers are numbers", () => {
  it("takes only decimal digits as a path id", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    for (const id of ["0x3", "3.0", "%203", "03", "-3", "1e3"]) {
      const res = await call("GET", `/user-service/role/${id}`, { token });
      expect(res.status, id).toBe(400);
    }
  });

  it("refuses booleans, arrays and hex strings where a body takes a whole number, and keeps decimal text", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const stations = (await call("GET", "/station-service/point/stations", { token })).body.data as { id: number }[];
    const point = (serial: string, overrides: Record<string, unknown>) => ({
      stationId: stations[0].id,
      name: serial,
      serialNumber: serial,
      pointNo: "01",
      type: "AC",
      ratedPower: 22,
      connectorCount: 2,
      ...overrides,
    });
    const serial = () => `NUM-${crypto.randomUUID().slice(0, 8)}`;
    const truthy = await call("POST", "/station-service/point", { token, body: point(serial(), { stationId: true }) });
    expect(truthy.status).toBe(400);
    expect(truthy.body.data.fields.stationId).toBeDefined();
    expect((await call("POST", "/station-service/point", { token, body: point(serial(), { connectorCount: "0x10" }) })).status).toBe(400);
    expect((await call("POST", "/station-service/point", { token, body: point(serial(), { connectorCount: [2] }) })).status).toBe(400);
    const text = await call("POST", "/station-service/point", { token, body: point(serial(), { ratedPower: "7.5", connectorCount: "1" }) });
    expect(text.status).toBe(200);
    expect(text.body.data).toMatchObject({ ratedPower: 7.5, connectorCount: 1 });
  });
});

describe("answers about a session are never cached", () => {
  it("marks JSON no-store and nosniff", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("GET", "/user-service/person/operator", { token });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const refused = await call("GET", "/user-service/role/0x1", { token });
    expect(refused.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
