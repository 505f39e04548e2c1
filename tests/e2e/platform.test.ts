import { beforeAll, describe, expect, inject, it } from "vitest";
import enPlatform from "../../domain/i18n/locales/en/platform.json";
import enStations from "../../domain/i18n/locales/en/stations.json";
import { field, hydrated, logIn, logInThroughForm, pageOfFile, text } from "./support/session";

/**
 * The platform in the console (docs/rules/platform.md): it provisions an operator whose admin
 * logs in, changes the password and sees only its edition's menus; the platform's, the
 * sub-operator's and the operator's package screens; a branded domain's root is its login page.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...enPlatform, menu: { ...text.en.menu, ...enPlatform.menu } };
const BRAND_HOST = "laden.brand.example";
const { page } = await pageOfFile([`--host-resolver-rules=MAP ${BRAND_HOST} 127.0.0.1`]);

beforeAll(async () => {
  // A registered host reaches the local product like a real domain would.
});

const sidebar = () => page.getByRole("complementary", { name: t.ui.nav.label });

/** The first login lands on the password page; after the change the login page comes back. */
async function changeInitialPassword(passwordPage: string, operatorCode: string, initial: string, next: string) {
  await page.waitForURL(`${baseURL}${passwordPage}`);
  await field(page, t.rePassword.old).fill(initial);
  await field(page, t.rePassword.new).fill(next);
  await field(page, t.rePassword.confirm).fill(next);
  await page.getByRole("button", { name: t.rePassword.submit }).click();
  await page.waitForURL(new RegExp(`/${operatorCode}/login`));
}

