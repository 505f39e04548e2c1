import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/statements.json";
import { api, bootedClient, closeClients, newCharger } from "../peers/support";
import { openBrowser } from "./support/browser";
import { demoAdminPageOfFile, field, hydrated, logIn, text, visit } from "./support/session";
import { giveToDemoSubOperator } from "./support/exclusive";

/**
 * The statements screens (docs/rules/statements.md): a session a strict charger ran today shows in
 * the statement by day, regrouped by point, exported to xlsx; the collection account keeps its
 * accounts; the operator opens a sub-operator's statement from its finance list.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en };
const s = en.statements;
const OPERATOR = "Plugdesk Polska";
const { page } = await demoAdminPageOfFile(baseURL);
afterAll(() => closeClients());

/** Today in Warsaw, as the statement's days are the operator's. */
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(new Date());

async function open(path: string, title: string) {
  await visit(page, `${baseURL}${path}`);
  await expect.poll(() => page.title()).toBe(`${title} — ${OPERATOR}`);
  await hydrated(page);
}

describe("financial statements", () => {
  it("shows today's session by day, regroups it by point and exports the statement", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const { transactionId } = await client.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 0, timestamp: new Date().toISOString() });
    await client.call("StopTransaction", { transactionId, meterStop: 4_200, timestamp: new Date().toISOString() });
    const a = await api();
    await expect.poll(async () => (await a.get<{ totals: { sessions: number } }>(`/finance-service/statement?from=${today()}&to=${today()}&groupBy=point&pointId=${point.id}`)).totals.sessions).toBe(1);

    await open("/financialManagement/financialStatements", t.menu.finance.financialStatements);
    const table = page.getByTestId("statement-table");
    await expect.poll(() => table.getByRole("columnheader").first().textContent()).toBe(s.groups.day);
    await page.getByRole("combobox", { name: s.groupBy }).selectOption("point");
    await page.getByRole("button", { name: t.ui.action.search }).click();
    await page.waitForURL(/groupBy=point/);
    await expect.poll(() => table.getByRole("columnheader").first().textContent()).toBe(s.groups.point);
    await expect.poll(() => table.getByRole("row", { name: new RegExp(point.serialNumber) }).count()).toBe(1);
    expect(await table.getByRole("row", { name: new RegExp(point.serialNumber) }).textContent()).toContain("4.2");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: s.export }).click();
    expect((await download).suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.xlsx$/);
  });

  it("refuses a period over 366 days beside the filters", async () => {
    await open("/financialManagement/financialStatements?from=2024-01-01&to=2025-06-30", t.menu.finance.financialStatements);
    await expect.poll(() => page.getByRole("alert").filter({ hasText: s.validation.periodTooLong }).count()).toBe(1);
  });
});

describe("on a phone", () => {
  it("fits 390 px: the table and the filters scroll or wrap, the page does not", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, title] of [
        ["/financialManagement/financialStatements?groupBy=point", t.menu.finance.financialStatements],
        ["/financialManagement/financialAcount", s.collection.title],
      ]) {
        await open(path, title);
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });
});

describe("collection account", () => {
  it("saves the operator's accounts and shows what it collected", async () => {
    await open("/financialManagement/financialAcount", s.collection.title);
    const account = `PL${Date.now()}`;
    await field(page, s.collection.clearingAccount).fill(account);
    await page.getByRole("button", { name: s.collection.save }).click();
    await expect.poll(() => page.getByText(s.collection.saved).count()).toBeGreaterThan(0);
    await open("/financialManagement/financialAcount", s.collection.title);
    expect(await field(page, s.collection.clearingAccount).inputValue()).toBe(account);
    await expect.poll(() => page.getByRole("table", { name: s.collection.totals }).count()).toBe(1);
  });
});

describe("sub-operator finance", () => {
  it("opens a sub-operator's statement from the finance list", async () => {
    await open("/SubOperator/operatorFinance?name=0PL002A", t.menu.subOperator.finance);
    await page.getByRole("link", { name: s.openStatement, exact: true }).first().click();
    await page.waitForURL(/subOperatorId=\d+/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("0PL002A");
    await expect.poll(() => page.getByTestId("statement-table").count()).toBe(1);
  });

  it("lets a logged-in sub-operator open the statement of its own devices from its menu", async () => {
    // Two sessions today: one on a point given to the sub-operator, one on a point that is not.
    const [mine, other] = [await newCharger(), await newCharger()];
    for (const point of [mine, other]) {
      const { client } = await bootedClient(point.serialNumber, point.key);
      const { transactionId } = await client.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 0, timestamp: new Date().toISOString() });
      await client.call("StopTransaction", { transactionId, meterStop: 1_500, timestamp: new Date().toISOString() });
    }
    const a = await api();
    await giveToDemoSubOperator(a, mine.id);
    await expect.poll(async () => (await a.get<{ totals: { sessions: number } }>(`/finance-service/statement?from=${today()}&to=${today()}&groupBy=point&pointId=${mine.id}`)).totals.sessions).toBe(1);

    const subBrowser = await openBrowser();
    try {
      const sub = await subBrowser.newPage();
      await logIn(sub, baseURL, "0PL002A", "subadmin1", "Demo12345");
      await sub.waitForURL(/\/suboperators\//);
      await hydrated(sub);
      // The menu's Finance group holds the entry.
      const sidebar = sub.getByRole("complementary", { name: t.ui.nav.label });
      await sidebar.getByRole("button", { name: t.menu.sub.finance.title, exact: true }).click();
      await sidebar.getByRole("link", { name: t.menu.sub.finance.financialStatements, exact: true }).click();
      await sub.waitForURL(`${baseURL}/suboperators/finance/financialStatements`);
      await expect.poll(() => sub.title()).toBe(`${t.menu.sub.finance.financialStatements} — Plugdesk Kraków`);
      await hydrated(sub);
      const table = sub.getByTestId("statement-table");
      await sub.getByRole("combobox", { name: s.groupBy }).selectOption("point");
      await sub.getByRole("button", { name: t.ui.action.search }).click();
      await sub.waitForURL(/groupBy=point/);
      await expect.poll(() => table.getByRole("row", { name: new RegExp(mine.serialNumber) }).count()).toBe(1);
      expect(await table.getByRole("row", { name: new RegExp(other.serialNumber) }).count()).toBe(0);
    } finally {
      await subBrowser.close();
    }
  });
});
