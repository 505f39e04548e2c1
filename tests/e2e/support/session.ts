import type { BrowserContext, Page } from "playwright-core";
import { afterAll, expect } from "vitest";
import de from "../../../domain/i18n/locales/de/translation.json";
import deUi from "../../../domain/i18n/locales/de/ui.json";
import en from "../../../domain/i18n/locales/en/translation.json";
import enUi from "../../../domain/i18n/locales/en/ui.json";
import pl from "../../../domain/i18n/locales/pl/translation.json";
import plUi from "../../../domain/i18n/locales/pl/ui.json";
import { DEV_CAPTCHA, logInByCookie } from "../../support/browser";
import { checkScreen } from "./axe";
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

/**
 * Opens `url` as a user moving through the console does: on a page that shows the console
 * already, its router renders the new screen, its loaders run on the server as for any
 * navigation, and the console's scripts are not loaded, parsed and hydrated again; any other page
 * loads it whole (`goto`), and so does the address the page shows already, as a user's reload
 * does (a test that opens it again means to see it afresh). The screen is checked for
 * accessibility on arrival either way (./axe.ts). A screen walk pays about half the CPU of
 * loading each screen whole (docs/testing.md "Where the time goes"); a test of what a whole load
 * does (the server's HTML, the status of the answer, a changed cookie) uses `goto`.
 */
export async function visit(page: Page, url: string) {
  const target = new URL(url);
  const shown = new URL(page.url());
  const inConsole = shown.origin === target.origin && shown.href !== target.href && (await page.evaluate(() => "__reactRouterDataRouter" in window));
  if (!inConsole) {
    await page.goto(url);
    return;
  }
  // React Router's own router, which its hydrated entry keeps on window. Its navigation resolves
  // once the loaders have answered; `flushSync` renders the screen before that, not later in a
  // transition: under load a test read the screen before, still on the screen it came from.
  await page.evaluate(
    (to) =>
      (window as unknown as { __reactRouterDataRouter: { navigate(to: string, options: { flushSync: boolean }): Promise<void> } }).__reactRouterDataRouter.navigate(to, {
        flushSync: true,
      }),
    `${target.pathname}${target.search}${target.hash}`,
  );
  await checkScreen(page);
}

/** Opens a console screen (`visit`) and waits until it carries its title and React has hydrated it. */
export async function openScreen(page: Page, url: string, title: string) {
  await visit(page, url);
  await expect.poll(() => page.title(), { timeout: 15_000 }).toBe(title);
  await hydrated(page);
}
