import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import settingsEn from "../../domain/i18n/locales/en/settings.json";
import { Api } from "../../scripts/sim/register";
import { field, hydrated, logIn, pageOfFile, visit } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("settings of 0DE001");

/** Parameter settings in the console (docs/rules/settings.md "The console screen"). */
const baseURL = inject("baseURL");
const s = settingsEn.settings;
const DE_ADMIN = { operatorCode: "0DE001", username: "deadmin1", password: "Demo12345" };
const { page } = await pageOfFile();
let api: Api;
let original: Record<string, unknown>;

beforeAll(async () => {
  api = await Api.login(baseURL, DE_ADMIN);
  original = await api.get("/system-service/parameter-settings");
});

afterAll(async () => {
  // Other tests read 0DE001's formats: leave them as they were.
  await api?.put("/system-service/parameter-settings", original);
});

const tab = (name: string) => page.getByRole("tab", { name });
const toast = (message: string) => page.getByText(message, { exact: true });

describe("parameter settings screen", () => {
  it("edits the document in tabs: the form refuses what the API refuses, and a saved change is kept", async () => {
    await logIn(page, baseURL, DE_ADMIN.operatorCode, DE_ADMIN.username, DE_ADMIN.password);
    await page.waitForURL(/\/home|\/systemMonitoring/);
    await visit(page, `${baseURL}/carrierSystem/parameterSettings`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(s.title);

    await tab(s.tabs.membership).click();
    await field(page, s.fields.silverFee).fill("40.00");
    await field(page, s.fields.goldFee).fill("30.00");
    await page.getByRole("button", { name: s.actions.save }).click();
    await expect.poll(() => page.getByText(s.validation.goldAboveSilver, { exact: true }).count()).toBe(1);
    await field(page, s.fields.goldFee).fill("55.50");

    await tab(s.tabs.general).click();
    await page.getByRole("checkbox", { name: s.fields.hideZeroCosts }).click();
    await page.getByLabel(s.fields.decimalSeparator).selectOption(",");
    await page.getByRole("button", { name: s.actions.save }).click();
    await expect.poll(() => toast(s.saved).count()).toBeGreaterThan(0);

    const saved = await api.get<{ membership: { silverFee: number; goldFee: number }; hideZeroCosts: boolean; decimalSeparator: string }>(
      "/system-service/parameter-settings",
    );
    expect(saved).toMatchObject({ membership: { silverFee: 4000, goldFee: 5550 }, hideZeroCosts: true, decimalSeparator: "," });

    await page.reload();
    await hydrated(page);
    await tab(s.tabs.membership).click();
    await expect.poll(() => field(page, s.fields.goldFee).inputValue()).toBe("55.50");
  });

  it("saves the mail server on its own tab and shows why port 25 is refused", async () => {
    await visit(page, `${baseURL}/carrierSystem/parameterSettings`);
    await hydrated(page);
    await tab(s.tabs.mail).click();
    await expect.poll(() => page.getByText(s.mail.ports.replace("{{ports}}", "587, 465")).count()).toBe(1);
    await field(page, s.mail.host).fill("smtp.example.com");
    await field(page, s.mail.port).fill("25");
    await field(page, s.mail.from).fill("noreply@example.com");
    await page.getByRole("button", { name: s.mail.save }).click();
    await expect.poll(() => page.getByText(s.validation.port25).count()).toBeGreaterThan(0);
    await field(page, s.mail.port).fill("587");
    await page.getByRole("button", { name: s.mail.save }).click();
    await expect.poll(() => toast(s.mail.saved).count()).toBeGreaterThan(0);
    const mail = await api.get<{ settings: { host: string; port: number } }>("/system-service/mail");
    expect(mail.settings).toMatchObject({ host: "smtp.example.com", port: 587 });
  });

  it("shows a sub-operator only its own part", async () => {
    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002A", "subadmin1", "Demo12345");
    await page.waitForURL(/\/suboperators\//);
    await visit(page, `${baseURL}/suboperators/parameterSettings`);
    await hydrated(page);
    await expect.poll(() => field(page, s.fields.timeZone, "combobox").inputValue()).toBe("Europe/Warsaw");
    // The zone is picked from the IANA list as one types (docs/rules/console.md "Forms").
    await expect.poll(() => page.locator('datalist option[value="Europe/Lisbon"]').count()).toBe(1);
    expect(await page.getByRole("tab").count()).toBe(0);
    expect(await page.getByText(s.fields.silverFee).count()).toBe(0);
  });

  it("fits a phone: the tabs scroll, the page does not", async () => {
    await page.context().clearCookies();
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, baseURL, DE_ADMIN.operatorCode, DE_ADMIN.username, DE_ADMIN.password);
    await page.waitForURL(/\/home|\/systemMonitoring/);
    await visit(page, `${baseURL}/carrierSystem/parameterSettings`);
    await hydrated(page);
    await tab(s.tabs.currency).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
