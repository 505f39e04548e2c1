import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enMonitoring from "../../domain/i18n/locales/en/monitoring.json";
import { api, newCharger } from "../peers/support";
import { simulatedCharger } from "./support/charger";
import { hydrated, logIn, pageOfFile, text } from "./support/session";

/**
 * Lists fit the screen: on a 1440 × 900 screen and on a narrower one, the status and actions
 * columns stay in view, the page never scrolls sideways, and the columns that give way are
 * readable in the row's details.
 */
const baseURL = inject("baseURL");
const t = text.en;
const m = enMonitoring.monitoring;
const { page } = await pageOfFile();
let sim: ReturnType<typeof simulatedCharger> | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await sim?.close();
});

const SCREENS = [
  { name: "charging points", path: "/equipmentManagement/point?serialNumber=", status: t.common.status, actions: t.common.actions },
  { name: "charging sessions", path: "/systemMonitoring/charging?serialNumber=", status: m.common.status, actions: m.common.actions },
  { name: "alarm records", path: "/systemMonitoring/alarmRecord?serialNumber=", status: m.common.status, actions: m.common.actions },
];

/** The column headings the table shows, in order. */
const headings = (table: ReturnType<Page["getByRole"]>) =>
  table.getByRole("columnheader").evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim() ?? "").filter(Boolean));

describe("tables on a laptop screen", () => {
  it("keep status and actions in view without a sideways scroll, with the other columns in the row's details", async () => {
    const point = await newCharger();
    sim = simulatedCharger(baseURL, point.serialNumber, point.key);
    await sim.start();
    const a = await api();
    // A running session for the sessions list, and an alarm for the alarm records.
    await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 });
    await expect.poll(() => sim?.transactionId).toBeGreaterThan(0);
    await sim.client.call("StatusNotification", { connectorId: 2, errorCode: "HighTemperature", status: "Faulted", timestamp: new Date().toISOString() });

    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    for (const screen of SCREENS) {
      const url = `${baseURL}${screen.path}${point.serialNumber}`;
      const table = page.getByRole("table").first();
      const row = table.getByRole("row").filter({ hasText: point.serialNumber });

      // Wide enough for every column: the headings a narrower screen must still account for.
      await page.setViewportSize({ width: 2400, height: 900 });
      // Loaded whole at each size, as a screen opened on such a display is: the columns are fitted
      // when the page starts (`visit` would keep the fit and the open row of the size before).
      await page.goto(url);
      await expect.poll(() => row.count()).toBe(1);
      const all = await headings(table);
      expect(all, screen.name).toContain(screen.status);
      expect(all, screen.name).toContain(screen.actions);

      for (const viewport of [{ width: 1440, height: 900 }, { width: 1024, height: 768 }]) {
        const where = `${screen.name} at ${viewport.width} × ${viewport.height}`;
        await page.setViewportSize(viewport);
        await page.goto(url);
        // The server cannot measure the screen: the columns settle once the page runs.
        await hydrated(page);
        await expect.poll(() => row.count()).toBe(1);

        const box = table.locator("xpath=..");
        const frame = (await box.boundingBox())!;
        for (const heading of [screen.status, screen.actions]) {
          const cell = (await table.getByRole("columnheader", { name: heading, exact: true }).boundingBox())!;
          expect(cell, `${heading} on ${where}`).not.toBeNull();
          expect(cell.x, `${heading} on ${where}`).toBeGreaterThanOrEqual(frame.x - 1);
          expect(cell.x + cell.width, `${heading} on ${where}`).toBeLessThanOrEqual(frame.x + frame.width + 1);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), where).toBe(true);
        expect(await box.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), where).toBe(true);

        const shown = await headings(table);
        const moved = all.filter((heading) => !shown.includes(heading));
        if (viewport.width < 1440) expect(moved.length, where).toBeGreaterThan(0);
        if (moved.length === 0) continue;
        await row.getByRole("button", { name: t.ui.table.expand }).click();
        const details = page.getByTestId("row-details");
        await expect.poll(() => details.count()).toBe(1);
        const entries = await details.locator("dt").evaluateAll((terms) =>
          terms.map((term) => [term.textContent?.trim() ?? "", term.nextElementSibling?.textContent?.trim() ?? ""]),
        );
        for (const heading of moved) {
          const entry = entries.find(([term]) => term === heading);
          expect(entry, `${heading} on ${where}`).toBeDefined();
          expect(entry?.[1], `${heading} on ${where}`).not.toBe("");
        }
      }
    }
    expect(sim.failures).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
