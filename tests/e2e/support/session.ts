import type { BrowserContext, Page } from "playwright-core";
import { afterAll, expect } from "vitest";
import de from "../../../domain/i18n/locales/de/translation.json";
import deUi from "../../../domain/i18n/locales/de/ui.json";
import en from "../../../domain/i18n/locales/en/translation.json";
import enUi from "../../../domain/i18n/locales/en/ui.json";
import pl from "../../../domain/i18n/locales/pl/translation.json";
import plUi from "../../../domain/i18n/locales/pl/ui.json";
import { DEV_CAPTCHA, logInByCookie } from "../../support/browser";
import { openBrowser } from "./browser";

/** The catalogues the console shows, so tests look for what a user reads. */
export const text = { en: { ...en, ...enUi }, pl: { ...pl, ...plUi }, de: { ...de, ...deUi } };

/**
 * Logs in by cookie (tests/support/browser.ts `logInByCookie`): the page ends where the form
 * would have sent it, the account's first screen or its password page. The form itself is
 * driven by the tests of logging in, with `logInThroughForm`.
 */
export const logIn = logInByCookie;

/** Logs in through the operator's login page, as a user does, with the development captcha. */
export async function logInThroughForm(page: Page, baseURL: string, operatorCode: string, username: string, password: string) {
  await page.goto(`${baseURL}/${operatorCode}/login`);
  // The form as React runs it (the form posted by the browser itself before hydration is console-shell's test of its own).
  await hydrated(page);
  await page.getByLabel(text.en.login.username).fill(username);
  await page.getByLabel(text.en.login.password, { exact: true }).fill(password);
  await page.getByLabel(text.en.login.captcha, { exact: true }).fill(DEV_CAPTCHA);
  await page.getByRole("button", { name: text.en.login.submit }).click();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A form control by its label, whether or not the form marks it as required. */
export function field(page: Page, label: string, role: "textbox" | "combobox" = "textbox") {
  return page.getByRole(role, { name: new RegExp(`^${escape(label)}( \\(.+\\))?$`) });
}

/** Waits until React has hydrated the page (root.tsx marks <html data-hydrated>). */
export function hydrated(page: Page) {
  return page.waitForSelector("html[data-hydrated]", { state: "attached" });
}

/** A new browser with one page, logged in as the demo operator's admin and at its home page. */
export async function openDemoAdmin(baseURL: string) {
  const browser = await openBrowser();
  const page = await browser.newPage();
  await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
  await page.waitForURL(`${baseURL}/home`);
  return { browser, page };
}

/**
 * The browser preamble of a test file (docs/testing.md "Browser tests"): awaited at the top of
 * the file, it opens a fresh context of the run's Chromium with one page and closes it after the
 * file's last test. `extraArgs` as for `openBrowser`.
 */
export async function pageOfFile(extraArgs: string[] = []) {
  return closedAfterFile({ browser: await openBrowser(extraArgs) });
}

/** The same preamble, logged in as the demo operator's admin and at its home page. */
export async function demoAdminPageOfFile(baseURL: string) {
  return closedAfterFile(await openDemoAdmin(baseURL));
}

async function closedAfterFile<T extends { browser: BrowserContext; page?: Page }>(opened: T) {
  afterAll(() => opened.browser.close());
  return { ...opened, page: opened.page ?? (await opened.browser.newPage()) };
}

/** Opens a console screen and waits until it carries its title and React has hydrated it. */
export async function openScreen(page: Page, url: string, title: string) {
  await page.goto(url);
  await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(title);
  await hydrated(page);
}
