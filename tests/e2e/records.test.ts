import { describe, expect, inject, it } from "vitest";
import enRecords from "../../domain/i18n/locales/en/records.json";
import plFeedback from "../../domain/i18n/locales/pl/public-feedback.json";
import plRecords from "../../domain/i18n/locales/pl/records.json";
import { Api } from "../../scripts/sim/register";
import { api, newCharger } from "../peers/support";
import { openBrowser } from "./support/browser";
import { consoleWithChargers, simulatedCharger } from "./support/charger";
import { hydrated, logIn, text, visit } from "./support/session";
import { giveToDemoSubOperator } from "./support/exclusive";

/**
 * Charge records in the console and their public receipt (docs/rules/records.md): a simulated
 * session ends, its record shows in the finance list, its page shows the cost lines and the
 * receipt, and the receipt's public link opens without login; a wrong token is the 404 page at
 * the same address. The cashier page shows the station's connectors live.
 */
const baseURL = inject("baseURL");
const r = enRecords.records;
const session = consoleWithChargers(baseURL);

interface ListedRecord {
  id: number;
  status: string;
  receiptToken: string;
  stationId: number;
}

/** A finished session of a new simulated charger, billed: its record as the API lists it. `priced`: the point charges by a flat strategy first. */
async function finishedSession(status = "CHARGE_COMPLETE", priced = false) {
  const point = await newCharger();
  if (priced) {
    const a = await api();
    const strategy = await a.post<{ id: number }>("/finance-service/strategy", {
      name: `E2E flat ${point.serialNumber}`,
      electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.2000" }] },
      service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "2.0000" }] },
      idle: { before: null, during: null, after: null },
    });
    await a.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds: [point.id] });
  }
  const sim = simulatedCharger(baseURL, point.serialNumber, point.key);
  session.chargers.push(sim);
  await sim.start();
  const a = await api();
  await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 });
  await expect.poll(() => sim.transactionId).toBeGreaterThan(0);
  const transactionId = sim.transactionId!;
  await a.put(`/station-service/remoteControl/${point.id}/remoteStop/${transactionId}`, {});
  let record: ListedRecord | undefined;
  await expect.poll(async () => {
    record = (await a.get<{ records: ListedRecord[] }>(`/station-service/charge/record?transactionId=${transactionId}`)).records[0];
    return record?.status;
  }).toBe(status);
  return { point, record: record!, transactionId };
}

