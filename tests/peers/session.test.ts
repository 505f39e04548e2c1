import { afterEach, describe, expect, it } from "vitest";
import type { PointRecord } from "../../scripts/sim/register";
import { api, bootedClient, closeClients, newCharger, openLive, until } from "./support";
import { exclusively } from "../e2e/support/exclusive";

exclusively("tag DEMO0001");

const now = () => new Date().toISOString();

describe("a charging session (ocpp-rpc strict client)", () => {
  afterEach(closeClients);

  it("starts, meters in Wh and kWh, stops, and the API and the live view show it", async () => {
    const point = await newCharger();
    const a = await api();
    const live = await openLive(a.accessToken);
    try {
      const { client } = await bootedClient(point.serialNumber, point.key);
      const connectorStatus = async () => (await a.get<PointRecord>(`/station-service/point/${point.id}`)).connectors[0].status;
      await until(async () => (await connectorStatus()) === "Available", "connector 1 Available");

      expect((await client.call("Authorize", { idTag: "DEMO0001" })).idTagInfo.status).toBe("Accepted");
      await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing" });
      const startAt = now();
      const started = await client.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 1000, timestamp: startAt });
      expect(Number.isInteger(started.transactionId)).toBe(true);
      expect(started.transactionId).toBeGreaterThan(0);
      expect(started.idTagInfo.status).toBe("Accepted");
      const transactionId = started.transactionId;

      // A repeated identical StartTransaction (a charger retrying) gets the same transaction.
      const repeated = await client.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 1000, timestamp: startAt });
      expect(repeated.transactionId).toBe(transactionId);

      await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging" });
      await until(async () => (await connectorStatus()) === "Charging", "connector 1 Charging in the API");
      await live.waitFor((e) => e.type === "transaction" && e.phase === "start" && e.transactionId === transactionId, "the live start event");

      const reading = (register: string, unit: "Wh" | "kWh") => ({
        connectorId: 1,
        transactionId,
        meterValue: [
          {
            timestamp: now(),
            sampledValue: [
              { value: register, context: "Sample.Periodic" as const, measurand: "Energy.Active.Import.Register" as const, unit },
              { value: "7400", measurand: "Power.Active.Import" as const, unit: "W" as const },
              { value: "32.1", measurand: "Current.Import" as const, unit: "A" as const },
              { value: "230.4", measurand: "Voltage" as const, unit: "V" as const },
              { value: "41", measurand: "SoC" as const, location: "EV" as const, unit: "Percent" as const },
            ],
          },
        ],
      });
      expect(await client.call("MeterValues", reading("1500", "Wh"))).toEqual({});
      await live.waitFor(
        (e) => e.type === "meter" && e.transactionId === transactionId && e.energyWh === 1500,
        "the live meter reading of 1500 Wh",
      );
      // The same register in kWh is scaled exactly, not as a float.
      expect(await client.call("MeterValues", reading("2.345", "kWh"))).toEqual({});
      const meter = await live.waitFor(
        (e) => e.type === "meter" && e.transactionId === transactionId && e.energyWh === 2345,
        "the live meter reading of 2.345 kWh",
      );
      expect(meter).toMatchObject({ serialNumber: point.serialNumber, connectorId: 1, powerW: 7400, currentA: 32.1, voltageV: 230.4, soc: 41 });

      const stopped = await client.call("StopTransaction", {
        transactionId,
        idTag: "DEMO0001",
        meterStop: 3000,
        timestamp: now(),
        reason: "Local",
        transactionData: [
          { timestamp: startAt, sampledValue: [{ value: "1000", context: "Transaction.Begin", unit: "Wh" }] },
          { timestamp: now(), sampledValue: [{ value: "3000", context: "Transaction.End", unit: "Wh" }] },
        ],
      });
      expect(stopped.idTagInfo?.status).toBe("Accepted");
      // There is no transactions API yet: the live view carries the start and stop registers.
      const stop = await live.waitFor((e) => e.type === "transaction" && e.phase === "stop" && e.transactionId === transactionId, "the live stop event");
      const start = live.events.find((e) => e.type === "transaction" && e.phase === "start" && e.transactionId === transactionId);
      expect((stop.meterWh ?? 0) - (start?.meterWh ?? 0)).toBe(2000);

      await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Finishing" });
      await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Available" });
      await until(async () => (await connectorStatus()) === "Available", "connector 1 Available again");

      expect(client.validationFailures).toEqual([]);
    } finally {
      live.close();
    }
  });

  it("gives a refused tag an integer transactionId too, with its status", async () => {
    const point = await newCharger();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const started = await client.call("StartTransaction", { connectorId: 2, idTag: "DEMO0002", meterStart: 0, timestamp: now() });
    expect(Number.isInteger(started.transactionId)).toBe(true);
    expect(started.idTagInfo.status).toBe("Blocked");
    const stopped = await client.call("StopTransaction", { transactionId: started.transactionId, meterStop: 0, timestamp: now(), reason: "DeAuthorized" });
    expect(stopped).toEqual({});

    // The operation log has the frames both ways, newest first.
    const a = await api();
    const log = await a.get<{ records: { action: string | null; type: string; sender: string; message: string }[] }>(
      `/station-service/point/${point.serialNumber}/ocpp/operationLog?size=100&action=StartTransaction`,
    );
    expect(log.records.map((r) => `${r.sender} ${r.type}`)).toEqual(["SERVER CALLRESULT", "CHARGER CALL"]);
    expect(JSON.parse(log.records[0].message)[2]).toEqual({ transactionId: started.transactionId, idTagInfo: { status: "Blocked" } });
    expect(client.validationFailures).toEqual([]);
  });
});
