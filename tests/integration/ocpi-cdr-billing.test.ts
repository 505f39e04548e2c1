import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import billingEn from "../../domain/i18n/locales/en/billing.json";
import roamingEn from "../../domain/i18n/locales/en/roaming.json";
import settingsEn from "../../domain/i18n/locales/en/settings.json";
import { ROAMING_RECORD_BASE } from "../../domain/schemas/records";
import { consumeBilling } from "../../workers/jobs/billing";
import { platformCtx } from "../../workers/services/context";
import { pendingCdrs, PENDING_CDR_AFTER_MS } from "../../workers/services/ocpi/cdr-billing";
import { eventually, makeCardRow, makeCustomerRow, makeGroupRow, operatorIdOf } from "./support/driver-rows";
import { ocpi } from "./support/fake-cpo";
import { tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { cdrFor, registeredCpo, setIdentity } from "./support/ocpi-partner";
import { row } from "./support/d1";

/**
 * A partner's CDR billed to the driver's wallet, NO_CREDIT, and roaming between operators kept
 * apart (docs/rules/ocpi.md "CDRs billed to the wallet", "Tokens").
 */
let admin: string;
let other: string;
let operatorId: number;

const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;
const billsOf = async (customerId: number) => (await env.DB.prepare("SELECT * FROM bills WHERE customer_id = ? AND type = 'Charging'").bind(customerId).all()).results;
const storedCdr = (cdrId: string) =>
  row<{ id: number; billing_status: string; charge_record_id: number | null }>("SELECT id, billing_status, charge_record_id FROM ocpi_cdrs WHERE cdr_id = ?", cdrId);

/** Posts a CDR as the partner, then waits for the billing queue to leave it PENDING. */
async function postCdr(token: string, cdr: ReturnType<typeof cdrFor>) {
  const posted = await ocpi("POST", "/ocpi/2.2.1/cdrs", { token, body: cdr });
  expect(posted.status).toBe(201);
  const stored = await eventually(() => storedCdr(cdr.id), (r) => r !== null && r.billing_status !== "PENDING");
  return { posted, stored: stored! };
}

/** The billing queue's consumer on the CDR's message, delivered twice at once and once more. */
async function deliverAgain(cdrRowId: number, code = "0PL002") {
  const body = { kind: "cdr", cdrRowId, operatorId: await operatorIdOf(code), operatorCode: code };
  const verdicts: string[] = [];
  const message = (id: string) => ({ id, timestamp: new Date(), attempts: 1, body, ack: () => verdicts.push("ack"), retry: () => verdicts.push("retry") });
  const batch = (...ids: string[]) => ({ queue: "plugdesk-billing", messages: ids.map(message) }) as unknown as MessageBatch<unknown>;
  await Promise.all([consumeBilling(batch("a"), env), consumeBilling(batch("b"), env)]);
  await consumeBilling(batch("c"), env);
  return verdicts;
}

const setMinimum = (minor: number) =>
  env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.minimumChargeBalance', ?) WHERE operator_id = ?").bind(minor, operatorId).run();

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  other = await tokenFor("0DE001", "deadmin1");
  operatorId = await operatorIdOf("0PL002");
  await setIdentity("0PL002", { countryCode: "PL", partyId: "PLG" });
});
afterAll(async () => {
  await setIdentity("0PL002", { countryCode: null, partyId: null });
  await setMinimum(0);
});

