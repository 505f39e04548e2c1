import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSheet } from "read-excel-file/node";
import { describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/discounts.json";
import { Api } from "../../scripts/sim/register";
import { demoAdminPageOfFile, field, hydrated, text, visit } from "./support/session";

/**
 * Discount strategies and cards as an operator uses them (docs/rules/discounts.md); each screen is
 * checked with axe-core on arrival (support/axe.ts).
 */
const baseURL = inject("baseURL");
const t = text.en;
const d = en.discounts;
const { page } = await demoAdminPageOfFile(baseURL);

describe("discount strategies in the console", () => {
  it("creates a strategy, generates cards and downloads their codes, then gives one to a customer and voids it", async () => {
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    const name = `Winter ${Date.now().toString(36)}`;
    await visit(page, `${baseURL}/financialManagement/discountStrategy`);
    await hydrated(page);
    await page.getByRole("button", { name: d.actions.add }).click();
    const dialog = page.getByRole("dialog");
    await field(page, d.fields.name).fill(name);
    await dialog.getByRole("combobox", { name: new RegExp(d.fields.type) }).click();
    await page.getByRole("option", { name: d.type.DISCOUNT }).click();
    await field(page, d.fields.quotaMoney.replace("{{currency}}", "PLN")).fill("25.50");
    await field(page, d.fields.discount).fill("15");
    await field(page, d.fields.months).fill("6");
    await field(page, d.fields.activationCode).fill("win");
    await dialog.getByRole("button", { name: t.common.save }).click();
    await page.getByText(d.toasts.created).waitFor();
    const row = page.getByRole("row", { name: new RegExp(name) });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/25,50|25\.50/);

    await row.getByRole("button", { name: d.actions.generate }).click();
    await field(page, d.fields.generateCount).fill("5");
    const download = page.waitForEvent("download");
    await page.getByRole("dialog").getByRole("button", { name: d.actions.generate }).click();
    const file = await download;
    await page.getByText(d.toasts.generated_other.replace("{{count}}", "5")).waitFor();
    const path = join(mkdtempSync(join(tmpdir(), "plugdesk-discounts-")), "cards.xlsx");
    await file.saveAs(path);
    const sheet = await readSheet(path);
    expect(sheet[0][0]).toBe(d.fields.code);
    const codes = sheet.slice(1).map((r) => String(r[0]));
    expect(codes).toHaveLength(5);
    expect(new Set(codes).size).toBe(5);
    expect(codes.every((c) => /^WIN[0-9A-Z]{12}$/.test(c))).toBe(true);
    await expect.poll(() => row.textContent()).toContain("5");

    const api = await Api.login(baseURL);
    const anna = (await api.get<{ records: { id: number }[] }>("/customer-service/customer?email=anna.nowak")).records[0];
    await visit(page, `${baseURL}/userManagement/userProfileManagement/customerDetail/${anna.id}`);
    await hydrated(page);
    await page.getByLabel(d.fields.code, { exact: true }).fill(codes[0].toLowerCase());
    await page.getByRole("button", { name: d.actions.give }).click();
    await page.getByText(d.toasts.given).waitFor();
    const cardRow = page.getByRole("row", { name: new RegExp(codes[0]) });
    await expect.poll(() => cardRow.textContent()).toContain(d.status.IN_USE);
    await cardRow.getByRole("button", { name: d.actions.void }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: d.actions.void }).click();
    await page.getByText(d.toasts.voided).waitFor();
    await expect.poll(() => cardRow.textContent()).toContain(d.status.CANCELLED);
    expect(pageErrors).toEqual([]);
  });
});
