import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import settingsEn from "../../domain/i18n/locales/en/settings.json";
import retentionEn from "../../domain/i18n/locales/en/retention.json";
import { Api } from "../../scripts/sim/register";
import { field, hydrated, logIn, pageOfFile, visit } from "./support/session";

/** Retention on the parameter-settings screen (docs/rules/settings.md "Retention"). */
const baseURL = inject("baseURL");
const r = retentionEn.retention;
const ADMIN = { operatorCode: "0PL002", username: "demoadmin", password: "Demo12345" };
const { page } = await pageOfFile();
let api: Api;
let original: { recordsMonths: number; framesDays: number };

beforeAll(async () => {
  api = await Api.login(baseURL, ADMIN);
  original = await api.get("/system-service/retention");
});

afterAll(async () => {
  await api?.put("/system-service/retention", original);
});

describe("retention tab", () => {
  it("refuses a period out of bounds with its message, saves a good one, and lists the archives", async () => {
    await logIn(page, baseURL, ADMIN.operatorCode, ADMIN.username, ADMIN.password);
    await page.waitForURL(/\/home|\/systemMonitoring/);
    await visit(page, `${baseURL}/carrierSystem/parameterSettings`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(settingsEn.settings.title);
    await page.getByRole("tab", { name: r.tab }).click();

    await field(page, r.fields.recordsMonths).fill("0");
    await page.getByRole("button", { name: r.save }).click();
    await expect.poll(() => page.getByText(r.validation.recordsMonths, { exact: true }).count()).toBe(1);
    await field(page, r.fields.recordsMonths).fill("24");
    await field(page, r.fields.framesDays).fill("30");
    await page.getByRole("button", { name: r.save }).click();
    await expect.poll(() => page.getByText(r.saved, { exact: true }).count()).toBeGreaterThan(0);
    expect(await api.get("/system-service/retention")).toEqual({ recordsMonths: 24, framesDays: 30 });

    const archives = page.getByRole("table", { name: r.archives.title });
    await expect.poll(() => archives.count()).toBe(1);
    const listed = await api.get<{ total: number }>("/system-service/retention/archive?size=10");
    if (listed.total === 0) await expect.poll(() => page.getByText(r.archives.empty, { exact: true }).count()).toBe(1);
    else await expect.poll(() => archives.getByRole("link", { name: r.archives.download }).count()).toBeGreaterThan(0);
  });
});
