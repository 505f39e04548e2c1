import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import enOperations from "../../domain/i18n/locales/en/point-operations.json";
import enPoints from "../../domain/i18n/locales/en/points.json";
import { Ocpp201Client } from "../../scripts/sim/rpc201";
import { answering, api, baseURL, bootedClient, closeClients, newCharger, ocppEndpoint, until } from "../peers/support";
import { hydrated, logIn, pageOfFile, text, visit } from "./support/session";

/**
 * A point's Operations tab (docs/rules/equipment.md "Point pages"): every action the central system
 * may send, in the point's protocol, as a form built from the action's schema; the charger's answer
 * beside the request. The chargers are ocpp-rpc's strict clients, which check every frame both ways
 * against the official schemas, so a payload the form built wrongly would fail the call.
 */
const t = { ...text.en, ...enOperations, points: { tabs: { ...enPoints.points.tabs, ...enOperations.points.tabs } } };
const { page } = await pageOfFile();
const pageErrors: string[] = [];
const clients201: Ocpp201Client[] = [];

beforeAll(async () => {
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
  await page.waitForURL(`${baseURL}/home`);
});

afterEach(() => {
  expect(pageErrors).toEqual([]);
});

afterAll(async () => {
  await closeClients();
  await Promise.allSettled(clients201.map((c) => c.close()));
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A field of the generated form by its schema name (its label adds "(optional)", or the required mark "*"). */
const control = (scope: Page | Locator, name: string) => scope.getByLabel(new RegExp(`^${escape(name)}(\\s|\\(|\\*|$)`));
/** A fieldset of the generated form (a nested object or a list) by its schema name. */
const group = (scope: Page | Locator, name: string) => scope.getByRole("group", { name: new RegExp(`^${escape(name)}(\\s|\\(|$)`) });
const operations = () => page.getByTestId("point-operations");
const actionSelect = () => operations().getByRole("combobox", { name: t.pointOperations.action, exact: true });
const outcome = () => page.getByTestId("operation-outcome");

async function openOperations(pointId: number) {
  await visit(page, `${baseURL}/equipmentManagement/point/pointDetail/${pointId}?tab=operations`);
  await hydrated(page);
  await expect.poll(() => page.getByRole("tab", { name: t.points.tabs.operations }).getAttribute("aria-selected")).toBe("true");
}

describe("the point's Operations tab", () => {
  it("sends a 1.6 charger GetConfiguration and DataTransfer from forms built from their schemas, and shows each answer beside its request", async () => {
    const made = await newCharger();
    const { client } = await bootedClient(made.serialNumber, made.key);
    const configuration = answering(client, "GetConfiguration", (request) => ({
      configurationKey: (request.key ?? []).map((key) => ({ key, readonly: false, value: "300" })),
      unknownKey: [],
    }));
    const transfers = answering(client, "DataTransfer", { status: "Rejected" });
    await until(async () => (await (await api()).get<{ online: boolean }>(`/station-service/point/${made.id}`)).online, "the point online");

    await openOperations(made.id);
    expect(await operations().getAttribute("data-protocol")).toBe("1.6");
    // 1.6's actions, not 2.0.1's.
    await expect.poll(() => actionSelect().locator("option", { hasText: /^GetConfiguration$/ }).count()).toBe(1);
    expect(await actionSelect().locator("option", { hasText: /^GetVariables$/ }).count()).toBe(0);
    expect(await outcome().textContent()).toContain(t.pointOperations.nothingSent);

    await actionSelect().selectOption("GetConfiguration");
    expect(await page.getByTestId("action-description").textContent()).toBe(t.pointOperations.actions.GetConfiguration);
    const keys = group(operations(), "key");
    await keys.getByRole("button", { name: t.schemaForm.addItem.replace("{{name}}", "key") }).click();
    await control(keys, "key[0]").fill("HeartbeatInterval");
    await operations().getByRole("button", { name: t.pointOperations.send }).click();

    expect(await configuration.next()).toEqual({ key: ["HeartbeatInterval"] });
    await expect.poll(() => outcome().getByTestId("outcome-kind").getAttribute("data-kind")).toBe("answered");
    expect(JSON.parse((await outcome().getByTestId("outcome-request").textContent()) ?? "")).toEqual({ key: ["HeartbeatInterval"] });
    expect(JSON.parse((await outcome().getByTestId("outcome-answer").textContent()) ?? "")).toEqual({
      configurationKey: [{ key: "HeartbeatInterval", readonly: false, value: "300" }],
      unknownKey: [],
    });

    // The schema's checks run before anything is sent: DataTransfer needs its vendorId, of at most 255 characters.
    await actionSelect().selectOption("DataTransfer");
    await control(operations(), "vendorId").fill("x".repeat(256));
    await operations().getByRole("button", { name: t.pointOperations.send }).click();
    await expect.poll(() => operations().getByRole("alert").first().textContent()).toBe(t.schemaForm.check.maxLength.replace("{{max}}", "255"));
    expect(transfers.received).toEqual([]);

    await control(operations(), "vendorId").fill("com.plugdesk");
    await control(operations(), "messageId").fill("Ping");
    await control(operations(), "data").fill("hello");
    await operations().getByRole("button", { name: t.pointOperations.send }).click();
    expect(await transfers.next()).toEqual({ vendorId: "com.plugdesk", messageId: "Ping", data: "hello" });
    // A refusal is an answer too: the charger's reply shows beside the request.
    await expect.poll(() => outcome().getByTestId("outcome-kind").getAttribute("data-kind")).toBe("refused");
    expect(JSON.parse((await outcome().getByTestId("outcome-answer").textContent()) ?? "")).toEqual({ status: "Rejected" });

    // The call is in the OCPP log the tab links to.
    await operations().getByRole("link", { name: t.pointOperations.seeLog }).click();
    await expect.poll(() => page.getByRole("tab", { name: t.points.tabs.log }).getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => page.getByRole("cell", { name: "DataTransfer", exact: true }).count()).toBeGreaterThan(0);
  });

  it("asks for a composite schedule from the remote-control panel's More operations, with the answer shown", async () => {
    const made = await newCharger();
    const stationId = await (await api()).firstStationId();
    const { client } = await bootedClient(made.serialNumber, made.key);
    const schedules = answering(client, "GetCompositeSchedule", (request) => ({
      status: "Accepted",
      connectorId: request.connectorId,
      scheduleStart: "2030-01-01T00:00:00Z",
      chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 16 }] },
    }));
    await until(async () => (await (await api()).get<{ online: boolean }>(`/station-service/point/${made.id}`)).online, "the point online");

    await visit(page, `${baseURL}/equipmentManagement/remoteControl?stationId=${stationId}&size=100`);
    await hydrated(page);
    const panel = page.getByTestId(`point-panel-${made.serialNumber}`);
    await panel.getByRole("button", { name: t.pointOperations.more }).click();
    await page.getByRole("menuitem", { name: "GetCompositeSchedule" }).click();
    const dialog = page.getByRole("dialog");
    // The panel offers its three operations only, the one chosen first.
    const offered = dialog.getByRole("combobox", { name: t.pointOperations.action, exact: true });
    expect(await offered.inputValue()).toBe("GetCompositeSchedule");
    expect(await offered.locator("option").allTextContents()).toEqual(["ClearChargingProfile", "DataTransfer", "GetCompositeSchedule"]);
    await control(dialog, "connectorId").fill("1");
    await control(dialog, "duration").fill("3600");
    await control(dialog, "chargingRateUnit").selectOption("A");
    await dialog.getByRole("button", { name: t.pointOperations.send }).click();

    expect(await schedules.next()).toEqual({ connectorId: 1, duration: 3600, chargingRateUnit: "A" });
    await expect.poll(() => dialog.getByTestId("outcome-kind").getAttribute("data-kind")).toBe("answered");
    expect(JSON.parse((await dialog.getByTestId("outcome-answer").textContent()) ?? "")).toMatchObject({ status: "Accepted", connectorId: 1 });
  });

  it("offers a point connected in 2.0.1 the 2.0.1 actions, and reads its variables with GetVariables", async () => {
    const made = await newCharger();
    const client = new Ocpp201Client({ endpoint: ocppEndpoint, identity: made.serialNumber, password: made.key, strictMode: true, callTimeoutMs: 15_000 });
    clients201.push(client);
    await client.connect();
    await client.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "E2E", model: "ocpp-rpc strict" } });
    const asked: unknown[] = [];
    client.handle("GetVariables", (request) => {
      asked.push(request);
      return {
        getVariableResult: request.getVariableData.map(({ component, variable }) => ({ attributeStatus: "Accepted" as const, attributeValue: "300", component, variable })),
      };
    });
    await until(async () => (await (await api()).get<{ connectedVersion: string | null }>(`/station-service/point/${made.id}`)).connectedVersion === "2.0.1", "connected in 2.0.1");

    await openOperations(made.id);
    expect(await operations().getAttribute("data-protocol")).toBe("2.0.1");
    await expect.poll(() => actionSelect().locator("option", { hasText: /^GetVariables$/ }).count()).toBe(1);
    expect(await actionSelect().locator("option", { hasText: /^GetConfiguration$/ }).count()).toBe(0);

    await actionSelect().selectOption("GetVariables");
    // getVariableData needs at least one item, so the form opens with one.
    const item = group(operations(), "getVariableData[0]");
    await control(group(item, "component"), "name").fill("OCPPCommCtrlr");
    await control(group(item, "variable"), "name").fill("HeartbeatInterval");
    await control(item, "attributeType").selectOption("Actual");
    await operations().getByRole("button", { name: t.pointOperations.send }).click();

    await expect.poll(() => outcome().getByTestId("outcome-kind").getAttribute("data-kind")).toBe("answered");
    const sent = { getVariableData: [{ attributeType: "Actual", component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } }] };
    expect(asked).toEqual([sent]);
    expect(JSON.parse((await outcome().getByTestId("outcome-answer").textContent()) ?? "")).toEqual({
      getVariableResult: [{ attributeStatus: "Accepted", attributeValue: "300", component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } }],
    });
  });
});
