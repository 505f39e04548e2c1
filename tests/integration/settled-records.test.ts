import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import en from "../../domain/i18n/locales/en/settings.json";
import { consumeOutbox } from "../../workers/jobs/outbox";
import { billTransaction } from "../../workers/services/billing/billing";
import { billPushSignature } from "../../workers/services/billing/deliveries";
import { systemCtx } from "../../workers/services/context";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { setTaxRate } from "./support/tax";

/**
 * What happens to a charge record once billing settles it (docs/rules/settings.md "Bill push",
 * "Invoice system"): a signed POST to the bill-push URL and a fiscal invoice request, both through
 * the outbox queue, against a local fake receiver.
 */
const { httpOrigin } = inject("fakes");
const V = en.settings.validation;
const SIGNATURE_KEY = "bill-push-key-0123456789abcdef";

interface Received {
  method: string;
  headers: Record<string, string>;
  body: string;
}

let counter = 0;
const uniquePath = (name: string) => `/${name}-${Date.now().toString(36)}-${++counter}`;
const received = async (path: string): Promise<Received[]> => (await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent(path)}`)).json();
const answerNext = (path: string, answers: { status: number; body?: unknown }[]) =>
  fetch(`${httpOrigin}/__fake/answers?path=${encodeURIComponent(path)}`, { method: "POST", body: JSON.stringify(answers) });

const operatorOf = async (code: string) =>
  (await env.DB.prepare("SELECT id, code FROM operators WHERE code = ?").bind(code).first<{ id: number; code: string }>())!;

const recordOf = (id: number) => env.DB.prepare("SELECT * FROM charge_records WHERE transaction_id = ?").bind(id).first<Record<string, any>>();

/** A stopped transaction of a fresh charger of the operator, ready for billing. */
async function stoppedTransaction(code: string) {
  const charger = await makeCharger(code);
  const start = Date.now() - 3_600_000;
  const row = await env.DB.prepare(
    "INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at, meter_stop_wh, stop_at, stop_reason, status) VALUES (?, ?, 1, 'CARD-1', 'Accepted', 1000, ?, 13345, ?, 'Local', 'COMPLETED') RETURNING id",
  )
    .bind(charger.operatorId, charger.pointId, start, start + 1_800_000)
    .first<{ id: number }>();
  return { id: row!.id, serialNumber: charger.serialNumber };
}

async function settle(code: string, transactionId: number) {
  const operator = await operatorOf(code);
  return billTransaction(systemCtx(env, operator, "billing"), transactionId);
}

/** The outbox messages a call queues, caught instead of sent, so a test can drive the consumer itself. */
async function caughtMessages(run: () => Promise<unknown>) {
  const caught: unknown[] = [];
  const spy = vi.spyOn(env.OUTBOX, "sendBatch").mockImplementation((async (messages: Iterable<MessageSendRequest>) => {
    for (const m of messages) caught.push(m.body);
  }) as never);
  await run();
  spy.mockRestore();
  return caught;
}

/** Runs the outbox consumer on messages; answers each message's verdict. */
async function consume(bodies: unknown[], attempts = 1) {
  const verdicts: { verdict: string; delaySeconds?: number }[] = [];
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  await consumeOutbox(
    {
      queue: "plugdesk-outbox",
      messages: bodies.map((body, i) => ({
        id: String(i),
        timestamp: new Date(),
        attempts,
        body,
        ack: () => verdicts.push({ verdict: "ack" }),
        retry: (options?: { delaySeconds?: number }) => verdicts.push({ verdict: "retry", delaySeconds: options?.delaySeconds }),
      })),
    } as unknown as MessageBatch<unknown>,
    env,
  );
  return verdicts;
}

async function setBillPush(token: string, url: string | null, signatureKey: string | null = SIGNATURE_KEY) {
  const doc = (await call("GET", "/system-service/parameter-settings", { token })).body.data;
  const res = await call("PUT", "/system-service/parameter-settings", { token, body: { ...doc, billPush: { url, signatureKey } } });
  if (res.status !== 200) throw new Error(`setBillPush: ${JSON.stringify(res.body)}`);
}

describe("bill push", () => {
  // Priced with 23 % VAT included, so the pushed record carries a tax line.
  beforeAll(() => setTaxRate("0PL002", "23"));
  afterAll(() => setTaxRate("0PL002", "0"));

  it("POSTs each settled record to the URL, signed HMAC-SHA-256 with the key, through the queue", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const path = uniquePath("bills");
    await setBillPush(token, `${httpOrigin}${path}`);
    const tx = await stoppedTransaction("0PL002");
    // Priced by a flat 1.0000 zł/kWh: 12.345 kWh is 12.35 zł, of which 23 % VAT included is 2.31 zł.
    const strategy = await call("POST", "/finance-service/strategy", {
      token,
      body: { name: uniquePath("Push").slice(1), electricity: { slots: [{ start: "00:00", end: "24:00", price: "1" }] }, service: { unit: "NONE", slots: [] }, idle: { before: null, during: null, after: null } },
    });
    await env.DB.prepare("UPDATE transactions SET strategy_version_id = ? WHERE id = ?").bind(strategy.body.data.versionId, tx.id).run();
    expect(await settle("0PL002", tx.id)).toMatchObject({ billed: true, energyWh: 12345 });

    const [push] = await vi.waitFor(
      async () => {
        const list = await received(path);
        if (!list.length) throw new Error("not pushed yet");
        return list;
      },
      { timeout: 20_000, interval: 100 },
    );
    const body = JSON.parse(push.body);
    expect(body).toMatchObject({
      event: "chargeRecord.settled",
      operatorCode: "0PL002",
      transactionId: tx.id,
      serialNumber: tx.serialNumber,
      connectorId: 1,
      idTag: "CARD-1",
      energyWh: 12345,
      durationS: 1800,
      currency: { code: "PLN", decimals: 2 },
      // Nobody is behind CARD-1: priced, not paid.
      recordStatus: "RECORD_UNSETTLED",
      strategyVersionId: strategy.body.data.versionId,
      electricCost: 1235,
      taxCost: 231,
      totalCost: 1235,
      paidCost: null,
      // The discount split is pushed beside its sum (docs/rules/settings.md "Bill push").
      discountCost: 0,
      memberDiscountCost: 0,
      cardDiscountCost: 0,
      voucherCost: 0,
    });
    const timestamp = push.headers["x-plugdesk-timestamp"];
    expect(push.headers["x-plugdesk-signature"]).toBe(`sha256=${billPushSignature(SIGNATURE_KEY, timestamp, push.body)}`);
    expect(push.headers["x-plugdesk-signature"]).not.toBe(`sha256=${billPushSignature("another-key-0123456789", timestamp, push.body)}`);
    expect(push.headers["x-plugdesk-delivery"]).toBe(`0PL002-${tx.id}`);
    await vi.waitFor(async () => expect((await recordOf(tx.id))!.bill_pushed_at).not.toBeNull(), { timeout: 10_000, interval: 100 });
    expect(await recordOf(tx.id)).toMatchObject({ bill_push_error: null, bill_push_attempts: 1 });
  });

  it("keeps the receiver's refusal on the record and retries later, then records the success", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const path = uniquePath("bills-down");
    await setBillPush(token, `${httpOrigin}${path}`);
    const tx = await stoppedTransaction("0PL002");
    const queued = await caughtMessages(() => settle("0PL002", tx.id));
    expect(queued).toEqual([{ kind: "billPush", operatorId: expect.any(Number), operatorCode: "0PL002", transactionId: tx.id }]);

    await answerNext(path, [{ status: 503, body: { error: "maintenance" } }]);
    expect(await consume(queued, 1)).toEqual([{ verdict: "retry", delaySeconds: 30 }]);
    expect(await recordOf(tx.id)).toMatchObject({ bill_pushed_at: null, bill_push_attempts: 1 });
    expect((await recordOf(tx.id))!.bill_push_error).toMatch(/^HTTP 503/);

    expect(await consume(queued, 2)).toEqual([{ verdict: "ack" }]);
    expect(await recordOf(tx.id)).toMatchObject({ bill_push_error: null, bill_push_attempts: 2 });
    expect((await recordOf(tx.id))!.bill_pushed_at).not.toBeNull();
    // Delivered once: a late duplicate of the message sends nothing more.
    expect(await consume(queued, 3)).toEqual([{ verdict: "ack" }]);
    expect(await received(path)).toHaveLength(2);
  });

  it("queues nothing without a URL, and a record billed again is not pushed twice", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    await setBillPush(token, null, "");
    const tx = await stoppedTransaction("0DE001");
    expect(await caughtMessages(() => settle("0DE001", tx.id))).toEqual([]);

    const path = uniquePath("bills-de");
    await setBillPush(token, `${httpOrigin}${path}`);
    const other = await stoppedTransaction("0DE001");
    const first = await caughtMessages(() => settle("0DE001", other.id));
    expect(first).toHaveLength(1);
    await consume(first);
    expect(await caughtMessages(() => settle("0DE001", other.id))).toEqual([]);
    await setBillPush(token, null, "");
  });
});

describe("Serbian invoice system", () => {
  /** A session of 0PL002 settled with the invoice system on at a path of its own, no bill push: the messages it queued. */
  const settledWithInvoicing = async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await setBillPush(token, null, "");
    const path = uniquePath("api/v3/invoices");
    await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody(path) });
    const tx = await stoppedTransaction("0PL002");
    return { token, path, tx, queued: await caughtMessages(() => settle("0PL002", tx.id)) };
  };
  const invoiceBody = (path: string, overrides: Record<string, unknown> = {}) => ({
    enabled: true,
    url: `${httpOrigin}${path}`,
    account: "esir-user",
    password: "esir-password",
    pac: "PAC1234",
    ...overrides,
  });

  it("keeps the password sealed and never answers it; refuses an enabled system without URL or PAC", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const saved = await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody("/invoices") });
    expect(saved.body.data).toEqual({ enabled: true, url: `${httpOrigin}/invoices`, account: "esir-user", password: null, passwordSet: true, pac: "PAC1234" });
    const { id } = await operatorOf("0DE001");
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM invoice_systems WHERE operator_id = ?").bind(id).first())).not.toContain("esir-password");
    expect((await call("GET", "/system-service/invoice-system", { token })).body.data.passwordSet).toBe(true);

    const noUrl = await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody("", { url: "" }) });
    expect(noUrl.body.data.fields).toEqual({ url: V.urlRequired });
    const noPac = await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody("/invoices", { pac: "" }) });
    expect(noPac.body.data.fields).toEqual({ pac: V.pacRequired });
    // Off, nothing is required.
    expect((await call("PUT", "/system-service/invoice-system", { token, body: { enabled: false, url: null, account: "", pac: "" } })).status).toBe(200);
  });

  it("sends each settled record as an invoice request and stores the invoice number on the record", async () => {
    const { path, tx, queued } = await settledWithInvoicing();
    expect(queued).toEqual([{ kind: "invoice", operatorId: expect.any(Number), operatorCode: "0PL002", transactionId: tx.id }]);

    await answerNext(path, [{ status: 200, body: { invoiceNumber: "RX4F7Y5L-RX4F7Y5L-138", totalAmount: 0 } }]);
    expect(await consume(queued)).toEqual([{ verdict: "ack" }]);
    const [request] = await received(path);
    expect(request.headers.pac).toBe("PAC1234");
    expect(request.headers.authorization).toBe(`Basic ${btoa("esir-user:esir-password")}`);
    expect(request.headers.requestid).toBe(`0PL002-${tx.id}`);
    expect(JSON.parse(request.body)).toMatchObject({
      invoiceType: "Normal",
      transactionType: "Sale",
      invoiceNumber: `0PL002-${tx.id}`,
      items: [{ name: `EV charging ${tx.serialNumber}/1`, quantity: 12.345, labels: ["VAT"] }],
    });
    expect(await recordOf(tx.id)).toMatchObject({ invoice_number: "RX4F7Y5L-RX4F7Y5L-138", invoice_error: null, invoice_attempts: 1 });
  });

  it("stores the invoice system's error on the record and retries until it answers a number", async () => {
    const { token, path, tx, queued } = await settledWithInvoicing();

    await answerNext(path, [
      { status: 400, body: { message: "Invalid PAC", errors: ["2310"] } },
      { status: 200, body: { noNumber: true } },
      { status: 200, body: { invoiceNumber: "AB12CD34-AB12CD34-7" } },
    ]);
    expect(await consume(queued, 1)).toEqual([{ verdict: "retry", delaySeconds: 30 }]);
    expect((await recordOf(tx.id))!.invoice_error).toMatch(/HTTP 400.*Invalid PAC/);
    expect(await consume(queued, 2)).toEqual([{ verdict: "retry", delaySeconds: 60 }]);
    expect((await recordOf(tx.id))!.invoice_error).toMatch(/No invoice number/);
    expect(await consume(queued, 3)).toEqual([{ verdict: "ack" }]);
    expect(await recordOf(tx.id)).toMatchObject({ invoice_number: "AB12CD34-AB12CD34-7", invoice_error: null, invoice_attempts: 3 });
    await call("PUT", "/system-service/invoice-system", { token, body: { enabled: false, url: null, account: "", pac: "" } });
  });

  it("never sends the stored password to another URL: a new URL without it clears it", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await setBillPush(token, null, "");
    await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody(uniquePath("api/v3/invoices")) });
    const path = uniquePath("elsewhere/invoices");
    const moved = await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody(path, { password: undefined }) });
    expect(moved.body.data).toMatchObject({ url: `${httpOrigin}${path}`, passwordSet: false });
    const { id } = await operatorOf("0PL002");
    expect(await env.DB.prepare("SELECT password FROM invoice_systems WHERE operator_id = ?").bind(id).first("password")).toBeNull();
    const tx = await stoppedTransaction("0PL002");
    const queued = await caughtMessages(() => settle("0PL002", tx.id));
    await answerNext(path, [{ status: 200, body: { invoiceNumber: "MOVED123-MOVED123-1" } }]);
    expect(await consume(queued)).toEqual([{ verdict: "ack" }]);
    const [request] = await received(path);
    expect(request.headers.authorization).toBe(`Basic ${btoa("esir-user:")}`);
    // Renaming the account keeps a password entered with the URL.
    await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody(path) });
    expect((await call("PUT", "/system-service/invoice-system", { token, body: invoiceBody(path, { password: undefined, account: "esir-other" }) })).body.data.passwordSet).toBe(true);
    await call("PUT", "/system-service/invoice-system", { token, body: { enabled: false, url: null, account: "", pac: "" } });
  });

  it("keeps each operator's invoice system its own, and closes it to accounts without the menu", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    await call("PUT", "/system-service/invoice-system", { token: de, body: invoiceBody("/de-invoices", { enabled: false }) });
    await call("PUT", "/system-service/invoice-system", { token: pl, body: invoiceBody("/pl-invoices", { enabled: false, account: "pl-user" }) });
    expect((await call("GET", "/system-service/invoice-system", { token: de })).body.data).toMatchObject({ url: `${httpOrigin}/de-invoices`, account: "esir-user" });
    const role = await makeRole(pl, { menuCodes: ["home"] });
    const account = await makeAccount("0PL002", pl, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    expect((await call("GET", "/system-service/invoice-system", { token })).status).toBe(403);
  });
});
