import { describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/ocpi.json";
import sync from "../../domain/i18n/locales/en/ocpi-sync.json";
import wallets from "../../domain/i18n/locales/en/wallets.json";
import { demoAdminPageOfFile, openScreen, text } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("roaming partners of 0PL002");

/**
 * Pulls, token pushes and exports on the roaming screens (docs/rules/ocpi.md "Pulls", "Token
 * pushes", "Console"): the demo platform the seed adds, the force push behind its confirmation,
 * and the lists' xlsx exports.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...wallets, ocpi: { ...en.ocpi, ...sync.ocpi, platform: { ...en.ocpi.platform, ...sync.ocpi.platform } } };
const OPERATOR = "Plugdesk Polska";
const { page } = await demoAdminPageOfFile(baseURL);

const expectScreen = (path: string, screen: string) => openScreen(page, `${baseURL}${path}`, `${screen} — ${OPERATOR}`);

describe("roaming: pulls, pushes and exports", () => {
  it("shows the seeded demo platform as never pulled, with no Pull until it is registered", async () => {
    // Filtered by its name: other browser tests' partners, newer, fill the first page.
    await expectScreen(`/emsp/emspPlatform?q=${encodeURIComponent("Demo CPO")}`, t.menu.emsp.platform);
    const row = page.getByRole("row").filter({ hasText: "Demo CPO (not registered)" });
    await expect.poll(() => row.getByText(t.ocpi.pull.never).count()).toBe(1);
    expect(await row.getByRole("button", { name: t.ocpi.pull.start }).count()).toBe(0);
  });

  it("asks before pushing every token again, and says when no partner takes tokens", async () => {
    await expectScreen("/emsp/emspToken", t.menu.emsp.token);
    await page.getByRole("button", { name: t.ocpi.push.all }).click();
    const dialog = page.getByRole("alertdialog");
    await expect.poll(() => dialog.getByText(t.ocpi.push.confirmAll).count()).toBe(1);
    await dialog.getByRole("button", { name: t.ui.confirm.ok }).click();
    await expect.poll(() => page.getByText(t.ocpi.errors.noTokenReceiver).count()).toBeGreaterThan(0);
  });

  it("exports the sessions and the tokens as xlsx files", async () => {
    for (const [path, screen, kind] of [
      ["/emsp/emspSession", t.menu.emsp.session, "session"],
      ["/emsp/emspToken", t.menu.emsp.token, "token"],
    ]) {
      await expectScreen(path, screen);
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: t.wallets.export, exact: true }).click();
      expect((await download).suggestedFilename()).toMatch(new RegExp(`^roaming-${kind}-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    }
  });
});
