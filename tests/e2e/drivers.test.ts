import { afterAll, describe, expect, inject, it } from "vitest";
import enDrivers from "../../domain/i18n/locales/en/drivers.json";
import enWallets from "../../domain/i18n/locales/en/wallets.json";
import { Api } from "../../scripts/sim/register";
import { SimCharger } from "../../scripts/sim/charger";
import type { PointRecord } from "../../scripts/sim/register";
import { api as peerApi, bootedClient, closeClients, newCharger, ocppEndpoint } from "../peers/support";
import { loadWs, type WsServer, type WsSocket } from "../peers/ws";
import { expectAccessible } from "./support/axe";
import { openBrowser } from "./support/browser";
import { field, hydrated, logIn, pageOfFile, text, visit } from "./support/session";

/**
 * Drivers in the console (docs/rules/drivers.md): the screens of customers, groups and RFID
 * cards, and a card issued to a new customer that the simulated charger accepts at once and
 * refuses once blocked. The card's number comes from a fake desktop RF reader bridge (docs/rf-reader-bridge.md).
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...enDrivers };
const d = enDrivers.drivers;
const OPERATOR = "Plugdesk Polska";
const MANY_SCREENS_MS = 240_000;
const { page } = await pageOfFile();
let bridge: WsServer | undefined;
let sim: SimCharger | undefined;

afterAll(async () => {
  await sim?.stop();
  await closeClients();
  await new Promise((done) => (bridge ? bridge.close(() => done(undefined)) : done(undefined)));
});

/** A fake RF reader bridge on a free port that reads `uid` for every request. */
async function fakeBridge(uid: string) {
  const ws = (await loadWs())!;
  bridge = new ws.WebSocketServer({ host: "127.0.0.1", port: 0 });
  bridge.on("connection", (socket: WsSocket) =>
    socket.on("message", (data) => {
      const request = JSON.parse(String(data)) as { type: string; id: string };
      if (request.type === "read") socket.send(JSON.stringify({ type: "card", id: request.id, uid }));
    }),
  );
  await new Promise<void>((ready) => bridge!.on("listening", () => ready()));
  return (bridge.address() as { port: number }).port;
}

async function expectScreen(path: string, screen: string, crumb = screen) {
  await visit(page, `${baseURL}${path}`);
  await expect.poll(() => page.title()).toBe(`${screen} — ${OPERATOR}`);
  await expect.poll(() => page.getByRole("navigation", { name: t.ui.breadcrumb.label }).locator('[aria-current="page"]').textContent()).toBe(crumb);
}

