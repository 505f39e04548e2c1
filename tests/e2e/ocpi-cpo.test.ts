import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import cpoEn from "../../domain/i18n/locales/en/ocpi-cpo.json";
import ocpiEn from "../../domain/i18n/locales/en/ocpi.json";
import { api } from "../peers/support";
import { exclusively } from "./support/exclusive";
import { field, hydrated, openDemoAdmin, openScreen, text, visit } from "./support/session";

/**
 * Publishing as a CPO in the console (docs/rules/ocpi.md "Locations we publish", "Tariffs we
 * publish", "Roles"): the demo operator publishes a station from its page, finds it with its
 * EVSEs and its strategy's tariff on the published screens, sees the OCPI tariff in the strategy
 * editor, and adds a partner as an eMSP. What it changes in the demo data is undone at the end.
 */
// It adds a partner, and the roaming screens depend on the operator's settings (joinOcpi, roles).
exclusively("settings of 0PL002", "roaming partners of 0PL002");

const JOURNEY_MS = 300_000;
const baseURL = inject("baseURL");
const t = text.en;
const o = ocpiEn.ocpi;
const c = cpoEn.ocpi.cpo;
const OPERATOR = "Plugdesk Polska";
const STATION = "Warszawa Centrum";
let browser: BrowserContext;
let page: Page;
let stationId: number | undefined;
let platformName: string | undefined;

beforeAll(async () => ({ browser, page } = await openDemoAdmin(baseURL)));

afterAll(async () => {
  await browser?.close();
  // Other files share the server: the station goes back to not published, the partner is gone.
  const a = await api();
  if (stationId !== undefined) await a.put(`/ocpi-service/cpo/location/${stationId}`, { publish: false });
  if (platformName) {
    const { records } = await a.get<{ records: { id: number; name: string }[] }>(`/ocpi-service/platform?size=100`);
    for (const p of records.filter((r) => r.name === platformName)) expect((await a.request("DELETE", `/ocpi-service/platform/${p.id}`)).status).toBe(200);
  }
});

describe("publishing to roaming partners", () => {
  it(
    "publishes a station from its page, lists it with its EVSEs and tariff, previews the tariff in the editor, and adds an eMSP partner",
    async () => {
      const a = await api();
      const { records } = await a.get<{ records: { id: number; name: string }[] }>(`/station-service/station?size=100&name=${encodeURIComponent(STATION)}`);
      stationId = records.find((s) => s.name === STATION)!.id;
      const points = await a.get<{ records: { id: number; chargeStrategyId: number | null; privateType: string }[] }>(`/station-service/point?stationId=${stationId}&size=100`);
      const strategyId = points.records.find((p) => p.chargeStrategyId !== null && p.privateType === "Public")!.chargeStrategyId!;
      const strategy = await a.get<{ name: string }>(`/finance-service/strategy/${strategyId}`);

      // The station's page: Publish to roaming, after a confirmation naming it.
      await visit(page, `${baseURL}/equipmentManagement/station/stationDetail/${stationId}`);
      await hydrated(page);
      await expect.poll(() => page.getByText(c.location.notPublished, { exact: true }).count()).toBe(1);
      await page.getByRole("button", { name: c.location.toggle }).click();
      const confirm = page.getByRole("alertdialog");
      await expect.poll(() => confirm.getByText(c.location.publishMessage.replace("{{name}}", STATION)).count()).toBe(1);
      await confirm.getByRole("button", { name: t.ui.confirm.ok }).click();
      await expect.poll(() => page.getByText(c.location.published).count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByText(c.location.isPublished, { exact: true }).count()).toBe(1);

      // As partners see it: the station with an EVSE per connector of its public points, in the eMI3 form.
      await openScreen(page, `${baseURL}/cpo/cpoLocation`, `${cpoEn.menu.cpo.location} — ${OPERATOR}`);
      const location = page.getByRole("row").filter({ hasText: STATION });
      await expect.poll(() => location.count(), { timeout: 15_000 }).toBe(1);
      const public1 = points.records.find((p) => p.privateType === "Public")!;
      await expect.poll(() => location.getByText(new RegExp(`^PL\\*PLD\\*E${public1.id}\\*1`)).count()).toBe(1);

      // Its strategy's tariff.
      await openScreen(page, `${baseURL}/cpo/cpoTariff`, `${cpoEn.menu.cpo.tariff} — ${OPERATOR}`);
      const tariff = page.getByRole("row").filter({ hasText: strategy.name });
      await expect.poll(() => tariff.count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => tariff.getByRole("cell", { name: String(strategyId), exact: true }).count()).toBe(1);

      // The strategy editor previews the OCPI tariff it publishes, with our party and its id.
      await visit(page, `${baseURL}/financialManagement/chargeConfigurationNew/edit/${strategyId}`);
      await hydrated(page);
      const preview = page.getByRole("region", { name: c.preview.title });
      await expect.poll(() => preview.count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(async () => JSON.parse((await preview.textContent()) ?? "null"), { timeout: 15_000 }).toMatchObject({
        id: String(strategyId),
        country_code: "PL",
        party_id: "PLD",
        currency: "PLN",
        type: "REGULAR",
      });

      // A partner added as an eMSP: its role on the platform screen, in the row's details when the column folds.
      await openScreen(page, `${baseURL}/emsp/emspPlatform`, `${t.menu.emsp.platform} — ${OPERATOR}`);
      await page.setViewportSize({ width: 1366, height: 900 });
      platformName = `E2E eMSP ${Date.now().toString(36)}`;
      await page.getByRole("button", { name: o.platform.add }).click();
      await field(page, o.platform.name).fill(platformName);
      await page.getByRole("combobox", { name: c.role.label }).selectOption("EMSP");
      await page.getByRole("button", { name: t.common.save }).click();
      const partner = page.getByRole("row").filter({ hasText: platformName });
      await expect.poll(() => partner.count(), { timeout: 15_000 }).toBe(1);
      const shown = async () => {
        if ((await partner.getByRole("cell", { name: c.role.EMSP, exact: true }).count()) === 1) return true;
        const expand = partner.getByRole("button", { name: t.ui.table.expand });
        if ((await expand.count()) === 1) await expand.click();
        const details = page.getByTestId("row-details").filter({ hasText: c.role.label });
        return (await details.getByText(c.role.EMSP, { exact: true }).count()) === 1;
      };
      await expect.poll(shown, { timeout: 15_000 }).toBe(true);
      const platforms = await a.get<{ records: { name: string; role: string }[] }>(`/ocpi-service/platform?size=100`);
      expect(platforms.records.find((p) => p.name === platformName)).toMatchObject({ role: "EMSP" });
      await page.setViewportSize({ width: 1440, height: 900 });

      // Undone: the station withdrawn from its page (the partner is deleted after the test).
      await visit(page, `${baseURL}/equipmentManagement/station/stationDetail/${stationId}`);
      await hydrated(page);
      await page.getByRole("button", { name: c.location.toggle }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: t.ui.confirm.ok }).click();
      await expect.poll(() => page.getByText(c.location.notPublished, { exact: true }).count()).toBe(1);
      stationId = undefined;
    },
    JOURNEY_MS,
  );
});
