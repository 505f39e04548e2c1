import type { BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/onboarding.json";
import enPoints from "../../domain/i18n/locales/en/points.json";
import enStations from "../../domain/i18n/locales/en/stations.json";
import { Api } from "../../scripts/sim/register";
import { api as demoApi } from "../peers/support";
import { BLANK_TILE } from "../support/browser";
import { newOperatorBody } from "../support/operators";
import { expectAccessible } from "./support/axe";
import { openBrowser } from "./support/browser";
import { field, hydrated, logIn, text, visit } from "./support/session";

/**
 * The first hour of a new operator (docs/rules/console.md "Onboarding", "Forms";
 * docs/rules/settings.md "Map"; docs/rules/equipment.md "Point pages"): the checklist on its
 * home, a location placed on OpenStreetMap's tiles (answered here, there is no network) and saved
 * without a geocoder, a form that says why it cannot be saved, and a point's connection details.
 */
const baseURL = inject("baseURL");
const o = en.onboarding;
const s = enStations.stations;
const c = en.points.connection;
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
let browser: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
let operator: { code: string; username: string; password: string };

/** A new operator of the standard edition, its administrator's initial password changed. */
async function provision() {
  const platform = await Api.login(baseURL, { operatorCode: "PLATFORM", username: "platform", password: "Platform123" });
  const code = `0NB${Date.now().toString(36).slice(-4).toUpperCase()}`;
  const body = newOperatorBody(code, { edition: "standard", defaultLanguage: "en" });
  const created = await platform.post<{ admin: { username: string; initialPassword: string } }>("/platform-service/operator", body);
  const { username, initialPassword } = created.admin;
  const admin = await Api.login(baseURL, { operatorCode: code, username, password: initialPassword });
  const password = "Admin12345";
  await admin.ok("PUT", "/user-service/person/operator/password", { oldPassword: initialPassword, newPassword: password, confirmPassword: password });
  return { code, username, password };
}

beforeAll(async () => {
  operator = await provision();
  browser = await openBrowser();
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  page = await browser.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  expect(pageErrors).toEqual([]);
});

describe("a new operator's first hour", () => {
  it("shows the checklist on the home page with every step to do, each linked to its screen, and the address chargers dial", async () => {
    await logIn(page, baseURL, operator.code, operator.username, operator.password);
    await page.waitForURL(`${baseURL}/home`);
    const checklist = page.getByTestId("onboarding");
    await poll(() => checklist.count()).toBe(1);
    expect(await checklist.getByRole("heading", { name: o.title }).count()).toBe(1);
    for (const step of ["location", "charger", "price", "card", "colleague"] as const) {
      const row = page.getByTestId(`onboarding-${step}`);
      expect(await row.getAttribute("data-done")).toBeNull();
      expect(await row.getByRole("link", { name: o.steps[step].action }).getAttribute("href")).toBeTruthy();
    }
    const origin = new URL(baseURL);
    expect(await page.getByTestId("onboarding-endpoint").textContent()).toBe(`ws://${origin.host}/ocpp/${operator.code}/<${o.serialNumber}>`);

    await page.getByRole("link", { name: o.steps.location.action }).click();
    await page.waitForURL(`${baseURL}/equipmentManagement/station/stationAdd`);
  });

  it("says why the location form cannot be saved and takes the user to the first problem; the parking fee starts as free", async () => {
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("radio", { name: s.parking.free }).getAttribute("aria-checked")).toBe("true");
    expect(await field(page, s.fields.businessHours).inputValue()).toBe("00:00-24:00");

    // Everything but the description, the last field of the page.
    await field(page, s.fields.name).fill("First site");
    await field(page, s.fields.servicePhone).fill("+48 58 555 01 02");
    await field(page, s.fields.maintainer).fill("Serwis");
    await field(page, s.fields.address).fill("ul. Długa 1, Gdańsk");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("button", { name: text.en.common.save }).click();

    const problems = page.getByTestId("form-problems");
    await poll(() => problems.textContent()).toBe(en.formProblems.cannotSave.replace("{{fields}}", s.fields.description));
    const description = field(page, s.fields.description);
    await poll(() => description.evaluate((element) => element === document.activeElement)).toBe(true);
    const inView = await description.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    expect(page.url()).toBe(`${baseURL}/equipmentManagement/station/stationAdd`);
  });

  it("places the location on OpenStreetMap's tiles, with their attribution, and keeps the address as typed without a geocoder", async () => {
    // Every page answers the tiles (tests/support/browser.ts `withLocalTiles`); the test watches them come.
    // Only tiles whose request finished: a tile Leaflet cancels because the view changed while it
    // loaded has no answer, and is no failure.
    const tiles: Request[] = [];
    page.on("requestfinished", (request) => {
      if (/^https:\/\/tile\.openstreetmap\.org\//.test(request.url())) tiles.push(request);
    });
    await page.reload();
    await hydrated(page);
    const map = page.getByTestId("tile-map");
    await poll(() => map.getAttribute("data-provider")).toBe("osm");
    await poll(async () => tiles.length).toBeGreaterThan(0);
    expect(tiles.every((r) => /^https:\/\/tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/.test(r.url()))).toBe(true);
    const answers = await Promise.all(tiles.map((r) => r.response()));
    expect(answers.map((answer) => answer?.status())).toEqual(tiles.map(() => 200));
    expect(await answers[0]!.body()).toEqual(BLANK_TILE);
    const attribution = map.getByRole("link", { name: "OpenStreetMap" });
    expect(await attribution.getAttribute("href")).toBe("https://www.openstreetmap.org/copyright");
    // Told from its text by more than colour (axe-core's link-in-text-block, which the screen's
    // check on arrival meets only when the map is drawn by then); and the map drawn is checked here.
    expect(await attribution.evaluate((link) => getComputedStyle(link).textDecorationLine)).toBe("underline");
    await expectAccessible(page);
    expect(await page.getByTestId("no-geocoder").textContent()).toContain(en.stations.map.noGeocoder);
    expect(await page.getByRole("button", { name: s.map.locate }).count()).toBe(0);

    await field(page, s.fields.name).fill("Gdańsk Długa");
    await field(page, s.fields.servicePhone).fill("+48 58 555 01 02");
    await field(page, s.fields.maintainer).fill("Serwis");
    await field(page, s.fields.address).fill("ul. Długa 1, Gdańsk");
    await field(page, s.fields.description).fill("Two bays by the town hall.");
    await map.scrollIntoViewIfNeeded();
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await poll(() => field(page, s.fields.lat).inputValue()).not.toBe("");
    const lat = Number(await field(page, s.fields.lat).inputValue());
    const lng = Number(await field(page, s.fields.lng).inputValue());
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    expect(Math.abs(lng)).toBeLessThanOrEqual(180);
    await poll(() => page.getByTestId("map-marker").count()).toBe(1);

    await page.getByRole("button", { name: text.en.common.save }).click();
    await page.waitForURL(/\/equipmentManagement\/station\/stationDetail\/\d+$/);
    await poll(() => page.getByText(`${lat}, ${lng}`).count()).toBeGreaterThan(0);
    expect(await page.getByText("ul. Długa 1, Gdańsk").count()).toBeGreaterThan(0);

    await visit(page, `${baseURL}/home`);
    await poll(() => page.getByTestId("onboarding-location").getAttribute("data-done")).toBe("true");
  });

  it("hides the checklist when asked, for good in this browser", async () => {
    await hydrated(page);
    await page.getByRole("button", { name: o.hide }).click();
    await poll(() => page.getByTestId("onboarding").count()).toBe(0);
    await page.reload();
    await hydrated(page);
    expect(await page.getByTestId("onboarding").count()).toBe(0);
  });

  it("shows a point's connection details: both addresses, the charger id, the key's state and the subprotocols the point admits", async () => {
    const a = await demoApi();
    const serialNumber = `E2E-ONB-${Date.now().toString(36).toUpperCase()}`;
    const point = await a.createPoint({
      stationId: await a.firstStationId(),
      name: "Onboarding point",
      serialNumber,
      pointNo: serialNumber.slice(-12),
      type: "AC",
      ratedPower: 22,
      connectorCount: 2,
    });
    const demo = await browser.newPage();
    await logIn(demo, baseURL, "0PL002", "demoadmin", "Demo12345");
    await demo.goto(`${baseURL}/equipmentManagement/point/pointDetail/${point.id}`);
    await hydrated(demo);
    const card = demo.getByTestId("point-connection");
    const host = new URL(baseURL).host;
    expect(await card.getByTestId("connection-endpoint").textContent()).toBe(`ws://${host}/ocpp/0PL002/${serialNumber}`);
    expect(await card.getByTestId("connection-short-endpoint").textContent()).toBe(`ws://${host}/ocpp/${serialNumber}`);
    expect(await card.getByTestId("connection-charger-id").textContent()).toBe(serialNumber);
    expect(await card.getByTestId("connection-key").textContent()).toBe(c.keyNone.replace("{{action}}", enPoints.points.key.generate));
    expect(await card.getByTestId("connection-subprotocols").textContent()).toBe("ocpp2.0.1, ocpp1.6");

    await card.getByRole("button", { name: o.copy.label.replace("{{item}}", c.endpoint) }).click();
    await poll(() => demo.evaluate(() => navigator.clipboard.readText())).toBe(`ws://${host}/ocpp/0PL002/${serialNumber}`);

    await a.rotateKey(point.id);
    await demo.reload();
    await hydrated(demo);
    await poll(() => card.getByTestId("connection-key").textContent()).toContain(enPoints.points.key.rotate);
    await demo.close();
  });
});
