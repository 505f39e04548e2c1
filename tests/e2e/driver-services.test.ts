import type { Locator } from "playwright-core";
import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/driver-services.json";
import enDrivers from "../../domain/i18n/locales/en/drivers.json";
import enEnds from "../../domain/i18n/locales/en/reservation-ends.json";
import enForms from "../../domain/i18n/locales/en/forms-help.json";
import { answering, api, bootedClient, closeClients, newCharger } from "../peers/support";
import { demoAdminPageOfFile, field, hydrated, text, visit } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("tag DEMO0001");

/**
 * The vehicle, offline-list and reservation screens as an operator uses them; each screen is
 * checked with axe-core on arrival (support/axe.ts).
 */
const baseURL = inject("baseURL");
const t = text.en;
const ds = en.driverServices;
const dr = enDrivers.drivers;
const range = enForms.formsHelp.range;
const ANNA = "Anna Nowak · anna.nowak@plugdesk.example";
const { page } = await demoAdminPageOfFile(baseURL);
afterAll(() => closeClients());

/** Searches the customer picker of a dialog on the server and chooses the match labelled `label`. */
async function pickCustomer(dialog: Locator, keyword: string, label: string) {
  await dialog.getByLabel(dr.pickers.searchCustomer).fill(keyword);
  const owner = dialog.getByRole("combobox", { name: new RegExp(`^${ds.vehicles.customer}|^${ds.reservations.customer}`) });
  await expect.poll(() => owner.getByRole("option", { name: label, exact: true }).count(), { timeout: 15_000 }).toBe(1);
  await owner.selectOption({ label });
}

/** Opens the vehicle list's Add dialog and fills the vehicle's name and plate. */
async function addVehicle(name: string, plate: string) {
  await visit(page, `${baseURL}/vehicleManage/list`);
  await hydrated(page);
  await page.getByRole("button", { name: ds.vehicles.add }).click();
  await field(page, ds.vehicles.name).fill(name);
  await field(page, ds.vehicles.plate).fill(plate);
  return page.getByRole("dialog");
}