async function noSidewaysScroll() {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

describe("provisioning in the console", () => {
  it("provisions 0TS001 in the console; its admin logs in, changes the password and sees only its edition's menus", async () => {
    await logIn(page, baseURL, "PLATFORM", "platform", "Platform123");
    await page.waitForURL(`${baseURL}/platform/operator`);
    await expect.poll(() => sidebar().textContent()).toContain(t.menu.platform.pricePackage);
    expect(await sidebar().textContent()).not.toContain(t.menu.monitoring.title);

    await page.goto(`${baseURL}/platform/operator/add`);
    await hydrated(page);
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(t.validation.required).count()).toBeGreaterThan(0);

    await field(page, t.operators.code).fill("0TS001");
    await field(page, t.operators.name).fill("Test Operator One");
    await field(page, t.operators.edition, "combobox").click();
    await page.getByRole("option", { name: t.operators.editions.basic }).click();
    await field(page, t.operators.validUntil).fill("2099-12-31");
    await field(page, t.operators.currency).fill("EUR");
    await field(page, t.operators.domains).fill(BRAND_HOST);
    await field(page, t.operators.adminUsername).fill("ts001admin");
    await field(page, t.operators.adminName).fill("Tess Admin");
    await field(page, t.operators.adminEmail).fill("tess@example.com");
    await page.getByRole("button", { name: t.common.save }).click();
    const password = (await page.getByTestId("initial-password").textContent())?.trim() ?? "";
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await page.getByRole("button", { name: t.common.back }).click();
    await page.waitForURL(`${baseURL}/platform/operator`);
    await expect.poll(() => page.getByRole("cell", { name: "0TS001" }).count()).toBe(1);

    await page.context().clearCookies();
    await logInThroughForm(page, baseURL, "0TS001", "ts001admin", password);
    await changeInitialPassword("/rePassword", "0TS001", password, "Tess12345");
    await logIn(page, baseURL, "0TS001", "ts001admin", "Tess12345");
    await page.waitForURL(`${baseURL}/home`);
    await expect.poll(() => sidebar().textContent()).toContain(t.menu.equipment.title);
    for (const missing of [t.menu.finance.title, t.menu.emsp.title, t.menu.platform.title, t.menu.subOperator.title]) {
      expect(await sidebar().textContent()).not.toContain(missing);
    }
    await page.goto(`${baseURL}/financialManagement/chargeRecord`);
    await page.waitForURL(/\/404\?msg=guard\.insufficient/);
    await page.goto(`${baseURL}/equipmentManagement/station`);
    await expect.poll(() => page.getByText(enStations.stations.empty).count()).toBe(1);
    expect(await page.getByRole("cell", { name: "Warszawa Centrum" }).count()).toBe(0);
    await page.goto(`${baseURL}/carrierSystem/carrierInfo`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(t.carrierInfo.title);
  });

  it("serves a provisioned operator's login page at the root of its domain", async () => {
    await page.context().clearCookies();
    const origin = baseURL.replace("127.0.0.1", BRAND_HOST);
    await page.goto(`${origin}/homePage`);
    await page.waitForURL(`${origin}/`);
    await hydrated(page);
    await expect.poll(() => page.title()).toBe(`${t.login.title} — Test Operator One`);
    await page.getByLabel(t.login.username).fill("ts001admin");
    await page.getByLabel(t.login.password, { exact: true }).fill("Tess12345");
    await page.getByLabel(t.login.captcha, { exact: true }).fill("1234");
    await page.getByRole("button", { name: t.login.submit }).click();
    await page.waitForURL(`${origin}/home`);
    await page.context().clearCookies();
  });
});

describe("the platform's and the sub-operators' screens", () => {
  it("shows the platform's operators and packages, and creates a package with its bills page", async () => {
    await logIn(page, baseURL, "PLATFORM", "platform", "Platform123");
    await page.waitForURL(`${baseURL}/platform/operator`);
    await page.getByRole("cell", { name: "0TS001" }).waitFor();
    await page.getByRole("link", { name: t.common.detail }).first().click();
    await page.waitForURL(/\/platform\/operator\/detail\/\d+/);
    await page.goto(`${baseURL}/platform/pricePackage/add`);
    await hydrated(page);
    await field(page, t.packages.operator, "combobox").click();
    await page.getByRole("option", { name: /^0TS001/ }).click();
    await field(page, t.packages.acPrice).fill("0.5");
    await field(page, t.packages.dcPrice).fill("1.25");
    await field(page, t.packages.acConnectors).fill("4");
    await field(page, t.packages.dcConnectors).fill("2");
    await field(page, t.packages.beginAt).fill("2025-01-01");
    await field(page, t.packages.endAt).fill("2099-01-01");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/\/platform\/pricePackage\/detail\/\d+/);
    await expect.poll(() => page.getByText(t.packages.billsEmpty).count()).toBe(1);
    await page.goto(`${baseURL}/platform/pricePackage?operatorCode=0TS001`);
    await expect.poll(() => page.getByRole("cell", { name: "0TS001" }).count()).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseURL}/platform/operator/add`);
    await hydrated(page);
    await noSidewaysScroll();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.context().clearCookies();
  });

  it("lets a 0PL operator add a sub-operator, see it and its finance, and the sub-operator edit its own info", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    await page.goto(`${baseURL}/SubOperator/operatorAcount/accountAdd`);
    await hydrated(page);
    await field(page, t.operators.code).fill("0PL002E2E");
    await field(page, t.operators.name).fill("E2E Sub Operator");
    await field(page, t.operators.adminUsername).fill("e2esubadmin");
    await field(page, t.operators.adminName).fill("Sub Admin E2E");
    await field(page, t.operators.adminEmail).fill("sub@example.com");
    await page.getByRole("button", { name: t.common.save }).click();
    const password = (await page.getByTestId("initial-password").textContent())?.trim() ?? "";
    await page.getByRole("button", { name: t.common.back }).click();
    await page.waitForURL(`${baseURL}/SubOperator/operatorAcount`);
    await expect.poll(() => page.getByRole("cell", { name: "0PL002E2E" }).count()).toBe(1);
    await page.getByRole("row", { name: /0PL002E2E/ }).getByRole("link", { name: t.common.detail }).click();
    await page.waitForURL(/accountDetail\/\d+/);
    await page.goto(`${baseURL}/SubOperator/operatorFinance?name=0PL002E2E`);
    await expect.poll(() => page.getByRole("cell", { name: "0PL002E2E" }).count()).toBe(1);
    await page.goto(`${baseURL}/carrierSystem/carrierInfo`);
    await page.getByRole("link", { name: t.carrierInfo.bills }).first().click();
    await page.waitForURL(/authorizationBillingDetail\/\d+/);

    await page.context().clearCookies();
    await logInThroughForm(page, baseURL, "0PL002E2E", "e2esubadmin", password);
    await changeInitialPassword("/suboperators/rePassword", "0PL002E2E", password, "SubE2E123");
    await logIn(page, baseURL, "0PL002E2E", "e2esubadmin", "SubE2E123");
    await page.waitForURL(/\/suboperators\//);
    await page.goto(`${baseURL}/suboperators/subOperatorInfo/subOperatorInfo`);
    await page.getByRole("link", { name: t.subInfo.edit }).click();
    await page.waitForURL(/subOperatorInfoEdit/);
    await hydrated(page);
    await field(page, t.operators.contactName).fill("Sub Contact");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(`${baseURL}/suboperators/subOperatorInfo/subOperatorInfo`);
    await expect.poll(() => page.getByText("Sub Contact").count()).toBe(1);
    await page.context().clearCookies();
  });
});
