import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import plMail from "../../domain/i18n/locales/pl/mail.json";
import { call, tokenFor } from "./support/http";
import { arrived, mailsTo, smtp } from "./support/mail";

/**
 * Provisioning mails the new admin's initial password (docs/rules/platform.md "Provisioning"):
 * through the provisioning operator's mail server, in the new operator's language, with its login
 * page; without a mail server the password is only shown once, as before.
 */
let counter = 0;
const unique = () => `${Date.now().toString(36).slice(-4).toUpperCase()}${++counter}`;
const address = (name: string) => `${name}.${unique().toLowerCase()}@example.com`;

const operatorBody = (code: string, email: string) => ({
  code,
  name: `Operator ${code}`,
  edition: "basic",
  timeZone: "Europe/Warsaw",
  currency: "PLN",
  defaultLanguage: "pl",
  admin: { username: `adm${code.toLowerCase()}`, email, name: "First Admin" },
});

describe("mailing a provisioned admin's initial password", { timeout: 30_000 }, () => {
  it("mails the new operator's admin through the platform's mail server, in the operator's language, with its login page", async () => {
    const platform = await tokenFor("PLATFORM", "platform", "Platform123");
    expect((await call("PUT", "/system-service/mail", { token: platform, body: smtp() })).status).toBe(200);
    const code = `0TM${unique()}`;
    const to = address("owner");
    const res = await call("POST", "/platform-service/operator", { token: platform, body: operatorBody(code, to) });
    expect(res.status).toBe(200);
    const { admin } = res.body.data;
    expect(admin).toMatchObject({ initialPassword: expect.any(String), mailed: true });
    const [mail] = await arrived(to);
    expect(mail.subject).toBe(plMail.mail.initialPassword.subject.replace("{{operator}}", code));
    expect(mail.text).toContain(admin.initialPassword);
    expect(mail.text).toContain(admin.username);
    expect(mail.text).toContain(`/${code}/login`);
  });

  it("mails a new sub-operator's admin through its parent's mail server", async () => {
    const demo = await tokenFor("0PL002", "demoadmin");
    await call("PUT", "/system-service/mail", { token: demo, body: smtp() });
    const code = `0PL002M${unique()}`;
    const to = address("sub");
    const res = await call("POST", "/user-service/sub-operator", {
      token: demo,
      body: { code, name: `Sub ${code}`, validFrom: "2025-01-01", validUntil: "2099-01-01", admin: { username: `sub${code.toLowerCase()}`, email: to, name: "Sub Admin" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.admin.mailed).toBe(true);
    const [mail] = await arrived(to);
    expect(mail.text).toContain(res.body.data.admin.initialPassword);
    expect(mail.text).toContain(`/${code}/login`);
  });

  it("only shows the password when the provisioning operator has no mail server", async () => {
    const platform = await tokenFor("PLATFORM", "platform", "Platform123");
    const { id } = (await env.DB.prepare("SELECT id FROM operators WHERE code = 'PLATFORM'").first<{ id: number }>())!;
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(id).run();
    const code = `0TN${unique()}`;
    const to = address("nomail");
    const res = await call("POST", "/platform-service/operator", { token: platform, body: operatorBody(code, to) });
    expect(res.status).toBe(200);
    expect(res.body.data.admin).toMatchObject({ initialPassword: expect.any(String), mailed: false });
    expect(await mailsTo(to)).toEqual([]);
  });
});
