import { afterAll, beforeAll, describe, expect, inject, it, onTestFailed } from "vitest";
import en from "../../domain/i18n/locales/en/ad-hoc.json";
import { simulatedCharger } from "./support/charger";
import { hydrated, pageOfFile } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("charger PL002-CP01");

/**
 * Ad-hoc payment on a phone (docs/rules/payments.md "Ad-hoc payment"): the QR code's address of a
 * demo charger, "Start charging", the Stripe test double's card form `npm start` serves (TEST MODE),
 * a simulated charger that the product starts remotely and that charges, Stop, and the receipt.
 */
const baseURL = inject("baseURL");
const t = en.adHoc.panel;
const DEMO_KEY = "000102030405060708090a0b0c0d0e0f10111213";
const { page } = await pageOfFile();
const pageErrors: string[] = [];
let sim: ReturnType<typeof simulatedCharger>;

beforeAll(async () => {
  sim = simulatedCharger(baseURL, "PL002-CP01", DEMO_KEY);
  await sim.start();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.setViewportSize({ width: 390, height: 844 });
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await sim?.close().catch(() => undefined);
});

describe("paying ad hoc on the charger's public page", () => {
  it("pays with the test card, charges on the simulated charger, stops and shows the receipt", { timeout: 180_000 }, async () => {
    await page.goto(`${baseURL}/charge/PL002-CP01?lang=en`);
    await hydrated(page);
    const panel = page.getByTestId("public-connector").first().getByTestId("ad-hoc-panel");
    // What the driver saw when it failed, for whoever reads the run.
    onTestFailed(async () => {
      await page.screenshot({ path: "/tmp/p2-ad-hoc-failed.png", fullPage: true }).catch(() => undefined);
      console.warn(`ad-hoc panel at failure: ${await panel.textContent({ timeout: 1_000 }).catch(() => "?")}`);
    });
    const start = panel.getByRole("button", { name: t.start });
    await expect.poll(() => start.isEnabled(), { timeout: 15_000 }).toBe(true);
    await start.click();

    await expect.poll(() => panel.getByLabel(t.email).count(), { timeout: 15_000 }).toBe(1);
    await panel.getByLabel(t.email).fill("adhoc-driver@example.com");
    await panel.getByRole("button", { name: t.continue }).click();
    // The local double's card form, clearly test mode.
    await expect.poll(() => panel.getByTestId("ad-hoc-test-mode").count(), { timeout: 15_000 }).toBe(1);
    expect(await panel.getByTestId("ad-hoc-test-mode").textContent()).toBe(t.testMode);
    // The double's card form is a page of its own that sends the driver back.
    await panel.getByTestId("ad-hoc-test-card").click();
    await page.waitForURL(/\/test-card\?/);
    expect(await page.getByTestId("test-mode").textContent()).toContain("TEST MODE");
    await page.getByRole("button", { name: "Authorise (test)" }).click();
    await page.waitForURL(/\/charge\/PL002-CP01/);
    await hydrated(page);

    // Authorised: the charger is started remotely with a one-time tag and charges.
    const session = panel.getByTestId("ad-hoc-session");
    await expect.poll(() => session.getAttribute("data-status"), { timeout: 20_000 }).toBe("CHARGING");
    expect(sim.remoteStarts).toHaveLength(1);
    expect(sim.remoteStarts[0]).toMatchObject({ connectorId: 1, idTag: expect.stringMatching(/^AH/) });
    expect(await panel.getByTestId("ad-hoc-status").textContent()).toBe(t.status.CHARGING);
    await expect.poll(() => panel.getByTestId("ad-hoc-energy").textContent(), { timeout: 15_000 }).not.toMatch(/^0\.000/);

    await panel.getByRole("button", { name: t.stop }).click();
    await expect.poll(() => session.getAttribute("data-status"), { timeout: 60_000 }).toBe("FINISHED");
    const receipt = panel.getByTestId("ad-hoc-receipt");
    const href = await receipt.getAttribute("href");
    expect(href).toMatch(/\/tourist\/chargingRecordDetails\/\w+/);
    await page.screenshot({ path: "/tmp/p2-ad-hoc.png", fullPage: true });
    // Mobile first: nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await receipt.click();
    await page.waitForURL(/\/tourist\/chargingRecordDetails\//);
    const response = await page.goto(page.url());
    expect(response!.status()).toBe(200);
    expect(pageErrors).toEqual([]);
  });
});
