import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { at } from "../support/ocpp201";
import { makeCharger } from "./support/factories";
import { bootedCharger, connect, eventually, type TestCharger } from "./support/charger";
import { call, tokenFor } from "./support/http";
import { displayMessageInput, displayMessageRequest } from "../../domain/schemas/remote-control";

/**
 * POST /station-service/point/{id}/command in the point's own protocol (docs/rules/ocpp.md "Remote
 * commands"): 2.0.1's actions for a point that speaks 2.0.1, sent as they are; 1.6's for a 1.6
 * point; the other protocol's names, and payloads that break the protocol's schema, are 400 before
 * any frame goes out.
 */


async function online201() {
  const made = await makeCharger("0PL002", { type: "DC" });
  const charger = (await connect(made.serialNumber, { key: made.key, protocols: "ocpp2.0.1" })).charger!;
  await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
  for (const evseId of [1, 2]) await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId, connectorId: 1 });
  return { ...made, charger };
}

const online16 = () => bootedCharger("0PL002");

/** Answers each of the actions with its reply and keeps every CALL the charger got, in order. */
function answering(charger: TestCharger, replies: Record<string, (payload: any) => unknown>) {
  const received: { action: string; payload: unknown }[] = [];
  for (const [action, reply] of Object.entries(replies)) {
    charger.answer(action, (payload) => {
      received.push({ action, payload });
      return reply(payload);
    });
  }
  return received;
}

const command = (pointId: number, token: string, action: string, payload: unknown, lang?: string) =>
  call("POST", `/station-service/point/${pointId}/command${lang ? `?lang=${lang}` : ""}`, { token, body: { action, payload } });

const variable = { component: { name: "OCPPCommCtrlr" }, variable: { name: "HeartbeatInterval" } };

