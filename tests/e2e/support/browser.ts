import type { BrowserContext } from "playwright-core";
import { inject } from "vitest";
import { newBrowserContext } from "../../support/browser";
import { checkEveryScreen } from "./axe";

/**
 * A fresh browser context of the run's Chromium (tests/support/browser.ts; docs/testing.md
 * "Browser tests") whose pages check every screen they visit for accessibility (./axe.ts);
 * `extraArgs` launch a Chromium of its own with more switches (a host resolver rule for branded
 * domains). Closing the context is all a test does when done.
 */
export async function openBrowser(extraArgs: string[] = []): Promise<BrowserContext> {
  const browser = await newBrowserContext(inject("chromiumEndpoint"), extraArgs);
  // Generous bounds for a two-core machine shared with the server under test: a page that is
  // merely slow must not fail a test (no test asserts on time).
  browser.setDefaultTimeout(60_000);
  browser.setDefaultNavigationTimeout(60_000);
  browser.pages().forEach(checkEveryScreen);
  browser.on("page", checkEveryScreen);
  return browser;
}
