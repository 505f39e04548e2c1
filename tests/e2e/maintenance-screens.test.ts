import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/maintenance.json";
import enOps from "../../domain/i18n/locales/en/ops.json";
import { pngImage } from "../unit/stations-image-samples";
import { api, bootedClient, closeClients, newCharger, until } from "../peers/support";
import { demoAdminPageOfFile, field, hydrated, openScreen, text } from "./support/session";

/** Several screens in one visit, each checked in two themes: more than one screen's time. */
const MANY_SCREENS_MS = 300_000;

/**
 * The maintenance screens (docs/rules/maintenance.md), each checked with axe-core on arrival: a
 * charger's fault becomes a work order that is processed and audited in the console; banners,
 * files, and a driver's account deletion from the public page to the operator's decision.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const m = en.maintenance;
const o = enOps.ops.alarmOrders;
const OPERATOR = "Plugdesk Polska";
const { browser, page } = await demoAdminPageOfFile(baseURL);
afterAll(() => closeClients());

const expectScreen = (path: string, screen: string) => openScreen(page, `${baseURL}${path}`, `${screen} — ${OPERATOR}`);

const confirm = () => page.getByRole("alertdialog").getByRole("button").last().click();

describe("maintenance screens", () => {
  it("titles every maintenance screen after itself", async () => {
    const screens: [string, string][] = [
      ["/operationMaintenance/maintain", t.menu.operation.maintain],
      ["/operationMaintenance/maintain?tab=maintainers", t.menu.operation.maintain],
      ["/operationMaintenance/maintain/maintainerAdd", t.page.add],
      ["/imageManagement/imageManagement", t.menu.users.imageManagement],
      ["/basicInfo/fileManagement", t.menu.users.fileManagement],
      ["/userManagement/userProfileManagement/deletionRequests", t.page.deletionRequests],
    ];
    for (const [path, title] of screens) await expectScreen(path, title);
  }, MANY_SCREENS_MS);

  it("opens a work order from a charger's fault on the alarm screen, then processes and audits it in the console", async () => {
    const a = await api();
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    await client.call("StatusNotification", { connectorId: 1, errorCode: "HighTemperature", status: "Faulted", timestamp: new Date().toISOString() });
    await until(async () => (await a.get<{ records: { id: number }[] }>(`/station-service/alarm?pointId=${point.id}`)).records[0], "the charger's alarm");

    // The alarm history offers Open work order; cancelling the confirmation opens nothing.
    await expectScreen(`/operationMaintenance/historicalAlarmInfo?serialNumber=${point.serialNumber}`, t.menu.operation.historicalAlarmInfo);
    const open = page.getByRole("button", { name: o.open });
    await expect.poll(() => open.count()).toBe(1);
    await open.click();
    const dialog = page.getByRole("alertdialog");
    await expect.poll(() => dialog.textContent()).toContain(point.serialNumber);
    await dialog.getByRole("button", { name: t.ui.confirm.cancel }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect((await a.get<{ total: number }>(`/maintain-service/work-order?serialNumber=${point.serialNumber}`)).total).toBe(0);
    // Confirmed: the order is opened once, and the alarm links to it instead of offering another.
    await open.click();
    await dialog.getByRole("button", { name: o.open }).click();
    const order = await until(async () => (await a.get<{ records: { id: number }[] }>(`/maintain-service/work-order?serialNumber=${point.serialNumber}`)).records[0], "the alarm's work order");
    await expect.poll(() => page.getByText(o.opened.replace("{{id}}", String(order.id))).count()).toBeGreaterThan(0);
    const link = page.getByRole("link", { name: o.workOrder.replace("{{id}}", String(order.id)) });
    await expect.poll(() => link.getAttribute("href")).toBe(`/operationMaintenance/maintain/workOrder/${order.id}`);
    expect(await open.count()).toBe(0);
    await link.click();
    await page.waitForURL(`${baseURL}/operationMaintenance/maintain/workOrder/${order.id}`);
    await hydrated(page);
    await expect.poll(() => page.title()).toBe(`${t.page.detail} — ${OPERATOR}`);

    await page.getByRole("button", { name: m.ui.process }).click();
    await page.getByRole("dialog").getByRole("button", { name: m.ui.process }).click();
    await expect.poll(() => page.getByText(m.validation.handlingProcessRequired).count()).toBe(1);
    await field(page, m.ui.handlingProcess).fill("Cleaned the fan filter");
    await field(page, m.ui.opinion).fill("Temperature back to normal");
    await page.getByRole("dialog").getByRole("button", { name: m.ui.process }).click();
    await expect.poll(() => page.getByText(m.ui.statuses.PASS, { exact: true }).count()).toBeGreaterThan(0);

    await page.getByRole("button", { name: m.ui.audit }).click();
    await page.getByRole("dialog").getByLabel(m.ui.auditResult).selectOption("PASS");
    await field(page, m.ui.auditOpinion).fill("Checked on site");
    await page.getByRole("dialog").getByRole("button", { name: m.ui.audit }).click();
    await expect.poll(() => page.getByText(m.ui.statuses.CLOSE, { exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(m.ui.actions.AUDIT_PASS).count()).toBe(1);
    expect((await a.get<{ status: string }>(`/maintain-service/work-order/${order.id}`)).status).toBe("CLOSE");
  });

  it("stays on the maintainers tab when its filter is searched or reset", async () => {
    await expectScreen("/operationMaintenance/maintain?tab=maintainers&keyword=nobody-such", t.menu.operation.maintain);
    const keyword = page.getByRole("textbox", { name: m.ui.keyword });
    expect(await keyword.inputValue()).toBe("nobody-such");
    await page.getByRole("button", { name: t.ui.action.reset }).click();
    await page.waitForURL(`${baseURL}/operationMaintenance/maintain?tab=maintainers`);
    await expect.poll(() => page.getByRole("link", { name: m.ui.maintainers, exact: true }).getAttribute("aria-current")).toBe("page");
    // The menu names the screen 'Work orders' too: the tab is the one inside the screen.
    expect(await page.getByRole("main").getByRole("link", { name: m.ui.orders, exact: true }).getAttribute("aria-current")).toBeNull();
    await expect.poll(() => keyword.inputValue()).toBe("");
    await keyword.fill("demo");
    await page.getByRole("button", { name: t.ui.action.search }).click();
    await page.waitForURL(`${baseURL}/operationMaintenance/maintain?tab=maintainers&keyword=demo`);
    await expect.poll(() => page.getByRole("link", { name: m.ui.maintainers, exact: true }).getAttribute("aria-current")).toBe("page");
  });

  it("uploads a banner, approves and enables it after confirmations", async () => {
    await expectScreen("/imageManagement/imageManagement", t.menu.users.imageManagement);
    const before = await page.getByRole("button", { name: m.images.approve }).count();
    await page.getByLabel(m.images.upload, { exact: true }).setInputFiles({ name: "banner.png", mimeType: "image/png", buffer: Buffer.from(pngImage(120, 80)) });
    await expect.poll(() => page.getByRole("button", { name: m.images.approve }).count()).toBe(before + 1);
    await page.getByRole("button", { name: m.images.approve }).last().click();
    await confirm();
    await expect.poll(() => page.getByRole("button", { name: m.images.approve }).count()).toBe(before);
    const enabled = await page.getByRole("button", { name: m.images.disable }).count();
    await page.getByRole("button", { name: m.images.enable, exact: true }).last().click();
    await confirm();
    await expect.poll(() => page.getByRole("button", { name: m.images.disable }).count()).toBe(enabled + 1);
  });

  it("uploads a file, refuses one that is not what its name says, and deletes it after a confirmation", async () => {
    await expectScreen("/basicInfo/fileManagement", t.menu.users.fileManagement);
    const name = `e2e-${Date.now().toString(36)}.csv`;
    await page.getByLabel(m.files.upload, { exact: true }).setInputFiles({ name: "fake.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf") });
    await expect.poll(() => page.getByText(m.validation.fileType).count()).toBeGreaterThan(0);
    await page.getByLabel(m.files.upload, { exact: true }).setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from("a;b\n1;2\n") });
    await expect.poll(() => page.getByRole("cell", { name }).count()).toBe(1);
    await page.getByRole("row", { name: new RegExp(name) }).getByRole("button", { name: t.common.delete }).click();
    await confirm();
    await expect.poll(() => page.getByRole("cell", { name }).count()).toBe(0);
  });

  it("takes a driver's deletion request on the public page and lets the operator complete it", async () => {
    const visitor = await browser.newPage();
    const contact = `e2e-${Date.now().toString(36)}@example.com`;
    await visitor.goto(`${baseURL}/app/delete/account?operatorCode=0PL002`);
    await expect.poll(() => visitor.title()).toBe(`${m.deletion.publicTitle} — Plugdesk`);
    await hydrated(visitor);
    await visitor.getByRole("button", { name: m.deletion.submit }).click();
    await expect.poll(() => visitor.getByText(m.validation.contactRequired).count()).toBe(1);
    await visitor.getByLabel(m.deletion.contact).fill(contact);
    await visitor.getByRole("button", { name: m.deletion.submit }).click();
    // Nothing could confirm the request by mail: the driver is told the operator will get in touch.
    await expect.poll(() => visitor.getByRole("status").textContent()).toBe(
      m.deletion.received.replace("{{operator}}", OPERATOR) + m.deletion.operatorWillConfirm.replace("{{operator}}", OPERATOR),
    );
    await visitor.close();

    await expectScreen("/userManagement/userProfileManagement/deletionRequests?status=PENDING", t.page.deletionRequests);
    const row = page.getByRole("row", { name: new RegExp(contact) });
    await expect.poll(() => row.getByText(m.deletion.unverifiedHint).count()).toBe(1);
    await row.getByRole("button", { name: m.deletion.reject }).click();
    await confirm();
    await expect.poll(() => page.getByRole("row", { name: new RegExp(contact) }).count()).toBe(0);
  });
});