describe("2.0.1 actions for a 2.0.1 point", () => {
  it("reach the charger as sent and answer its reply, with an operation-log row", async () => {
    const { charger, pointId, serialNumber } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const received = answering(charger, {
      GetVariables: () => ({ getVariableResult: [{ attributeStatus: "Accepted", attributeValue: "300", ...variable }] }),
      SetVariables: () => ({ setVariableResult: [{ attributeStatus: "Rejected", ...variable }] }),
      GetBaseReport: () => ({ status: "Accepted" }),
      GetLog: () => ({ status: "Accepted", filename: "station.log" }),
      RequestStartTransaction: () => ({ status: "Accepted" }),
      Reset: () => ({ status: "Scheduled" }),
    });
    const sent = {
      GetVariables: { getVariableData: [variable] },
      SetVariables: { setVariableData: [{ attributeValue: "120", ...variable }] },
      GetBaseReport: { requestId: 17, reportBase: "FullInventory" },
      GetLog: { logType: "DiagnosticsLog", requestId: 18, log: { remoteLocation: "https://logs.example.com/upload" } },
      RequestStartTransaction: { idToken: { idToken: "CARD01", type: "ISO14443" }, remoteStartId: 4711, evseId: 2 },
      // A name both protocols have goes in the point's: 2.0.1's Reset, with 2.0.1's words.
      Reset: { type: "Immediate", evseId: 1 },
    };
    const answers: Record<string, unknown> = {};
    for (const [action, payload] of Object.entries(sent)) {
      const res = await command(pointId, token, action, payload);
      expect(res.status, action).toBe(200);
      answers[action] = res.body.data;
    }
    expect(received).toEqual(Object.entries(sent).map(([action, payload]) => ({ action, payload })));
    expect(answers).toEqual({
      GetVariables: { getVariableResult: [{ attributeStatus: "Accepted", attributeValue: "300", ...variable }] },
      // SetVariables refuses per variable: the reply is the answer, not a 409.
      SetVariables: { setVariableResult: [{ attributeStatus: "Rejected", ...variable }] },
      GetBaseReport: { status: "Accepted" },
      GetLog: { status: "Accepted", filename: "station.log" },
      RequestStartTransaction: { status: "Accepted" },
      Reset: { status: "Scheduled" },
    });
    const logged = await eventually(
      () =>
        env.DB.prepare("SELECT new_data FROM operation_logs WHERE module = 'remoteControl' AND new_data LIKE ? ORDER BY id")
          .bind(`%"serialNumber":"${serialNumber}"%`)
          .all<{ new_data: string }>(),
      (rows) => rows.results.length === 6,
    );
    expect(JSON.parse(logged.results[0].new_data)).toEqual({ serialNumber, action: "GetVariables", payload: sent.GetVariables });
  });

  it("answers a top-level refusal in 2.0.1's words with 409 and the reply", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    answering(charger, {
      GetBaseReport: () => ({ status: "NotSupported" }),
      UnlockConnector: () => ({ status: "UnknownConnector" }),
    });
    const report = await command(pointId, token, "GetBaseReport", { requestId: 1, reportBase: "SummaryInventory" });
    expect(report.status).toBe(409);
    expect(report.body.msg).toBe("The charging point refused GetBaseReport: NotSupported");
    expect(report.body.data).toEqual({ status: "NotSupported" });
    const unlock = await command(pointId, token, "UnlockConnector", { evseId: 2, connectorId: 1 });
    expect(unlock.status).toBe(409);
    expect(unlock.body.data).toEqual({ status: "UnknownConnector" });
  });

  it("refuses 1.6's names with 400 and a clear message before anything is sent", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const received = answering(charger, { GetVariables: () => ({ getVariableResult: [] }), ChangeConfiguration: () => ({ status: "Accepted" }) });
    const change = await command(pointId, token, "ChangeConfiguration", { key: "HeartbeatInterval", value: "120" });
    expect(change.status).toBe(400);
    expect(change.body.msg).toBe(
      "ChangeConfiguration is an OCPP 1.6 message, and this charging point speaks OCPP 2.0.1: send its 2.0.1 message instead (e.g. GetVariables, SetVariables, RequestStartTransaction)",
    );
    const start = await command(pointId, token, "RemoteStartTransaction", { idTag: "CARD01", connectorId: 1 }, "pl");
    expect(start.status).toBe(400);
    expect(start.body.msg).toContain("RemoteStartTransaction to komunikat OCPP 1.6");
    expect(received).toEqual([]);
  });

  it("checks the payload against 2.0.1's schema before anything is sent", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const received = answering(charger, { Reset: () => ({ status: "Accepted" }), GetVariables: () => ({ getVariableResult: [] }) });
    // 1.6's Reset payload is not 2.0.1's.
    const reset = await command(pointId, token, "Reset", { type: "Hard" });
    expect(reset.status).toBe(400);
    expect(reset.body.data.fields.payload).toMatch(/^The payload does not fit the OCPP action: /);
    expect((await command(pointId, token, "GetVariables", {})).status).toBe(400);
    expect((await command(pointId, token, "GetVariables", { getVariableData: [] })).status).toBe(400);
    expect(received).toEqual([]);
  });
});

describe("display messages (O01, O04, O05)", () => {
  it("sets a message, answers the charger's status, refuses what it does not support, and reads and clears through /command", async () => {
    const { charger, pointId } = await online201();
    const token = await tokenFor("0PL002", "demoadmin");
    const received = answering(charger, {
      SetDisplayMessage: (payload) => ({ status: payload.message.priority === "AlwaysFront" ? "NotSupportedPriority" : "Accepted" }),
      GetDisplayMessages: () => ({ status: "Accepted" }),
      ClearDisplayMessage: (payload) => ({ status: payload.id === 1001 ? "Accepted" : "Unknown" }),
    });
    const message = {
      id: 1001,
      priority: "InFront",
      startDateTime: "2030-01-01T08:00:00.000Z",
      endDateTime: "2030-01-01T20:00:00.000Z",
      message: { format: "UTF8", language: "pl", content: "Ładowarka 2 w serwisie do 20:00" },
      display: { name: "Display", evse: { id: 2 } },
    };
    const set = await command(pointId, token, "SetDisplayMessage", { message });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ status: "Accepted" });
    expect(received[0]).toEqual({ action: "SetDisplayMessage", payload: { message } });

    const front = await command(pointId, token, "SetDisplayMessage", { message: { ...message, id: 1002, priority: "AlwaysFront" } });
    expect(front.status).toBe(409);
    expect(front.body.msg).toBe("The charging point refused SetDisplayMessage: NotSupportedPriority");
    expect(front.body.data).toEqual({ status: "NotSupportedPriority" });

    expect((await command(pointId, token, "GetDisplayMessages", { requestId: 9 })).body.data).toEqual({ status: "Accepted" });
    expect((await command(pointId, token, "ClearDisplayMessage", { id: 1001 })).body.data).toEqual({ status: "Accepted" });
    expect((await command(pointId, token, "ClearDisplayMessage", { id: 1002 })).status).toBe(409);
    // The point page's form builds a request the charger gets as built.
    const form = displayMessageInput.parse({ content: "Bem-vindo", language: "pt-BR", priority: "NormalCycle", evseId: 1 });
    expect((await command(pointId, token, "SetDisplayMessage", displayMessageRequest(form, 77))).body.data).toEqual({ status: "Accepted" });
    expect(received.at(-1)).toEqual({
      action: "SetDisplayMessage",
      payload: { message: { id: 77, priority: "NormalCycle", message: { format: "UTF8", content: "Bem-vindo", language: "pt-BR" }, display: { name: "Display", evse: { id: 1 } } } },
    });
    expect(displayMessageInput.safeParse({ ...form, startDateTime: "2030-01-02T00:00:00Z", endDateTime: "2030-01-01T00:00:00Z" }).success).toBe(false);
    // A priority 2.0.1 does not know never leaves.
    const before = received.length;
    expect((await command(pointId, token, "SetDisplayMessage", { message: { ...message, priority: "Urgent" } })).status).toBe(400);
    expect(received.length).toBe(before);
  });
});

