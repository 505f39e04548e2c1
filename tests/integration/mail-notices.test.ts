import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { flatStrategy } from "./support/strategies";
import enMail from "../../domain/i18n/locales/en/mail.json";
import { consumeOutbox } from "../../workers/jobs/outbox";
import { billTransaction } from "../../workers/services/billing/billing";
import { systemCtx } from "../../workers/services/context";
import { boot, connect, landed, now } from "./support/charger";
import { makeCard, makeCustomer, uniqueTag } from "./support/drivers";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { arrived, mailsTo, smtp } from "./support/mail";
import type { Mail } from "./support/fakes";
import { addSessions } from "./support/sessions";
import { row } from "./support/d1";

/**
 * The mails other modules send (docs/rules/settings.md "Receipts by mail", docs/rules/maintenance.md
 * "Work orders"): a driver's receipt when billing settles their session, and a maintainer's mail
 * when a work order is given to them, through the outbox queue to the local SMTP server.
 */
let admin: string;
let operator: { id: number; code: string };

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  operator = (await row<{ id: number; code: string }>("SELECT id, code FROM operators WHERE code = '0PL002'"))!;
  expect((await call("PUT", "/system-service/mail", { token: admin, body: smtp() })).status).toBe(200);
});

/** Waits until the local SMTP server has a mail for `to` that `matches` (other mails, such as an initial password, may come first). */
const mailAbout = (to: string, matches: (mail: Mail) => boolean) =>
  vi.waitFor(
    async () => {
      const found = (await mailsTo(to)).find(matches);
      if (!found) throw new Error(`no such mail for ${to} yet`);
      return found;
    },
    { timeout: 20_000, interval: 100 },
  );

const billing = () => systemCtx(env, operator, "billing");

/** A strategy at 1.0000 zł per kWh, so a session of 12.345 kWh costs 12,35 zł. */
async function strategyVersion() {
  return (await flatStrategy(admin)).versionId;
}

/** A stopped, not yet billed session of 12.345 kWh charged to `idTag`. */
async function stoppedSession(idTag: string, versionId: number | undefined) {
  const made = await makeCharger("0PL002");
  const stop = new Date(Date.now() - 3_600_000);
  const [id] = await addSessions(made, [
    { start: new Date(stop.getTime() - 3_600_000).toISOString(), stop: stop.toISOString(), meterStart: 1_000, meterStop: 13_345, idTag, strategyVersionId: versionId },
  ]);
  return id;
}

/** What billing queues, caught instead of sent, so that the test can drive the consumer itself. */
async function caught(run: () => Promise<unknown>) {
  const bodies: unknown[] = [];
  const single = vi.spyOn(env.OUTBOX, "send").mockImplementation((async (body: unknown) => void bodies.push(body)) as never);
  const many = vi.spyOn(env.OUTBOX, "sendBatch").mockImplementation((async (messages: Iterable<MessageSendRequest>) => {
    for (const m of messages) bodies.push(m.body);
  }) as never);
  await run();
  single.mockRestore();
  many.mockRestore();
  return bodies;
}

