import { afterEach, describe, expect, it } from "vitest";
import { SimCharger } from "../../scripts/sim/charger";
import type { PointRecord } from "../../scripts/sim/register";
import { api, newCharger, ocppEndpoint, until } from "./support";
import { exclusively } from "../e2e/support/exclusive";

exclusively("tag DEMO0001");

/**
 * The charger simulator (`npm run sim`) against the served product: what the console shows of a
 * simulated charger has to be what a real one would make it show.
 */
const sims: SimCharger[] = [];

async function simulated() {
  const point = await newCharger();
  const lines: string[] = [];
  const sim = new SimCharger(
    { serialNumber: point.serialNumber, key: point.key, connectors: 2, connectorPowerW: 11_000, type: "AC" },
    { endpoint: ocppEndpoint, meterIntervalS: 1, log: (line) => lines.push(line) },
  );
  sims.push(sim);
  await sim.start();
  const a = await api();
  const connector = async (connectorId: number) => (await a.get<PointRecord>(`/station-service/point/${point.id}`)).connectors[connectorId - 1];
  await until(async () => (await connector(1)).status === "Available", "connector 1 Available");
  return { point, sim, a, connector, lines };
}

interface Record {
  transactionId: number;
  /** The record state (docs/rules/records.md "Record states"). */
  status: string;
  transactionStatus: string;
  stopReason: string | null;
}

const records = async (pointId: number) => (await (await api()).get<{ records: Record[] }>(`/station-service/charge/record?pointId=${pointId}`)).records;

