import { describe, expect, inject, it } from "vitest";
import enMonitoring from "../../domain/i18n/locales/en/monitoring.json";
import enMapIcon from "../../domain/i18n/locales/en/map-icon.json";
import enNames from "../../domain/i18n/locales/en/names.json";
import en from "../../domain/i18n/locales/en/stations.json";
import { pngImage } from "../unit/stations-image-samples";
import { field, logIn, pageOfFile, text, visit } from "./support/session";

const baseURL = inject("baseURL");
const t = text.en;
const s = en.stations;
const LIST = `${baseURL}/equipmentManagement/station`;
/** Server round trips on a busy two-core machine can take longer than expect.poll's default second. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });
const { page } = await pageOfFile();

describe("locations", () => {
  it("adds a location through the console, lists it by rank, refuses to enable it without points, edits and deletes it", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    await visit(page, `${LIST}/stationAdd`);
    await page.waitForLoadState("networkidle");
    await page.getByRole("button", { name: t.common.save }).click();
    await poll(() => page.getByText(s.validation.nameRequired).count()).toBe(1);
    // The parking fee starts at its usual answer, free (docs/rules/console.md "Forms").
    expect(await page.getByText(s.validation.parkingFee).count()).toBe(0);

    await field(page, s.fields.name).fill("Sopot Molo");
    await field(page, s.fields.rank).fill("9000");
    await field(page, s.fields.servicePhone).fill("+48 58 555 01 02");
    await field(page, s.fields.maintainer).fill("Serwis Trójmiasto");
    await field(page, s.fields.businessHours).fill("00:00-24:00");
    await field(page, s.fields.address).fill("ul. Bohaterów Monte Cassino 1, 81-767 Sopot");
    await field(page, s.fields.lat).fill("54.4445");
    await field(page, s.fields.lng).fill("18.5701");
    await page.getByRole("radio", { name: s.parking.paid }).click();
    await field(page, s.fields.parkingFeeAmount).fill("7.5");
    await field(page, s.fields.description).fill("Beside the pier, four bays reserved for charging.");
    await page.getByLabel(s.logo.upload, { exact: true }).setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(pngImage(64, 64)) });
    await poll(() => page.getByText(s.logo.uploaded).count()).toBeGreaterThan(0);
    // The map icon beside it: the station's marker on the dashboard's map (docs/rules/equipment.md "Images").
    await page.getByLabel(enMapIcon.stations.mapIcon.upload, { exact: true }).setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: Buffer.from(pngImage(32, 32)) });
    await poll(() => page.getByText(enMapIcon.stations.mapIcon.uploaded).count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: t.common.save }).click();

    await page.waitForURL(/\/equipmentManagement\/station\/stationDetail\/\d+$/);
    await poll(() => page.getByRole("heading", { name: /Sopot Molo/ }).count()).toBe(1);
    expect(await page.getByText("7.50 zł").count()).toBe(1);
    expect(await page.getByRole("img", { name: s.fields.logo, exact: true }).count()).toBe(1);
    expect(await page.getByRole("img", { name: enMapIcon.stations.fields.mapIcon, exact: true }).count()).toBe(1);
    const detailUrl = page.url();

    await visit(page, LIST);
    const rows = page.getByRole("table", { name: s.title }).getByRole("row");
    await poll(() => rows.nth(1).textContent()).toContain("Sopot Molo");
    const ranks = (await page.getByRole("table", { name: s.title }).locator("tbody tr td:first-child").allTextContents()).map(Number);
    expect(ranks.length).toBeGreaterThan(1);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    await page.getByRole("link", { name: "Sopot Molo" }).click();
    await page.waitForURL(detailUrl);
    // The address changes a moment before the detail replaces the list, whose disabled rows also
    // offer Enable in a full run: wait for the detail's own heading.
    await poll(() => page.getByRole("heading", { name: /Sopot Molo/ }).count()).toBe(1);
    await page.waitForLoadState("networkidle");

    await page.getByRole("button", { name: t.common.enable }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: t.common.enable }).click();
    await poll(() => page.getByText(s.errors.noPoints).count()).toBeGreaterThan(0);

    await page.getByRole("link", { name: t.common.edit }).click();
    await page.waitForURL(/stationAdd\?id=\d+$/);
    await poll(() => field(page, s.fields.maintainer).inputValue()).toBe("Serwis Trójmiasto");
    await field(page, s.fields.maintainer).fill("Serwis Sopot");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(detailUrl);
    await poll(() => page.getByText("Serwis Sopot").count()).toBe(1);

    await visit(page, `${LIST}?name=Sopot`);
    await page.waitForLoadState("networkidle");
    // Beyond the first two, a row's actions are in its "⋯" menu (docs/rules/console.md "Row actions").
    await page.getByRole("button", { name: enNames.names.rowActions.more }).click();
    await page.getByRole("menuitem", { name: t.common.delete }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: t.common.delete }).click();
    await poll(() => page.getByText(s.deleted).count()).toBeGreaterThan(0);
    await poll(() => page.getByRole("link", { name: "Sopot Molo" }).count()).toBe(0);
  });

  it("offers a remote start only on usable connectors of the chosen location", async () => {
    await visit(page, `${LIST}/startPoint`);
    await page.waitForLoadState("networkidle");
    await page.getByLabel(s.start.station, { exact: true }).selectOption({ label: "Warszawa Centrum" });
    await poll(() => page.getByRole("radio").count()).toBeGreaterThanOrEqual(4);
    // The demo's chargers are not connected, so their connectors cannot be chosen; files running
    // beside this one connect chargers of their own here, so only the offline ones are counted.
    const offline = page.getByRole("radio").filter({ hasText: enMonitoring.monitoring.connectorStatus.offline });
    const count = await offline.count();
    expect(count).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < count; i++) expect(await offline.nth(i).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: s.start.submit }).isDisabled()).toBe(true);
  });
});
