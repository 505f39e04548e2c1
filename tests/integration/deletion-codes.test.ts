import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs, AppLoadContext } from "react-router";
import { requestDeletionAction } from "../../app/routes/maintenance/media.server";
import deMaintenance from "../../domain/i18n/locales/de/maintenance.json";
import enMaintenance from "../../domain/i18n/locales/en/maintenance.json";
import plMaintenance from "../../domain/i18n/locales/pl/maintenance.json";
import enMail from "../../domain/i18n/locales/en/mail.json";
import plMail from "../../domain/i18n/locales/pl/mail.json";
import { confirmAccountDeletion, requestAccountDeletion } from "../../workers/services/maintenance/account-deletion";
import { makeCustomer, uniqueTag } from "./support/drivers";
import { call, ORIGIN, testCtx, tokenFor } from "./support/http";
import { arrived, mailsTo, smtp } from "./support/mail";

/**
 * The deletion code of the public page (docs/rules/maintenance.md "Account deletion"): with a mail
 * server, a known customer's e-mail gets six digits and the request reaches the operator only once
 * they are confirmed; the answers never tell whether the contact is known; requests are limited per
 * operator and contact and per client. Without a mail server the request goes to the operator.
 */
const E = enMail.mail.errors;
const REQUEST = "/customer-service/account-deletion/request";
const CONFIRM = "/customer-service/account-deletion/confirm";
let admin: string;

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  expect((await call("PUT", "/system-service/mail", { token: admin, body: smtp() })).status).toBe(200);
});

const ask = (contact: string, operatorCode = "0PL002", reason = "Moving away") => call("POST", REQUEST, { body: { operatorCode, contact, reason } });
const confirm = (ticket: string, code: string) => call("POST", CONFIRM, { body: { ticket, code } });
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];
const requestsFor = async (token: string, contact: string) =>
  (await call("GET", "/customer-service/account-deletion?size=100", { token })).body.data.records.filter((r: { contact: string }) => r.contact.toLowerCase() === contact.toLowerCase());
const customerWith = (overrides: Record<string, unknown> = {}) => makeCustomer(admin, { email: `driver.${uniqueTag().toLowerCase()}@example.com`, ...overrides });

