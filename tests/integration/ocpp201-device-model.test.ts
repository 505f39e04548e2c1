import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chargePointName } from "../../workers/ocpp/identity";
import { at, OCPP201 } from "../support/ocpp201";
import { makeCharger, tokenWithMenus } from "./support/factories";
import { connect, landed, type TestCharger } from "./support/charger";
import { call, tokenFor } from "./support/http";

/**
 * The device model of an OCPP 2.0.1 charger (Part 2 B05–B07) and its key (A01)
 * (docs/rules/ocpp.md "Two protocols"; docs/rules/equipment.md "Point pages"): a report lands
 * whole in the charger's own storage and is paged and searched through the API; variables are
 * read and set live; 1.6's configuration words reach the charger as their 2.0.1 twins.
 */


async function online201() {
  const made = await makeCharger("0PL002", { type: "DC" });
  const charger = (await connect(made.serialNumber, { key: made.key, protocols: OCPP201 })).charger!;
  await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
  return { ...made, charger };
}

type Attribute = { type?: string; value?: string; mutability?: string };
const reported = (component: Record<string, unknown>, variable: Record<string, unknown>, attribute: Attribute, dataType = "integer", extra: Record<string, unknown> = {}) => ({
  component,
  variable,
  variableAttribute: [{ type: "Actual", ...attribute }],
  variableCharacteristics: { dataType, supportsMonitoring: false, ...extra },
});

const HEARTBEAT = reported({ name: "OCPPCommCtrlr" }, { name: "HeartbeatInterval" }, { value: "300", mutability: "ReadWrite" }, "integer", { unit: "s", minLimit: 1, maxLimit: 86400 });
const FIRST_PART = [
  HEARTBEAT,
  reported({ name: "OCPPCommCtrlr" }, { name: "MessageAttempts", instance: "TransactionEvent" }, { value: "3", mutability: "ReadWrite" }),
  reported({ name: "SecurityCtrlr" }, { name: "BasicAuthPassword" }, { value: "must-never-be-kept", mutability: "WriteOnly" }, "string"),
];
const SECOND_PART = [
  reported({ name: "EVSE", evse: { id: 1 } }, { name: "Power" }, { value: "75000", mutability: "ReadOnly" }, "decimal", { unit: "W" }),
  reported({ name: "EVSE", evse: { id: 2 } }, { name: "Power" }, { value: "75000", mutability: "ReadOnly" }, "decimal", { unit: "W" }),
  reported({ name: "TxCtrlr" }, { name: "StopTxOnEVSideDisconnect" }, { value: "true", mutability: "ReadWrite" }, "boolean"),
];

/** Asks for a FullInventory through the API and answers it; resolves with the requestId the charger was given. */
async function requestReport(charger: TestCharger, token: string, pointId: number, reportBase?: string) {
  let asked: { requestId: number; reportBase: string } | undefined;
  charger.answer("GetBaseReport", (payload) => {
    asked = payload;
    return { status: "Accepted" };
  });
  const res = await call("POST", `/station-service/point/${pointId}/deviceModel/report`, { token, body: reportBase ? { reportBase } : {} });
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ status: "Accepted", requestId: asked!.requestId, reportBase: reportBase ?? "FullInventory" });
  expect(asked!.reportBase).toBe(reportBase ?? "FullInventory");
  return asked!.requestId;
}

const modelPage = (token: string, pointId: number, query = "") => call("GET", `/station-service/point/${pointId}/deviceModel${query}`, { token });

