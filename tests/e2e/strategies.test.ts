import { describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/pricing.json";
import { Api } from "../../scripts/sim/register";
import { api, newCharger } from "../peers/support";
import { openBrowser } from "./support/browser";
import { logIn, pageOfFile, text, visit } from "./support/session";
import { holding } from "./support/exclusive";

/** Charging strategies in the console (docs/rules/pricing.md "The editor", "Assigning points"). */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const p = en.pricing;
const { page } = await pageOfFile();

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k]);

describe("charging strategies", () => {
  it("builds a time-of-use day on the bar, previews a session's cost, saves it and assigns it to a charging point", async () => {
    const point = await newCharger();
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    await visit(page, `${baseURL}/financialManagement/chargeConfigurationNew`);
    await expect.poll(() => page.title()).toBe(`${t.menu.finance.chargeConfiguration} — Plugdesk Polska`);
    await page.getByRole("link", { name: p.add }).click();
    await page.waitForURL(/chargeConfigurationNew\/add$/);
    await expect.poll(() => page.title()).toBe(`${t.page.add} — Plugdesk Polska`);

    const name = `E2E day and night ${Date.now().toString(36)}`;
    await page.getByRole("textbox", { name: new RegExp(`^${p.fields.name}`) }).fill(name);
    const electricity = page.getByTestId("electricity-slots");
    const splitAt = (time: string) => electricity.getByRole("button", { name: new RegExp(fill(p.slots.splitAt, { time })) });
    const priceFrom = (start: string) => electricity.getByRole("textbox", { name: fill(p.slots.priceOf, { title: p.fields.electricity, start }) });

    // Split the day at 08:00 and at 20:00, then merge 20:00–24:00 back into 08:00–20:00.
    await splitAt("08:00").click();
    await splitAt("20:00").click();
    await expect.poll(() => electricity.getByRole("listitem").count()).toBe(3);
    await electricity.getByRole("button", { name: p.slots.merge }).nth(1).click();
    await expect.poll(() => electricity.getByRole("listitem").count()).toBe(2);

    await priceFrom("00:00").fill("0.6");
    await priceFrom("08:00").fill("1.2");
    // 20 kWh at 18:00 for 90 minutes: all at the day price, 24.00 zł.
    await expect.poll(() => page.getByTestId("preview-total").textContent()).toMatch(/24[.,]00/);

    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(`${baseURL}/financialManagement/chargeConfigurationNew`);
    await expect.poll(() => page.title()).toBe(`${t.menu.finance.chargeConfiguration} — Plugdesk Polska`);
    const search = page.getByRole("search").getByRole("textbox", { name: p.fields.name });
    await search.fill(name);
    await search.press("Enter");
    await page.waitForURL(/[?&]name=/);
    const row = page.getByRole("row").filter({ hasText: name });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);

    await row.getByRole("button", { name: p.assign.open }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: p.assign.search }).fill(point.serialNumber);
    // The point's own box, by its label: the first box may still be another point's until the search lands.
    await dialog.getByRole("checkbox", { name: new RegExp(point.serialNumber) }).click();
    await dialog.getByRole("button", { name: fill(p.assign.save_one, { count: "1" }) }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByText(fill(p.assign.saved_one, { count: "1", name })).count()).toBe(1);

    const a = await api();
    const saved = await a.get<{ chargeStrategyId: number }>(`/station-service/point/${point.id}`);
    const strategy = await a.get<{ name: string; electricity: { slots: { start: string; end: string; price: string }[] } }>(`/finance-service/strategy/${saved.chargeStrategyId}`);
    expect(strategy.name).toBe(name);
    expect(strategy.electricity.slots).toEqual([
      { start: "00:00", end: "08:00", price: "0.6000" },
      { start: "08:00", end: "24:00", price: "1.2000" },
    ]);
  });

  it("keeps an incomplete day from being saved, with the rule's message", async () => {
    await visit(page, `${baseURL}/financialManagement/chargeConfigurationNew/add`);
    await page.getByRole("textbox", { name: new RegExp(`^${p.fields.name}`) }).fill("Incomplete");
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(p.validation.slotsIncomplete).count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\/add$/);
  });

  it("shows a sub-operator its operator's strategies with assign only, among its own charging points", async () => {
    const sub = await openBrowser();
    try {
      const subPage = await sub.newPage();
      await logIn(subPage, baseURL, "0PL002A", "subadmin1", "Demo12345");
      await subPage.waitForURL(/\/suboperators\//);
      await subPage.goto(`${baseURL}/suboperators/finance/chargeConfiguration`);
      await expect.poll(() => subPage.getByText(p.subHint).count()).toBe(1);
      const row = subPage.getByRole("row").filter({ hasText: "Taryfa dzienna i nocna" });
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
      // Prices are the operator's: no add, edit, copy or delete.
      expect(await subPage.getByRole("link", { name: p.add }).count()).toBe(0);
      expect(await subPage.getByRole("link", { name: t.common.edit }).count()).toBe(0);
      expect(await subPage.getByRole("button", { name: t.common.delete }).count()).toBe(0);
      expect(await subPage.getByRole("button", { name: p.copyAction }).count()).toBe(0);

      // No other file may give the sub-operator a point between the dialog's list and the API's.
      await holding("sub-operator 0PL002A's devices", async () => {
        await row.getByRole("button", { name: p.assign.open }).click();
        const dialog = subPage.getByRole("dialog");
        // Exactly the points assigned to it, whatever other tests assigned meanwhile; the demo's two among them.
        const own = await (await Api.login(baseURL, { operatorCode: "0PL002A", username: "subadmin1", password: "Demo12345" })).get<{ records: { serialNumber: string }[] }>(
          "/station-service/sub-operator/point?size=100",
        );
        await expect.poll(() => dialog.getByRole("checkbox").count()).toBe(own.records.length);
        const listed = await dialog.getByRole("listitem").allTextContents();
        for (const { serialNumber } of own.records) expect(listed.some((item) => item.includes(serialNumber))).toBe(true);
        expect(listed.some((item) => item.includes("PL002-CP01"))).toBe(true);
        expect(listed.some((item) => item.includes("PL002-CP02"))).toBe(true);
        await dialog.getByRole("button", { name: t.common.cancel }).click();
        await expect.poll(() => dialog.count()).toBe(0);
      });
    } finally {
      await sub.close();
    }
  });
});
