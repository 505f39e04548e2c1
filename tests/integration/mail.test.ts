import { env } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import en from "../../domain/i18n/locales/en/settings.json";
import enMail from "../../domain/i18n/locales/en/mail.json";
import plMail from "../../domain/i18n/locales/pl/mail.json";
import { consumeOutbox } from "../../workers/jobs/outbox";
import { systemCtx } from "../../workers/services/context";
import { hashPassword } from "../../workers/auth/password";
import { sendMail } from "../../workers/services/mail/mail";
import { makeAccount, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { arrived, mailsTo, smtp } from "./support/mail";

const { smtpPort, httpOrigin } = inject("fakes");
const V = en.settings.validation;

const operatorOf = async (code: string) =>
  (await env.DB.prepare("SELECT id, code FROM operators WHERE code = ?").bind(code).first<{ id: number; code: string }>())!;

let counter = 0;
const address = (name: string) => `${name}.${Date.now().toString(36)}${++counter}@example.com`;

describe("mail settings", () => {
  it("keeps the SMTP password sealed and never answers it, and suggests 587 and 465", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const empty = await call("GET", "/system-service/mail", { token });
    expect(empty.body.data.suggestedPorts).toEqual([587, 465]);
    const saved = await call("PUT", "/system-service/mail", { token, body: smtp() });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ type: "SMTP", host: "127.0.0.1", port: smtpPort, username: "mailer", password: null, passwordSet: true, tlsMode: "NONE" });
    const { id } = await operatorOf("0PL002");
    const row = await env.DB.prepare("SELECT * FROM mail_settings WHERE operator_id = ?").bind(id).first<Record<string, string>>();
    expect(JSON.stringify(row)).not.toContain("mail-secret");
    // Leaving the password out keeps it.
    const kept = await call("PUT", "/system-service/mail", { token, body: smtp({ password: undefined }) });
    expect(kept.body.data.passwordSet).toBe(true);
    const read = await call("GET", "/system-service/mail", { token });
    expect(read.body.data.settings).toMatchObject({ type: "SMTP", password: null, passwordSet: true });
  });

  it.each([
    ["port 25, which Workers cannot reach", { port: 25 }, "port", V.port25],
    ["a port out of range", { port: 70000 }, "port", V.port],
    ["an unknown TLS mode", { tlsMode: "SSL" }, "tlsMode", V.tlsMode],
    ["a sender that is not an address", { from: "plugdesk" }, "from", V.from],
    ["a host with a scheme", { host: "smtp://mail.example.com" }, "host", V.host],
  ])("refuses %s", async (_what, change, field, message) => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("PUT", "/system-service/mail", { token, body: smtp(change) });
    expect(res.status).toBe(400);
    expect(res.body.data.fields[field]).toBe(message);
  });

  it("refuses an unknown type and an Amazon setup without its secret key", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    expect((await call("PUT", "/system-service/mail", { token, body: { type: "POP3", from: "a@b.de" } })).body.data.fields.type).toBe(V.mailType);
    const amazon = await call("PUT", "/system-service/mail", {
      token,
      body: { type: "AMAZON", region: "eu-central-1", accessKeyId: "AKIDEXAMPLE", from: "noreply@de.example" },
    });
    expect(amazon.body.data.fields).toEqual({ secretAccessKey: V.secretAccessKey });
  });
});

describe("the platform's mail server", () => {
  it("is its SUPER accounts' alone: a platform account holding only the mail menu is refused", async () => {
    const { id: platformId } = await operatorOf("PLATFORM");
    const role = await env.DB.prepare("INSERT INTO roles (operator_id, name, code, type, menu_codes) VALUES (?, 'Mail only', ?, 'NORMAL', '[\"platform\",\"platform.mail\"]') RETURNING id")
      .bind(platformId, `R${Date.now().toString(36)}`)
      .first<{ id: number }>();
    const username = `pmail${Date.now().toString(36)}`;
    await env.DB.prepare("INSERT INTO accounts (operator_id, username, name, password_hash, role_id, must_change_password) VALUES (?, ?, 'Mail Clerk', ?, ?, 0)")
      .bind(platformId, username, await hashPassword("Clerk12345", env.PASSWORD_PEPPER), role!.id)
      .run();
    const clerk = await tokenFor("PLATFORM", username, "Clerk12345");
    expect((await call("GET", "/system-service/mail", { token: clerk })).status).toBe(403);
    expect((await call("PUT", "/system-service/mail", { token: clerk, body: smtp() })).status).toBe(403);
    const platform = await tokenFor("PLATFORM", "platform", "Platform123");
    expect((await call("GET", "/system-service/mail", { token: platform })).status).toBe(200);
  });
});

