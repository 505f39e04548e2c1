import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSheet } from "read-excel-file/node";
import writeXlsxFile from "write-excel-file/node";
import { beforeAll, describe, expect, inject, it } from "vitest";
import enMonitoring from "../../domain/i18n/locales/en/monitoring.json";
import enPoints from "../../domain/i18n/locales/en/points.json";
import { field, hydrated, logIn, pageOfFile, text, visit } from "./support/session";

const baseURL = inject("baseURL");
const t = { ...text.en, points: enPoints.points, monitoring: enMonitoring.monitoring };
const { page } = await pageOfFile();
const pageErrors: string[] = [];

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

async function choose(label: string, option: string) {
  await field(page, label, "combobox").click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describe("charging points in the console", () => {
  const serialNumber = `E2E-${Date.now().toString(36).toUpperCase()}`;

  it("creates a point with its connectors and opens its detail page: QR code, connectors, tabs", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    await visit(page, `${baseURL}/equipmentManagement/point/pointAdd`);
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(t.validation.required).count()).toBeGreaterThan(0);

    await choose(t.points.fields.station, "Warszawa Centrum");
    await field(page, t.points.fields.name).fill("Entrance fast charger");
    await field(page, t.points.fields.serialNumber).fill(serialNumber);
    await field(page, t.points.fields.pointNo).fill("E1");
    await choose(t.points.fields.type, t.points.types.DC);
    await field(page, t.points.fields.ratedPower).fill("120");
    await field(page, t.points.fields.connectorCount).fill("3");
    // The rows follow the count; a DC point's connectors default to CCS2.
    await expect.poll(() => page.getByRole("group", { name: /^Connector \d$/ }).count()).toBe(3);
    await expect.poll(() => page.getByRole("combobox", { name: new RegExp(`^${t.points.fields.standard}`) }).first().textContent()).toContain(t.points.standards.IEC1);
    await page.getByRole("button", { name: t.common.save }).click();

    await page.waitForURL(/\/equipmentManagement\/point\/pointDetail\/\d+$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Entrance fast charger");
    const qr = page.getByTestId("point-qr");
    await qr.waitFor();
    // The QR code opens the point's public page on the operator's branded domain (docs/rules/public-charger.md "QR codes").
    const branded = new URL(baseURL);
    branded.hostname = "polska.localhost";
    expect(await qr.getAttribute("data-qr-value")).toBe(`${branded.origin}/charge/${serialNumber}`);
    expect(await qr.evaluate((img: HTMLImageElement) => [img.naturalWidth > 0, img.width, img.height])).toEqual([true, 88, 88]);
    await expect.poll(() => page.getByTestId("connector-card").count()).toBe(3);
    expect(await page.getByTestId("connector-card").first().textContent()).toContain(t.monitoring.connectorStatus.offline);
    expect(await page.getByTestId("report-amount").textContent()).toContain(t.points.report.notPriced);
    expect(await page.getByTestId("report-count").textContent()).toContain("0");

    await page.getByRole("tab", { name: t.points.tabs.log }).click();
    await expect.poll(() => page.getByText(t.points.log.empty).count()).toBe(1);
    expect(page.url()).toContain("tab=log");
    await page.getByRole("tab", { name: t.points.tabs.records }).click();
    await expect.poll(() => page.getByText(t.points.records.empty).count()).toBe(1);
    await page.getByRole("tab", { name: t.points.tabs.configuration }).click();
    await expect.poll(() => page.getByRole("button", { name: t.points.config.read }).isDisabled()).toBe(true);
    await page.getByRole("tab", { name: t.points.tabs.diagnostics }).click();
    await expect.poll(() => page.getByRole("button", { name: t.points.diagnostics.request }).isDisabled()).toBe(true);
    expect(await page.getByRole("note").first().textContent()).toBe(t.errors.pointOffline);
    await page.getByRole("tab", { name: t.points.tabs.general }).click();
    await expect.poll(() => page.getByTestId("connector-card").count()).toBe(3);

    await visit(page, `${baseURL}/equipmentManagement/point?serialNumber=${serialNumber}`);
    await expect.poll(() => page.getByRole("link", { name: serialNumber }).count()).toBe(1);
    expect(await page.getByRole("row").filter({ hasText: serialNumber }).textContent()).toContain(t.common.statusValues.INVALID);

    expect(pageErrors).toEqual([]);
  });

  it("keeps an enabled point's equipment locked while its name stays editable", async () => {
    await visit(page, `${baseURL}/equipmentManagement/point?serialNumber=${serialNumber}`);
    await hydrated(page);
    await page.getByRole("link", { name: serialNumber }).click();
    await page.waitForURL(/\/pointDetail\/\d+$/);
    await page.getByRole("button", { name: t.common.enable, exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: t.common.enable }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain(t.common.statusValues.VALID);
    await page.getByRole("link", { name: t.common.edit }).click();
    await page.waitForURL(/\/pointEdit\/\d+$/);
    expect(await page.getByRole("note").textContent()).toBe(t.points.lockedHint);
    expect(await field(page, t.points.fields.ratedPower).isDisabled()).toBe(true);
    await field(page, t.points.fields.name).fill("Entrance fast charger A");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/\/pointDetail\/\d+$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Entrance fast charger A");
    expect(pageErrors).toEqual([]);
  });

  it("sets a point to OCPP 2.0.1 in the form and shows it on the list and the detail", async () => {
    await visit(page, `${baseURL}/equipmentManagement/point/pointAdd`);
    await hydrated(page);
    // A new point accepts either protocol until told otherwise.
    expect(await field(page, t.points.fields.ocppVersion, "combobox").textContent()).toContain(t.points.ocppVersions.AUTO);

    await visit(page, `${baseURL}/equipmentManagement/point?serialNumber=${serialNumber}`);
    await hydrated(page);
    await page.getByRole("link", { name: serialNumber }).click();
    await page.waitForURL(/\/pointDetail\/\d+$/);
    expect(await page.getByTestId("ocpp-version").textContent()).toBe(t.points.ocppVersions.AUTO);
    await page.getByRole("link", { name: t.common.edit }).click();
    await page.waitForURL(/\/pointEdit\/\d+$/);
    // An enabled point keeps its equipment locked, not its protocol.
    expect(await field(page, t.points.fields.ocppVersion, "combobox").isDisabled()).toBe(false);
    await choose(t.points.fields.ocppVersion, t.points.ocppVersions.OCPP201);
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/\/pointDetail\/\d+$/);

    // The detail shows the setting and that no charger is connected with it; the header shows the setting.
    await expect.poll(() => page.getByTestId("ocpp-version").textContent()).toBe(t.points.ocppVersions.OCPP201);
    expect(await page.getByTestId("connected-version").textContent()).toBe(t.points.notConnected);
    expect(await page.getByRole("heading", { level: 1 }).getByTestId("protocol").textContent()).toBe(t.points.ocppVersions.OCPP201);
    // The OCPP log filter offers 2.0.1's actions, not 1.6's.
    await page.getByRole("tab", { name: t.points.tabs.log }).click();
    const actions = page.getByRole("combobox", { name: t.points.log.action });
    await expect.poll(() => actions.locator("option", { hasText: "TransactionEvent" }).count()).toBe(1);
    expect(await actions.locator("option", { hasText: /^StartTransaction$/ }).count()).toBe(0);

    await visit(page, `${baseURL}/equipmentManagement/point?serialNumber=${serialNumber}`);
    await expect.poll(() => page.getByRole("row").filter({ hasText: serialNumber }).getByTestId("protocol").textContent()).toBe(t.points.ocppVersions.OCPP201);
    expect(pageErrors).toEqual([]);
  });

  it("imports points from Excel all or nothing, lists each bad cell, and exports the list", async () => {
    const folder = mkdtempSync(join(tmpdir(), "plugdesk-points-"));
    await visit(page, `${baseURL}/equipmentManagement/point`);

    await page.getByRole("button", { name: t.points.excel }).click();
    const templateDownload = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: t.points.import.template }).click();
    const template = await templateDownload;
    expect(template.suggestedFilename()).toBe(`${t.points.import.templateFile}.xlsx`);
    const templatePath = join(folder, "template.xlsx");
    await template.saveAs(templatePath);
    const [headerCells, example] = await readSheet(templatePath);
    const header = headerCells.map(String);
    expect(header[0]).toBe(`${t.points.import.columns.stationName} *`);
    expect(example.slice(4, 8)).toEqual(["AC", 22, 2, "IEC2"]);

    const stamp = Date.now().toString(36).toUpperCase();
    const good = [
      ["Warszawa Centrum", `IMP-${stamp}-1`, "Imported one", "I1", "AC", 22, 2, "IEC2", "SLOW", "Public", "C1"],
      ["Warszawa Centrum", `IMP-${stamp}-2`, "Imported two", "I2", "DC", 60, 1, "GBT1", "QUICK", "Private", ""],
    ];
    const badPath = join(folder, "bad.xlsx");
    await writeXlsxFile([header, ...good, ["Nowhere", `IMP-${stamp}-3`, "Imported three", "I3", "PLASMA", 22, 1, "", "", "", ""]]).toFile(badPath);
    const goodPath = join(folder, "good.xlsx");
    await writeXlsxFile([header, ...good]).toFile(goodPath);

    await page.getByRole("button", { name: t.points.excel }).click();
    await page.getByRole("menuitem", { name: t.points.import.open }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("input[type=file]").setInputFiles(badPath);
    await page.getByRole("button", { name: t.points.import.submit_other.replace("{{count}}", "3") }).click();
    const report = dialog.getByRole("table", { name: t.points.import.report });
    await expect.poll(() => report.getByRole("row").count()).toBe(3);
    expect(await report.textContent()).toContain(t.points.validation.stationUnknown);
    expect(await report.textContent()).toContain(t.validation.pointType);

    await dialog.locator("input[type=file]").setInputFiles(goodPath);
    await page.getByRole("button", { name: t.points.import.submit_other.replace("{{count}}", "2") }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await visit(page, `${baseURL}/equipmentManagement/point?serialNumber=IMP-${stamp}`);
    await expect.poll(() => page.getByRole("link", { name: new RegExp(`^IMP-${stamp}-[12]$`) }).count()).toBe(2);

    await page.getByRole("button", { name: t.points.excel }).click();
    const exportDownload = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: t.points.export }).click();
    const exported = await exportDownload;
    const exportPath = join(folder, "export.xlsx");
    await exported.saveAs(exportPath);
    const rows = await readSheet(exportPath);
    expect(rows[0][0]).toBe(t.points.fields.serialNumber);
    expect(rows.slice(1).map((row) => row[0]).sort()).toEqual([`IMP-${stamp}-1`, `IMP-${stamp}-2`]);
    expect(pageErrors).toEqual([]);
  });
});