describe("a 1.6 point", () => {
  it("takes 1.6's names as before, and refuses 2.0.1-only names with 400 before anything is sent", async () => {
    const { charger, pointId } = await online16();
    const token = await tokenFor("0PL002", "demoadmin");
    const received = answering(charger, { ChangeConfiguration: () => ({ status: "Accepted" }), Reset: () => ({ status: "Accepted" }) });
    expect((await command(pointId, token, "ChangeConfiguration", { key: "HeartbeatInterval", value: "120" })).body.data).toEqual({ status: "Accepted" });
    // Reset in 1.6's words for a 1.6 charger; 2.0.1's words are a schema violation here.
    expect((await command(pointId, token, "Reset", { type: "Soft" })).body.data).toEqual({ status: "Accepted" });
    expect((await command(pointId, token, "Reset", { type: "Immediate" })).status).toBe(400);
    const variables = await command(pointId, token, "GetVariables", { getVariableData: [variable] }, "de");
    expect(variables.status).toBe(400);
    expect(variables.body.msg).toContain("GetVariables ist eine OCPP-2.0.1-Nachricht");
    expect((await command(pointId, token, "SetDisplayMessage", { message: { id: 1, priority: "InFront", message: { format: "UTF8", content: "Hi" } } })).status).toBe(400);
    expect(received).toEqual([
      { action: "ChangeConfiguration", payload: { key: "HeartbeatInterval", value: "120" } },
      { action: "Reset", payload: { type: "Soft" } },
    ]);
  });
});

describe("a point that is not connected", () => {
  it("is offline for any name when it admits either protocol, and checked against its protocol's schema when it admits one", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const auto = await makeCharger("0PL002");
    for (const [action, payload] of [
      ["GetVariables", { getVariableData: [variable] }],
      ["ChangeConfiguration", { key: "HeartbeatInterval", value: "120" }],
    ] as const) {
      const res = await command(auto.pointId, token, action, payload);
      expect(res.status, action).toBe(409);
      expect(res.body.msg).toBe("Point offline, unable to operate");
    }
    const only201 = await makeCharger("0PL002", { ocppVersion: "OCPP201" });
    expect((await command(only201.pointId, token, "GetVariables", { getVariableData: [variable] })).status).toBe(409);
    expect((await command(only201.pointId, token, "GetConfiguration", {})).status).toBe(400);
    expect((await command(only201.pointId, token, "Reset", { type: "Hard" })).status).toBe(400);
    const only16 = await makeCharger("0PL002", { ocppVersion: "OCPP16" });
    expect((await command(only16.pointId, token, "GetConfiguration", {})).status).toBe(409);
    expect((await command(only16.pointId, token, "GetBaseReport", { requestId: 1, reportBase: "FullInventory" })).status).toBe(400);
  });
});
