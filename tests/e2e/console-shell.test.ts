import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openBrowser } from "./support/browser";
import { logIn, text } from "./support/session";

const baseURL = inject("baseURL");
let browser: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  browser = await openBrowser();
  page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
});

describe("console shell", () => {
  it("logs in at /0PL002/login, lands on the first leaf menu, speaks Polish, logs out", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    const sidebar = page.getByRole("complementary", { name: text.en.ui.nav.label });
    await expect.poll(() => sidebar.textContent()).toContain(text.en.menu.monitoring.title);

    await page.getByRole("button", { name: text.en.ui.language.label.replace("{{language}}", "English") }).click();
    await page.getByRole("menuitemradio", { name: "Polski" }).click();
    await expect.poll(() => page.getByRole("complementary", { name: text.pl.ui.nav.label }).textContent()).toContain(text.pl.menu.monitoring.title);
    expect(await page.getByRole("complementary", { name: text.pl.ui.nav.label }).textContent()).toContain(text.pl.menu.carrier.title);
    expect(await page.context().cookies()).toEqual(expect.arrayContaining([expect.objectContaining({ name: "lang", value: "pl" })]));

    await page.getByRole("button", { name: text.pl.ui.account.menu.replace("{{name}}", "Demo administrator") }).click();
    await page.getByRole("menuitem", { name: text.pl.ui.account.logout }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: text.pl.ui.account.logout }).click();
    await page.waitForURL(`${baseURL}/0PL002/login`);

    await page.goto(`${baseURL}/home`);
    await page.waitForURL(`${baseURL}/0PL002/login`);
    expect(consoleErrors).toEqual([]);
  });
});
