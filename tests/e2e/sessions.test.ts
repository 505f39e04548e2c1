import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import enMonitoring from "../../domain/i18n/locales/en/monitoring.json";
import enStations from "../../domain/i18n/locales/en/stations.json";
import { Api } from "../../scripts/sim/register";
import { api, newCharger, newLocation } from "../peers/support";
import { simulatedCharger } from "./support/charger";
import { field, hydrated, logIn, pageOfFile, visit } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("tag DEMO0001");

/**
 * Starting and stopping sessions from the console: the operator chooses the id tag of a remote
 * start (its remote tag unless changed), and stops a running session from the session's page,
 * which a user who may only watch cannot. Each charger is ocpp-rpc's strict client.
 */
const baseURL = inject("baseURL");
const m = enMonitoring.monitoring;
const s = enStations.stations;
const { page } = await pageOfFile();
const chargers: ReturnType<typeof simulatedCharger>[] = [];
const pageErrors: string[] = [];

/** A new enabled point of 0PL002 with its key, under its first location unless one is given. */
async function connectedCharger(point?: Awaited<ReturnType<typeof newCharger>>) {
  const made = point ?? (await newCharger());
  const sim = simulatedCharger(baseURL, made.serialNumber, made.key);
  chargers.push(sim);
  await sim.start();
  return { point: made, sim };
}

/** An enabled location of its own with one enabled point: the start pages then list that point alone. */
async function pointOfItsOwnLocation() {
  const a = await api();
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const station = await newLocation(`E2E remote start ${stamp}`);
  const serialNumber = `E2E-RS-${stamp}`;
  const point = await a.createPoint({ stationId: station.id, name: serialNumber, serialNumber, pointNo: "01", type: "AC", ratedPower: 22, connectorCount: 2 });
  // A location is enabled once it has a point, and a point once its location is.
  await a.put(`/station-service/station/${station.id}/valid`, { status: "VALID" });
  await a.enablePoint(point.id);
  return { stationId: station.id, id: point.id, serialNumber, key: await a.rotateKey(point.id) };
}

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
  await page.waitForURL(`${baseURL}/home`);
});

afterEach(() => {
  for (const sim of chargers) expect(sim.failures).toEqual([]);
  expect(pageErrors).toEqual([]);
});

afterAll(async () => {
  // Each charger ends its session, so that the driver tag used here is free for other tests.
  await Promise.allSettled(chargers.map((sim) => sim.close()));
});

describe("remote start with an id tag", () => {
  it("starts from the location's start page with the tag typed over the operator's remote tag", async () => {
    const own = await pointOfItsOwnLocation();
    const { point, sim } = await connectedCharger(own);
    await visit(page, `${baseURL}/equipmentManagement/station/startPoint?stationId=${own.stationId}`);
    await hydrated(page);
    const connector = page.getByRole("radio", { name: `${point.serialNumber} · ${s.start.connector.replace("{{no}}", "1")}` });
    await expect.poll(() => connector.isEnabled()).toBe(true);

    const idTag = field(page, m.remote.idTag);
    expect(await idTag.inputValue()).toBe("PLREMOTE");
    await idTag.fill("DEMO0001");
    await connector.click();
    await page.getByRole("button", { name: s.start.submit }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: s.start.submit }).click();
    await expect.poll(() => page.getByTestId("start-outcome").textContent()).toContain("Accepted");
    expect(sim.remoteStarts.map((r) => r.idTag)).toEqual(["DEMO0001"]);

    await expect.poll(() => sim.transactionId).toBeGreaterThan(0);
    await visit(page, `${baseURL}/systemMonitoring/charging/detail/${sim.transactionId}`);
    await expect.poll(() => page.getByRole("main").textContent()).toContain("DEMO0001");
  });

  it("starts from the remote-control panel with the operator's remote tag unless told otherwise", async () => {
    const own = await pointOfItsOwnLocation();
    const { point, sim } = await connectedCharger(own);
    await visit(page, `${baseURL}/equipmentManagement/remoteControl?stationId=${own.stationId}`);
    const connector = page.getByTestId(`point-panel-${point.serialNumber}`).getByTestId("connector-1");
    await expect.poll(() => connector.locator('[data-status="Available"]').count()).toBe(1);

    await connector.getByRole("button", { name: m.remote.start }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.getByLabel(m.remote.idTag).inputValue()).toBe("PLREMOTE");
    await dialog.getByRole("button", { name: m.remote.start }).click();
    await expect.poll(() => page.getByText(m.remote.started).count()).toBeGreaterThan(0);
    expect(sim.remoteStarts.map((r) => r.idTag)).toEqual(["PLREMOTE"]);
  });
});

describe("stopping a session from its page", () => {
  it("stops a running session after a confirmation, and the page shows it ended", async () => {
    const { point, sim } = await connectedCharger();
    await (await api()).put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 });
    await expect.poll(() => sim.transactionId).toBeGreaterThan(0);
    const transactionId = sim.transactionId;

    await visit(page, `${baseURL}/systemMonitoring/charging/detail/${transactionId}`);
    await hydrated(page);
    const stop = page.getByRole("button", { name: m.remote.stop, exact: true });
    await stop.click();
    const confirm = page.getByRole("alertdialog");
    expect(await confirm.textContent()).toContain(point.serialNumber);
    await confirm.getByRole("button", { name: m.remote.stop }).click();
    await expect.poll(() => page.getByText(m.remote.stopped).count()).toBeGreaterThan(0);
    await expect.poll(() => sim.transactionId).toBeUndefined();
    // The session ends through the live view: the page shows it completed, and Stop is gone.
    await expect.poll(() => page.getByText(m.transactionStatus.COMPLETED, { exact: true }).count()).toBe(1);
    expect(await stop.count()).toBe(0);
  });

  it("offers no Stop to a user who may only watch sessions", async () => {
    const admin = await api();
    const role = await admin.post<{ id: number }>("/user-service/role", {
      // A name of its own: a retry of the test makes the role again.
      name: `Watchers ${Date.now().toString(36)}`,
      code: `WATCH_${Date.now().toString(36).toUpperCase()}`,
      type: "NORMAL",
      menuCodes: ["monitoring.charging"],
    });
    const username = `watch${Date.now().toString(36)}`;
    const account = await admin.post<{ initialPassword: string }>("/user-service/account", {
      username,
      name: "Wanda Watcher",
      email: `${username}@example.com`,
      roleId: role.id,
    });
    const first = await Api.login(baseURL, { operatorCode: "0PL002", username, password: account.initialPassword });
    await first.put("/user-service/person/operator/password", { oldPassword: account.initialPassword, newPassword: "Watch12345", confirmPassword: "Watch12345" });

    const { point, sim } = await connectedCharger();
    await admin.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 2 });
    await expect.poll(() => sim.transactionId).toBeGreaterThan(0);

    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002", username, "Watch12345");
    await page.waitForURL(`${baseURL}/systemMonitoring/charging`);
    await visit(page, `${baseURL}/systemMonitoring/charging/detail/${sim.transactionId}`);
    await hydrated(page);
    // The same running session that an operator could stop: live, with its tag, and no Stop.
    await expect.poll(() => page.locator('[data-live="on"]').count()).toBe(1);
    await expect.poll(() => page.getByRole("main").textContent()).toContain("PLREMOTE");
    expect(await page.getByRole("button", { name: m.remote.stop, exact: true }).count()).toBe(0);
  });
});
