import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { checkEveryScreen } from "./axe";

/**
 * Chromium for the browser tests (docs/architecture.md "Tests"): CHROMIUM_PATH, else the system's
 * Chromium, else the binary that @sparticuz/chromium ships.
 */
async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const candidate of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) {
    if (existsSync(candidate)) return candidate;
  }
  const { default: packaged } = await import("@sparticuz/chromium");
  return packaged.executablePath();
}

/**
 * A fresh Chromium profile whose pages check every screen they visit for accessibility (./axe.ts);
 * `extraArgs` add switches (a host resolver rule for branded domains).
 */
export async function openBrowser(extraArgs: string[] = []): Promise<BrowserContext> {
  const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "plugdesk-chromium-")), {
    executablePath: await chromiumPath(),
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
  // Generous bounds for a two-core machine shared with the server under test: a page that is
  // merely slow must not fail a test (no test asserts on time).
  browser.setDefaultTimeout(60_000);
  browser.setDefaultNavigationTimeout(60_000);
  browser.pages().forEach(checkEveryScreen);
  browser.on("page", checkEveryScreen);
  return browser;
}