describe("driver services in the console", () => {
  it("adds a default vehicle for a customer, and its bills page shows the owner's charge records and bills, with links to all of them", async () => {
    // A session of Anna's card, priced (at nothing) so that it is hers and her charge records have a row to show.
    const point = await newCharger();
    const a = await api();
    const strategy = await a.post<{ id: number }>("/finance-service/strategy", {
      name: `Free ${point.serialNumber}`,
      electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.0000" }] },
      service: { unit: "NONE", slots: [] },
      idle: { before: null, during: null, after: null },
    });
    await a.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds: [point.id] });
    const { client } = await bootedClient(point.serialNumber, point.key);
    const started = await client.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: new Date().toISOString() });
    await client.call("StopTransaction", { transactionId: started.transactionId, idTag: "DEMO0001", meterStop: 1500, timestamp: new Date().toISOString() });

    const plate = `WA ${Date.now().toString().slice(-5)}`;
    const dialog = await addVehicle("City car", plate);
    await pickCustomer(dialog, "Anna Nowak", ANNA);
    await dialog.getByLabel(ds.vehicles.makeDefault).check();
    await dialog.getByRole("button", { name: t.common.save }).click();
    await page.getByText(ds.vehicles.saved).waitFor();
    const row = page.getByRole("row", { name: new RegExp(plate) });
    await row.waitFor();
    await row.getByRole("link", { name: ds.vehicles.bills }).click();
    await page.getByText(ds.vehicles.billsOfOwner).waitFor();
    await expect.poll(() => page.title()).toMatch(new RegExp(`^${t.page.accountBill} — `));
    // Anna's latest charge records, the session above among them (records reach D1 a moment after the charger's message).
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("table", { name: ds.vehicles.ownerRecords }).getByRole("row", { name: new RegExp(`^${started.transactionId}\\b`) }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await page.getByRole("heading", { name: ds.vehicles.ownerBills }).waitFor();
    const url = page.url();
    // Both whole lists open filtered by Anna, the vehicle's owner.
    await page.getByRole("link", { name: ds.vehicles.allRecords }).click();
    await page.waitForURL(/\/financialManagement\/chargeRecord\?customerId=\d+$/);
    const customerId = new URL(page.url()).searchParams.get("customerId");
    await visit(page, url);
    await page.getByRole("link", { name: ds.vehicles.allBills }).click();
    await page.waitForURL(`${baseURL}/financialManagement/billManagement?customerId=${customerId}`);
    const anna = await a.get<{ records: { id: number }[] }>("/customer-service/customer?email=anna.nowak%40plugdesk.example");
    expect(Number(customerId)).toBe(anna.records[0].id);
  });

  it("picks, among 60 customers of a name, the 60th by searching the server: as a vehicle's owner and on an offline list", async () => {
    const a = await api();
    const tag = `Many${Date.now().toString(36)}`;
    for (let i = 0; i < 60; i++) {
      await a.post("/customer-service/customer", {
        firstName: tag,
        lastName: `Driver${String(i).padStart(2, "0")}`,
        gender: "FEMALE",
        email: `${tag.toLowerCase()}.${i}@example.com`,
        country: "PL",
        zipCode: "00-001",
        evModel: "Kia EV6",
      });
    }
    const last = `${tag} Driver59`;
    const plate = `WB ${Date.now().toString().slice(-5)}`;
    const dialog = await addVehicle("Fleet car", plate);
    // The name alone matches 60: the server answers its first 50, without the 60th.
    await dialog.getByLabel(dr.pickers.searchCustomer).fill(tag);
    await expect.poll(() => dialog.getByRole("option", { name: new RegExp(tag) }).count(), { timeout: 15_000 }).toBe(50);
    expect(await dialog.getByRole("option", { name: new RegExp(last) }).count()).toBe(0);
    await pickCustomer(dialog, last, `${last} · ${tag.toLowerCase()}.59@example.com`);
    await dialog.getByRole("button", { name: t.common.save }).click();
    await page.getByText(ds.vehicles.saved).waitFor();
    await page.getByRole("row", { name: new RegExp(`${plate}.*${last}`) }).waitFor();

    await visit(page, `${baseURL}/userManagement/offlineUserList/add`);
    await hydrated(page);
    await field(page, ds.lists.name).fill(`Fleet ${tag}`);
    await page.getByRole("combobox", { name: new RegExp(ds.lists.chargeableType) }).click();
    await page.getByRole("option", { name: ds.lists.types.ALL }).click();
    await page.getByLabel(dr.pickers.searchCustomer).fill(last);
    await page.getByLabel(new RegExp(last)).check();
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/offlineUserList\/detail\/\d+/);
    const id = Number(page.url().split("/").pop());
    expect((await a.get<{ customers: { name: string }[] }>(`/customer-service/offline-list/${id}`)).customers.map((c) => c.name)).toEqual([last]);
  });

  it("makes an offline list for Anna, pushes it to a charger that accepts it, and shows the point up to date", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const lists = answering(client, "SendLocalList", { status: "Accepted" });
    const name = `Night ${Date.now().toString(36)}`;
    await visit(page, `${baseURL}/userManagement/offlineUserList/add`);
    await hydrated(page);
    await field(page, ds.lists.name).fill(name);
    await page.getByRole("combobox", { name: new RegExp(ds.lists.chargeableType) }).click();
    await page.getByRole("option", { name: ds.lists.types.RFID }).click();
    await page.getByLabel(dr.pickers.searchCustomer).fill("Anna Nowak");
    await page.getByLabel(/Anna Nowak/).check();
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/offlineUserList\/detail\/\d+/);
    await hydrated(page);
    await page.getByRole("group", { name: ds.lists.points }).getByLabel(point.serialNumber, { exact: true }).check();
    await page.getByRole("button", { name: ds.lists.push, exact: true }).click();
    await page.getByText(ds.lists.pushed).waitFor();
    expect((await lists.next(15_000)).updateType).toBe("Full");
    await expect
      .poll(async () => {
        await page.getByRole("button", { name: ds.lists.refresh }).click();
        return page.getByRole("row", { name: new RegExp(`${point.serialNumber}.*${ds.lists.upToDate}`) }).count();
      }, { timeout: 20_000 })
      .toBe(1);
  });

  it("shows why a finished reservation ended: the demo's past reservation was used by a session", async () => {
    await visit(page, `${baseURL}/operationMaintenance/reservation?status=finished`);
    await hydrated(page);
    const used = page.getByRole("row", { name: new RegExp(`${ds.reservations.statuses.finished}.*${enEnds.driverServices.reservations.endReasons.used}`) });
    await used.first().waitFor();
  });

  it("reserves a connector for a tag, filters the list by expiry, cancels after a confirmation, and reserves for a customer found by searching", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    answering(client, "ReserveNow", { status: "Accepted" });
    const cancels = answering(client, "CancelReservation", { status: "Accepted" });
    await visit(page, `${baseURL}/operationMaintenance/reservation`);
    await hydrated(page);
    await page.getByRole("button", { name: ds.reservations.add }).click();
    await page.getByLabel(ds.reservations.point, { exact: true }).last().selectOption({ label: point.serialNumber });
    await page.getByLabel(ds.reservations.idTag, { exact: true }).fill("PLCARD0002");
    await page.getByLabel(ds.reservations.expiry).fill("2099-01-01T12:00");
    await page.getByRole("button", { name: ds.reservations.reserve, exact: true }).click();
    await page.getByText(ds.reservations.reserved).waitFor();
    const row = page.getByRole("row", { name: new RegExp(`${point.serialNumber}.*${ds.reservations.statuses.reserved}`) });
    await row.waitFor();
    // The expiry filter, through the date-range picker: a range after the expiry hides the reservation, one around it shows it.
    const period = page.getByRole("search").getByRole("button", { name: new RegExp(`^${range.label}:`) });
    await period.click();
    await page.getByLabel(range.fromDay).fill("2099-01-02");
    await page.getByRole("button", { name: range.apply }).click();
    await page.waitForURL(/from=2099-01-02/);
    await page.getByText(ds.reservations.empty).waitFor();
    await period.click();
    await page.getByLabel(range.fromDay).fill("2098-12-31");
    await page.getByLabel(range.toDay).fill("2099-01-01");
    await page.getByRole("button", { name: range.apply }).click();
    await page.waitForURL(/to=2099-01-01/);
    await row.waitFor();
    await row.getByRole("button", { name: ds.reservations.cancel }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: ds.reservations.cancel }).click();
    await page.getByText(ds.reservations.canceled).waitFor();
    expect((await cancels.next()).reservationId).toEqual(expect.any(Number));
    await page.getByRole("row", { name: new RegExp(`${point.serialNumber}.*${ds.reservations.statuses.canceled}`) }).waitFor();

    // For a customer found by searching the server: her card the charger would accept is reserved.
    await page.getByRole("button", { name: ds.reservations.add }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(ds.reservations.point, { exact: true }).selectOption({ label: point.serialNumber });
    await dialog.getByLabel(ds.reservations.connector, { exact: true }).selectOption("2");
    await dialog.getByLabel(ds.reservations.for).selectOption("customer");
    await pickCustomer(dialog, "Anna Nowak", ANNA);
    await dialog.getByLabel(ds.reservations.expiry).fill("2099-01-01T12:00");
    await dialog.getByRole("button", { name: ds.reservations.reserve, exact: true }).click();
    await page.getByText(ds.reservations.reserved).waitFor();
    await page.getByRole("row", { name: new RegExp(`${point.serialNumber}.*${ds.reservations.statuses.reserved}`) }).waitFor();
    const held = await (await api()).get<{ records: { connectorId: number; idTag: string; customerName: string }[] }>(`/station-service/reservation?pointId=${point.id}&status=reserved`);
    expect(held.records).toEqual([expect.objectContaining({ connectorId: 2, idTag: "DEMO0001", customerName: "Anna Nowak" })]);
  });
});
