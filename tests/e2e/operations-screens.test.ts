import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/operations.json";
import { answering, api, bootedClient, closeClients, newCharger } from "../peers/support";
import { demoAdminPageOfFile, field, hydrated, openScreen, text } from "./support/session";

/** Several screens in one visit, each checked in two themes: more than one screen's time. */
const MANY_SCREENS_MS = 300_000;

/**
 * The operations screens (docs/rules/operations.md): each titled "screen — operator", checked with
 * axe-core on arrival (support/axe.ts); a vendor fault code added in its dialog, a firmware version
 * issued to a strict charger from its detail, and the failures and alarm history exported.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const OPERATOR = "Plugdesk Polska";
const { page } = await demoAdminPageOfFile(baseURL);
afterAll(() => closeClients());

const expectScreen = (path: string, screen: string) => openScreen(page, `${baseURL}${path}`, `${screen} — ${OPERATOR}`);

describe("operations screens", () => {
  it("titles every operations screen after itself", async () => {
    const screens: [string, string][] = [
      ["/equipmentManagement/loadingBalance", t.menu.equipment.loadingBalance],
      ["/equipmentManagement/loadingBalance/add", t.page.add],
      ["/operationMaintenance/ocppUpdateConfig", t.menu.operation.ocppUpdateConfig],
      ["/operationMaintenance/ocppUpdateConfig/add", t.page.add],
      ["/operationMaintenance/faultCode", t.menu.operation.faultCode],
      ["/operationMaintenance/operationFailure", t.menu.operation.operationFailure],
      ["/operationMaintenance/diagnosis", t.menu.operation.diagnosis],
    ];
    for (const [path, title] of screens) await expectScreen(path, title);
  }, MANY_SCREENS_MS);

  it("adds a vendor fault code in its dialog, refusing a count that is not a positive whole number", async () => {
    await expectScreen("/operationMaintenance/faultCode", t.menu.operation.faultCode);
    await page.getByRole("button", { name: t.operations.fc.add }).click();
    const code = `E2E-${Date.now().toString(36).toUpperCase()}`;
    await field(page, t.operations.fc.code).fill(code);
    await field(page, t.operations.fc.name).fill("Door open");
    await field(page, t.operations.fc.count).fill("二");
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(t.operations.validation.count).count()).toBeGreaterThan(0);
    await field(page, t.operations.fc.count).fill("2");
    await page.getByRole("button", { name: t.common.save }).click();
    // Saved once the dialog closes: leaving earlier would cancel the save on a busy machine.
    await expect.poll(() => page.getByText(t.operations.fc.saved).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await page.goto(`${baseURL}/operationMaintenance/faultCode?keyword=${code}`);
    await expect.poll(() => page.getByRole("cell", { name: "Door open" }).count()).toBe(1);
  });

  it("issues a firmware version to a charger from its detail and shows the charger's report live", async () => {
    const a = await api();
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const updates = answering(client, "UpdateFirmware", {});
    const version = `e2e-${Date.now().toString(36)}`;
    const firmware = await a.post<{ id: number }>("/maintain-service/firmware", { version, location: "ftp://firmware.example.com/e2e.bin" });
    const { stationId } = await a.get<{ stationId: number }>(`/station-service/point/${point.id}`);
    await page.goto(`${baseURL}/operationMaintenance/ocppUpdateConfig/detail/${firmware.id}?stationId=${stationId}`);
    await expect.poll(() => page.title()).toBe(`${t.page.detail} — ${OPERATOR}`);
    await hydrated(page);
    await page.getByRole("button", { name: t.operations.fw.issue }).click();
    await page.getByRole("checkbox", { name: new RegExp(point.serialNumber) }).click();
    await page.getByRole("button", { name: t.operations.fw.issueTo_one.replace("{{count}}", "1") }).click();
    await updates.next();
    await expect.poll(() => page.getByTestId(`rollout-${point.serialNumber}`).textContent()).toBe(t.operations.fw.statuses.Issued);
    await client.call("FirmwareStatusNotification", { status: "Downloading" });
    await expect.poll(() => page.getByTestId(`rollout-${point.serialNumber}`).textContent(), { timeout: 15_000 }).toBe(t.operations.fw.statuses.Downloading);
  });

  it("exports the operation failures and the alarm history as xlsx files", async () => {
    await expectScreen("/operationMaintenance/operationFailure", t.menu.operation.operationFailure);
    const failures = page.waitForEvent("download");
    await page.getByRole("button", { name: t.operations.export }).click();
    expect((await failures).suggestedFilename()).toMatch(/^operation-failures-\d{4}-\d{2}-\d{2}\.xlsx$/);
    await expectScreen("/operationMaintenance/historicalAlarmInfo", t.menu.operation.historicalAlarmInfo);
    const alarms = page.waitForEvent("download");
    await page.getByRole("button", { name: t.operations.export }).click();
    expect((await alarms).suggestedFilename()).toMatch(/^alarm-history-\d{4}-\d{2}-\d{2}\.xlsx$/);
  });
});
