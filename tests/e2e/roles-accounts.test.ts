import { describe, expect, inject, it } from "vitest";
import { field, logIn, logInThroughForm, pageOfFile, text, visit } from "./support/session";

const baseURL = inject("baseURL");
const t = text.en;
const { page } = await pageOfFile();

describe("roles and accounts", () => {
  it("creates a role and an account in the console; the account must change its initial password and sees only its menu", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    await visit(page, `${baseURL}/carrierSystem/role/add`);
    await field(page, t.roles.name).fill("Ab");
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(t.validation.length5to20).count()).toBeGreaterThan(0);

    await field(page, t.roles.name).fill("Monitoring desk");
    await field(page, t.roles.code).fill("MON_DESK");
    await page.getByRole("checkbox", { name: t.menu.monitoring.title }).click();
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(`${baseURL}/carrierSystem/role`);
    await expect.poll(() => page.getByRole("cell", { name: "Monitoring desk" }).count()).toBe(1);

    await visit(page, `${baseURL}/carrierSystem/carrierAcount/add`);
    await field(page, t.accounts.username).fill("monitor01");
    await field(page, t.accounts.name).fill("Marta Monitor");
    await field(page, t.accounts.role, "combobox").click();
    await page.getByRole("option", { name: "Monitoring desk" }).click();
    await page.getByRole("button", { name: t.common.save }).click();
    const password = (await page.getByTestId("initial-password").textContent())?.trim() ?? "";
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await page.getByRole("button", { name: t.common.back }).click();
    await page.waitForURL(`${baseURL}/carrierSystem/carrierAcount`);
    await expect.poll(() => page.getByRole("cell", { name: "monitor01" }).count()).toBe(1);

    await page.context().clearCookies();
    await logInThroughForm(page, baseURL, "0PL002", "monitor01", password);
    await page.waitForURL(`${baseURL}/rePassword`);
    await field(page, t.rePassword.old).fill(password);
    await field(page, t.rePassword.new).fill("Monitor123");
    await field(page, t.rePassword.confirm).fill("Monitor999");
    await page.getByRole("button", { name: t.rePassword.submit }).click();
    await expect.poll(() => page.getByText(t.validation.passwordsDiffer).count()).toBe(1);
    await field(page, t.rePassword.confirm).fill("Monitor123");
    await page.getByRole("button", { name: t.rePassword.submit }).click();
    await page.waitForURL(/\/0PL002\/login/);

    await logIn(page, baseURL, "0PL002", "monitor01", "Monitor123");
    await page.waitForURL(`${baseURL}/systemMonitoring/charging`);
    const sidebar = page.getByRole("complementary", { name: t.ui.nav.label });
    await expect.poll(() => sidebar.textContent()).toContain(t.menu.monitoring.title);
    expect(await sidebar.textContent()).not.toContain(t.menu.carrier.title);

    await visit(page, `${baseURL}/carrierSystem/role`);
    await page.waitForURL(/\/404\?msg=guard\.insufficient/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(t.statusPage.forbidden);
  });
});
