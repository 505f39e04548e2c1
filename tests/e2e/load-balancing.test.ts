import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/operations.json";
import { answering, api, bootedClient, closeClients, newLocation } from "../peers/support";
import { field, hydrated, logIn, pageOfFile, text, visit } from "./support/session";

/**
 * The load-balancing journey (docs/rules/operations.md "Load balancing"): a configuration made in
 * the console for a location with a load power, delivered to a strict ocpp-rpc charger whose
 * acceptance the detail screen shows live, then disabled, which clears the profile.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const lb = t.operations.lb;
const { page } = await pageOfFile();
afterAll(() => closeClients());

describe("load balancing in the console", () => {
  it("creates a configuration, delivers it to a charger that accepts, sees it live, and disables it to clear the profile", async () => {
    const a = await api();
    const tag = Date.now().toString(36).toUpperCase();
    const stationName = `E2E load ${tag}`;
    const station = await newLocation(stationName, { powerLimit: 50, timeZone: "Europe/Warsaw" });
    const serialNumber = `E2E-LB-${tag}`;
    const point = await a.createPoint({ stationId: station.id, name: "Balanced point", serialNumber, pointNo: tag.slice(-16), type: "AC", ratedPower: 22, connectorCount: 2 });
    const key = await a.rotateKey(point.id);
    const { client } = await bootedClient(serialNumber, key);
    const sets = answering(client, "SetChargingProfile", { status: "Accepted" });
    const clears = answering(client, "ClearChargingProfile", { status: "Accepted" });

    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    await visit(page, `${baseURL}/equipmentManagement/loadingBalance/add`);
    await hydrated(page);
    await field(page, lb.name).fill("Evening cap");
    await page.getByLabel(lb.station).selectOption({ label: `${stationName} · 50 kW` });
    await page.getByRole("checkbox", { name: new RegExp(serialNumber) }).click();
    // Above the location's load power: refused with the rule's message.
    await field(page, lb.powerLimit).fill("60");
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText("The power may not exceed the location's load power (50 kW)").count()).toBeGreaterThan(0);
    await field(page, lb.powerLimit).fill("40");
    await page.getByRole("button", { name: lb.addSlot }).click();
    await field(page, lb.slotLimit).fill("11");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/\/equipmentManagement\/loadingBalance\/detail\/\d+$/);
    await expect.poll(() => page.getByTestId(`delivery-${serialNumber}`).textContent()).toBe(lb.deliveries.NotSent);

    await page.getByRole("button", { name: lb.deliver }).click();
    await page.getByRole("button", { name: t.ui.confirm.ok }).click();
    const profile = await sets.next();
    expect(profile.csChargingProfiles.chargingSchedule.chargingSchedulePeriod).toEqual([
      { startPeriod: 0, limit: 40_000 },
      { startPeriod: 64_800, limit: 11_000 },
      { startPeriod: 79_200, limit: 40_000 },
    ]);
    await expect.poll(() => page.getByTestId(`delivery-${serialNumber}`).textContent(), { timeout: 15_000 }).toBe(lb.deliveries.Accepted);

    // The load monitor shows the limit in force beside the location's live power.
    await visit(page, `${baseURL}/systemMonitoring/loadMonitoring?stationId=${station.id}`);
    await expect.poll(() => page.getByTestId("balancing-limit").textContent()).toContain("Evening cap");
    await page.goBack();
    await hydrated(page);

    await page.getByRole("button", { name: t.common.disable }).click();
    await page.getByRole("button", { name: t.ui.confirm.ok }).click();
    expect(await clears.next()).toEqual({ id: profile.csChargingProfiles.chargingProfileId });
    await expect.poll(() => page.getByRole("cell", { name: "ClearChargingProfile" }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByTestId(`delivery-${serialNumber}`).textContent(), { timeout: 15_000 }).toBe(lb.deliveries.Accepted);
    expect(client.validationFailures).toEqual([]);
  });
});
