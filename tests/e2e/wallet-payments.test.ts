import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import enDrivers from "../../domain/i18n/locales/en/drivers.json";
import enRecords from "../../domain/i18n/locales/en/records.json";
import enPayments from "../../domain/i18n/locales/en/wallet-payments.json";
import enWallets from "../../domain/i18n/locales/en/wallets.json";
import { api, newCharger } from "../peers/support";
import { expectAccessible } from "./support/axe";
import { consoleWithChargers, simulatedCharger } from "./support/charger";
import { hydrated, text, visit } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("settings of 0PL002");

/**
 * Drivers' money end to end (docs/rules/wallets.md, docs/rules/billing.md): a customer topped up in
 * the console and given SILVER charges with their RFID card at a simulated charger; the balance
 * falls by the receipt's total after the membership discount. A session the balance could not pay
 * is retried from the bill screens (docs/rules/wallets.md "Bills").
 */
const baseURL = inject("baseURL");
const w = enWallets.wallets;
const p = enPayments.wallets;
const r = enRecords.records;
const JOURNEY_MS = 240_000;
const session = consoleWithChargers(baseURL);

/** Minor units as the demo operator's console writes them (PLN, two decimals). */
const zl = (minor: number) => `${(minor / 100).toFixed(2)} zł`;

type Settings = { membership: { silverFee: number; goldFee: number; silverDiscount: number; goldDiscount: number } } & Record<string, unknown>;
let saved: Settings | undefined;

beforeAll(async () => {
  // A non-zero SILVER discount for this file; put back afterwards.
  const a = await api();
  saved = await a.get<Settings>("/system-service/parameter-settings");
  await a.put("/system-service/parameter-settings", { ...saved, membership: { ...saved.membership, silverDiscount: 10 } });
});
afterAll(async () => {
  if (saved) await (await api()).put("/system-service/parameter-settings", saved);
});

/** A customer with an RFID card, and a new simulated charger priced at 1.20 zł/kWh plus 10.00 zł a session. */
async function driverAtCharger(name: string) {
  const a = await api();
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const email = `${name.toLowerCase()}.${stamp}@example.com`;
  const customer = await a.post<{ id: number }>("/customer-service/customer", {
    firstName: name,
    lastName: "Kierowca",
    gender: "MALE",
    email,
    country: "PL",
    zipCode: "00-001",
    evModel: "Skoda Enyaq",
  });
  const idTag = `W${stamp}`.toUpperCase().slice(0, 20);
  await a.post("/customer-service/rf-card", { idTag, deliveryType: "TAKE", customerId: customer.id });
  const point = await newCharger();
  const strategy = await a.post<{ id: number }>("/finance-service/strategy", {
    name: `E2E wallet ${point.serialNumber}`,
    electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.2000" }] },
    service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "10.0000" }] },
    idle: { before: null, during: null, after: null },
  });
  await a.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds: [point.id] });
  const sim = simulatedCharger(baseURL, point.serialNumber, point.key);
  session.chargers.push(sim);
  await sim.start();
  return { customer, email, idTag, point, sim };
}

type Record_ = { status: string; totalCost: number; memberDiscountCost: number; paidCost: number | null; balanceBefore: number | null; balanceAfter: number | null };

/** The driver taps the card, charges a few seconds, and the operator stops it: the settled record. */
async function chargeWithCard(d: Awaited<ReturnType<typeof driverAtCharger>>, settledAs: string) {
  const a = await api();
  expect(await d.sim.tap(d.idTag)).toBe("Accepted");
  await expect.poll(() => d.sim.transactionId).toBeGreaterThan(0);
  const transactionId = d.sim.transactionId!;
  await a.put(`/station-service/remoteControl/${d.point.id}/remoteStop/${transactionId}`, {});
  let record: Record_ | undefined;
  await expect.poll(async () => (record = await a.get<Record_>(`/station-service/charge/record/${transactionId}`)).status).toBe(settledAs);
  return { transactionId, record: record! };
}

