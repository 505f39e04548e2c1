import { env } from "cloudflare:test";
import { and, eq, like, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import {
  accounts,
  alarms,
  chargeRecords,
  chargeStrategies,
  chargeStrategyVersions,
  connectors,
  diagnostics,
  faultCodes,
  firmwares,
  loadBalancings,
  operators,
  platforms,
  points,
  roles,
  stations,
  subOperatorDevices,
  transactions,
} from "../../db/schema";
import { boot, connect, landed } from "./support/charger";
import { insertAll } from "./support/bulk";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";

/**
 * Every list pages on the server and holds at page size 100 with more than 100 rows
 * (docs/rules/lists.md): D1 binds at most 100 parameters per statement, so a page that reads
 * its rows' children by id must slice them. 150 of everything for 0PL002, all of it assigned
 * to the sub-operator 0PL002A.
 */
const ROWS = 150;
const db = createDb(env.DB);
let admin: string;
let sub: string;
let stationId: number;
let subOperatorId: number;
let serialWithLog: string;
let balancingId: number;
let firmwareId: number;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  sub = await tokenFor("0PL002A", "subadmin1");
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const [subOperator] = await db.select().from(operators).where(eq(operators.code, "0PL002A"));
  subOperatorId = subOperator.id;
  const tag = Date.now().toString(36);

  await insertAll(stations, Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, name: `List station ${tag} ${i}`, status: "VALID", rank: 1 })));
  const [first] = await db.select().from(stations).where(eq(stations.name, `List station ${tag} 0`));
  stationId = first.id;
  await insertAll(
    points,
    Array.from({ length: ROWS }, (_, i) => ({
      operatorId: operator.id,
      stationId,
      serialNumber: `LIST-${tag}-${i}`,
      pointNo: String(i),
      name: `List point ${i}`,
      type: "AC",
      ratedPowerW: 22_000,
      connectorCount: 1,
      status: "VALID",
      online: i % 2 === 0,
    })),
  );
  const made = await db.select({ id: points.id }).from(points).where(eq(points.stationId, stationId));
  await insertAll(connectors, made.map((p) => ({ operatorId: operator.id, pointId: p.id, connectorNo: 1, standard: "IEC2", powerW: 11_000, chargeSpeed: "SLOW", status: "Charging" })));
  await insertAll(
    transactions,
    made.map((p, i) => ({ operatorId: operator.id, pointId: p.id, connectorNo: 1, idTag: `LIST${i}`, authStatus: "Accepted", meterStartWh: i, startAt: new Date(Date.now() - i * 1000) })),
  );
  await insertAll(
    chargeRecords,
    (await db.select({ t: transactions }).from(transactions).innerJoin(points, eq(points.id, transactions.pointId)).where(eq(points.stationId, stationId))).map(({ t }) => ({
      transactionId: t.id,
      operatorId: t.operatorId,
      pointId: t.pointId,
      connectorNo: t.connectorNo,
      idTag: t.idTag,
      startAt: t.startAt,
      currency: "PLN",
      receiptToken: crypto.randomUUID().replaceAll("-", ""),
      billCode: crypto.randomUUID().replaceAll("-", ""),
    })),
  );
  // The daily record counts that making each record keeps (docs/rules/records.md "Fast at scale"):
  // the unfiltered list's total.
  await env.DB.prepare(
    `INSERT INTO daily_charge_totals (operator_id, day, point_id, records)
     SELECT operator_id, date(start_at / 1000, 'unixepoch'), point_id, count(*) FROM charge_records
     WHERE point_id IN (SELECT id FROM points WHERE station_id = ?) GROUP BY 1, 2, 3
     ON CONFLICT (operator_id, day, point_id) DO UPDATE SET records = records + excluded.records`,
  )
    .bind(stationId)
    .run();
  await insertAll(
    alarms,
    made.map((p) => ({ operatorId: operator.id, pointId: p.id, connectorNo: 1, level: "WARN", type: "WeakSignal", occurredAt: new Date() })),
  );
  await insertAll(
    diagnostics,
    made.map((p) => ({ operatorId: operator.id, pointId: p.id, type: 1, location: "ftp://logs.example/", status: 1, requestedAt: new Date(), updatedAt: new Date() })),
  );
  await insertAll(
    subOperatorDevices,
    made.map((p) => ({ operatorId: operator.id, subOperatorId: subOperator.id, stationId: null, pointId: p.id })),
  );
  await insertAll(
    subOperatorDevices,
    (await db.select({ id: stations.id }).from(stations).where(eq(stations.operatorId, operator.id))).map((s) => ({
      operatorId: operator.id,
      subOperatorId: subOperator.id,
      stationId: s.id,
      pointId: null,
    })),
  );
  await insertAll(
    roles,
    Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, name: `List role ${tag} ${i}`, code: `LIST_${tag}_${i}`, type: "NORMAL", menuCodes: ["home"] })),
  );
  await insertAll(
    accounts,
    Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, username: `list${tag}${i}`, name: `List user ${i}`, passwordHash: "x" })),
  );
  const [platform] = await db.select().from(platforms);
  await insertAll(
    operators,
    Array.from({ length: ROWS }, (_, i) => ({ platformId: platform.id, parentId: operator.id, code: `0PL002L${tag}${i}`, name: `List sub ${i}`, sub: 1 })),
  );

  // 150 charging strategies, each with its version; the first one is then assigned to all 150
  // points in one call (the ids travel as one parameter, docs/rules/pricing.md "Assigning points").
  const prices = { electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] }, service: { unit: "NONE", slots: [] }, idle: { before: null, during: null, after: null } };
  await insertAll(chargeStrategies, Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, name: `List strategy ${tag} ${i}`, currency: "PLN" })));
  const strategyRows = await db.select({ id: chargeStrategies.id }).from(chargeStrategies).where(like(chargeStrategies.name, `List strategy ${tag} %`));
  await insertAll(
    chargeStrategyVersions,
    strategyRows.map((r) => ({ operatorId: operator.id, strategyId: r.id, version: 1, name: `List strategy ${r.id}`, currency: "PLN", prices, createdBy: "test" })),
  );
  await env.DB.prepare(
    "UPDATE charge_strategies SET current_version_id = (SELECT v.id FROM charge_strategy_versions v WHERE v.strategy_id = charge_strategies.id) WHERE current_version_id IS NULL",
  ).run();
  const assigned = await call("PUT", `/finance-service/strategy/${strategyRows[0].id}/assign`, { token: admin, body: { pointIds: made.map((p) => p.id) } });
  expect(assigned.body.data.assigned).toBe(ROWS);
  expect((await call("GET", `/finance-service/strategy/${strategyRows[0].id}`, { token: admin })).body.data.pointCount).toBe(ROWS);
  // Operations (docs/rules/operations.md): configurations, versions and vendor fault codes; one
  // configuration and one rollout over all 150 points.
  await db.update(stations).set({ powerLimitW: 1_000_000 }).where(eq(stations.id, stationId));
  await insertAll(
    loadBalancings,
    Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, stationId, name: `List LB ${i}`, powerLimitW: 1000, purpose: "TxDefaultProfile", stackLevel: 0, repeat: "Absolute", slots: [], status: "INVALID" })),
  );
  await insertAll(
    firmwares,
    Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, version: `list-${tag}-${i}`, location: "ftp://fw.example/x.bin" })),
  );
  await insertAll(
    faultCodes,
    Array.from({ length: ROWS }, (_, i) => ({ operatorId: operator.id, code: `LIST-${tag}-${i}`, source: "VENDOR", name: `List fault ${i}`, level: "WARN", count: 1 })),
  );
  const pointIds = made.map((p) => p.id);
  const balancing = await call("POST", "/station-service/load-balancing", {
    token: admin,
    body: { name: `List all ${tag}`, stationId, pointIds, powerLimit: 150, stackLevel: 2, repeat: "Daily", slots: [] },
  });
  balancingId = balancing.body.data.id;
  await call("POST", `/station-service/load-balancing/${balancingId}/deliver`, { token: admin });
  const version = await call("POST", "/maintain-service/firmware", { token: admin, body: { version: `list-all-${tag}`, location: "ftp://fw.example/all.bin" } });
  firmwareId = version.body.data.id;
  await call("POST", `/maintain-service/firmware/${firmwareId}/issue`, { token: admin, body: { pointIds, waveSize: 100 } });

  // A charger with more than 100 frames in its log.
  const charger = await makeCharger("0PL002");
  serialWithLog = charger.serialNumber;
  const { charger: socket } = await connect(charger.serialNumber, { key: charger.key });
  await boot(socket!);
  await landed();
  for (let i = 0; i < 60; i++) await socket!.call("Heartbeat", {});
  socket!.close();
  // 150 rows of every list, and deliveries to 150 points, take longer than a hook's default.
}, 60_000);

