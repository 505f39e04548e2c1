import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/content.json";
import { api, closeClients } from "../peers/support";
import { demoAdminPageOfFile, field, hydrated, openScreen, text } from "./support/session";

/**
 * The content screens (docs/rules/content.md), each checked with axe-core on arrival: the operation
 * log and a row's detail, the disclaimer written in one language and read on its public page, the
 * privacy policy refused blank, and a feedback answered in its dialog.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const c = en.content;
const OPERATOR = "Plugdesk Polska";
const { browser, page } = await demoAdminPageOfFile(baseURL);
afterAll(() => closeClients());

const expectScreen = (path: string, screen: string) => openScreen(page, `${baseURL}${path}`, `${screen} — ${OPERATOR}`);

describe("content screens", () => {
  it("lists the operation log by table and shows a row's changes field by field", async () => {
    const a = await api();
    const name = `E2E log ${Date.now().toString(36)}`;
    await a.post("/user-service/role", { name, code: `E2E_${Date.now().toString(36)}`, type: "NORMAL", menuCodes: ["home"] });
    await expectScreen("/carrierSystem/operationLog?tableName=roles&operationType=CREATE", t.menu.carrier.operationLog);
    const link = page.getByRole("link", { name: new RegExp(`^${t.common.detail} ${c.log.openDetail.replace("{{id}}", "\\d+")}$`) }).first();
    await expect.poll(() => link.count()).toBe(1);
    await link.click();
    await expect.poll(() => page.title()).toBe(`${t.page.detail} — ${OPERATOR}`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("region", { name: c.log.changes }).getByText(name).count()).toBeGreaterThan(0);
  });

  it("writes the disclaimer in Polish and serves it on the public page in that language only", async () => {
    await expectScreen("/carrierSystem/disclaimer?textLang=pl", t.menu.carrier.disclaimer);
    const body = `Zastrzeżenie E2E ${Date.now().toString(36)}`;
    await field(page, c.texts.content).fill(body);
    await page.getByRole("button", { name: t.common.save }).click();
    // The screen reloads the text with who saved it.
    const saved = new RegExp(c.texts.lastSaved.replace("{{time}}", ".+").replace("{{account}}", "demoadmin"));
    await expect.poll(() => page.getByText(saved).count()).toBe(1);

    const visitor = await browser.newPage();
    await visitor.goto(`${baseURL}/disclaimer/mobile?operatorCode=0PL002&lang=pl`);
    await hydrated(visitor);
    await expect.poll(() => visitor.getByText(body).count()).toBe(1);
    await visitor.goto(`${baseURL}/disclaimer/mobile?operatorCode=0PL002&lang=de`);
    await hydrated(visitor);
    await expect.poll(() => visitor.getByRole("heading", { level: 1 }).count()).toBe(1);
    expect(await visitor.getByText(body).count()).toBe(0);
    await visitor.close();
  });

  it("refuses a blank privacy policy with a message under the text", async () => {
    await expectScreen("/carrierSystem/privacyPolicy?textLang=de", t.menu.carrier.privacyPolicy);
    await field(page, c.texts.content).fill("   ");
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(c.validation.contentRequired).count()).toBeGreaterThan(0);
  });

  it("answers a driver's feedback in its dialog, once", async () => {
    await expectScreen("/carrierSystem/feedback?creator=Demo%20driver%20Anna", t.menu.carrier.feedback);
    await page.getByRole("button", { name: c.feedback.reply }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: c.feedback.replySubmit }).click();
    await expect.poll(() => dialog.getByText(c.validation.replyRequired).count()).toBe(1);
    await dialog.getByLabel(c.feedback.reply).fill("Thank you, we moved the cable holder.");
    await dialog.getByRole("button", { name: c.feedback.replySubmit }).click();
    await expect.poll(() => page.getByRole("cell", { name: "Thank you, we moved the cable holder." }).count()).toBe(1);
    expect(await page.getByRole("button", { name: c.feedback.reply }).count()).toBe(0);
  });
});
