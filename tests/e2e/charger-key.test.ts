import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enPoints from "../../domain/i18n/locales/en/points.json";
import { api, closeClients, strictClient } from "../peers/support";
import { openBrowser } from "./support/browser";
import { hydrated, logIn, visit } from "./support/session";

/**
 * The charger key dialog gives, with the key, everything a charger needs to connect: the exact
 * endpoint, the Basic-auth username and the configuration keys, each copyable. What it shows is
 * proved by connecting an ocpp-rpc strict client with exactly that.
 */
const baseURL = inject("baseURL");
const k = enPoints.points.key;
let browser: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  page = await browser.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await closeClients();
  await browser?.close();
});

describe("the charger key dialog", () => {
  it("shows the key with the endpoint, the username and the configuration keys, and the page shows the key as set without a reload", async () => {
    const a = await api();
    const serialNumber = `E2E-KEY-${Date.now().toString(36).toUpperCase()}`;
    const point = await a.createPoint({
      stationId: await a.firstStationId(),
      name: "Key dialog point",
      serialNumber,
      pointNo: serialNumber.slice(-12),
      type: "AC",
      ratedPower: 22,
      connectorCount: 2,
    });
    await a.enablePoint(point.id);

    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    await visit(page, `${baseURL}/equipmentManagement/point/pointDetail/${point.id}`);
    await hydrated(page);
    expect(await page.getByTestId("key-state").textContent()).toBe(k.none);
    // Marks this document: a reload would lose the mark.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    await page.getByRole("button", { name: k.generate }).click();
    await page.getByRole("dialog").getByRole("button", { name: k.generate }).click();
    const dialog = page.getByRole("dialog");
    const keyText = dialog.getByTestId("charger-key");
    await expect.poll(() => keyText.count()).toBe(1);
    const key = (await keyText.textContent())?.trim() ?? "";
    expect(key).toMatch(/^[0-9a-f]{40}$/);

    const endpoint = (await dialog.getByTestId("charger-endpoint").textContent())?.trim() ?? "";
    expect(endpoint).toBe(`${baseURL.replace(/^http:/, "ws:")}/ocpp/0PL002/${serialNumber}`);
    expect((await dialog.getByTestId("charger-username").textContent())?.trim()).toBe(serialNumber);
    const configValue = async (name: string) => (await dialog.getByTestId(`config-${name}`).getByTestId("config-value").textContent())?.trim();
    expect(await configValue("AuthorizationKey")).toBe(key);
    // The console runs on http here, so the charger connects without TLS: security profile 1.
    expect(await configValue("SecurityProfile")).toBe("1");
    const heartbeat = Number(await configValue("HeartbeatInterval"));
    expect(heartbeat).toBeGreaterThan(0);

    await dialog.getByRole("button", { name: k.copyItem.replace("{{item}}", k.endpoint) }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(endpoint);
    await dialog.getByRole("button", { name: k.copyItem.replace("{{item}}", "AuthorizationKey") }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    await dialog.getByRole("button", { name: k.done }).click();
    await expect.poll(() => page.getByTestId("key-state").textContent()).toMatch(new RegExp(`^${k.setAt.replace("{{at}}", "")}\\S`));
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.getByRole("button", { name: k.rotate }).count()).toBe(1);

    // A charger set up exactly as shown connects and is accepted, told the interval shown.
    expect(endpoint.endsWith(`/${serialNumber}`)).toBe(true);
    const charger = strictClient(serialNumber, key, { endpoint: endpoint.slice(0, -serialNumber.length - 1) });
    await charger.connect();
    const boot = await charger.call("BootNotification", { chargePointVendor: "E2E", chargePointModel: "Key dialog" });
    expect(boot).toMatchObject({ status: "Accepted", interval: heartbeat });
    expect(charger.validationFailures).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