describe("a driver's money", () => {
  it("tops up in the console, charges with the card, and the balance falls by the receipt's total after the SILVER discount", async () => {
    const { page } = session;
    const d = await driverAtCharger("Marek");
    // Topped up by hand in the console, confirmed.
    await visit(page, `${baseURL}/rechargeManagement/userRecharge`);
    await hydrated(page);
    await page.getByRole("button", { name: w.recharge.open }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(enDrivers.drivers.pickers.searchCustomer).fill(d.email);
    await expect.poll(() => dialog.getByRole("option", { name: new RegExp(d.email) }).count()).toBe(1);
    await dialog.getByRole("combobox", { name: w.recharge.customer }).selectOption({ label: `Marek Kierowca · ${d.email}` });
    await dialog.getByRole("textbox", { name: new RegExp(`^${w.recharge.amount}`) }).fill("100");
    await dialog.getByRole("button", { name: w.recharge.open }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: w.recharge.topUp }).click();
    await expect.poll(() => page.getByText(`Done: the balance of Marek Kierowca is now ${zl(10_000)}`).count()).toBeGreaterThan(0);
    // SILVER for a month (its fee from the balance).
    const a = await api();
    const silver = await a.put<{ balance: number; memberLevel: string }>(`/customer-service/customer/${d.customer.id}/member-level`, { level: "SILVER" });
    expect(silver.memberLevel).toBe("SILVER");
    const before = silver.balance;

    const { transactionId, record } = await chargeWithCard(d, "RECORD_COMPLETE");
    expect(record.memberDiscountCost).toBeGreaterThan(0);
    expect(record).toMatchObject({ paidCost: record.totalCost, balanceBefore: before, balanceAfter: before - record.totalCost });

    // The receipt: the membership discount, and the amount due.
    await visit(page, `${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${transactionId}`);
    await hydrated(page);
    await expect.poll(() => page.getByTestId("amount-due").textContent()).toBe(zl(record.totalCost));
    expect(await page.getByTestId("discount-MEMBER").textContent()).toBe(`−${zl(record.memberDiscountCost)}`);
    expect(await page.getByRole("main").textContent()).toContain(r.status.RECORD_COMPLETE);

    // The customer's page: the balance fell by that total.
    await visit(page, `${baseURL}/userManagement/userProfileManagement/customerDetail/${d.customer.id}`);
    await hydrated(page);
    await expect.poll(() => page.getByText(zl(before - record.totalCost), { exact: true }).count()).toBeGreaterThan(0);
  }, JOURNEY_MS);

  it("retries a failed payment from the bill list and offers it on the bill's page, each after a confirmation", async () => {
    const { page } = session;
    const d = await driverAtCharger("Ewa");
    // Nothing on the balance: the session's debit fails.
    await chargeWithCard(d, "PAY_FAIL");
    const a = await api();
    const [failed] = (await a.get<{ records: { id: number; status: string; cost: number }[] }>(`/finance-service/bill?customerId=${d.customer.id}&type=Charging`)).records;
    expect(failed.status).toBe("PayFail");

    // The bill's page offers the retry; cancelled, nothing changes.
    await visit(page, `${baseURL}/financialManagement/billManagement/billDetail/${failed.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: p.bills.retry }).click();
    const confirmation = page.getByRole("alertdialog");
    await expect.poll(() => confirmation.textContent()).toContain(p.bills.retryConfirm.replace("{{id}}", String(failed.id)).replace("{{amount}}", zl(failed.cost)));
    await expectAccessible(page);
    await confirmation.getByRole("button", { name: text.en.ui.confirm.cancel }).click();
    await expect.poll(() => confirmation.count()).toBe(0);
    expect((await a.get<{ status: string }>(`/finance-service/bill/${failed.id}`)).status).toBe("PayFail");

    // The balance is topped up; the list's row retries it.
    await a.post("/finance-service/recharge", { customerId: d.customer.id, amount: 5_000 });
    await visit(page, `${baseURL}/financialManagement/billManagement?customerId=${d.customer.id}&type=Charging`);
    await hydrated(page);
    const row = page.getByRole("row").filter({ hasText: w.bills.statuses.PayFail });
    await row.getByRole("button", { name: p.bills.retry }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: p.bills.retry }).click();
    await expect.poll(() => page.getByText(p.bills.retried).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole("row").filter({ hasText: w.bills.statuses.PaySuccess }).count()).toBe(1);
    expect(await page.getByRole("button", { name: p.bills.retry }).count()).toBe(0);
    await expectAccessible(page);
    expect((await a.get<{ status: string }>(`/finance-service/bill/${failed.id}`)).status).toBe("PaySuccess");
  }, JOURNEY_MS);
});