describe("drivers", () => {
  it("titles the customer, group and card screens and names the records their detail pages show", async () => {
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    const api = await Api.login(baseURL);
    const anna = (await api.get<{ records: { id: number; name: string }[] }>("/customer-service/customer?email=anna.nowak")).records[0];
    const group = (await api.get<{ records: { id: number; name: string }[] }>("/customer-service/group?code=NOWAKFAM")).records[0];
    await expectScreen("/user/rf-card", t.menu.users.rfCard);
    await expectScreen("/userManagement/userProfileManagement", t.menu.users.userProfile);
    await expectScreen("/userManagement/userProfileManagement/customerAdd", t.page.add);
    await expectScreen(`/userManagement/userProfileManagement/customerDetail/${anna.id}`, t.page.detail, anna.name);
    await expect.poll(() => page.getByRole("table", { name: d.customers.sections.cards }).getByRole("cell", { name: "DEMO0001" }).count()).toBe(1);
    await expectScreen(`/userManagement/userProfileManagement/customerEdit/${anna.id}`, t.page.edit, t.ui.breadcrumb.modify);
    // Her group is shown whatever the group picker's matches (it searches the groups on the server).
    const groupSelect = page.getByRole("combobox", { name: d.customers.fields.group, exact: true });
    await expect.poll(() => groupSelect.locator("option:checked").textContent()).toContain("(NOWAKFAM)");
    await expectScreen("/userManagement/userGroupManagement", t.menu.users.userGroup);
    await expectScreen("/userManagement/userGroupManagement/group", t.page.add);
    await expectScreen(`/userManagement/userGroupManagement/groupDetail/${group.id}`, t.page.detail, group.name);
    await expectScreen(`/userManagement/userGroupManagement/groupEdit/${group.id}`, t.page.edit, t.ui.breadcrumb.modify);
    await expectScreen("/userManagement/groupList", t.menu.users.groupList);
    await expect.poll(() => page.getByRole("cell", { name: "NOWAKFAM" }).count()).toBeGreaterThan(0);
  }, MANY_SCREENS_MS);

  it("issues a card to a new customer: the simulator's Authorize accepts it and it charges, and is refused once the card is blocked", async () => {
    const uid = `E2E${Date.now().toString(16).slice(-8).toUpperCase()}`;
    const port = await fakeBridge(uid.toLowerCase());
    const email = `ola.${Date.now().toString(36)}@example.com`;
    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    // A new customer, with the form's own checks first.
    await visit(page, `${baseURL}/userManagement/userProfileManagement/customerAdd`);
    await hydrated(page);
    await page.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(d.validation.firstName).count()).toBe(1);
    // A Polish operator that requires nothing more asks for no CPF, gender, zip code or EV model (docs/rules/drivers.md "What the customer form asks").
    expect(await page.getByText(d.validation.evModel).count()).toBe(0);
    expect(await field(page, d.customers.fields.cpf).count()).toBe(0);
    await field(page, d.customers.fields.firstName).fill("Ola");
    await field(page, d.customers.fields.lastName).fill("Wiśniewska");
    await field(page, d.customers.fields.gender, "combobox").click();
    await page.getByRole("option", { name: d.customers.genders.FEMALE }).click();
    await field(page, d.customers.fields.email).fill(email);
    await field(page, d.customers.fields.phone).fill("+48 600 555 111");
    await field(page, d.customers.fields.country, "combobox").click();
    await page.getByRole("option", { name: "Poland" }).click();
    await field(page, d.customers.fields.zipCode).fill("02-001");
    await field(page, d.customers.fields.evModel).fill("Renault Zoe");
    await page.getByRole("button", { name: t.common.save }).click();
    await page.waitForURL(/\/customerDetail\/\d+$/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Ola Wiśniewska");

    // A card for her, its number read from the desktop reader.
    await visit(page, `${baseURL}/user/rf-card`);
    await hydrated(page);
    await page.getByRole("button", { name: d.cards.add }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(d.rfReader.port).fill(String(port));
    await dialog.getByRole("button", { name: d.rfReader.button }).click();
    await expect.poll(() => field(page, d.cards.fields.idTag).inputValue()).toBe(uid);
    await dialog.getByLabel(d.pickers.searchCustomer).fill(email);
    await expect.poll(() => dialog.getByRole("option", { name: new RegExp(email) }).count()).toBe(1);
    await dialog.getByRole("combobox", { name: d.cards.fields.owner }).selectOption({ label: `Ola Wiśniewska · ${email}` });
    await expectAccessible(page);
    await dialog.getByRole("button", { name: t.common.save }).click();
    await expect.poll(() => page.getByText(d.cards.done.create).count()).toBeGreaterThan(0);
    const row = page.getByRole("row", { name: new RegExp(uid) });
    await expect.poll(() => row.getByText(d.cards.statuses.VALID).count()).toBe(1);

    // The simulator on a new point: a remote start with the card passes its Authorize and charges.
    const point = await newCharger();
    const lines: string[] = [];
    sim = new SimCharger(
      { serialNumber: point.serialNumber, key: point.key, connectors: 2, connectorPowerW: 11_000, type: "AC" },
      { endpoint: ocppEndpoint, meterIntervalS: 5, log: (line) => lines.push(line) },
    );
    await sim.start();
    const api = await peerApi();
    const connector1 = async () => (await api.get<PointRecord>(`/station-service/point/${point.id}`)).connectors[0].status;
    await expect.poll(connector1).toBe("Available");
    expect(await api.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1, idTag: uid })).toEqual({ status: "Accepted" });
    await expect.poll(connector1).toBe("Charging");
    const started = new RegExp(`^connector 1: transaction \\d+ started for ${uid} `);
    await expect.poll(async () => lines.some((line) => started.test(line))).toBe(true);
    await expect.poll(async () => (await api.get<{ records: { idTag: string }[] }>(`/station-service/charge/record?pointId=${point.id}`)).records.map((r) => r.idTag)).toEqual([uid]);

    // Blocked in the console, with a confirmation: the simulator's next Authorize is refused.
    await row.getByRole("button", { name: d.cards.block }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: d.cards.block }).click();
    await expect.poll(() => row.getByText(d.cards.statuses.BLOCKED).count()).toBe(1);
    expect(await sim.authorize(uid)).toMatchObject({ idTagInfo: { status: "Blocked" }, local: false });
  }, MANY_SCREENS_MS);

  it("shows a customer's vehicles, charging sessions and expense records on its page", async () => {
    const api = await Api.login(baseURL);
    const mark = Date.now().toString(36).toUpperCase();
    const customer = await api.post<{ id: number }>("/customer-service/customer", {
      firstName: "Piotr",
      lastName: `History ${mark}`,
      gender: "MALE",
      email: `piotr.${mark.toLowerCase()}@example.com`,
      country: "PL",
      zipCode: "00-950",
      evModel: "Skoda Enyaq",
    });
    await api.post("/finance-service/recharge", { customerId: customer.id, amount: 5_000 });
    await api.post("/customer-service/vehicle", { name: "Family car", customerId: customer.id, plate: `WX${mark}`.slice(0, 16), brand: "Skoda", model: "Enyaq" });
    const idTag = `H${mark}`.slice(0, 20);
    await api.post("/customer-service/rf-card", { idTag, deliveryType: "TAKE", customerId: customer.id });
    // A session of the card at a point priced by a flat strategy, billed at its stop.
    const point = await newCharger();
    const strategy = await api.post<{ id: number }>("/finance-service/strategy", {
      name: `E2E history ${mark}`,
      electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] },
      service: { unit: "NONE", slots: [] },
      idle: { before: null, during: null, after: null },
    });
    await api.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds: [point.id] });
    const { client } = await bootedClient(point.serialNumber, point.key);
    const started = await client.call("StartTransaction", { connectorId: 1, idTag, meterStart: 0, timestamp: new Date(Date.now() - 600_000).toISOString() });
    const transactionId = started.transactionId;
    await client.call("StopTransaction", { transactionId, meterStop: 2_000, timestamp: new Date().toISOString(), idTag });
    await expect.poll(async () => (await api.get<{ records: { status: string }[] }>(`/station-service/charge/record?customerId=${customer.id}`)).records.map((r) => r.status)).toEqual(["RECORD_COMPLETE"]);

    await visit(page, `${baseURL}/userManagement/userProfileManagement/customerDetail/${customer.id}`);
    await hydrated(page);
    const vehicles = page.getByRole("table", { name: d.customers.sections.vehicles });
    await expect.poll(() => vehicles.getByRole("cell", { name: `WX${mark}`.slice(0, 16) }).count()).toBe(1);
    const sessions = page.getByRole("table", { name: d.customers.sections.sessions });
    await expect.poll(() => sessions.getByRole("link", { name: `#${transactionId}` }).count()).toBe(1);
    expect(await sessions.getByRole("cell", { name: idTag }).count()).toBe(1);
    const expenses = page.getByRole("table", { name: d.customers.sections.expenses });
    expect(await expenses.getByRole("cell", { name: enWallets.wallets.bills.types.Charging }).count()).toBe(1);
    expect(await expenses.getByRole("cell", { name: enWallets.wallets.bills.types.Recharge }).count()).toBe(1);
    await expectAccessible(page);
    // Each section leads to its whole list, filtered by the customer.
    const billTotal = (await api.get<{ total: number }>(`/finance-service/bill?customerId=${customer.id}`)).total;
    const all = page.getByRole("link", { name: d.customers.seeAll.replace("{{total}}", String(billTotal)) });
    expect(await all.getAttribute("href")).toBe(`/financialManagement/expenseRecord?customerId=${customer.id}`);
    await all.click();
    await page.waitForURL(`${baseURL}/financialManagement/expenseRecord?customerId=${customer.id}`);
    expect(client.validationFailures ?? []).toEqual([]);

    // A role with the customer screen only: no vehicles or sessions (their verbs refuse it, the page
    // leaves them out), the expense records (read by the customer screen) without a link to a list it cannot open.
    const role = await api.post<{ id: number }>("/user-service/role", { name: `Customers ${mark}`, code: `CUST_${mark}`, type: "NORMAL", menuCodes: ["home", "users.userProfile"] });
    const username = `cust${mark.toLowerCase()}`;
    const account = await api.post<{ initialPassword: string }>("/user-service/account", { username, name: "Cora Customers", email: `${username}@example.com`, roleId: role.id });
    const first = await Api.login(baseURL, { operatorCode: "0PL002", username, password: account.initialPassword });
    await first.put("/user-service/person/operator/password", { oldPassword: account.initialPassword, newPassword: "Cust12345", confirmPassword: "Cust12345" });
    const other = await openBrowser();
    try {
      const viewer = await other.newPage();
      await logIn(viewer, baseURL, "0PL002", username, "Cust12345");
      await viewer.waitForURL(`${baseURL}/home`);
      await viewer.goto(`${baseURL}/userManagement/userProfileManagement/customerDetail/${customer.id}`);
      await hydrated(viewer);
      const theirExpenses = viewer.getByRole("table", { name: d.customers.sections.expenses });
      await expect.poll(() => theirExpenses.getByRole("cell", { name: enWallets.wallets.bills.types.Charging }).count()).toBe(1);
      expect(await viewer.getByRole("table", { name: d.customers.sections.vehicles }).count()).toBe(0);
      expect(await viewer.getByRole("table", { name: d.customers.sections.sessions }).count()).toBe(0);
      expect(await viewer.getByRole("heading", { name: d.customers.sections.sessions }).count()).toBe(0);
      expect(await viewer.getByRole("link", { name: /^Show all/ }).count()).toBe(0);
    } finally {
      await other.close();
    }
  }, MANY_SCREENS_MS);

  it("says so when no RF reader bridge answers", async () => {
    await visit(page, `${baseURL}/user/rf-card`);
    await hydrated(page);
    await page.getByRole("button", { name: d.cards.add }).click();
    const dialog = page.getByRole("dialog");
    // Port 9 (discard) has no bridge behind it.
    await dialog.getByLabel(d.rfReader.port).fill("9");
    await dialog.getByRole("button", { name: d.rfReader.button }).click();
    await expect.poll(() => page.getByText(d.rfReader.connectionFailed).count()).toBeGreaterThan(0);
  });
});