describe("the device model (B07)", () => {
  it("lands a report of two messages whole, then pages and searches it; a new FullInventory replaces it", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    expect((await modelPage(token, pointId)).body.data).toMatchObject({ records: [], total: 0, reportedAt: null });

    const requestId = await requestReport(charger, token, pointId);
    expect(await charger.call("NotifyReport", { requestId, generatedAt: at(), seqNo: 0, tbc: true, reportData: FIRST_PART })).toEqual({});
    // Half a report is not the model.
    expect((await modelPage(token, pointId)).body.data.total).toBe(0);
    expect(await charger.call("NotifyReport", { requestId, generatedAt: at(), seqNo: 1, tbc: false, reportData: SECOND_PART })).toEqual({});

    const whole = await modelPage(token, pointId, "?size=10");
    expect(whole.status).toBe(200);
    expect(whole.body.data.total).toBe(6);
    expect(whole.body.data.reportedAt).toEqual(expect.any(String));
    // By component (EVSE by id), then variable.
    expect(whole.body.data.records.map((r: any) => `${r.component.name}${r.component.evse?.id ?? ""}.${r.variable.name}`)).toEqual([
      "EVSE1.Power",
      "EVSE2.Power",
      "OCPPCommCtrlr.HeartbeatInterval",
      "OCPPCommCtrlr.MessageAttempts",
      "SecurityCtrlr.BasicAuthPassword",
      "TxCtrlr.StopTxOnEVSideDisconnect",
    ]);
    expect(whole.body.data.records[2]).toEqual({
      component: { name: "OCPPCommCtrlr" },
      variable: { name: "HeartbeatInterval" },
      attributes: [{ type: "Actual", value: "300", mutability: "ReadWrite" }],
      characteristics: { dataType: "integer", supportsMonitoring: false, unit: "s", minLimit: 1, maxLimit: 86400 },
    });
    expect(whole.body.data.records[3].variable).toEqual({ name: "MessageAttempts", instance: "TransactionEvent" });
    // The charger's key is never kept, whatever the charger reports.
    expect(whole.body.data.records[4].attributes).toEqual([{ type: "Actual", mutability: "WriteOnly" }]);
    expect(JSON.stringify(whole.body.data)).not.toContain("must-never-be-kept");

    const second = await modelPage(token, pointId, "?size=4&current=2");
    expect(second.body.data).toMatchObject({ total: 6, current: 2, size: 4 });
    expect(second.body.data.records.map((r: any) => r.variable.name)).toEqual(["BasicAuthPassword", "StopTxOnEVSideDisconnect"]);

    const byComponent = await modelPage(token, pointId, "?search=ocppcomm");
    expect(byComponent.body.data.records.map((r: any) => r.variable.name)).toEqual(["HeartbeatInterval", "MessageAttempts"]);
    const byVariable = await modelPage(token, pointId, "?search=Power");
    expect(byVariable.body.data.total).toBe(2);
    expect((await modelPage(token, pointId, "?search=100%25")).body.data.total).toBe(0);

    // A report with a part missing changes nothing; a new FullInventory replaces the model.
    const broken = await requestReport(charger, token, pointId);
    await charger.call("NotifyReport", { requestId: broken, generatedAt: at(), seqNo: 1, tbc: false, reportData: [HEARTBEAT] });
    expect((await modelPage(token, pointId)).body.data.total).toBe(6);
    const next = await requestReport(charger, token, pointId);
    await charger.call("NotifyReport", { requestId: next, generatedAt: at(), seqNo: 0, reportData: [HEARTBEAT] });
    expect((await modelPage(token, pointId)).body.data).toMatchObject({ total: 1, records: [{ variable: { name: "HeartbeatInterval" } }] });

    // A ConfigurationInventory updates the variables it names and keeps the others.
    const configuration = await requestReport(charger, token, pointId, "ConfigurationInventory");
    await charger.call("NotifyReport", { requestId: configuration, generatedAt: at(), seqNo: 0, reportData: [SECOND_PART[2]] });
    expect((await modelPage(token, pointId)).body.data.total).toBe(2);
  });

  it("pages a report of 250 variables at 100 a page, in component and variable order, none twice", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const requestId = await requestReport(charger, token, pointId);
    // A charger's real inventory runs to hundreds of variables, sent in parts.
    const variables = Array.from({ length: 250 }, (_, i) =>
      reported({ name: `Ctrlr${String(Math.floor(i / 10)).padStart(2, "0")}` }, { name: `Variable${String(i % 10).padStart(2, "0")}` }, { value: String(i), mutability: "ReadOnly" }),
    );
    for (let part = 0; part < 3; part++) {
      const reportData = variables.slice(part * 100, part * 100 + 100);
      expect(await charger.call("NotifyReport", { requestId, generatedAt: at(), seqNo: part, tbc: part < 2, reportData })).toEqual({});
    }
    const pages = [];
    for (const current of [1, 2, 3]) {
      const page = await modelPage(token, pointId, `?size=100&current=${current}`);
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({ total: 250, current, size: 100 });
      pages.push(...page.body.data.records.map((r: any) => `${r.component.name}.${r.variable.name}`));
    }
    expect(pages).toEqual(variables.map((v) => `${v.component.name}.${v.variable.name}`));
  });

  it("is a command of the point's remote-control permissions, with its input checked and refused in the caller's language", async () => {
    const { pointId } = await online201();
    const admin = await tokenFor("0PL002", "demoadmin");
    const watcher = await tokenWithMenus(admin, ["monitoring.charging"]);
    expect((await modelPage(watcher, pointId)).status).toBe(403);
    expect((await call("POST", `/station-service/point/${pointId}/variables/set`, { token: watcher, body: { variables: [] } })).status).toBe(403);

    const empty = await call("POST", `/station-service/point/${pointId}/variables/set?lang=pl`, { token: admin, body: { variables: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.data.fields).toEqual({ variables: "Podaj od 1 do 50 zmiennych, każdą z komponentem i zmienną" });
    const long = await call("POST", `/station-service/point/${pointId}/variables/get`, { token: admin, body: { variables: [{ component: { name: "x".repeat(51) }, variable: { name: "A" } }] } });
    expect(long.status).toBe(400);
    expect(long.body.data.fields).toEqual({ "variables.0.component.name": "A component or variable name (or instance) is 1 to 50 characters" });
    const base = await call("POST", `/station-service/point/${pointId}/deviceModel/report?lang=de`, { token: admin, body: { reportBase: "SummaryInventory" } });
    expect(base.status).toBe(400);
    expect(base.body.data.fields).toEqual({ reportBase: "Der Bericht muss FullInventory oder ConfigurationInventory sein" });
    // The key is the key dialog's: a SetVariables of it from the tab would leave the server's hash behind.
    const key = await call("POST", `/station-service/point/${pointId}/variables/set`, {
      token: admin,
      body: { variables: [{ component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" }, value: "a".repeat(20) }] },
    });
    expect(key.status).toBe(400);
  });
});

describe("variables read and set live (B05–B06)", () => {
  it("sets a variable and shows the charger's status; a value taken or read becomes the model's", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const requestId = await requestReport(charger, token, pointId);
    await charger.call("NotifyReport", { requestId, generatedAt: at(), seqNo: 0, reportData: [HEARTBEAT, SECOND_PART[2]] });

    const statuses: Record<string, string> = { HeartbeatInterval: "Accepted", StopTxOnEVSideDisconnect: "RebootRequired", Nothing: "UnknownVariable" };
    let sent: any;
    charger.answer("SetVariables", (payload) => {
      sent = payload;
      return { setVariableResult: payload.setVariableData.map((d: any) => ({ component: d.component, variable: d.variable, attributeStatus: statuses[d.variable.name] })) };
    });
    const set = await call("POST", `/station-service/point/${pointId}/variables/set`, {
      token,
      body: {
        variables: [
          { component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" }, value: "120" },
          { component: { name: "TxCtrlr" }, variable: { name: "StopTxOnEVSideDisconnect" }, attributeType: "Actual", value: "false" },
          { component: { name: "OCPPCommCtrlr" }, variable: { name: "Nothing" }, value: "1" },
        ],
      },
    });
    expect(set.status).toBe(200);
    expect(sent.setVariableData[0]).toEqual({ component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" }, attributeValue: "120" });
    expect(set.body.data.results.map((r: any) => r.attributeStatus)).toEqual(["Accepted", "RebootRequired", "UnknownVariable"]);
    const values = async () => Object.fromEntries((await modelPage(token, pointId)).body.data.records.map((r: any) => [r.variable.name, r.attributes[0].value]));
    expect(await values()).toEqual({ HeartbeatInterval: "120", StopTxOnEVSideDisconnect: "false" });

    charger.answer("GetVariables", (payload) => ({
      getVariableResult: payload.getVariableData.map((d: any) =>
        d.variable.name === "HeartbeatInterval" ? { ...d, attributeStatus: "Accepted", attributeValue: "90" } : { ...d, attributeStatus: "UnknownComponent" },
      ),
    }));
    const read = await call("POST", `/station-service/point/${pointId}/variables/get`, {
      token,
      body: { variables: [{ component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } }, { component: { name: "Nowhere" }, variable: { name: "X" } }] },
    });
    expect(read.status).toBe(200);
    expect(read.body.data.results).toEqual([
      { component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" }, attributeStatus: "Accepted", attributeValue: "90" },
      { component: { name: "Nowhere" }, variable: { name: "X" }, attributeStatus: "UnknownComponent" },
    ]);
    expect((await values()).HeartbeatInterval).toBe("90");
  });

  it("refuses a new report of a point that is offline, and of one connected in 1.6", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const offline = await makeCharger("0PL002");
    expect((await call("POST", `/station-service/point/${offline.pointId}/deviceModel/report`, { token, body: {} })).status).toBe(409);
    const in16 = await makeCharger("0PL002");
    const charger = (await connect(in16.serialNumber, { key: in16.key, protocols: "ocpp1.6" })).charger!;
    await charger.call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "T" });
    const res = await call("POST", `/station-service/point/${in16.pointId}/variables/get`, { token, body: { variables: [{ component: { name: "A" }, variable: { name: "B" } }] } });
    // Nothing goes out: the charger speaks 1.6 now (errors.reconnectedIn16).
    expect(res.status).toBe(409);
  });
});

describe("1.6's configuration words on a 2.0.1 charger", () => {
  it("sends ChangeConfiguration and GetConfiguration as SetVariables and GetVariables of their twins, and refuses a key without one", async () => {
    const { charger, operatorId, serialNumber } = await online201();
    const stub = env.CHARGE_POINT.getByName(chargePointName(operatorId, serialNumber));

    const frames: string[] = [];
    charger.answer("SetVariables", (payload) => {
      frames.push(JSON.stringify(payload));
      const name = payload.setVariableData[0].variable.name;
      return { setVariableResult: [{ ...payload.setVariableData[0], attributeValue: undefined, attributeStatus: name === "HeartbeatInterval" ? "RebootRequired" : "UnknownVariable" }] };
    });
    expect(await stub.send("ChangeConfiguration", { key: "HeartbeatInterval", value: "60" })).toEqual({ ok: true, response: { status: "RebootRequired" } });
    expect(JSON.parse(frames[0])).toEqual({ setVariableData: [{ component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" }, attributeValue: "60" }] });
    expect(await stub.send("ChangeConfiguration", { key: "metervaluesampleinterval", value: "30" })).toEqual({ ok: true, response: { status: "NotSupported" } });
    expect(JSON.parse(frames[1]).setVariableData[0]).toMatchObject({ component: { name: "SampledDataCtrlr" }, variable: { name: "TxUpdatedInterval" } });

    // No twin: refused before any frame goes out.
    expect(await stub.send("ChangeConfiguration", { key: "MinimumStatusDuration", value: "5" })).toMatchObject({ ok: false, reason: "noTwin" });
    expect(frames).toHaveLength(2);

    let asked: any;
    charger.answer("GetVariables", (payload) => {
      asked = payload;
      return {
        getVariableResult: payload.getVariableData.map((d: any) =>
          d.variable.name === "HeartbeatInterval" ? { ...d, attributeStatus: "Accepted", attributeValue: "300" } : { ...d, attributeStatus: "UnknownVariable" },
        ),
      };
    });
    const read = await stub.send("GetConfiguration", { key: ["HeartbeatInterval", "ConnectionTimeOut", "MinimumStatusDuration"] });
    expect(asked.getVariableData).toEqual([
      { component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } },
      { component: { name: "TxCtrlr" }, variable: { name: "EVConnectionTimeOut" } },
    ]);
    expect(read).toEqual({
      ok: true,
      response: { configurationKey: [{ key: "HeartbeatInterval", readonly: false, value: "300" }], unknownKey: ["MinimumStatusDuration", "ConnectionTimeOut"] },
    });
    // Every key with a twin when none is named, the write-only key aside.
    await stub.send("GetConfiguration", {});
    expect(asked.getVariableData.length).toBeGreaterThan(10);
    expect(JSON.stringify(asked)).not.toContain("BasicAuthPassword");
    expect(await stub.send("GetConfiguration", { key: ["MinimumStatusDuration"] })).toMatchObject({ ok: false, reason: "noTwin" });
  });
});

describe("the charger's key on a 2.0.1 charger (A01)", () => {
  it("pushes a rotated key as SetVariables SecurityCtrlr.BasicAuthPassword; the old key stops working, and a refusal changes nothing", async () => {
    const { charger, pointId, serialNumber, key: oldKey } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");

    charger.answer("SetVariables", (payload) => ({ setVariableResult: [{ ...payload.setVariableData[0], attributeValue: undefined, attributeStatus: "Rejected" }] }));
    const refused = await call("POST", `/station-service/point/${pointId}/key`, { token, body: { push: true } });
    expect(refused.status).toBe(409);
    const again = await connect(serialNumber, { key: oldKey, protocols: OCPP201 });
    expect(again.status).toBe(101);

    const current = again.charger!;
    await current.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
    let pushed: any;
    current.answer("SetVariables", (payload) => {
      pushed = payload;
      return { setVariableResult: [{ component: payload.setVariableData[0].component, variable: payload.setVariableData[0].variable, attributeStatus: "Accepted" }] };
    });
    const res = await call("POST", `/station-service/point/${pointId}/key`, { token, body: { push: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ pushed: true });
    expect(pushed).toEqual({ setVariableData: [{ component: { name: "SecurityCtrlr" }, variable: { name: "BasicAuthPassword" }, attributeValue: res.body.data.key }] });

    expect((await connect(serialNumber, { key: oldKey, protocols: OCPP201 })).status).toBe(401);
    // The charger sends the value it was given (the key's hex digits) as its password.
    expect((await connect(serialNumber, { key: res.body.data.key, protocols: OCPP201 })).status).toBe(101);
  });
});

describe("an EVSE with several connectors (G01), shown as the charger reports it", () => {
  it("keeps each connector's status and type, and the EVSE's status is the one that speaks for them all", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const requestId = await requestReport(charger, token, pointId);
    const connectorType = (evse: number, connector: number, type: string) =>
      reported({ name: "Connector", evse: { id: evse, connectorId: connector } }, { name: "ConnectorType" }, { value: type, mutability: "ReadOnly" }, "OptionList");
    expect(
      await charger.call("NotifyReport", { requestId, generatedAt: at(), seqNo: 0, tbc: false, reportData: [connectorType(1, 1, "cCCS2"), connectorType(1, 2, "cChaoJi")] }),
    ).toEqual({});

    const status = (connectorId: number, connectorStatus: string) => charger.call("StatusNotification", { timestamp: at(), connectorStatus, evseId: 1, connectorId });
    await status(1, "Available");
    await status(2, "Available");
    // The driver plugs the second connector in: the charger reports its sibling Unavailable meanwhile.
    await status(2, "Occupied");
    await status(1, "Unavailable");
    await landed();

    const page = await modelPage(token, pointId);
    expect(page.body.data.evses).toEqual([
      { evseId: 1, connectorId: 1, status: "Unavailable", connectorType: "cCCS2" },
      { evseId: 1, connectorId: 2, status: "Occupied", connectorType: "cChaoJi" },
    ]);
    // The product's connector 1 (the EVSE) stays busy, not Unavailable from the last report.
    const stored = await env.DB.prepare("SELECT status FROM connectors WHERE point_id = ? AND connector_no = 1").bind(pointId).first<{ status: string }>();
    expect(stored).toEqual({ status: "Preparing" });
    charger.close();
  });
});