describe("the deletion code", () => {
  it("mails six digits to a known customer; the request reaches the operator only once they are confirmed, once", async () => {
    const customer = await customerWith();
    const asked = await ask(customer.email.toUpperCase());
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ received: true, confirmation: "CODE", minutes: 15, ticket: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(await requestsFor(admin, customer.email)).toEqual([]);

    const [mail] = await arrived(customer.email);
    expect(mail.subject).toBe(enMail.mail.deletionCode.subject.replace("{{operator}}", "0PL002"));
    const code = codeIn(mail.text);
    const wrong = await confirm(asked.body.data.ticket, code === "000000" ? "111111" : "000000");
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(E.deletionCodeWrong);
    expect(await requestsFor(admin, customer.email)).toEqual([]);

    const right = await confirm(asked.body.data.ticket, code);
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ confirmed: true });
    expect(await requestsFor(admin, customer.email)).toEqual([expect.objectContaining({ customerId: customer.id, reason: "Moving away", status: "PENDING", verified: true })]);
    // Spent: a second confirmation sends nothing more.
    expect((await confirm(asked.body.data.ticket, code)).body.msg).toBe(E.deletionCodeWrong);
    expect(await requestsFor(admin, customer.email)).toHaveLength(1);
    // The code proved the mailbox: the operator completes it without another check.
    const [request] = await requestsFor(admin, customer.email);
    expect((await call("PUT", `/customer-service/account-deletion/${request.id}`, { token: admin, body: { result: "DONE" } })).body.data).toMatchObject({ status: "DONE" });
  });

  it("keeps only a keyed hash of the code, and refuses it after 15 minutes", async () => {
    const customer = await customerWith();
    const { ticket } = (await ask(customer.email)).body.data;
    const code = codeIn((await arrived(customer.email))[0].text);
    const stored = (await env.DB.prepare("SELECT code_hash, expires_at, created_at FROM deletion_codes WHERE ticket = ?").bind(ticket).first<{ code_hash: string; expires_at: number; created_at: number }>())!;
    expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.code_hash).not.toContain(code);
    expect(stored.expires_at - stored.created_at).toBe(15 * 60_000);
    await env.DB.prepare("UPDATE deletion_codes SET expires_at = ? WHERE ticket = ?").bind(Date.now() - 1, ticket).run();
    expect((await confirm(ticket, code)).body.msg).toBe(E.deletionCodeWrong);
    expect(await requestsFor(admin, customer.email)).toEqual([]);
  });

  it("takes five wrong codes per ticket, then not even the right one", async () => {
    const customer = await customerWith();
    const { ticket } = (await ask(customer.email)).body.data;
    const code = codeIn((await arrived(customer.email))[0].text);
    const other = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i++) expect((await confirm(ticket, other)).status).toBe(400);
    expect((await confirm(ticket, code)).body.msg).toBe(E.deletionCodeWrong);
    expect(await requestsFor(admin, customer.email)).toEqual([]);
  });

  it("answers the same whether or not the contact is known, and mails only a known customer's own address", async () => {
    const phone = `+48 600 ${String(Date.now()).slice(-6, -3)} ${String(Date.now()).slice(-3)}`;
    const customer = await customerWith({ phone });
    const known = await ask(customer.email);
    const stranger = await ask(`nobody.${uniqueTag().toLowerCase()}@example.com`);
    const shape = (data: Record<string, unknown>) => ({ ...data, ticket: typeof data.ticket });
    expect(shape(stranger.body.data)).toEqual(shape(known.body.data));
    expect((await confirm(stranger.body.data.ticket, "123456")).body.msg).toBe(E.deletionCodeWrong);
    expect((await call("POST", CONFIRM, { body: { ticket: "f".repeat(32), code: "123456" } })).body.msg).toBe(E.deletionCodeWrong);

    // Asked by phone: the code goes to the customer's e-mail, never to the typed contact.
    const byPhone = await ask(phone);
    expect(shape(byPhone.body.data)).toEqual(shape(known.body.data));
    await expect.poll(async () => (await mailsTo(customer.email)).length, { timeout: 20_000 }).toBe(2);
    const code = codeIn((await mailsTo(customer.email))[1].text);
    expect((await confirm(byPhone.body.data.ticket, code)).status).toBe(200);
    expect(await requestsFor(admin, phone)).toEqual([expect.objectContaining({ customerId: customer.id })]);
  });

  it("sends a customer without an e-mail to the operator at once, with the same answer", async () => {
    const phone = `+48 601 ${String(Date.now()).slice(-6, -3)} ${String(Date.now()).slice(-3)}`;
    const customer = await customerWith({ phone });
    await env.DB.prepare("UPDATE customers SET email = ? WHERE id = ?").bind(`deleted-${customer.id}@invalid`, customer.id).run();
    const asked = await ask(phone);
    expect(asked.body.data).toMatchObject({ confirmation: "CODE", ticket: expect.any(String) });
    expect(await requestsFor(admin, phone)).toEqual([expect.objectContaining({ customerId: customer.id, status: "PENDING" })]);
  });

  it("refuses a malformed ticket or code with its own message", async () => {
    const res = await call("POST", CONFIRM, { body: { ticket: "nope", code: "12" } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual({ ticket: enMail.mail.validation.ticket, code: enMail.mail.validation.code });
  });
});