describe("mail through the local SMTP server", () => {
  it("sends a test mail in the operator's language: 200 once the server took it", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await call("PUT", "/system-service/mail", { token, body: smtp() });
    const to = address("test");
    const res = await call("POST", "/system-service/mail/test", { token, body: { to } });
    expect(res.status).toBe(200);
    const [mail] = await mailsTo(to);
    expect(mail).toMatchObject({ from: "noreply@plugdesk.example", to: [to], user: "mailer" });
    expect(mail.subject).toBe(enMail.mail.test.subject.replace("{{operator}}", "0PL002"));
    expect(mail.text).toContain(enMail.mail.test.text.replace("{{operator}}", "0PL002"));

    // The operator's default language decides the words.
    const settings = (await call("GET", "/system-service/parameter-settings", { token })).body.data;
    await call("PUT", "/system-service/parameter-settings", { token, body: { ...settings, defaultLanguage: "pl" } });
    const polish = address("test-pl");
    expect((await call("POST", "/system-service/mail/test", { token, body: { to: polish } })).status).toBe(200);
    expect((await mailsTo(polish))[0].subject).toBe(plMail.mail.test.subject.replace("{{operator}}", "0PL002"));
    await call("PUT", "/system-service/parameter-settings", { token, body: { ...settings, defaultLanguage: "en" } });
  });

  it("never sends the stored password to another host: a new host without it clears it, a new port keeps it", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await call("PUT", "/system-service/mail", { token, body: smtp() });
    // Another port of the same host is the same server.
    expect((await call("PUT", "/system-service/mail", { token, body: smtp({ password: undefined, port: 587 }) })).body.data.passwordSet).toBe(true);
    const moved = await call("PUT", "/system-service/mail", { token, body: smtp({ host: "localhost", password: undefined }) });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ host: "localhost", passwordSet: false });
    const { id } = await operatorOf("0PL002");
    expect(await env.DB.prepare("SELECT secret FROM mail_settings WHERE operator_id = ?").bind(id).first("secret")).toBeNull();
    // The new host hears the username without the password, and refuses the login.
    const to = address("moved");
    const sent = await call("POST", "/system-service/mail/test", { token, body: { to } });
    expect(sent.status).toBe(409);
    expect(sent.body.data.reason).toContain("535");
    expect(await mailsTo(to)).toEqual([]);
    // Entered again with the new host, it goes with it.
    expect((await call("PUT", "/system-service/mail", { token, body: smtp({ host: "localhost" }) })).body.data.passwordSet).toBe(true);
    const again = address("moved-again");
    expect((await call("POST", "/system-service/mail/test", { token, body: { to: again } })).status).toBe(200);
    expect((await mailsTo(again))[0].user).toBe("mailer");
    await call("PUT", "/system-service/mail", { token, body: smtp() });
  });

  it("answers 409 with the server's refusal: a refused recipient, a wrong password, nobody listening", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await call("PUT", "/system-service/mail", { token, body: smtp() });
    const refused = await call("POST", "/system-service/mail/test", { token, body: { to: address("refuse") } });
    expect(refused.status).toBe(409);
    expect(refused.body.data.reason).toMatch(/550/);
    expect(refused.body.msg).toContain("550");

    await call("PUT", "/system-service/mail", { token, body: smtp({ password: "wrong" }) });
    const wrong = await call("POST", "/system-service/mail/test", { token, body: { to: address("ok") } });
    expect(wrong.status).toBe(409);
    expect(wrong.body.data.reason).toMatch(/535|auth/i);

    await call("PUT", "/system-service/mail", { token, body: smtp({ port: 1 }) });
    expect((await call("POST", "/system-service/mail/test", { token, body: { to: address("ok") } })).status).toBe(409);
    await call("PUT", "/system-service/mail", { token, body: smtp() });
  });

  it("answers 409 'no mail server' before any is set, and 400 for a bad address", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const { id } = await operatorOf("0DE001");
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(id).run();
    const none = await call("POST", "/system-service/mail/test", { token, body: { to: address("x") } });
    expect(none.status).toBe(409);
    expect(none.body.msg).toBe(en.settings.errors.mailNotConfigured);
    expect((await call("POST", "/system-service/mail/test", { token, body: { to: "nobody" } })).body.data.fields).toEqual({ to: V.to });
  });

  it("mails a new account's initial password through the queue when the account has an email", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    await call("PUT", "/system-service/mail", { token: admin, body: smtp() });
    const role = await makeRole(admin, { menuCodes: ["home"] });
    const account = await makeAccount("0PL002", admin, role.id, { changePassword: false });
    const [mail] = await arrived(`${account.username}@example.com`);
    expect(mail.text).toContain(account.initialPassword);
    expect(mail.text).toContain(`/0PL002/login`);
  });

  it("lets any module queue a templated mail; the consumer delivers it, and retries what the server refuses", async () => {
    const operator = await operatorOf("0PL002");
    const ctx = systemCtx(env, operator, "work orders");
    const to = address("maintainer");
    expect(await sendMail(ctx, { to, template: "workOrderAssigned", params: { orderId: "WO-17", point: "PL002-CP01", fault: "HighTemperature" } })).toEqual({ queued: true });
    const [mail] = await arrived(to);
    expect(mail.subject).toContain("WO-17");
    expect(mail.text).toContain("HighTemperature");

    // Driven by hand to see the queue's verdict: a refused recipient is retried later.
    const sent: unknown[] = [];
    const spy = vi.spyOn(env.OUTBOX, "send").mockImplementation((async (body: unknown) => void sent.push(body)) as never);
    await sendMail(ctx, { to: address("refuse"), template: "deletionCode", params: { code: "482913", minutes: 10 } });
    spy.mockRestore();
    expect(JSON.stringify(sent)).not.toContain("482913");
    const verdicts: string[] = [];
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    await consumeOutbox(
      {
        queue: "plugdesk-outbox",
        messages: sent.map((body) => ({ id: "1", timestamp: new Date(), attempts: 1, body, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") })),
      } as unknown as MessageBatch<unknown>,
      env,
    );
    expect(verdicts).toEqual(["retry"]);
  });

  it("queues nothing for an operator without a mail server", async () => {
    const operator = await operatorOf("0DE001");
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(operator.id).run();
    const ctx = systemCtx(env, operator, "receipts");
    const result = await sendMail(ctx, { to: address("driver"), template: "receipt", params: { transactionId: 7, station: "Berlin Mitte", energyWh: 12345, amount: 499, startedAt: new Date().toISOString() } });
    expect(result).toEqual({ queued: false });
  });
});

describe("mail through Amazon SES (a local fake of its API)", () => {
  it("signs the request with SigV4 and answers the service's refusal as 409", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const saved = await call("PUT", "/system-service/mail", {
      token,
      body: { type: "AMAZON", region: "eu-central-1", accessKeyId: "AKIDEXAMPLE", secretAccessKey: "ses-secret-key", from: "noreply@de.example", endpoint: httpOrigin },
    });
    expect(saved.body.data).toMatchObject({ type: "AMAZON", secretAccessKey: null, secretAccessKeySet: true });
    const to = address("ses");
    expect((await call("POST", "/system-service/mail/test", { token, body: { to } })).status).toBe(200);
    const requests: { method: string; headers: Record<string, string>; body: string }[] = await (
      await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent("/v2/email/outbound-emails")}`)
    ).json();
    const request = requests.find((r) => r.body.includes(to))!;
    expect(request.method).toBe("POST");
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-central-1\/ses\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/);
    expect(JSON.parse(request.body)).toMatchObject({ FromEmailAddress: "noreply@de.example", Destination: { ToAddresses: [to] } });
    expect(request.body).not.toContain("ses-secret-key");

    await fetch(`${httpOrigin}/__fake/answers?path=${encodeURIComponent("/v2/email/outbound-emails")}`, {
      method: "POST",
      body: JSON.stringify([{ status: 400, body: { message: "Email address is not verified." } }]),
    });
    const refused = await call("POST", "/system-service/mail/test", { token, body: { to: address("ses") } });
    expect(refused.status).toBe(409);
    expect(refused.body.data.reason).toBe("Email address is not verified.");

    // Another endpoint or region without the secret key: SES cannot sign without one, so it is asked for again.
    const ses = { type: "AMAZON", region: "eu-central-1", accessKeyId: "AKIDEXAMPLE", from: "noreply@de.example" };
    const moved = await call("PUT", "/system-service/mail", { token, body: { ...ses, endpoint: `${httpOrigin}/elsewhere` } });
    expect(moved.status).toBe(400);
    expect(moved.body.data.fields.secretAccessKey).toBe(V.secretAccessKey);
    expect((await call("PUT", "/system-service/mail", { token, body: { ...ses, region: "eu-west-1", endpoint: httpOrigin } })).status).toBe(400);
    expect((await call("PUT", "/system-service/mail", { token, body: { ...ses, endpoint: httpOrigin } })).body.data.secretAccessKeySet).toBe(true);
  });
});