describe("a charge record and its receipt", () => {
  it("lists a finished session, opens its page with cost lines and receipt, and the receipt's public link without login", async () => {
    const { page } = session;
    const { transactionId, record } = await finishedSession();
    await visit(page, `${baseURL}/financialManagement/chargeRecord?transactionId=${transactionId}`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("main").textContent()).toContain(`#${transactionId}`);
    expect(await page.getByRole("main").textContent()).toContain(r.status.CHARGE_COMPLETE);
    await page.getByRole("link", { name: r.fields.detail }).first().click();
    await page.waitForURL(`${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${transactionId}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain(String(transactionId));
    const lines = page.getByTestId("cost-lines");
    for (const kind of ["electric", "service", "reservation", "occupancy", "discount", "tax", "total"] as const) {
      expect(await lines.textContent()).toContain(r.cost[kind]);
    }
    expect(await page.getByTestId("receipt").textContent()).toContain(String(transactionId));

    // The public receipt: no session, the reader's language, amounts in the server's HTML.
    const visitor = await openBrowser();
    try {
      const tourist = await visitor.newPage();
      const url = `${baseURL}/tourist/chargingRecordDetails/${record.receiptToken}?lang=pl`;
      const response = await tourist.goto(url);
      expect(response!.status()).toBe(200);
      const html = await response!.text();
      expect(html).toContain('data-testid="receipt"');
      expect(html).toContain(plRecords.records.receipt.amountDue);
      await expect.poll(() => tourist.getByRole("heading", { level: 1 }).textContent()).toBe(plRecords.records.receipt.title);
      expect(await tourist.getByTestId("receipt").textContent()).toContain(String(transactionId));
      // The driver tells the operator about this session from the receipt (docs/rules/content.md "Feedback").
      await hydrated(tourist);
      await tourist.getByLabel(plFeedback.content.publicFeedback.content).fill("Czy zapłaciłem dwa razy?");
      await tourist.getByRole("button", { name: plFeedback.content.publicFeedback.send }).click();
      await tourist.getByRole("status").filter({ hasText: plFeedback.content.publicFeedback.sent }).waitFor();

      const wrong = await tourist.goto(`${baseURL}/tourist/invoices/${"0".repeat(32)}`);
      expect(wrong!.status()).toBe(404);
      expect(tourist.url()).toBe(`${baseURL}/tourist/invoices/${"0".repeat(32)}`);
      await expect.poll(() => tourist.getByText(text.en.notFound.lost).count()).toBe(1);
      const byNumber = await tourist.goto(`${baseURL}/tourist/chargingRecordDetails/${transactionId}`);
      expect(byNumber!.status()).toBe(404);
    } finally {
      await visitor.close();
    }
  });

  it("prices a simulated session by the point's strategy, shows its cost lines, and marks it complete after a confirmation", async () => {
    const { page } = session;
    // The remote start's tag has nobody behind it: priced, left unsettled.
    const { transactionId } = await finishedSession("RECORD_UNSETTLED", true);
    await visit(page, `${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${transactionId}`);
    await hydrated(page);
    const lines = page.getByTestId("cost-lines");
    await expect.poll(() => lines.textContent()).toContain(r.cost.service);
    // Priced: every line has an amount, the service line the session's 2.00 fee.
    expect(await lines.textContent()).not.toContain(r.fields.notPriced);
    expect(await lines.getByRole("row").filter({ hasText: r.cost.service }).textContent()).toMatch(/2[.,]00/);
    expect(await page.getByRole("main").textContent()).toContain(r.status.RECORD_UNSETTLED);
    // Actions that do not apply to an unsettled record are not offered.
    expect(await page.getByRole("button", { name: r.actions.retry }).count()).toBe(0);
    expect(await page.getByRole("button", { name: r.actions.unplug }).count()).toBe(0);

    // Cancelled: nothing changes.
    await page.getByRole("button", { name: r.actions.complete }).click();
    const dialog = page.getByRole("alertdialog");
    await expect.poll(() => dialog.textContent()).toContain(r.actions.confirm.complete.replace("{{id}}", String(transactionId)));
    await dialog.getByRole("button", { name: text.en.ui.confirm.cancel }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const a = await api();
    const statusOf = async () => (await a.get<{ status: string }>(`/station-service/charge/record/${transactionId}`)).status;
    expect(await statusOf()).toBe("RECORD_UNSETTLED");

    // Confirmed: the record is complete, the page shows it, and the action is gone.
    await page.getByRole("button", { name: r.actions.complete }).click();
    await dialog.getByRole("button", { name: r.actions.complete }).click();
    await expect.poll(() => page.getByText(r.actions.done.complete).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole("main").textContent()).toContain(r.status.RECORD_COMPLETE);
    expect(await statusOf()).toBe("RECORD_COMPLETE");
    await expect.poll(() => page.getByRole("button", { name: r.actions.complete }).count()).toBe(0);
  });

  it("shows the cashier states of a station's connectors and the last session's amount due", async () => {
    const { page } = session;
    const { record } = await finishedSession();
    await visit(page, `${baseURL}/station/cashier/${record.stationId}`);
    await hydrated(page);
    await expect.poll(() => page.getByTestId("cashier-connector").count()).toBeGreaterThan(1);
    const states = await page.getByTestId("cashier-connector").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-state")));
    expect(states.every((s) => ["charging", "waiting", "fault", "offline", "free"].includes(s!))).toBe(true);
    await expect.poll(() => page.getByRole("main").textContent()).toContain(r.cashier.lastSession.replace("{{id}}", String(record.id)));
  });

  it("offers no record action to an account that only watches or to a sub-operator, while the finance screen does", async () => {
    const { page } = session;
    const { point, transactionId } = await finishedSession();
    const a = await api();
    // The operator gives the new point to its sub-operator, beside what it has.
    await giveToDemoSubOperator(a, point.id);
    // A role that only watches: the home page and the charging sessions.
    const role = await a.post<{ id: number }>("/user-service/role", { name: `Watchers ${transactionId}`, code: `WATCH_R${transactionId}`, type: "NORMAL", menuCodes: ["home", "monitoring.charging"] });
    const username = `watchr${transactionId}`;
    const account = await a.post<{ initialPassword: string }>("/user-service/account", { username, name: "Walt Watcher", email: `${username}@example.com`, roleId: role.id });
    const first = await Api.login(baseURL, { operatorCode: "0PL002", username, password: account.initialPassword });
    await first.put("/user-service/person/operator/password", { oldPassword: account.initialPassword, newPassword: "Watch12345", confirmPassword: "Watch12345" });

    const actionButtons = (p: typeof page) => Promise.all((["settle", "complete", "abnormal", "unplug", "retry"] as const).map((name) => p.getByRole("button", { name: r.actions[name] }).count()));
    // The finance screen offers the actions of a billed record (the test can fail).
    await visit(page, `${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${transactionId}`);
    await hydrated(page);
    await expect.poll(() => page.getByRole("button", { name: r.actions.complete }).count()).toBe(1);

    const other = await openBrowser();
    try {
      const viewer = await other.newPage();
      // The sub-operator reads the record of its device, in its list and on its page, without an action.
      await logIn(viewer, baseURL, "0PL002A", "subadmin1", "Demo12345");
      await viewer.waitForURL(/\/suboperators\//);
      await viewer.goto(`${baseURL}/suboperators/chargingBill/bill?transactionId=${transactionId}`);
      await hydrated(viewer);
      await expect.poll(() => viewer.getByRole("main").textContent()).toContain(`#${transactionId}`);
      expect(await actionButtons(viewer)).toEqual([0, 0, 0, 0, 0]);
      await viewer.goto(`${baseURL}/suboperators/chargingBill/billDetails/${transactionId}`);
      await hydrated(viewer);
      await expect.poll(() => viewer.getByRole("heading", { level: 1 }).textContent()).toContain(String(transactionId));
      expect(await actionButtons(viewer)).toEqual([0, 0, 0, 0, 0]);

      // The watcher sees the session, but the records screen is not theirs: no page, no action.
      await viewer.context().clearCookies();
      await logIn(viewer, baseURL, "0PL002", username, "Watch12345");
      await viewer.waitForURL(`${baseURL}/home`);
      await viewer.goto(`${baseURL}/systemMonitoring/charging/detail/${transactionId}`);
      await hydrated(viewer);
      await expect.poll(() => viewer.getByRole("main").textContent()).toContain(String(transactionId));
      expect(await actionButtons(viewer)).toEqual([0, 0, 0, 0, 0]);
      await viewer.goto(`${baseURL}/financialManagement/chargeRecord/chargeRecordDetail/${transactionId}`);
      await viewer.waitForURL(/\/404\?msg=guard\.insufficient/);
      await expect.poll(() => viewer.getByRole("heading", { level: 1 }).textContent()).toBe(text.en.statusPage.forbidden);
      expect(await actionButtons(viewer)).toEqual([0, 0, 0, 0, 0]);
    } finally {
      await other.close();
    }
  });
});