describe("a roaming record's deliveries", () => {
  it("goes to the operator's bill-push URL like its own records once billed, with the partner's facts, once", async () => {
    const { httpOrigin } = inject("fakes");
    const path = `/roaming-bills-${Date.now().toString(36)}`;
    const doc = (await call("GET", "/system-service/parameter-settings", { token: admin })).body.data;
    expect((await call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...doc, billPush: { url: `${httpOrigin}${path}`, signatureKey: "roaming-push-key-0123456789" } } })).status).toBe(200);
    try {
      const { token } = await registeredCpo(admin);
      const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
      const card = await makeCardRow("0PL002", driver.id);
      const cdr = cdrFor(card.idTag);
      const { stored } = await postCdr(token, cdr);
      const pushes = await eventually(
        async () => (await (await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent(path)}`)).json()) as { body: string }[],
        (list) => list.length > 0,
      );
      expect(JSON.parse(pushes[0].body)).toMatchObject({
        event: "chargeRecord.settled",
        transactionId: stored.charge_record_id,
        serialNumber: "DE*CPO*E1",
        idTag: card.idTag,
        energyWh: 12_500,
        currency: { code: "PLN", decimals: 2 },
        totalCost: 2460,
        roaming: { countryCode: "DE", partyId: "CPO", cdrId: cdr.id, evseId: "DE*CPO*E1" },
      });
      // The billing message again changes nothing: one push per record.
      await deliverAgain(stored.id);
      const after = (await (await fetch(`${httpOrigin}/__fake/requests?path=${encodeURIComponent(path)}`)).json()) as unknown[];
      expect(after).toHaveLength(1);
    } finally {
      await call("PUT", "/system-service/parameter-settings", { token: admin, body: { ...doc, billPush: { url: null, signatureKey: null } } });
    }
  });
});

describe("CDRs billed to the wallet", () => {
  it("debits the driver's wallet by the CDR's total with VAT, with a Charging bill and a roaming charge record, once", async () => {
    const { token, id: platformId } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
    const card = await makeCardRow("0PL002", driver.id);
    const cdr = cdrFor(card.idTag);
    const { posted, stored } = await postCdr(token, cdr);
    expect(stored).toMatchObject({ billing_status: "BILLED", charge_record_id: ROAMING_RECORD_BASE + stored.id });
    expect(await balanceOf(driver.id)).toBe(10_000 - 2460);
    // The same message again, twice at once, and the same CDR posted again: nothing more.
    expect(await deliverAgain(stored.id)).toEqual(["ack", "ack", "ack"]);
    const again = await ocpi("POST", "/ocpi/2.2.1/cdrs", { token, body: cdr });
    expect(again.headers.get("Location")).toBe(posted.headers.get("Location"));
    await deliverAgain(stored.id);
    expect(await balanceOf(driver.id)).toBe(7540);
    const charged = await billsOf(driver.id);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ cost: 2460, balance_before: 10_000, balance_after: 7540, status: "PaySuccess", payment_method: "BALANCE", applied: 1 });
    expect(charged[0].remark).toContain(`DE*CPO CDR ${cdr.id}`);

    const recordId = stored.charge_record_id!;
    const detail = (await call("GET", `/station-service/charge/record/${recordId}`, { token: admin })).body.data;
    expect(detail).toMatchObject({
      id: recordId,
      source: "OCPI",
      status: "RECORD_COMPLETE",
      idTag: card.idTag,
      customerId: driver.id,
      currency: "PLN",
      totalCost: 2460,
      taxCost: 460,
      paidCost: 2460,
      balanceBefore: 10_000,
      balanceAfter: 7540,
      energyWh: 12_500,
      chargingTime: 60,
      startAt: "2026-05-02T08:00:00.000Z",
      stopAt: "2026-05-02T09:00:00.000Z",
      stationName: "Hauptbahnhof",
      roaming: {
        platformId,
        countryCode: "DE",
        partyId: "CPO",
        cdrId: cdr.id,
        evseId: "DE*CPO*E1",
        vatIncluded: true,
        costLines: [
          { kind: "ENERGY", exclVat: 1800, inclVat: 2214 },
          { kind: "TIME", exclVat: 200, inclVat: 246 },
          { kind: "TOTAL", exclVat: 2000, inclVat: 2460 },
        ],
      },
      curve: [],
    });
    // Our own chargers' fields are absent, never made up.
    for (const field of ["transactionId", "pointId", "serialNumber", "connectorId", "meterStartWh", "meterStopWh", "transactionStatus", "authStatus"]) expect(detail[field]).toBeNull();
    const list = await call("GET", `/station-service/charge/record?customerId=${driver.id}`, { token: admin });
    expect(list.body.data.records).toMatchObject([{ id: recordId, source: "OCPI", roaming: { cdrId: cdr.id } }]);
    const receipt = (await call("GET", `/station-service/charge/record/${recordId}/receipt`, { token: admin })).body.data;
    expect(receipt).toMatchObject({ amountDue: 2460, tax: 460, station: "DE*CPO*E1", location: "Hauptbahnhof", address: "Europaplatz 1, Berlin", roaming: { cdrId: cdr.id, partyId: "CPO" } });
    const cdrs = await call("GET", `/ocpi-service/cdr?platformId=${platformId}&status=BILLED`, { token: admin });
    expect(cdrs.body.data.records).toMatchObject([{ cdrId: cdr.id, billingStatus: "BILLED", chargeRecordId: recordId }]);
  });

  it("charges a member of a group paying by LEADER to the leader, and fails the payment beyond the overdraft credit", async () => {
    const { token } = await registeredCpo(admin);
    const leader = await makeCustomerRow("0PL002", { balance: 1000, overdraftCredit: 1000 });
    const member = await makeCustomerRow("0PL002", { balance: 0, payWay: "LEADER" });
    await makeGroupRow("0PL002", [leader.id, member.id]);
    const card = await makeCardRow("0PL002", member.id);
    // 24.60 from 10.00 with a credit of 10.00: fails, the balance as it was.
    const { stored } = await postCdr(token, cdrFor(card.idTag));
    const failed = (await call("GET", `/station-service/charge/record/${stored.charge_record_id}`, { token: admin })).body.data;
    expect(failed).toMatchObject({ status: "PAY_FAIL", customerId: member.id, balanceBefore: 1000, balanceAfter: 1000 });
    expect(await balanceOf(leader.id)).toBe(1000);
    expect(await billsOf(leader.id)).toMatchObject([{ status: "PayFail", cost: 2460 }]);
    // After a top-up to 15.00 it stays within the credit: down to -9.60.
    await env.DB.prepare("UPDATE customers SET balance = 1500 WHERE id = ?").bind(leader.id).run();
    const retried = await call("PUT", `/station-service/charge/record/${stored.charge_record_id}/retry`, { token: admin });
    expect(retried.body.data).toMatchObject({ status: "RECORD_COMPLETE", balanceBefore: 1500, balanceAfter: -960 });
    expect(await balanceOf(leader.id)).toBe(-960);
    expect(await balanceOf(member.id)).toBe(0);
  });

  it("stores and flags a CDR whose token is none of our drivers', billing nobody", async () => {
    const { token, id: platformId } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
    const card = await makeCardRow("0PL002", driver.id);
    const unbound = await makeCardRow("0PL002", null);
    const cases = [
      cdrFor("NO-SUCH-CARD"),
      // Our card's uid, but a token another eMSP issued.
      cdrFor(card.idTag, { cdr_token: { country_code: "NL", party_id: "XYZ", uid: card.idTag, type: "RFID", contract_id: "NL-XYZ-1" } }),
      cdrFor(unbound.idTag),
    ];
    for (const cdr of cases) {
      const { stored } = await postCdr(token, cdr);
      expect(stored).toMatchObject({ billing_status: "UNKNOWN_TOKEN", charge_record_id: null });
      expect(await row("SELECT 1 FROM charge_records WHERE transaction_id = ?", ROAMING_RECORD_BASE + stored.id)).toBeNull();
    }
    expect(await balanceOf(driver.id)).toBe(10_000);
    expect(await billsOf(driver.id)).toHaveLength(0);
    const flagged = await call("GET", `/ocpi-service/cdr?platformId=${platformId}&status=UNKNOWN_TOKEN`, { token: admin });
    expect(flagged.body.data.total).toBe(3);
    // A credit of a CDR we never received gives nothing back: held for review.
    const credit = await postCdr(token, cdrFor(card.idTag, { credit: true, credit_reference_id: "CDR-1", total_cost: { excl_vat: -20, incl_vat: -24.6 } }));
    expect(credit.stored.billing_status).toBe("HELD");
    expect(await balanceOf(driver.id)).toBe(10_000);
  });

  it("records a CDR in another currency than the wallets' without a debit, and refuses to settle it", async () => {
    const { token } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
    const card = await makeCardRow("0PL002", driver.id);
    const { stored } = await postCdr(token, cdrFor(card.idTag, { currency: "EUR", total_cost: { excl_vat: 5.1, incl_vat: 6.07 } }));
    expect(stored.billing_status).toBe("CURRENCY_MISMATCH");
    const id = stored.charge_record_id!;
    expect((await call("GET", `/station-service/charge/record/${id}`, { token: admin })).body.data).toMatchObject({
      source: "OCPI",
      status: "RECORD_UNSETTLED",
      currency: "EUR",
      totalCost: 607,
      taxCost: 97,
      paidCost: null,
      customerId: driver.id,
    });
    expect(await balanceOf(driver.id)).toBe(10_000);
    expect(await billsOf(driver.id)).toHaveLength(0);
    const settle = await call("PUT", `/station-service/charge/record/${id}/settle`, { token: admin });
    expect(settle.status).toBe(409);
    expect(settle.body.msg).toBe(billingEn.billing.errors.otherCurrency.replace("{{currency}}", "EUR").replace("{{main}}", "PLN"));
    expect(await balanceOf(driver.id)).toBe(10_000);
  });

  it("hands CDRs left PENDING (a lost message, a pull) to the billing queue from the cron", async () => {
    const { id: platform } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 5000 });
    const card = await makeCardRow("0PL002", driver.id);
    const cdr = cdrFor(card.idTag);
    const old = Date.now() - PENDING_CDR_AFTER_MS - 60_000;
    // As a pull stores it: the row alone, no message.
    await env.DB.prepare(
      "INSERT INTO ocpi_cdrs (operator_id, platform_id, country_code, party_id, cdr_id, token_uid, location_id, start_at, end_at, kwh, currency, total_cost, data, last_updated, received_at) VALUES (?, ?, 'DE', 'CPO', ?, ?, 'L1', ?, ?, '12.5', 'PLN', '24.6', ?, ?, ?)",
    )
      .bind(operatorId, platform, cdr.id, card.idTag, Date.parse(cdr.start_date_time), Date.parse(cdr.end_date_time), JSON.stringify(cdr), old, old)
      .run();
    const { id } = (await storedCdr(cdr.id))!;
    const due = await pendingCdrs(await platformCtx(env, "cron test"));
    expect(due).toContainEqual({ id, operatorId, operatorCode: "0PL002" });
    await deliverAgain(id);
    expect(await storedCdr(cdr.id)).toMatchObject({ billing_status: "BILLED" });
    expect(await balanceOf(driver.id)).toBe(5000 - 2460);
    expect((await pendingCdrs(await platformCtx(env, "cron test"))).map((c) => c.id)).not.toContain(id);
  });
});

describe("what a CDR may bill", () => {
  const held = (cdrId: string) => row<{ id: number; billing_status: string; hold_reason: string | null; charge_record_id: number | null }>("SELECT id, billing_status, hold_reason, charge_record_id FROM ocpi_cdrs WHERE cdr_id = ?", cdrId);
  const refundsOf = async (customerId: number) => (await env.DB.prepare("SELECT * FROM bills WHERE customer_id = ? AND phase = 'REFUND' ORDER BY id").bind(customerId).all()).results;
  const review = (verb: "release" | "reject", id: number, token = admin) => call("PUT", `/ocpi-service/cdr/${id}/${verb}`, { token });

  it("never credits a wallet from a negative CDR that is not a credit CDR: held, unbilled, and release refuses it", async () => {
    const { token, id: platformId } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
    const card = await makeCardRow("0PL002", driver.id);
    const attack = cdrFor(card.idTag, { total_cost: { excl_vat: -500, incl_vat: -615 }, total_energy_cost: { excl_vat: -500, incl_vat: -615 }, total_time_cost: undefined });
    const { stored } = await postCdr(token, attack);
    expect(await held(attack.id)).toMatchObject({ billing_status: "HELD", hold_reason: "NEGATIVE_TOTAL", charge_record_id: null });
    expect(await balanceOf(driver.id)).toBe(10_000);
    expect(await billsOf(driver.id)).toHaveLength(0);
    expect(await row("SELECT 1 FROM charge_records WHERE transaction_id = ?", ROAMING_RECORD_BASE + stored.id)).toBeNull();
    // The same in another currency, and a negative VAT-included total beside a positive one: held alike.
    for (const total of [{ currency: "EUR", total_cost: { excl_vat: -5 } }, { total_cost: { excl_vat: 5, incl_vat: -1 } }]) {
      const other = cdrFor(card.idTag, total);
      await postCdr(token, other);
      expect(await held(other.id)).toMatchObject({ billing_status: "HELD", hold_reason: "NEGATIVE_TOTAL" });
    }
    const list = await call("GET", `/ocpi-service/cdr?platformId=${platformId}&status=HELD`, { token: admin });
    expect(list.body.data.records).toContainEqual(expect.objectContaining({ cdrId: attack.id, billingStatus: "HELD", holdReason: "NEGATIVE_TOTAL" }));
    // Release cannot bill it; reject closes it, once.
    const refused = await review("release", stored.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(roamingEn.roaming.errors.cannotRelease.replace("$t(roaming.hold.{{reason}})", roamingEn.roaming.hold.NEGATIVE_TOTAL));
    expect((await review("reject", stored.id)).body.data).toMatchObject({ billingStatus: "REJECTED", holdReason: "NEGATIVE_TOTAL" });
    expect((await review("reject", stored.id)).status).toBe(200);
    expect((await review("release", stored.id)).status).toBe(409);
    expect(await balanceOf(driver.id)).toBe(10_000);
    expect(await billsOf(driver.id)).toHaveLength(0);
  });

  it("gives a credit CDR back to the wallet the CDR it credits debited, never more than that debit across credits", async () => {
    const { token } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
    const card = await makeCardRow("0PL002", driver.id);
    const debit = cdrFor(card.idTag);
    const billed = await postCdr(token, debit);
    expect(await balanceOf(driver.id)).toBe(7540);
    const creditOf = (excl: number, incl: number, more: Record<string, unknown> = {}) =>
      cdrFor(card.idTag, { credit: true, credit_reference_id: debit.id, total_cost: { excl_vat: excl, incl_vat: incl }, total_energy_cost: undefined, total_time_cost: undefined, ...more });
    // 10.00 of the 24.60 back.
    const first = creditOf(-8.13, -10);
    await postCdr(token, first);
    expect(await held(first.id)).toMatchObject({ billing_status: "CREDITED", hold_reason: null, charge_record_id: billed.stored.charge_record_id });
    expect(await balanceOf(driver.id)).toBe(8540);
    expect(await refundsOf(driver.id)).toMatchObject([{ type: "Charging", cost: -1000, balance_before: 7540, balance_after: 8540, status: "PaySuccess", payment_method: "BALANCE", applied: 1 }]);
    // 20.00 more is above the 14.60 left: held; the operator's release gives back 14.60, no more.
    const second = creditOf(-16.26, -20);
    const secondRow = (await postCdr(token, second)).stored;
    expect(await held(second.id)).toMatchObject({ billing_status: "HELD", hold_reason: "CREDIT_ABOVE_DEBIT" });
    expect(await balanceOf(driver.id)).toBe(8540);
    expect((await review("release", secondRow.id)).body.data).toMatchObject({ billingStatus: "CREDITED", holdReason: "CREDIT_ABOVE_DEBIT" });
    expect(await balanceOf(driver.id)).toBe(10_000);
    expect((await review("release", secondRow.id)).status).toBe(200);
    expect(await balanceOf(driver.id)).toBe(10_000);
    // Nothing is left to give back: a third credit stays held, and release refuses it.
    const third = creditOf(-0.81, -1);
    const thirdRow = (await postCdr(token, third)).stored;
    expect(await held(third.id)).toMatchObject({ billing_status: "HELD", hold_reason: "CREDIT_ABOVE_DEBIT" });
    expect((await review("release", thirdRow.id)).status).toBe(409);
    // A credit in another currency than the debit's is held too.
    const euro = creditOf(-0.81, -1, { currency: "EUR" });
    await postCdr(token, euro);
    expect(await held(euro.id)).toMatchObject({ billing_status: "HELD", hold_reason: "CREDIT_REFERENCE" });
    expect(await balanceOf(driver.id)).toBe(10_000);
    expect((await refundsOf(driver.id)).map((b) => b.cost)).toEqual([-1000, -1460]);
    expect(await row("SELECT credited FROM ocpi_cdrs WHERE id = ?", billed.stored.id)).toEqual({ credited: 2460 });
  });

  it("never gives back more than the debit when two credits of it are billed at once", async () => {
    const { token } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
    const card = await makeCardRow("0PL002", driver.id);
    const debit = cdrFor(card.idTag);
    await postCdr(token, debit);
    const [a, b] = [1, 2].map(() => cdrFor(card.idTag, { credit: true, credit_reference_id: debit.id, total_cost: { excl_vat: -16.26, incl_vat: -20 }, total_energy_cost: undefined, total_time_cost: undefined }));
    await Promise.all([postCdr(token, a), postCdr(token, b)]);
    const states = [(await held(a.id))!.billing_status, (await held(b.id))!.billing_status].sort();
    expect(states).toEqual(["CREDITED", "HELD"]);
    expect(await balanceOf(driver.id)).toBe(7540 + 2000);
  });

  it("holds a CDR above what its energy and time could cost, and bills it once the operator releases it", async () => {
    const { token, id: platformId } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 20_000 });
    const card = await makeCardRow("0PL002", driver.id);
    // 12.5 kWh in an hour may cost at most 37.50 + 30.00 = 67.50.
    const dear = cdrFor(card.idTag, { total_cost: { excl_vat: 80, incl_vat: 98.4 } });
    const { stored } = await postCdr(token, dear);
    expect(await held(dear.id)).toMatchObject({ billing_status: "HELD", hold_reason: "ABOVE_LIMIT", charge_record_id: null });
    expect(await balanceOf(driver.id)).toBe(20_000);
    // Never queued again by the cron, never billed by a message delivered again.
    expect(await deliverAgain(stored.id)).toEqual(["ack", "ack", "ack"]);
    expect(await balanceOf(driver.id)).toBe(20_000);
    // Only the CDR screen's users review it, and only the operator's own.
    const other_ = await call("PUT", `/ocpi-service/cdr/${stored.id}/release`, { token: other });
    expect(other_.status).toBe(404);
    const without = await tokenWithMenus(admin, ["emsp.session", "emsp.location"]);
    expect((await review("release", stored.id, without)).status).toBe(403);
    expect((await review("reject", stored.id, without)).status).toBe(403);
    const released = await review("release", stored.id);
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({ billingStatus: "BILLED", holdReason: "ABOVE_LIMIT", chargeRecordId: ROAMING_RECORD_BASE + stored.id });
    expect(await balanceOf(driver.id)).toBe(20_000 - 9840);
    // Released twice, or rejected after: billed once.
    expect((await review("release", stored.id)).status).toBe(200);
    expect((await review("reject", stored.id)).status).toBe(409);
    expect(await billsOf(driver.id)).toMatchObject([{ cost: 9840, status: "PaySuccess" }]);
    expect(await balanceOf(driver.id)).toBe(20_000 - 9840);
    const log = await row<{ account: string; new_data: string }>("SELECT account, new_data FROM operation_logs WHERE table_name = 'ocpi_cdrs' AND new_data LIKE ? ORDER BY id DESC LIMIT 1", `%"id":${stored.id},%`);
    expect(log?.account).toBe("demoadmin");
    expect(JSON.parse(log!.new_data)).toMatchObject({ action: "release", billingStatus: "BILLED" });
    const list = await call("GET", `/ocpi-service/cdr?platformId=${platformId}&status=BILLED`, { token: admin });
    expect(list.body.data.records).toContainEqual(expect.objectContaining({ cdrId: dear.id, holdReason: "ABOVE_LIMIT" }));
    // A total that is not a whole number of minor units is held too.
    const odd = cdrFor(card.idTag, { total_cost: { excl_vat: 20.005 } });
    await postCdr(token, odd);
    expect(await held(odd.id)).toMatchObject({ billing_status: "HELD", hold_reason: "NOT_MINOR_UNITS" });
  });

  it("holds by the limit the operator sets in the parameter settings, validated, kept when a body leaves it out", async () => {
    const path = "/system-service/parameter-settings";
    const doc = (await call("GET", path, { token: admin })).body.data;
    expect(doc.roamingCdrLimit).toEqual({ perKwh: "3.00", perMinute: "0.50" });
    const bad = await call("PUT", path, { token: admin, body: { ...doc, roamingCdrLimit: { perKwh: "-1", perMinute: "0.5" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields["roamingCdrLimit.perKwh"]).toBe(settingsEn.settings.validation.roamingCdrLimit);
    expect((await call("PUT", path, { token: admin, body: { ...doc, roamingCdrLimit: { perKwh: "1", perMinute: 0 } } })).status).toBe(200);
    const { roamingCdrLimit: _, ...without } = doc;
    expect((await call("PUT", path, { token: admin, body: without })).status).toBe(200);
    expect((await call("GET", path, { token: admin })).body.data.roamingCdrLimit).toEqual({ perKwh: "1", perMinute: "0" });
    try {
      const { token } = await registeredCpo(admin);
      const driver = await makeCustomerRow("0PL002", { balance: 10_000 });
      const card = await makeCardRow("0PL002", driver.id);
      // 24.60 is above 12.5 kWh at 1.00: held; 12.50 is within it.
      const dear = cdrFor(card.idTag);
      await postCdr(token, dear);
      expect(await held(dear.id)).toMatchObject({ billing_status: "HELD", hold_reason: "ABOVE_LIMIT" });
      const fair = cdrFor(card.idTag, { total_cost: { excl_vat: 12.5 } });
      await postCdr(token, fair);
      expect(await held(fair.id)).toMatchObject({ billing_status: "BILLED" });
      expect(await balanceOf(driver.id)).toBe(10_000 - 1250);
    } finally {
      await call("PUT", path, { token: admin, body: doc });
    }
  });
});

describe("NO_CREDIT", () => {
  it("answers NO_CREDIT when balance plus overdraft credit is below the minimum balance to charge, ALLOWED at it", async () => {
    const { token } = await registeredCpo(admin);
    const driver = await makeCustomerRow("0PL002", { balance: 3000, overdraftCredit: 1000 });
    const card = await makeCardRow("0PL002", driver.id);
    const blocked = await makeCardRow("0PL002", driver.id, { status: "BLOCKED" });
    const ask = async (uid = card.idTag) => (await ocpi("POST", `/ocpi/2.2.1/tokens/${uid}/authorize`, { token })).body.data;
    // No minimum: nothing to check.
    await setMinimum(0);
    expect((await ask()).allowed).toBe("ALLOWED");
    await setMinimum(4001);
    const refused = await ask();
    expect(refused).toMatchObject({ allowed: "NO_CREDIT", token: { uid: card.idTag } });
    expect(refused.authorization_reference).toBeUndefined();
    // The registry's own answer comes first.
    expect((await ask(blocked.idTag)).allowed).toBe("BLOCKED");
    await setMinimum(4000);
    expect((await ask()).allowed).toBe("ALLOWED");
    // The overdraft credit counts: without it the same balance falls short.
    await env.DB.prepare("UPDATE customers SET overdraft_credit = 0 WHERE id = ?").bind(driver.id).run();
    expect((await ask()).allowed).toBe("NO_CREDIT");
    await setMinimum(0);
  });

  it("keeps the minimum balance to charge in the parameter settings, validated", async () => {
    const path = "/system-service/parameter-settings";
    const doc = (await call("GET", path, { token: other })).body.data;
    expect(doc.minimumChargeBalance).toBe(0);
    const bad = await call("PUT", path, { token: other, body: { ...doc, minimumChargeBalance: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields.minimumChargeBalance).toBe(settingsEn.settings.validation.minimumChargeBalance);
    expect((await call("PUT", path, { token: other, body: { ...doc, minimumChargeBalance: 2500 } })).status).toBe(200);
    expect((await call("GET", path, { token: other })).body.data.minimumChargeBalance).toBe(2500);
  });
});

describe("roaming between operators", () => {
  it("never lets a partner of one operator reach another's drivers, and keeps one operator's roaming records from the other's lists", async () => {
    const { token, id: platformId } = await registeredCpo(admin);
    const theirs = await makeCustomerRow("0DE001", { balance: 10_000 });
    const stamp = new Date("2033-03-03T03:03:03Z");
    const theirCard = await makeCardRow("0DE001", theirs.id, { updatedAt: stamp });
    // Tokens: B's card is not among A's, and authorizing it is an unknown token.
    const window = await ocpi("GET", "/ocpi/2.2.1/tokens?date_from=2033-03-03T00:00:00Z&date_to=2033-03-04T00:00:00Z", { token });
    expect(window.headers.get("X-Total-Count")).toBe("0");
    const authorize = await ocpi("POST", `/ocpi/2.2.1/tokens/${theirCard.idTag}/authorize`, { token });
    expect(authorize.status).toBe(404);
    expect(authorize.body.status_code).toBe(2004);
    // A CDR for B's card through A's partner bills nobody.
    const foreign = await postCdr(token, cdrFor(theirCard.idTag));
    expect(foreign.stored.billing_status).toBe("UNKNOWN_TOKEN");
    expect(await balanceOf(theirs.id)).toBe(10_000);
    expect(await billsOf(theirs.id)).toHaveLength(0);
    // A's roaming record is A's alone.
    const ours = await makeCustomerRow("0PL002", { balance: 10_000 });
    const ourCard = await makeCardRow("0PL002", ours.id);
    const billed = await postCdr(token, cdrFor(ourCard.idTag));
    const recordId = billed.stored.charge_record_id!;
    expect((await call("GET", `/station-service/charge/record/${recordId}`, { token: admin })).status).toBe(200);
    for (const path of [`/station-service/charge/record/${recordId}`, `/station-service/charge/record/${recordId}/receipt`]) {
      expect((await call("GET", path, { token: other })).status).toBe(404);
    }
    const theirRecords = await call("GET", "/station-service/charge/record?size=100", { token: other });
    expect(theirRecords.body.data.records.map((r: { id: number }) => r.id)).not.toContain(recordId);
    expect((await call("GET", `/station-service/charge/record?idTag=${ourCard.idTag}`, { token: other })).body.data.total).toBe(0);
    expect((await call("GET", `/ocpi-service/cdr?platformId=${platformId}`, { token: other })).body.data.total).toBe(0);
    const theirBills = await call("GET", "/finance-service/bill?size=100&type=Charging", { token: other });
    expect(theirBills.body.data.records.map((b: { customerId: number }) => b.customerId)).not.toContain(ours.id);
  });
});