describe("the charger simulator", () => {
  afterEach(async () => {
    await Promise.allSettled(sims.splice(0).map((s) => s.stop()));
  });

  it("raises a fault on a connector, which the console sees as Faulted with its error code and an alarm, and clears it", async () => {
    const { point, sim, connector } = await simulated();
    expect(await sim.raiseFault(1, "HighTemperature")).toBe(true);
    await until(async () => (await connector(1)).status === "Faulted", "connector 1 Faulted");
    expect(await connector(1)).toMatchObject({ status: "Faulted", errorCode: "HighTemperature" });
    expect(await connector(2)).toMatchObject({ status: "Available", errorCode: "NoError" });
    const a = await api();
    const alarms = () => a.get<{ records: { connectorId: number; type: string; status: string }[] }>(`/station-service/alarm?pointId=${point.id}`);
    expect((await alarms()).records).toEqual([expect.objectContaining({ connectorId: 1, type: "HighTemperature", status: "Undisposed" })]);

    expect(await sim.clearFault(1)).toBe(true);
    await until(async () => (await connector(1)).status === "Available", "connector 1 Available again");
    expect(await connector(1)).toMatchObject({ errorCode: "NoError" });
    expect((await alarms()).records).toEqual([expect.objectContaining({ type: "HighTemperature", status: "AutoRecovery" })]);
    expect(await sim.clearFault(1)).toBe(false);
  });

  it.each([
    ["Hard", "HardReset"],
    ["Soft", "SoftReset"],
  ] as const)("after a %s reset during a session, stops the transaction (%s), reboots and reports the connector as it is", async (type, reason) => {
    const { point, connector, lines } = await simulated();
    const a = await api();
    expect(await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1 })).toEqual({ status: "Accepted" });
    await until(async () => (await connector(1)).status === "Charging", "connector 1 Charging");
    const [running] = await records(point.id);
    expect(running).toMatchObject({ status: "CHARGING", transactionStatus: "ACTIVE" });

    expect(await a.put(`/station-service/monitoring/reset/point/${point.serialNumber}`, { type })).toEqual({ status: "Accepted" });
    const stopped = await until(async () => (await records(point.id)).find((r) => r.transactionId === running.transactionId && r.transactionStatus === "COMPLETED"), "the transaction stopped");
    expect(stopped.stopReason).toBe(reason);
    // The car leaves a moment after the reboot; the connector never claims a session it no longer has.
    await until(async () => (await connector(1)).status === "Available", "connector 1 Available after the reboot");
    expect(lines).toEqual(expect.arrayContaining(["rebooting", expect.stringMatching(/^booted/)]));
    expect(lines.filter((l) => /connector 1: Charging/.test(l))).toHaveLength(1);
  });

  it("keeps a reservation: another tag's remote start makes no transaction, the reserved tag's start uses it", async () => {
    const { point, a, connector, lines } = await simulated();
    const reservation = await a.post<{ id: number; status: string }>("/station-service/reservation", {
      pointId: point.id,
      connectorId: 1,
      idTag: "DEMO0001",
      expiryDate: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(reservation.status).toBe("reserved");
    await until(async () => (await connector(1)).status === "Reserved", "connector 1 Reserved");

    // Jan's card is not of the Nowak family (the reservation's parent tag): the simulator refuses it on that connector.
    await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1, idTag: "PLCARD0002" });
    await until(async () => lines.find((l) => l === "connector 1: reserved for DEMO0001, PLCARD0002 refused"), "the other tag refused");
    expect(await records(point.id)).toEqual([]);
    await until(async () => (await connector(1)).status === "Reserved", "connector 1 still Reserved");
    expect((await a.get<{ status: string }>(`/station-service/reservation/${reservation.id}`)).status).toBe("reserved");

    expect(await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 1, idTag: "DEMO0001" })).toEqual({ status: "Accepted" });
    await until(async () => (await connector(1)).status === "Charging", "connector 1 Charging");
    const [started] = await until(async () => ((await records(point.id)).length ? records(point.id) : undefined), "the transaction recorded");
    const used = await until(async () => {
      const r = await a.get<{ status: string; endReason: string | null; transactionId: number | null }>(`/station-service/reservation/${reservation.id}`);
      return r.status === "finished" ? r : undefined;
    }, "the reservation finished");
    expect(used).toMatchObject({ endReason: "used", transactionId: started.transactionId });
  });

  it("keeps the offline list it is sent: GetLocalListVersion reports its version, and with LocalPreAuthorize a listed tag starts without Authorize", async () => {
    const { point, sim, a, connector, lines } = await simulated();
    const [anna] = await a.get<{ id: number }[]>("/customer-service/vehicle/customers?keyword=anna.nowak%40plugdesk.example");
    const list = await a.post<{ id: number }>("/customer-service/offline-list", { name: `Sim ${point.serialNumber}`, customerIds: [anna.id], chargeableType: "RFID" });
    await a.post(`/customer-service/offline-list/${list.id}/push`, { pointIds: [point.id] });
    const items = () => a.get<{ records: { status: string }[] }>(`/customer-service/offline-list/${list.id}/items`);
    await until(async () => (await items()).records.every((i) => i.status === "SUCCESS"), "the list delivered", 15_000);
    expect(await a.get(`/station-service/monitoring/getLocalListVersion/${point.serialNumber}`)).toEqual({ listVersion: 1 });

    // Online and without LocalPreAuthorize the charger still asks; with it, the list answers a listed tag at once.
    expect(await sim.authorize("DEMO0001")).toEqual({ idTagInfo: expect.objectContaining({ status: "Accepted" }), local: false });
    const configure = (key: string, value: string) => a.post(`/station-service/point/${point.id}/command`, { action: "ChangeConfiguration", payload: { key, value } });
    expect(await configure("LocalPreAuthorize", "true")).toEqual({ status: "Accepted" });
    expect(await sim.authorize("DEMO0001")).toEqual({ idTagInfo: { status: "Accepted", parentIdTag: "NOWAKFAM" }, local: true });
    expect((await sim.authorize("PLCARD0002"))?.local).toBe(false);

    expect(await a.put(`/station-service/remoteControl/remoteStart/${point.id}`, { connectorId: 2, idTag: "DEMO0001" })).toEqual({ status: "Accepted" });
    await until(async () => (await connector(2)).status === "Charging", "connector 2 Charging");
    expect(lines.filter((l) => l === "DEMO0001: Accepted by the local list")).toHaveLength(2);
    expect(await until(async () => (await records(point.id)).find((r) => r.status === "CHARGING"), "the session recorded")).toBeTruthy();
  });
});