const lists: [string, () => string, () => string][] = [
  ["roles", () => "/user-service/role", () => admin],
  ["accounts", () => "/user-service/account", () => admin],
  ["stations", () => "/station-service/station", () => admin],
  ["points", () => "/station-service/point", () => admin],
  ["monitored points", () => "/station-service/monitoring/point", () => admin],
  ["charging piles", () => "/station-service/monitoring/chargingPile", () => admin],
  ["connectors", () => "/station-service/monitoring/connector", () => admin],
  ["ongoing charging", () => "/station-service/monitoring/charging", () => admin],
  ["station panel", () => `/station-service/monitoring/panel?stationId=${stationId}`, () => admin],
  ["alarms", () => "/station-service/alarm", () => admin],
  ["charge records", () => "/station-service/charge/record", () => admin],
  ["diagnostics", () => "/station-service/diagnosis", () => admin],
  ["sub-operators", () => "/user-service/sub-operator-devices", () => admin],
  ["candidate points", () => `/user-service/sub-operator/${subOperatorId}/devices/candidates?kind=point`, () => admin],
  ["candidate stations", () => `/user-service/sub-operator/${subOperatorId}/devices/candidates?kind=station`, () => admin],
  ["OCPP log", () => `/station-service/point/${serialWithLog}/ocpp/operationLog`, () => admin],
  ["charging strategies", () => "/finance-service/strategy", () => admin],
  ["strategy points", () => `/finance-service/strategy/points?stationId=${stationId}`, () => admin],
  ["sub-operator points", () => "/station-service/sub-operator/point", () => sub],
  ["sub-operator stations", () => "/station-service/sub-operator/station", () => sub],
  ["sub-operator station detail", () => `/station-service/sub-operator/station/${stationId}`, () => sub],
  ["sub-operator charging piles", () => "/station-service/monitoring/chargingPile", () => sub],
  ["sub-operator connectors", () => "/station-service/monitoring/connector", () => sub],
  ["sub-operator charging", () => "/station-service/monitoring/charging", () => sub],
  ["sub-operator alarms", () => "/station-service/alarm", () => sub],
  ["sub-operator charge records", () => "/station-service/charge/record", () => sub],
  ["load balancing", () => "/station-service/load-balancing", () => admin],
  ["firmware", () => "/maintain-service/firmware", () => admin],
  ["fault codes", () => "/maintain-service/fault-code", () => admin],
  ["operation failures", () => "/maintain-service/operation-failure", () => admin],
];