async function consume(bodies: unknown[]) {
  const verdicts: string[] = [];
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  await consumeOutbox(
    {
      queue: "plugdesk-outbox",
      messages: bodies.map((body, i) => ({ id: String(i), timestamp: new Date(), attempts: 1, body, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") })),
    } as unknown as MessageBatch<unknown>,
    env,
  );
  return verdicts;
}

describe("receipts by mail", () => {
  it("mails the driver's receipt once billing settles the session: the operator's language and currency, the public receipt's link", async () => {
    const versionId = await strategyVersion();
    const customer = await makeCustomer(admin);
    const card = await makeCard(admin, { customerId: customer.id });
    const id = await stoppedSession(card.idTag, versionId);
    await billTransaction(billing(), id);

    const [mail] = await arrived(customer.email);
    expect(mail.subject).toBe(enMail.mail.receipt.subject.replace("{{transactionId}}", String(id)).replace("{{operator}}", "0PL002"));
    // 0PL002 writes zł after the amount with a comma (its demo settings).
    expect(mail.text).toMatch(/Amount: 12[.,]35 zł/);
    expect(mail.text).toContain("Energy: 12");
    const { receipt_token: token } = (await row<{ receipt_token: string }>("SELECT receipt_token FROM charge_records WHERE transaction_id = ?", id))!;
    // The link's address is the one the mail settings were saved from (no branded domain here).
    expect(mail.text).toContain(`/tourist/chargingRecordDetails/${token}`);
    expect(mail.text).toMatch(/https?:\/\/[^/\s]+\/tourist\/chargingRecordDetails\//);
    await vi.waitFor(async () => expect(await row("SELECT to_address, attempts, error FROM receipt_mails WHERE transaction_id = ?", id)).toEqual({ to_address: customer.email, attempts: 1, error: null }));
  });

  it("mails a record once, however often billing meets it or the queue delivers it", async () => {
    const versionId = await strategyVersion();
    const customer = await makeCustomer(admin);
    const card = await makeCard(admin, { customerId: customer.id });
    const id = await stoppedSession(card.idTag, versionId);
    const first = await caught(() => billTransaction(billing(), id));
    const again = await caught(() => billTransaction(billing(), id));
    const receipts = first.filter((m) => (m as { kind: string }).kind === "receipt");
    expect(receipts).toEqual([{ kind: "receipt", operatorId: operator.id, operatorCode: "0PL002", transactionId: id }]);
    expect(again).toEqual([]);

    // The same message delivered twice (a redelivery): one mail.
    expect(await consume([receipts[0], receipts[0]])).toEqual(["ack", "ack"]);
    expect(await mailsTo(customer.email)).toHaveLength(1);
    expect(await consume(receipts)).toEqual(["ack"]);
    expect(await mailsTo(customer.email)).toHaveLength(1);
  });

  it("keeps the server's refusal on the row, for the queue to retry", async () => {
    const versionId = await strategyVersion();
    const customer = await makeCustomer(admin, { email: `refuse.${uniqueTag().toLowerCase()}@example.com` });
    const card = await makeCard(admin, { customerId: customer.id });
    const id = await stoppedSession(card.idTag, versionId);
    const receipts = (await caught(() => billTransaction(billing(), id))).filter((m) => (m as { kind: string }).kind === "receipt");
    expect(await consume(receipts)).toEqual(["retry"]);
    expect(await row("SELECT sent_at, attempts FROM receipt_mails WHERE transaction_id = ?", id)).toEqual({ sent_at: null, attempts: 1 });
    expect((await row<{ error: string }>("SELECT error FROM receipt_mails WHERE transaction_id = ?", id))!.error).toMatch(/550/);
  });

  it("queues nothing for a driver without an e-mail, a session without a driver, an unpriced session, or an operator without a mail server", async () => {
    const versionId = await strategyVersion();
    const erased = await makeCustomer(admin);
    await env.DB.prepare("UPDATE customers SET email = ? WHERE id = ?").bind(`deleted-${erased.id}@invalid`, erased.id).run();
    const erasedCard = await makeCard(admin, { customerId: erased.id });
    const withoutEmail = await stoppedSession(erasedCard.idTag, versionId);
    const anonymous = await stoppedSession(uniqueTag("ANON"), versionId);
    const customer = await makeCustomer(admin);
    const card = await makeCard(admin, { customerId: customer.id });
    const unpriced = await stoppedSession(card.idTag, undefined);
    for (const id of [withoutEmail, anonymous, unpriced]) {
      const queued = await caught(() => billTransaction(billing(), id));
      expect(queued.filter((m) => (m as { kind: string }).kind === "receipt")).toEqual([]);
    }

    // Without a mail server: nothing, even for a driver with an e-mail.
    const priced = await stoppedSession(card.idTag, versionId);
    await env.DB.prepare("DELETE FROM mail_settings WHERE operator_id = ?").bind(operator.id).run();
    try {
      const queued = await caught(() => billTransaction(billing(), priced));
      expect(queued.filter((m) => (m as { kind: string }).kind === "receipt")).toEqual([]);
    } finally {
      await call("PUT", "/system-service/mail", { token: admin, body: smtp() });
    }
    expect(await row("SELECT COUNT(*) AS n FROM receipt_mails WHERE transaction_id IN (?, ?, ?, ?)", withoutEmail, anonymous, unpriced, priced)).toEqual({ n: 0 });
  });
});

describe("initial passwords of new accounts", () => {
  it("go through the queue to an account with an e-mail; the answer says whether one was queued", async () => {
    const role = await makeRole(admin, { menuCodes: ["home"] });
    const username = `acct${uniqueTag().toLowerCase()}`.slice(0, 20);
    const email = `${username}@example.com`;
    const withEmail = await call("POST", "/user-service/account", { token: admin, body: { username, name: "Mail Tester", email, roleId: role.id } });
    expect(withEmail.body.data).toMatchObject({ mailed: true, initialPassword: expect.any(String) });
    const [mail] = await arrived(email);
    expect(mail.subject).toBe(enMail.mail.initialPassword.subject.replace("{{operator}}", "0PL002"));
    expect(mail.text).toContain(withEmail.body.data.initialPassword);

    const other = `${username.slice(0, 18)}x2`;
    const withoutEmail = await call("POST", "/user-service/account", { token: admin, body: { username: other, name: "Mail Tester", roleId: role.id } });
    expect(withoutEmail.body.data).toMatchObject({ mailed: false, initialPassword: expect.any(String) });
  });
});

describe("work-order mails", () => {
  let maintainerRole: number;
  beforeAll(async () => {
    maintainerRole = (await makeRole(admin, { type: "MAINTAINER", menuCodes: ["operation.maintain"] })).id;
  });

  async function maintainer(body: Record<string, unknown>) {
    const account = await makeAccount("0PL002", admin, maintainerRole, { changePassword: false });
    const res = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id, ...body } });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return { id: (res.body.data as { id: number }).id, email: `${account.username}@example.com` };
  }

  it("mails the handler of an order opened by hand, and the new handler when it is reassigned", async () => {
    const made = await makeCharger("0PL002");
    const first = await maintainer({ faultCodes: [] });
    const second = await maintainer({ faultCodes: [] });
    const opened = await call("POST", "/maintain-service/work-order", {
      token: admin,
      body: { faultCode: "GroundFailure", serialNumber: made.serialNumber, abnormalTime: new Date().toISOString(), maintainerId: first.id },
    });
    expect(opened.status).toBe(200);
    const orderId = String(opened.body.data.id);
    const about = (mail: Mail) => mail.subject.includes(orderId);
    const toFirst = await mailAbout(first.email, about);
    expect(toFirst.subject).toBe(enMail.mail.workOrderAssigned.subject.replace("{{orderId}}", orderId).replace("{{operator}}", "0PL002"));
    expect(toFirst.text).toContain(made.serialNumber);
    expect(toFirst.text).toContain("GroundFailure");

    expect((await call("PUT", `/maintain-service/work-order/${orderId}`, { token: admin, body: { maintainerId: second.id } })).status).toBe(200);
    await mailAbout(second.email, about);
    // An edit that keeps the handler mails nobody; the next reassignment mails the first again.
    expect((await call("PUT", `/maintain-service/work-order/${orderId}`, { token: admin, body: { remarks: "Bring a ladder" } })).status).toBe(200);
    expect((await call("PUT", `/maintain-service/work-order/${orderId}`, { token: admin, body: { maintainerId: first.id } })).status).toBe(200);
    await vi.waitFor(async () => expect((await mailsTo(first.email)).filter(about)).toHaveLength(2), { timeout: 20_000, interval: 100 });
    expect((await mailsTo(second.email)).filter(about)).toHaveLength(1);
  });

  it("mails the maintainer an alarm's order was given to automatically", async () => {
    const made = await makeCharger("0PL002");
    const bound = await maintainer({ faultCodes: ["PowerSwitchFailure"], pointIds: [made.pointId] });
    const live = (await connect(made.serialNumber, { key: made.key })).charger!;
    await boot(live);
    await landed();
    try {
      await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: true } });
      await live.call("StatusNotification", { connectorId: 1, errorCode: "PowerSwitchFailure", status: "Faulted", timestamp: now() });
      await landed();
      const mail = await mailAbout(bound.email, (m) => m.text.includes(made.serialNumber));
      expect(mail.text).toContain("PowerSwitchFailure");
    } finally {
      await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: false } });
      live.close();
    }
  });
});
