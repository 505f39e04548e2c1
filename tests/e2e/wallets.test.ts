import { describe, expect, inject, it } from "vitest";
import enDrivers from "../../domain/i18n/locales/en/drivers.json";
import enWallets from "../../domain/i18n/locales/en/wallets.json";
import { Api } from "../../scripts/sim/register";
import { expectAccessible } from "./support/axe";
import { hydrated, logIn, pageOfFile, text, visit } from "./support/session";

/**
 * Wallets in the console (docs/rules/wallets.md "Screens"): an administrator tops a customer up
 * on the recharge screen, confirms, and sees the balance on the customer's page; then buys the
 * customer a SILVER level there (the demo's fee is 50.00 zł) and finds its Member bill.
 */
const baseURL = inject("baseURL");
const t = text.en;
const w = enWallets.wallets;
const d = enDrivers.drivers;
const SCREENS_MS = 240_000;
const { page } = await pageOfFile();

describe("wallets", () => {
  it("tops up a customer with a confirmation and shows the balance on the customer's page, then buys a level from it", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    const api = await Api.login(baseURL);
    const email = `wallet.${Date.now().toString(36)}@example.com`;
    const customer = await api.ok<{ id: number }>("POST", "/customer-service/customer", {
      firstName: "Zofia",
      lastName: "Portfel",
      gender: "FEMALE",
      email,
      country: "PL",
      zipCode: "00-001",
      evModel: "Kia EV6",
    });

    await visit(page, `${baseURL}/rechargeManagement/userRecharge`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(w.recharge.title);
    await page.getByRole("button", { name: w.recharge.open }).click();
    const dialog = page.getByRole("dialog");
    // The form's own checks first: no customer, no amount.
    await dialog.getByRole("button", { name: w.recharge.open }).click();
    await expect.poll(() => dialog.getByText(w.validation.customerId).count()).toBe(1);
    await expect.poll(() => dialog.getByText(w.validation.amountRequired).count()).toBe(1);
    await dialog.getByLabel(d.pickers.searchCustomer).fill(email);
    await expect.poll(() => dialog.getByRole("option", { name: new RegExp(email) }).count()).toBe(1);
    await dialog.getByRole("combobox", { name: w.recharge.customer }).selectOption({ label: `Zofia Portfel · ${email}` });
    await dialog.getByRole("textbox", { name: new RegExp(`^${w.recharge.amount}`) }).fill("60.50");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: w.recharge.open }).click();
    const confirmation = page.getByRole("alertdialog");
    await expect.poll(() => confirmation.textContent()).toContain(`Top up 60.50 zł to the balance of Zofia Portfel · ${email}?`);
    await confirmation.getByRole("button", { name: w.recharge.topUp }).click();
    await expect.poll(() => page.getByText("Done: the balance of Zofia Portfel is now 60.50 zł").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole("row", { name: new RegExp(email) }).getByText("+60.50 zł").count()).toBe(1);

    // The customer's page shows the balance, and changes the level with a confirmation.
    await visit(page, `${baseURL}/userManagement/userProfileManagement/customerDetail/${customer.id}`);
    await hydrated(page);
    await expect.poll(() => page.getByText("60.50 zł").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: w.membership.change }).click();
    const levels = page.getByRole("dialog");
    await levels.getByLabel(w.membership.level).selectOption("SILVER");
    await expect.poll(() => levels.getByText("50.00 zł").count()).toBe(1);
    await expectAccessible(page);
    await levels.getByRole("button", { name: w.membership.change }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: w.membership.change }).click();
    await expect.poll(() => page.getByText(`The member level is now ${d.customers.levels.SILVER}`).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("10.50 zł").count()).toBeGreaterThan(0);

    // Its bills: the top-up and the membership, newest first.
    await page.getByRole("link", { name: w.bills.forCustomer }).click();
    await page.waitForURL(new RegExp(`/financialManagement/billManagement\\?customerId=${customer.id}$`));
    await expect.poll(() => page.getByRole("row", { name: new RegExp(w.bills.types.Member) }).count()).toBe(1);
    await expect.poll(() => page.getByRole("row", { name: new RegExp(w.bills.types.Recharge) }).count()).toBe(1);
    await expectAccessible(page);
    await page.getByRole("row", { name: new RegExp(w.bills.types.Member) }).getByRole("link", { name: t.common.detail }).click();
    await page.waitForURL(/\/billDetail\/\d+$/);
    await expect.poll(() => page.getByText(w.bills.sources["1"]).count()).toBe(1);
  }, SCREENS_MS);

  it("fits a phone: the recharge, bill and expense screens scroll their tables, not the page", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/rechargeManagement/userRecharge", "/financialManagement/billManagement", "/financialManagement/expenseRecord"]) {
      await visit(page, `${baseURL}${path}`);
      await hydrated(page);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).count()).toBe(1);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
    await visit(page, `${baseURL}/financialManagement/expenseRecord`);
    await hydrated(page);
    // Watch only: no detail link, nothing to recharge.
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(w.bills.expenseTitle);
    expect(await page.getByRole("link", { name: t.common.detail }).count()).toBe(0);
  });
});
