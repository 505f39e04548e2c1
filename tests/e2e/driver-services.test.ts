import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/driver-services.json";
import { answering, api, bootedClient, closeClients, newCharger } from "../peers/support";
import { field, hydrated, openDemoAdmin, text } from "./support/session";

/**
 * The vehicle, offline-list and reservation screens as an operator uses them; each screen is
 * checked with axe-core on arrival (support/axe.ts).
 */
const baseURL = inject("baseURL");
const t = text.en;
const ds = en.driverServices;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => ({ browser, page } = await openDemoAdmin(baseURL)));

afterAll(async () => {
  await closeClients();
  await browser?.close();
});

describe("driver services in the console", () => {
  it("adds a default vehicle for a customer, and its bills page opens the owner's charge records and bills", async () => {
    const plate = `WA ${Date.now().toString().slice(-5)}`;
    await page.goto(`${baseURL}/vehicleManage/list`);
    await hydrated(page);
    await page.getByRole("button", { name: ds.vehicles.add }).click();
    const dialog = page.getByRole("dialog");
    await field(page, ds.vehicles.name).fill("City car");
    await field(page, ds.vehicles.plate).fill(plate);
    await dialog.getByRole("combobox", { name: new RegExp(ds.vehicles.customer) }).click();
    await page.getByRole("option", { name: /Anna Nowak/ }).click();
    await dialog.getByLabel(ds.vehicles.makeDefault).check();
    await dialog.getByRole("button", { name: t.common.save }).click();
    await page.getByText(ds.vehicles.saved).waitFor();
    const row = page.getByRole("row", { name: new RegExp(plate) });
    await row.waitFor();
    await row.getByRole("link", { name: ds.vehicles.bills }).click();
    await page.getByText(ds.vehicles.billsOfOwner).waitFor();
    await expect.poll(() => page.title()).toMatch(new RegExp(`^${t.page.accountBill} — `));
    const url = page.url();
    // Both lists open filtered by Anna, the vehicle's owner.
    await page.getByRole("link", { name: ds.vehicles.ownerRecords }).click();
    await page.waitForURL(/\/financialManagement\/chargeRecord\?customerId=\d+$/);
    const customerId = new URL(page.url()).searchParams.get("customerId");
    await page.goto(url);
    await page.getByRole("link", { name: ds.vehicles.ownerBills }).click();
    await page.waitForURL(`${baseURL}/financialManagement/billManagement?customerId=${customerId}`);
    const anna = await (await api()).get<{ records: { id: number }[] }>("/customer-service/customer?email=anna.nowak%40plugdesk.example");
    expect(Number(customerId)).toBe(anna.records[0].id);
  });

  it("makes an offline list for Anna, pushes it to a charger that accepts it, and shows the point up to date", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const lists = answering(client, "SendLocalList", { status: "Accepted" });
    const name = `Night ${Date.now().toString(36)}`;
    await page.goto(`${baseURL}/userManagement/offlineUserList/add`);
    await hydrated(page);
    await field(page, ds.lists.name).fill(name);
    await page.getByRole("combobox", { name: new RegExp(ds.lists.chargeableType) }).click();
    await page.getByRole("option", { name: ds.lists.types.RFID }).click();
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

  it("reserves a connector for a tag, and cancels it after a confirmation", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    answering(client, "ReserveNow", { status: "Accepted" });
    const cancels = answering(client, "CancelReservation", { status: "Accepted" });
    await page.goto(`${baseURL}/operationMaintenance/reservation`);
    await hydrated(page);
    await page.getByRole("button", { name: ds.reservations.add }).click();
    await page.getByLabel(ds.reservations.point, { exact: true }).last().selectOption({ label: point.serialNumber });
    await page.getByLabel(ds.reservations.idTag, { exact: true }).fill("PLCARD0002");
    await page.getByLabel(ds.reservations.expiry).fill("2099-01-01T12:00");
    await page.getByRole("button", { name: ds.reservations.reserve, exact: true }).click();
    await page.getByText(ds.reservations.reserved).waitFor();
    const row = page.getByRole("row", { name: new RegExp(`${point.serialNumber}.*${ds.reservations.statuses.reserved}`) });
    await row.waitFor();
    await row.getByRole("button", { name: ds.reservations.cancel }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: ds.reservations.cancel }).click();
    await page.getByText(ds.reservations.canceled).waitFor();
    expect((await cancels.next()).reservationId).toEqual(expect.any(Number));
    await page.getByRole("row", { name: new RegExp(`${point.serialNumber}.*${ds.reservations.statuses.canceled}`) }).waitFor();
  });
});
