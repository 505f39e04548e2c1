import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enMonitoring from "../../domain/i18n/locales/en/monitoring.json";
import en from "../../domain/i18n/locales/en/public-charger.json";
import pl from "../../domain/i18n/locales/pl/public-charger.json";
import { newCharger } from "../peers/support";
import { simulatedCharger } from "./support/charger";
import { hydrated, pageOfFile, text } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("charger PL002-CP01");

/**
 * The public page a point's QR code opens (docs/rules/public-charger.md "The charger page"), on a
 * phone: no login, the operator's name, each connector with its status, power, plug and the price
 * now and for the next hours, the status following the charger live.
 */
const baseURL = inject("baseURL");
const t = en.publicCharger;
const status = enMonitoring.monitoring.connectorStatus;
const { page } = await pageOfFile();
const pageErrors: string[] = [];
const chargers: ReturnType<typeof simulatedCharger>[] = [];

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 390, height: 844 });
});

afterAll(async () => {
  for (const sim of chargers) await sim.close().catch(() => undefined);
});

describe("the public charger page", () => {
  it("shows the demo charger on a phone without a login: operator, connectors, plug, power and the price now and next", async () => {
    const response = await page.goto(`${baseURL}/charge/PL002-CP01?lang=en`);
    expect(response!.status()).toBe(200);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1, name: t.title.replace("{{serial}}", "PL002-CP01") }).count()).toBe(1);
    expect(await page.getByText("Plugdesk Polska", { exact: true }).count()).toBeGreaterThan(0);
    const connectors = page.getByTestId("public-connector");
    expect(await connectors.count()).toBe(2);
    const first = connectors.first();
    expect(await first.getByRole("heading", { level: 2 }).textContent()).toBe(t.connector.replace("{{no}}", "1"));
    expect(await first.textContent()).toContain("CCS2");
    expect(await first.textContent()).toContain("60.00 kW");
    // The demo's day and night tariff: energy with the per-kWh service fee, the idle fee after 30 free minutes.
    const price = first.getByTestId("public-price");
    expect(await price.textContent()).toMatch(/\d\.\d{2} PLN\/kWh/);
    expect(await price.textContent()).toContain(t.grace.replace("{{minutes}}", "30"));
    expect(await price.textContent()).toMatch(new RegExp(t.priceUntil.replace("{{time}}", "\\d{2}:\\d{2}")));
    expect(await first.getByTestId("public-upcoming").locator("li").count()).toBeGreaterThan(0);
    // Where the ad-hoc payment mounts, once per connector.
    expect(await page.locator('[data-slot="ad-hoc"]').count()).toBe(2);
    // Mobile first: nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it("speaks the language asked for", async () => {
    await page.goto(`${baseURL}/charge/PL002-CP01?lang=pl`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1, name: pl.publicCharger.title.replace("{{serial}}", "PL002-CP01") }).count()).toBe(1);
  });

  it("follows a connector's status live as the charger reports it", async () => {
    const point = await newCharger();
    await page.goto(`${baseURL}/charge/${point.serialNumber}?lang=en`);
    await hydrated(page);
    const first = page.getByTestId("public-connector").first();
    await expect.poll(() => first.textContent()).toContain(status.offline);
    const sim = simulatedCharger(baseURL, point.serialNumber, point.key);
    chargers.push(sim);
    await sim.start();
    await expect.poll(() => first.textContent(), { timeout: 20_000 }).toContain(status.Available);
    expect(sim.failures).toEqual([]);
  });

  it("answers an unknown charger with the not-found page", async () => {
    const response = await page.goto(`${baseURL}/charge/NO-SUCH-CHARGER?lang=en`);
    expect(response!.status()).toBe(404);
    await expect.poll(() => page.getByText(text.en.notFound.lost).count()).toBe(1);
  });
});
