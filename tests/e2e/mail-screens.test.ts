import type { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enMail from "../../domain/i18n/locales/en/mail.json";
import enMaintenance from "../../domain/i18n/locales/en/maintenance.json";
import enPlatform from "../../domain/i18n/locales/en/platform.json";
import enSettings from "../../domain/i18n/locales/en/settings.json";
import { Api } from "../../scripts/sim/register";
import { startSmtp, type Mail } from "../integration/support/fakes";
import { field, hydrated, logIn, pageOfFile, text } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("settings of 0DE001");

/**
 * Mail in the console (docs/rules/settings.md "Mail", docs/rules/maintenance.md "Account
 * deletion"): the platform's own mail server screen with its test send, and the public deletion
 * page's two steps with the code mailed to the driver, against an SMTP server this test starts.
 */
const baseURL = inject("baseURL");
const s = enSettings.settings;
const m = enMail.mail;
const d = enMaintenance.maintenance.deletion;
const menu = { ...text.en.menu, platform: { ...enPlatform.menu.platform, ...enMail.menu.platform } };
const { browser, page } = await pageOfFile();
let smtp: SMTPServer;
let smtpPort: number;
const mails: Mail[] = [];

beforeAll(async () => {
  ({ server: smtp, port: smtpPort } = await startSmtp((mail) => mails.push(mail)));
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

/** The mails the local server took for an address, as they arrive (the queue delivers on its own). */
const mailTo = (address: string) => expect.poll(() => mails.filter((mail) => mail.to.includes(address)).length, { timeout: 30_000 });
const textTo = (address: string) => mails.filter((mail) => mail.to.includes(address)).map((mail) => mail.text);
const toast = (message: string) => page.getByText(message, { exact: true });

describe("the platform's mail server", () => {
  it("is a screen of the platform's menu: saved with the 587/465 hint, and a test mail sent through it", async () => {
    await logIn(page, baseURL, "PLATFORM", "platform", "Platform123");
    await page.waitForURL(`${baseURL}/platform/operator`);
    const sidebar = page.getByRole("complementary", { name: text.en.ui.nav.label });
    await sidebar.getByRole("link", { name: menu.platform.mail }).click();
    await page.waitForURL(`${baseURL}/platform/mail`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(menu.platform.mail);
    await expect.poll(() => page.getByText(s.mail.ports.replace("{{ports}}", "587, 465")).count()).toBe(1);

    await field(page, s.mail.host).fill("127.0.0.1");
    await field(page, s.mail.port).fill("25");
    await field(page, s.mail.from).fill("platform@plugdesk.example");
    await page.getByRole("button", { name: s.mail.save }).click();
    await expect.poll(() => page.getByText(s.validation.port25).count()).toBeGreaterThan(0);

    await field(page, s.mail.port).fill(String(smtpPort));
    await field(page, s.mail.tlsMode, "combobox").click();
    await page.getByRole("option", { name: s.mail.tls.NONE }).click();
    await field(page, s.mail.username).fill("mailer");
    await field(page, s.mail.password).fill("mail-secret");
    await page.getByRole("button", { name: s.mail.save }).click();
    await expect.poll(() => toast(s.mail.saved).count()).toBeGreaterThan(0);

    await page.reload();
    await hydrated(page);
    await expect.poll(() => field(page, s.mail.port).inputValue()).toBe(String(smtpPort));
    const to = `platform-test.${Date.now().toString(36)}@example.com`;
    await page.getByLabel(s.mail.testTo).fill(to);
    await page.getByRole("button", { name: s.mail.sendTest }).click();
    await expect.poll(() => toast(s.mail.testSent.replace("{{to}}", to)).count()).toBeGreaterThan(0);
    await mailTo(to).toBe(1);
    expect(textTo(to)[0]).toContain(m.test.text.replace("{{operator}}", "PLATFORM"));
  });

  it("fits a phone", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${baseURL}/platform/mail`);
    await hydrated(page);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe("the deletion page with a mail server", () => {
  it("asks for the code mailed to the driver, refuses a wrong one, and sends the request once it is right", async () => {
    const de = await Api.login(baseURL, { operatorCode: "0DE001", username: "deadmin1", password: "Demo12345" });
    await de.put("/system-service/mail", { type: "SMTP", host: "127.0.0.1", port: smtpPort, username: "mailer", password: "mail-secret", from: "noreply@de.example", tlsMode: "NONE" });
    const email = `fahrer.${Date.now().toString(36)}@example.com`;
    await de.post("/customer-service/customer", {
      firstName: "Jonas",
      lastName: "Fahrer",
      gender: "MALE",
      email,
      phone: "+49 30 1234567",
      country: "DE",
      city: "Berlin",
      zipCode: "10115",
      evModel: "VW ID.3",
    });

    const visitor = await browser.newPage();
    await visitor.goto(`${baseURL}/app/delete/account?operatorCode=0DE001`);
    await hydrated(visitor);
    await visitor.getByLabel(d.contact).fill(email);
    await visitor.getByRole("button", { name: d.submit }).click();
    // The same words whoever asks: they never say whether the address is known.
    await expect.poll(() => visitor.getByRole("status").textContent()).toContain(m.deletion.codeSent.split("{{minutes}}")[0].split("{{operator}}").pop()!);
    await expect.poll(() => visitor.getByRole("button", { name: m.deletion.confirm }).count()).toBe(1);

    await mailTo(email).toBe(1);
    const code = /\b(\d{6})\b/.exec(textTo(email)[0])![1];
    await visitor.getByLabel(m.deletion.code).fill(code === "000000" ? "111111" : "000000");
    await visitor.getByRole("button", { name: m.deletion.confirm }).click();
    await expect.poll(() => visitor.getByText(m.errors.deletionCodeWrong).count()).toBeGreaterThan(0);

    await visitor.getByLabel(m.deletion.code).fill(code);
    await visitor.getByRole("button", { name: m.deletion.confirm }).click();
    await expect.poll(() => visitor.getByRole("status").textContent()).toContain(m.deletion.confirmed.split("{{operator}}")[0]);
    await visitor.close();

    const requests = await de.get<{ records: { contact: string; status: string }[] }>("/customer-service/account-deletion?status=PENDING&size=100");
    expect(requests.records.filter((r) => r.contact === email)).toEqual([expect.objectContaining({ status: "PENDING" })]);
  });
});
