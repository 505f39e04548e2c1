import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bootedCharger } from "./support/charger";
import { call, tokenFor } from "./support/http";

const statusOf = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM diagnostics WHERE id = ?").bind(id).first<{ status: number }>())?.status;

async function online() {
  return { ...(await bootedCharger("0PL002")), token: await tokenFor("0PL002", "demoadmin") };
}

describe("diagnostics status notifications (OCPP 1.6 §6.17)", () => {
  it("attributes a notification that overtakes the charger's answer to GetDiagnostics to that request", async () => {
    const { charger, pointId, token } = await online();
    const requested = call("POST", `/station-service/point/${pointId}/diagnose`, { token, body: { location: "ftp://logs.example.com/" } });
    const [, messageId, action] = await charger.nextCall();
    expect(action).toBe("GetDiagnostics");
    // The charger starts uploading and says so before it answers the call.
    await charger.call("DiagnosticsStatusNotification", { status: "Uploading" });
    charger.ws.send(JSON.stringify([3, messageId, { fileName: "early.zip" }]));
    const res = await requested;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 2, fileName: "early.zip" });
    expect(await statusOf(res.body.data.id)).toBe(2);
  });

  it("never moves an older request's row, only the newest request while it is in progress", async () => {
    const { charger, pointId, token } = await online();
    const diagnose = () => call("POST", `/station-service/point/${pointId}/diagnose`, { token, body: { location: "ftp://logs.example.com/" } });
    const answerNext = async (reply: (messageId: unknown) => unknown[]) => {
      const [, messageId] = await charger.nextCall();
      charger.ws.send(JSON.stringify(reply(messageId)));
    };

    const first = diagnose();
    await answerNext((id) => [3, id, { fileName: "first.zip" }]);
    const firstId = (await first).body.data.id as number;
    await charger.call("DiagnosticsStatusNotification", { status: "Uploaded" });
    expect(await statusOf(firstId)).toBe(3);

    // A request the charger refuses leaves no row; a stray notification then moves nothing.
    const refused = diagnose();
    await answerNext((id) => [4, id, "NotSupported", "no diagnostics today", {}]);
    expect((await refused).status).toBe(409);
    await charger.call("DiagnosticsStatusNotification", { status: "UploadFailed" });
    expect(await statusOf(firstId)).toBe(3);

    // Two requests in progress: the newer one takes the notification.
    const second = diagnose();
    await answerNext((id) => [3, id, {}]);
    const third = diagnose();
    await answerNext((id) => [3, id, {}]);
    const [secondId, thirdId] = [(await second).body.data.id as number, (await third).body.data.id as number];
    await charger.call("DiagnosticsStatusNotification", { status: "Uploading" });
    expect([await statusOf(secondId), await statusOf(thirdId)]).toEqual([1, 2]);

    const list = await call("GET", `/station-service/diagnosis?pointId=${pointId}`, { token });
    expect(list.body.data.total).toBe(3);
  });
  it("records GetDiagnostics sent from the monitoring tools or as a generic command, so a timed-out request's row never moves", async () => {
    const { charger, pointId, serialNumber, token } = await online();
    const requests = async () => (await call("GET", `/station-service/diagnosis?pointId=${pointId}&size=100`, { token })).body.data.records as { id: number; status: number }[];

    // The charger never answers the first request in time: its row stays, waiting.
    const timedOut = await call("POST", `/station-service/point/${pointId}/diagnose`, { token, body: { location: "ftp://logs.example.com/old/" } });
    expect(timedOut.status).toBe(504);
    const [old] = await requests();
    expect(old.status).toBe(1);

    charger.answer("GetDiagnostics", () => ({ fileName: "monitoring.zip" }));
    const location = encodeURIComponent("ftp://logs.example.com/new/");
    const monitoring = await call("GET", `/station-service/monitoring/getDiagnostics/${serialNumber}?location=${location}`, { token });
    expect(monitoring.status).toBe(200);
    expect(monitoring.body.data).toEqual({ fileName: "monitoring.zip" });
    await charger.call("DiagnosticsStatusNotification", { status: "Uploading" });
    const [viaMonitoring] = await requests();
    expect(viaMonitoring.id).not.toBe(old.id);
    expect([await statusOf(old.id), await statusOf(viaMonitoring.id)]).toEqual([1, 2]);

    const generic = await call("POST", `/station-service/point/${pointId}/command`, {
      token,
      body: { action: "GetDiagnostics", payload: { location: "ftp://logs.example.com/generic/" } },
    });
    expect(generic.status).toBe(200);
    expect(generic.body.data).toEqual({ fileName: "monitoring.zip" });
    await charger.call("DiagnosticsStatusNotification", { status: "Uploaded" });
    const [viaCommand] = await requests();
    expect(viaCommand.id).not.toBe(viaMonitoring.id);
    expect([await statusOf(old.id), await statusOf(viaMonitoring.id), await statusOf(viaCommand.id)]).toEqual([1, 2, 3]);
  });
});

describe("diagnostics upload addresses (OCPP 1.6 §6.25: any URI)", () => {
  it("sends GetDiagnostics to an http or https upload address, from the point page and from the monitoring tools", async () => {
    const { charger, pointId, serialNumber, token } = await online();
    const locations: string[] = [];
    charger.answer("GetDiagnostics", (payload) => {
      locations.push((payload as { location: string }).location);
      return { fileName: "diag.zip" };
    });
    const page = await call("POST", `/station-service/point/${pointId}/diagnose`, { token, body: { location: "https://files.example.com/upload/cp1" } });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const location = encodeURIComponent("http://files.example.com/upload?token=abc");
    const monitoring = await call("GET", `/station-service/monitoring/getDiagnostics/${serialNumber}?location=${location}`, { token });
    expect(monitoring.status, JSON.stringify(monitoring.body)).toBe(200);
    const refused = await call("GET", `/station-service/monitoring/getDiagnostics/${serialNumber}?location=${encodeURIComponent("file:///var/log")}`, { token });
    expect(refused.status).toBe(400);
    expect(locations).toEqual(["https://files.example.com/upload/cp1", "http://files.example.com/upload?token=abc"]);
  });
});
