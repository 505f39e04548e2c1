import { describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/ocpi.json";
import { demoAdminPageOfFile, field, openScreen, text } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("roaming partners of 0PL002");

/** Several screens in one visit, each checked in two themes: more than one screen's time. */
const MANY_SCREENS_MS = 300_000;

/**
 * The roaming screens (docs/rules/ocpi.md "Console"): each titled "screen — operator" and checked
 * with axe-core on arrival (support/axe.ts); a partner platform added in its dialog, registering
 * refused until it has a token and a versions URL, and deleted after a confirmation.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const OPERATOR = "Plugdesk Polska";
const { page } = await demoAdminPageOfFile(baseURL);

const expectScreen = (path: string, screen: string) => openScreen(page, `${baseURL}${path}`, `${screen} — ${OPERATOR}`);

describe("roaming screens", () => {
  it(
    "titles every EMSP screen after itself",
    async () => {
      for (const [path, screen] of [
        ["/emsp/emspPlatform", t.menu.emsp.platform],
        ["/emsp/emspPartyInfo", t.menu.emsp.party],
        ["/emsp/emspToken", t.menu.emsp.token],
        ["/emsp/emspSession", t.menu.emsp.session],
        ["/emsp/emspCdr", t.menu.emsp.cdr],
        ["/emsp/emspLocation", t.menu.emsp.location],
        ["/emsp/emspTariff", t.menu.emsp.tariff],
      ]) {
        await expectScreen(path, screen);
      }
    },
    MANY_SCREENS_MS,
  );

  it("adds a platform in its dialog, keeps Register closed without token and URL, and deletes it after confirming", async () => {
    await expectScreen("/emsp/emspPlatform", t.menu.emsp.platform);
    await page.getByRole("button", { name: t.ocpi.platform.add }).click();
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(t.ocpi.validation.name).count()).toBeGreaterThan(0);
    const name = `E2E CPO ${Date.now().toString(36)}`;
    await field(page, t.ocpi.platform.name).fill(name);
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByRole("cell", { name }).count()).toBe(1);
    const row = page.getByRole("row").filter({ hasText: name });
    await expect.poll(() => row.getByRole("button", { name: t.ocpi.platform.register, exact: true }).isDisabled()).toBe(true);
    await row.getByRole("button", { name: t.common.delete, exact: true }).click();
    // The confirmation's button is named after the action (docs/rules/console.md "Row actions").
    await page.getByRole("alertdialog").getByRole("button", { name: t.common.delete, exact: true }).click();
    await expect.poll(() => page.getByRole("cell", { name }).count()).toBe(0);
  });
});
