import { afterAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../scripts/sim/register";
import { bootedClient, closeClients, newCharger, strictClient } from "../peers/support";
import { logIn, pageOfFile, text, visit } from "./support/session";
import { giveToDemoSubOperator } from "./support/exclusive";

/**
 * Every screen of the console as its users reach it. Each one is checked with axe-core on
 * arrival (support/axe.ts), titles the document "screen — operator", and a detail page names
 * its record in the breadcrumb.
 */
const baseURL = inject("baseURL");
/**
 * Many screens in one visit, each checked in two themes: more than one screen's time. The
 * operator's walk (34 screens and a charging session) took 250 s in a whole run and passed 300 s
 * in two runs of 2026-11-30 while the server answered within 0.3 s: a bound for a hang, not a
 * speed (docs/testing.md "Browser tests").
 */
const MANY_SCREENS_MS = 600_000;
const t = text.en;
const OPERATOR = "Plugdesk Polska";
const SUB_OPERATOR = "Plugdesk Kraków";
const { page } = await pageOfFile();
let session: Awaited<ReturnType<typeof chargingPoint>> | undefined;

afterAll(async () => {
  // The session ends with the file: a charger whose socket dropped on a busy machine during
  // the long screen walk connects again to say so.
  if (session) {
    const open = session.client.isOpen;
    const client = open ? session.client : strictClient(session.point.serialNumber, session.point.key);
    if (!open) await client.connect();
    await client.call("StopTransaction", { transactionId: session.transactionId, meterStop: 1000, timestamp: new Date().toISOString() });
  }
  await closeClients();
});

const breadcrumb = () => page.getByRole("navigation", { name: t.ui.breadcrumb.label });

/** Opens a screen and checks its document title and the breadcrumb's last item. */
async function expectScreen(path: string, screen: string, owner: string, crumb = screen) {
  await visit(page, `${baseURL}${path}`);
  await expect.poll(() => page.title()).toBe(`${screen} — ${owner}`);
  await expect.poll(() => breadcrumb().locator('[aria-current="page"]').textContent()).toBe(crumb);
}

/**
 * A new point of the first location, its charger booted and charging with the operator's remote
 * tag, which may run any number of sessions at once: the files running beside this one keep the
 * demo cards.
 */
async function chargingPoint(api: Api) {
  const point = await newCharger();
  const { client } = await bootedClient(point.serialNumber, point.key, 2);
  const started = await client.call("StartTransaction", { connectorId: 1, idTag: "PLREMOTE", meterStart: 1000, timestamp: new Date().toISOString() });
  const { stationId, stationName } = await api.get<{ stationId: number; stationName: string }>(`/station-service/point/${point.id}`);
  return { client, station: { id: stationId, name: stationName }, point, transactionId: started.transactionId };
}

describe("every screen", () => {
  it("titles and checks the public pages", async () => {
    await page.goto(`${baseURL}/homePage`);
    await expect.poll(() => page.title()).toBe(`${t.homePage.title} — Plugdesk`);
    await page.goto(`${baseURL}/404`);
    await expect.poll(() => page.title()).toBe(`${t.statusPage.notFound} — Plugdesk`);
    await page.goto(`${baseURL}/0PL002/login`);
    await expect.poll(() => page.title()).toBe(`${t.login.title} — ${OPERATOR}`);
  });

  it("titles every operator screen after itself and names the record a detail page shows", async () => {
    const api = await Api.login(baseURL);
    session = await chargingPoint(api);
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    const screens: [string, string][] = [
      ["/home", t.menu.home],
      ["/systemMonitoring/charging", t.menu.monitoring.charging],
      ["/systemMonitoring/chargingPile", t.menu.monitoring.chargingPile],
      ["/systemMonitoring/Connector", t.menu.monitoring.connector],
      ["/systemMonitoring/alarmRecord", t.menu.monitoring.alarmRecord],
      ["/systemMonitoring/loadMonitoring", t.menu.monitoring.loadMonitoring],
      ["/systemMonitoring/reliability", t.menu.monitoring.reliability],
      ["/operationMaintenance/historicalAlarmInfo", t.menu.operation.historicalAlarmInfo],
      ["/equipmentManagement/remoteControl", t.menu.equipment.remoteControl],
      ["/equipmentManagement/station", t.menu.equipment.station],
      ["/equipmentManagement/station/stationAdd", t.page.add],
      ["/equipmentManagement/station/startPoint", t.page.startPoint],
      ["/equipmentManagement/point", t.menu.equipment.point],
      ["/equipmentManagement/point/pointAdd", t.page.add],
      ["/carrierSystem/role", t.menu.carrier.role],
      ["/carrierSystem/role/add", t.page.add],
      ["/carrierSystem/carrierAcount", t.menu.carrier.carrierAcount],
      ["/carrierSystem/carrierAcount/add", t.page.add],
      ["/SubOperator/operatorDevice", t.menu.subOperator.device],
      ["/financialManagement/chargeConfigurationNew", t.menu.finance.chargeConfiguration],
      ["/financialManagement/chargeConfigurationNew/add", t.page.add],
      ["/financialManagement/chargeRecord", t.menu.finance.chargeRecord],
      ["/carrierSystem/parameterSettings", t.menu.carrier.parameterSettings],
      // A screen still to be built.
      ["/financialManagement/financialAcount", t.menu.finance.financialAcount],
    ];
    for (const [path, screen] of screens) await expectScreen(path, screen, OPERATOR);

    const role = (await api.get<{ records: { id: number; name: string }[] }>("/user-service/role?size=10")).records[0];
    const account = (await api.get<{ records: { id: number; username: string }[] }>("/user-service/account?username=demoadmin")).records[0];
    const { station, point, transactionId } = session;
    await expectScreen(`/equipmentManagement/station/stationDetail/${station.id}`, t.page.detail, OPERATOR, station.name);
    await expectScreen(`/equipmentManagement/point/pointDetail/${point.id}`, t.page.detail, OPERATOR, point.serialNumber);
    await expectScreen(`/equipmentManagement/point/pointEdit/${point.id}`, t.page.edit, OPERATOR, t.ui.breadcrumb.modify);
    await expectScreen(`/equipmentManagement/point/pointConfig/${point.id}`, t.page.config, OPERATOR);
    await expectScreen(`/carrierSystem/role/detail/${role.id}`, t.page.detail, OPERATOR, role.name);
    await expectScreen(`/carrierSystem/role/edit/${role.id}`, t.page.edit, OPERATOR, t.ui.breadcrumb.modify);
    await expectScreen(`/carrierSystem/carrierAcount/detail/${account.id}`, t.page.detail, OPERATOR, account.username);
    await expectScreen(`/carrierSystem/carrierAcount/edit/${account.id}`, t.page.edit, OPERATOR, t.ui.breadcrumb.modify);
    await expectScreen(`/financialManagement/chargeRecord/chargeRecordDetail/${transactionId}`, t.page.detail, OPERATOR, String(transactionId));
    await expectScreen(`/systemMonitoring/charging/detail/${transactionId}`, t.page.chargingDetail, OPERATOR, String(transactionId));

    // The language changes the title with the screen.
    await page.getByRole("button", { name: t.ui.language.label.replace("{{language}}", "English") }).click();
    await page.getByRole("menuitemradio", { name: "Polski" }).click();
    await expect.poll(() => page.title()).toBe(`${text.pl.page.chargingDetail} — ${OPERATOR}`);
    await page.context().addCookies([{ name: "lang", value: "en", url: baseURL }]);

    await giveToDemoSubOperator(api, point.id);
  }, MANY_SCREENS_MS);

  it("titles every screen of the sub-operator area and names its records", async () => {
    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002A", "subadmin1", "Demo12345");
    await page.waitForURL(/\/suboperators\//);
    const screens: [string, string][] = [
      ["/suboperators/monitoring/charging", t.menu.sub.monitoring.charging],
      ["/suboperators/monitoring/chargingPile", t.menu.sub.monitoring.chargingPile],
      ["/suboperators/monitoring/connector", t.menu.sub.monitoring.connector],
      ["/suboperators/monitoringAlarm/alarm", t.menu.sub.monitoring.alarm],
      ["/suboperators/monitoring/loadMonitoring", t.menu.sub.monitoring.loadMonitoring],
      ["/suboperators/station", t.menu.sub.equipment.station],
      ["/suboperators/point", t.menu.sub.equipment.point],
      ["/suboperators/chargingBill/bill", t.menu.sub.finance.bill],
      ["/suboperators/finance/chargeConfiguration", t.menu.sub.finance.chargeConfiguration],
      ["/suboperators/finance/financialStatements", t.menu.sub.finance.financialStatements],
      ["/suboperators/parameterSettings", t.menu.sub.system.parameterSettings],
    ];
    for (const [path, screen] of screens) await expectScreen(path, screen, SUB_OPERATOR);

    // What the operator assigned above: the new point, its location and its session.
    const { station, point, transactionId } = session!;
    await expectScreen(`/suboperators/station/${station.id}`, t.page.detail, SUB_OPERATOR, station.name);
    await expectScreen(`/suboperators/point/pointDetail/${point.id}`, t.page.detail, SUB_OPERATOR, point.serialNumber);
    await expectScreen(`/suboperators/monitoring/charging/detail/${transactionId}`, t.page.chargingDetail, SUB_OPERATOR, String(transactionId));
    await expectScreen(`/suboperators/chargingBill/billDetails/${transactionId}`, t.page.detail, SUB_OPERATOR, String(transactionId));

    await page.goto(`${baseURL}/suboperators/rePassword`);
    await expect.poll(() => page.title()).toBe(`${t.rePassword.title} — ${SUB_OPERATOR}`);
  }, MANY_SCREENS_MS);
});
