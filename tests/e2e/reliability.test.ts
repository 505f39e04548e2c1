import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/reliability.json";
import { api, bootedClient, closeClients, newLocation } from "../peers/support";
import { hydrated, logIn, pageOfFile, text, visit } from "./support/session";

/**
 * The reliability screen (docs/rules/monitoring.md "Uptime"): a charger's fault shows as an
 * outage of its location, the operator puts it down to the grid, and the port's uptime is whole.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const r = t.reliability;
const { page } = await pageOfFile();
afterAll(() => closeClients());

describe("reliability in the console", () => {
  it("shows a charger's fault as an outage, excludes it as a grid interruption, and counts the port whole", async () => {
    const a = await api();
    const tag = Date.now().toString(36).toUpperCase();
    const station = await newLocation(`E2E uptime ${tag}`);
    const serialNumber = `E2E-UP-${tag}`;
    const point = await a.createPoint({ stationId: station.id, name: "Uptime point", serialNumber, pointNo: tag.slice(-16), type: "AC", ratedPower: 22, connectorCount: 2 });
    const key = await a.rotateKey(point.id);
    const { client } = await bootedClient(serialNumber, key);
    await client.call("StatusNotification", { connectorId: 1, errorCode: "GroundFailure", status: "Faulted", timestamp: new Date().toISOString() });

    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    const outages = `${baseURL}/systemMonitoring/reliability?stationId=${station.id}&tab=outages`;
    // The charger's status reaches D1 in the change writer's next batch.
    await expect
      .poll(
        async () => {
          await visit(page, outages);
          return page.getByRole("cell", { name: r.causes.Faulted, exact: true }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await hydrated(page);
    await expect.poll(() => page.getByText(r.ongoing, { exact: true }).count()).toBe(1);

    await page.getByRole("button", { name: r.exclude }).click();
    await page.getByLabel(r.reason).selectOption({ label: r.reasons.GRID });
    await page.getByLabel(r.note).fill("Utility cut on the street");
    await page.getByRole("button", { name: r.save }).click();
    await expect.poll(() => page.getByText(r.saved).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(r.reasons.GRID, { exact: true }).count()).toBe(1);

    await page.getByRole("tab", { name: r.byPort }).click();
    await expect.poll(() => page.getByText(`${serialNumber} · 1`).count()).toBe(1);
    await expect.poll(() => page.getByText(`${serialNumber} · 2`).count()).toBe(1);
    // Excluded: no port of the location is short of the minimum.
    await expect.poll(() => page.getByText(`· ${r.below}`).count()).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: r.export }).count()).toBe(1);
  });
});