describe("every list at page size 100 with more than 100 rows", () => {
  it.each(lists)("%s", async (_, path, token) => {
    const url = path();
    const page = (current: number) => call("GET", `${url}${url.includes("?") ? "&" : "?"}size=100&current=${current}`, { token: token() });
    const first = await page(1);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const data = (first.body.data.points ?? first.body.data) as { records: unknown[]; total: number; size: number };
    expect(data.total).toBeGreaterThan(100);
    expect(data.records).toHaveLength(100);
    expect(data.size).toBe(100);
    const second = await page(2);
    const rest = (second.body.data.points ?? second.body.data) as { records: unknown[] };
    expect(rest.records.length).toBe(Math.min(100, data.total - 100));
  });

  it("delivers a load-balancing configuration over 150 points and issues a firmware version to them", async () => {
    const balancing = await call("GET", `/station-service/load-balancing/${balancingId}`, { token: admin });
    expect(balancing.status).toBe(200);
    expect(balancing.body.data.points).toHaveLength(ROWS);
    expect(balancing.body.data.points.every((p: { delivery: string }) => p.delivery !== "NotSent")).toBe(true);
    const firmware = await call("GET", `/maintain-service/firmware/${firmwareId}`, { token: admin });
    expect(firmware.body.data.rollout).toHaveLength(ROWS);
    expect(new Set(firmware.body.data.rollout.map((r: { wave: number }) => r.wave))).toEqual(new Set([0, 1]));
  });

  it("shows the load of a station with 150 points", async () => {
    const res = await call("GET", `/station-service/monitoring/load?stationId=${stationId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.points).toHaveLength(ROWS);
    // Once seen with 148 of 150 in a whole run and never alone: a failure names what ended them.
    const ended = await db
      .select({ id: transactions.id, status: transactions.status, abnormalReason: transactions.abnormalReason, stopReason: transactions.stopReason })
      .from(transactions)
      .innerJoin(points, eq(points.id, transactions.pointId))
      .where(and(eq(points.stationId, stationId), ne(transactions.status, "ACTIVE")));
    expect(ended).toEqual([]);
    expect(res.body.data.running).toHaveLength(ROWS);
  });
});
