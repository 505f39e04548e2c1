import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enNames from "../../domain/i18n/locales/en/names.json";
import { CONNECTOR_NAMES } from "../../domain/connector-names";
import { api, newCharger } from "../peers/support";
import { openBrowser } from "./support/browser";
import { simulatedCharger } from "./support/charger";
import { hydrated, logIn, pageOfFile, text, visit } from "./support/session";

/**
 * Names and consistency in the browser (docs/rules/console.md "Tables", "Row actions", "Names";
 * docs/rules/monitoring.md "Links to the charger"): the widest tables fit 1280 px, row actions
 * share one shape, monitoring rows lead to their charger, a remote start explains itself, menus
 * name what is there, and a visitor at `/` reaches the operator picker quietly.
 */
const baseURL = inject("baseURL");
const t = text.en;
const n = enNames.names;
const { page } = await pageOfFile();
let sim: ReturnType<typeof simulatedCharger> | undefined;
const pageErrors: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
});

afterAll(async () => {
  await sim?.close();
});

/** The ten widest lists of the demo operator. */
const WIDE_TABLES = [
  "/financialManagement/billManagement",
  "/financialManagement/chargeRecord",
  "/equipmentManagement/point",
  "/equipmentManagement/station",
  "/systemMonitoring/Connector",
  "/systemMonitoring/alarmRecord",
  "/user/rf-card",
  "/userManagement/userProfileManagement",
  "/financialManagement/chargeConfigurationNew",
  "/carrierSystem/operationLog",
];

describe("names and consistency", () => {
  it("fits the ten widest tables into 1280 px without a sideways scroll", { timeout: 300_000 }, async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of WIDE_TABLES) {
      await visit(page, `${baseURL}${path}`);
      await hydrated(page);
      const table = page.getByRole("table").first();
      await table.waitFor();
      const box = table.locator("xpath=..");
      // The fit settles after hydration: poll until the box no longer scrolls.
      await expect.poll(() => box.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), { message: path }).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
    }
  });

  it("puts a row's actions beyond two into a labelled ⋯ menu", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${baseURL}/user/rf-card`);
    await hydrated(page);
    const more = page.getByRole("button", { name: n.rowActions.more }).first();
    await more.click();
    const items = page.getByRole("menuitem");
    await expect.poll(() => items.count()).toBeGreaterThan(1);
    for (const label of await items.allTextContents()) expect(label.trim()).not.toBe("");
    await page.keyboard.press("Escape");
  });

  it("names the menus after what they hold", async () => {
    await page.goto(`${baseURL}/home`);
    await hydrated(page);
    const groups = page.locator("aside nav button[aria-expanded=false]");
    while ((await groups.count()) > 0) await groups.first().click();
    const nav = page.locator("aside nav");
    for (const label of [t.menu.operation.maintain, t.menu.users.userRecharge, t.menu.carrier.parameterSettings]) {
      await expect.poll(() => nav.getByText(label, { exact: true }).count(), { message: label }).toBeGreaterThan(0);
    }
  });

  it("wraps the German sidebar's labels at word boundaries, never inside a word", async () => {
    await page.context().addCookies([{ name: "lang", value: "de", url: baseURL }]);
    try {
      await page.goto(`${baseURL}/home`);
      await hydrated(page);
      const groups = page.locator("aside nav button[aria-expanded=false]");
      while ((await groups.count()) > 0) await groups.first().click();
      const split = await page.locator("aside").evaluate((aside) => {
        const broken: string[] = [];
        for (const label of aside.querySelectorAll("nav :is(a, button) > span")) {
          const node = label.firstChild;
          if (!node || node.nodeType !== Node.TEXT_NODE) continue;
          const words = node.textContent ?? "";
          // A hyphen is a place a German compound may break, as in print.
          for (const match of words.matchAll(/[^\s-]+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(match[0]);
          }
        }
        return broken;
      });
      expect(split).toEqual([]);
    } finally {
      await page.context().addCookies([{ name: "lang", value: "en", url: baseURL }]);
    }
  });

  it("explains a session started with the operator's own tag, links monitoring rows to their charger, and names connectors by their standard", async () => {
    const point = await newCharger();
    sim = simulatedCharger(baseURL, point.serialNumber, point.key);
    await sim.start();
    // Without an idTag the operator's remote-start tag starts it.
    await (await api()).put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 });
    await expect.poll(() => sim?.transactionId).toBeGreaterThan(0);

    // Wide enough that no column folds into the row's details.
    await page.setViewportSize({ width: 2400, height: 900 });
    await page.goto(`${baseURL}/systemMonitoring/charging?serialNumber=${point.serialNumber}`);
    await hydrated(page);
    const row = page.getByRole("row").filter({ hasText: point.serialNumber });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.getByTestId("remote-start").count()).toBe(1);
    expect(await row.getByTestId("point-link").getAttribute("href")).toBe(`/equipmentManagement/point/pointDetail/${point.id}`);
    expect(await row.getByTestId("connector-link").getAttribute("href")).toBe(`/systemMonitoring/Connector?serialNumber=${point.serialNumber}`);

    await page.goto(`${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${sim!.transactionId}`);
    await hydrated(page);
    const card = page.getByTestId("remote-start-explained");
    await card.waitFor();
    const explained = (await card.textContent()) ?? "";
    expect(explained).toContain(n.remoteStart.title);
    expect(explained).toMatch(/nobody/i);

    await page.goto(`${baseURL}/equipmentManagement/point/pointDetail/${point.id}`);
    await hydrated(page);
    const body = (await page.locator("main").textContent()) ?? "";
    expect(Object.values(CONNECTOR_NAMES).some((name) => body.includes(name))).toBe(true);
    expect(body).not.toMatch(/\bIEC[123]\b|\bSAE[12]\b|\bGBT[123]\b/);
    expect(sim.failures).toEqual([]);
  });

  it("sends a visitor without a session from / to the operator picker without a warning", async () => {
    const visitor = await openBrowser();
    try {
      const fresh = await visitor.newPage();
      await fresh.goto(`${baseURL}/`);
      await fresh.waitForURL(`${baseURL}/homePage`);
      await hydrated(fresh);
      expect(await fresh.getByText(t.guard.noLogin).count()).toBe(0);
    } finally {
      await visitor.close();
    }
  });

  it("opens no live socket on the platform's pages, and logs no console error there", async () => {
    const platform = await openBrowser();
    try {
      const p = await platform.newPage();
      const sockets: string[] = [];
      const errors: string[] = [];
      p.on("websocket", (socket) => sockets.push(socket.url()));
      p.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      await logIn(p, baseURL, "PLATFORM", "platform", "Platform123");
      await hydrated(p);
      await p.goto(`${baseURL}/platform/operator`);
      await hydrated(p);
      await p.waitForTimeout(1500);
      expect(sockets.filter((url) => url.endsWith("/live"))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await platform.close();
    }
    expect(pageErrors).toEqual([]);
  });
});