describe("without a mail server", () => {
  it("sends the request to the operator, who verifies it, as before", async () => {
    const deAdmin = await tokenFor("0DE001", "deadmin1");
    const { id } = (await env.DB.prepare("SELECT id FROM operators WHERE code = '0DE001'").first<{ id: number }>())!;
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(id).run();
    const contact = `fahrer.${uniqueTag().toLowerCase()}@example.com`;
    const asked = await ask(contact, "0DE001");
    expect(asked.body.data).toEqual({ received: true, operatorName: expect.any(String), confirmation: "OPERATOR", message: expect.any(String) });
    expect(await requestsFor(deAdmin, contact)).toEqual([expect.objectContaining({ status: "PENDING" })]);
  });

  it("flags the request unverified, and completes it only once the operator says how they confirmed the requester's identity", async () => {
    const deAdmin = await tokenFor("0DE001", "deadmin1");
    const { id, name } = (await env.DB.prepare("SELECT id, name FROM operators WHERE code = '0DE001'").first<{ id: number; name: string }>())!;
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(id).run();
    const customer = await makeCustomer(deAdmin, { email: `fahrer.${uniqueTag().toLowerCase()}@example.com` });
    // The driver is told, in their language, that the operator will get in touch to confirm.
    const asked = await call("POST", `${REQUEST}?lang=de`, { body: { operatorCode: "0DE001", contact: customer.email } });
    expect(asked.body.data).toMatchObject({ confirmation: "OPERATOR", message: deMaintenance.maintenance.deletion.operatorWillConfirm.replaceAll("{{operator}}", name) });
    const english = await call("POST", REQUEST, { body: { operatorCode: "0DE001", contact: `other.${customer.email}` } });
    expect(english.body.data.message).toBe(enMaintenance.maintenance.deletion.operatorWillConfirm.replaceAll("{{operator}}", name));

    const [request] = await requestsFor(deAdmin, customer.email);
    expect(request).toMatchObject({ status: "PENDING", customerId: customer.id, verified: false });
    const decide = (body: Record<string, unknown>) => call("PUT", `/customer-service/account-deletion/${request.id}`, { token: deAdmin, body });
    for (const body of [{ result: "DONE" }, { result: "DONE", identityConfirmedBy: "   " }]) {
      const refused = await decide(body);
      expect(refused.status).toBe(400);
      expect(refused.body.data.fields).toEqual({ identityConfirmedBy: enMaintenance.maintenance.validation.identityConfirmedBy });
    }
    expect(await env.DB.prepare("SELECT email FROM customers WHERE id = ?").bind(customer.id).first()).toEqual({ email: customer.email });
    expect((await requestsFor(deAdmin, customer.email))[0]).toMatchObject({ status: "PENDING" });

    const done = await decide({ result: "DONE", identityConfirmedBy: "Phone call to the number on the account" });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ status: "DONE", verified: false });
    const log = await env.DB.prepare("SELECT new_data FROM operation_logs WHERE table_name = 'account_deletion_requests' AND operation_type = 'UPDATE' AND new_data LIKE ?")
      .bind(`%"id":${request.id},%`)
      .first<{ new_data: string }>();
    expect(JSON.parse(log!.new_data)).toMatchObject({ status: "DONE", identityConfirmedBy: "Phone call to the number on the account" });
    // Rejecting needs no such check.
    const [other] = await requestsFor(deAdmin, `other.${customer.email}`);
    expect((await call("PUT", `/customer-service/account-deletion/${other.id}`, { token: deAdmin, body: { result: "REJECTED" } })).status).toBe(200);
  });

  it("tells the driver on the public page that the operator will contact them to confirm", async () => {
    const { id, name } = (await env.DB.prepare("SELECT id, name FROM operators WHERE code = '0DE001'").first<{ id: number; name: string }>())!;
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(id).run();
    const form = new FormData();
    form.set("operatorCode", "0DE001");
    form.set("contact", `seite.${uniqueTag().toLowerCase()}@example.com`);
    const request = new Request(`${ORIGIN}/app/delete/account?lang=pl`, { method: "POST", body: form, headers: { Origin: ORIGIN } });
    const context = { cloudflare: { env, ctx: {}, nonce: "" } } as unknown as AppLoadContext;
    const answer = await requestDeletionAction({ request, context, params: {} } as unknown as ActionFunctionArgs);
    expect(answer).toMatchObject({ ok: true, step: "received", message: plMaintenance.maintenance.deletion.operatorWillConfirm.replaceAll("{{operator}}", name) });
  });
});

describe("limits", () => {
  it("takes five requests an hour per operator and contact: the sixth is 429, in the reader's language", async () => {
    const contact = `flood.${uniqueTag().toLowerCase()}@example.com`;
    for (let i = 0; i < 5; i++) expect((await ask(contact)).status).toBe(200);
    const sixth = await ask(contact.toUpperCase());
    expect(sixth.status).toBe(429);
    expect(sixth.body.msg).toBe(E.tooManyDeletionRequests.replace("{{minutes}}", "60"));
    const polish = await call("POST", `${REQUEST}?lang=pl`, { body: { operatorCode: "0PL002", contact } });
    expect(polish.body.msg).toBe(plMail.mail.errors.tooManyDeletionRequests.replace("{{minutes}}", "60"));
    // Another contact, or the same one at another operator, is not held back.
    expect((await ask(`other.${uniqueTag().toLowerCase()}@example.com`)).status).toBe(200);
    expect((await ask(contact, "0DE001")).status).toBe(200);
    // An hour later the contact may ask again.
    await env.DB.prepare("UPDATE deletion_codes SET created_at = created_at - 3600000 WHERE contact = ?").bind(contact).run();
    expect((await ask(contact)).status).toBe(200);
  });

  it("takes five requests an hour per client address, whatever the contact, where the address can be trusted", async () => {
    const client = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    const from = (ip: string) => testCtx({ request: { ip, url: REQUEST, method: "POST", userAgent: "vitest" } });
    const body = () => ({ operatorCode: "0PL002", contact: `many.${uniqueTag().toLowerCase()}@example.com` });
    for (let i = 0; i < 5; i++) await requestAccountDeletion(from(client), "localhost", body());
    await expect(requestAccountDeletion(from(client), "localhost", body())).rejects.toMatchObject({ status: 429, key: "mail.errors.tooManyDeletionRequests" });
    await expect(requestAccountDeletion(from("203.0.113.250"), "localhost", body())).resolves.toMatchObject({ received: true });
    // A wrong code is not a request: it does not count, and the ticket stays usable.
    await expect(confirmAccountDeletion(from(client), { ticket: "0".repeat(32), code: "123456" })).rejects.toMatchObject({ status: 400 });
  });
});
