import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enMonitoring from "../../domain/i18n/locales/en/monitoring.json";
import { SimCharger201 } from "../../scripts/sim/charger201";
import { api, newLocation, ocppEndpoint } from "../peers/support";
import { hydrated, logIn, pageOfFile, visit } from "./support/session";

/**
 * A priced session on a simulated OCPP 2.0.1 charger, run from the console (docs/rules/ocpp.md
 * "Two protocols"): the operator starts it from the remote-control panel and stops it from the
 * session's page; the receipt shows, to the minor unit, the final cost the charger was sent
 * (I03, CostUpdated) by the same pricing engine.
 */
const baseURL = inject("baseURL");
const m = enMonitoring.monitoring;
const { page } = await pageOfFile();
let sim: SimCharger201 | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
  await page.waitForURL(`${baseURL}/home`);
});

afterAll(async () => {
  await sim?.stop();
});

/** A 2.0.1 point alone on a location of its own, priced by a strategy of its own: 1.00 zł per kWh and 0.20 zł service per kWh. */
async function pricedPoint201() {
  const a = await api();
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const station = await newLocation(`E2E 2.0.1 ${stamp}`);
  const serialNumber = `E2E-201-${stamp}`;
  const point = await a.createPoint({ stationId: station.id, name: serialNumber, serialNumber, pointNo: "01", type: "DC", ratedPower: 150, connectorCount: 2, ocppVersion: "OCPP201" });
  await a.put(`/station-service/station/${station.id}/valid`, { status: "VALID" });
  await a.enablePoint(point.id);
  const strategy = await a.post<{ id: number }>("/finance-service/strategy", {
    name: `E2E 2.0.1 ${stamp}`,
    electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] },
    service: { unit: "KWH", slots: [{ start: "00:00", end: "24:00", price: "0.2000" }] },
    idle: { before: null, during: null, after: null },
  });
  await a.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds: [point.id] });
  return { stationId: station.id, id: point.id, serialNumber, key: await a.rotateKey(point.id) };
}

interface RecordView {
  transactionId: number;
  status: string;
  totalCost: number;
  receiptToken: string;
}

describe("a priced session on an OCPP 2.0.1 charger", () => {
  it("starts from the panel, stops from its page, and the receipt shows the final cost the charger was sent", async () => {
    const point = await pricedPoint201();
    sim = new SimCharger201(
      { serialNumber: point.serialNumber, key: point.key, connectors: 2, connectorPowerW: 75_000, type: "DC" },
      { endpoint: ocppEndpoint, meterIntervalS: 1, stepMs: 100, log: () => {} },
    );
    await sim.start();

    await visit(page, `${baseURL}/equipmentManagement/remoteControl?stationId=${point.stationId}`);
    const connector = page.getByTestId(`point-panel-${point.serialNumber}`).getByTestId("connector-1");
    await expect.poll(() => connector.locator('[data-status="Available"]').count()).toBe(1);
    await connector.getByRole("button", { name: m.remote.start }).click();
    await page.getByRole("dialog").getByRole("button", { name: m.remote.start }).click();
    await expect.poll(() => page.getByText(m.remote.started).count()).toBeGreaterThan(0);
    await expect.poll(() => connector.locator('[data-status="Charging"]').count()).toBe(1);

    const a = await api();
    const records = async () => (await a.get<{ records: RecordView[] }>(`/station-service/charge/record?pointId=${point.id}`)).records;
    const [running] = await records();
    expect(running).toBeDefined();
    // A few periodic readings (one a second) with their running cost (I02) before the stop; the
    // test asserts on what they add up to, never on how long they took.
    await new Promise((resolve) => setTimeout(resolve, 3000));

    await visit(page, `${baseURL}/systemMonitoring/charging/detail/${running.transactionId}`);
    await hydrated(page);
    await page.getByRole("button", { name: m.remote.stop, exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: m.remote.stop }).click();
    await expect.poll(() => page.getByText(m.transactionStatus.COMPLETED, { exact: true }).count()).toBe(1);

    // Billing prices the session and the charger is sent its final cost (I03).
    await expect.poll(async () => (await records())[0]?.status, { timeout: 30_000 }).not.toMatch(/^(CHARGING|CHARGE_COMPLETE)$/);
    const [billed] = await records();
    await expect.poll(() => sim!.costUpdates.length).toBeGreaterThan(0);
    const finalCost = sim.costUpdates.at(-1)!.totalCost;
    expect(Math.round(finalCost * 100)).toBe(billed.totalCost);
    expect(billed.totalCost).toBeGreaterThan(0);

    // The receipt in the console shows that amount.
    await visit(page, `${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${billed.transactionId}`);
    await hydrated(page);
    await expect.poll(() => page.getByTestId("receipt").textContent()).toContain(finalCost.toFixed(2));
    expect(sim.validationFailures).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
