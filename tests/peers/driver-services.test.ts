import { afterEach, describe, expect, it } from "vitest";
import { answering, api, bootedClient, closeClients, newCharger, until } from "./support";
import { exclusively } from "../e2e/support/exclusive";

exclusively("tag DEMO0001");

const now = () => new Date().toISOString();

/** Anna Nowak of the demo seed: card DEMO0001, leader of the Nowak family (code NOWAKFAM). */
async function anna() {
  const a = await api();
  const [found] = await a.get<{ id: number; name: string }[]>("/customer-service/vehicle/customers?keyword=Anna%20Nowak");
  return found;
}

describe("offline lists and reservations, received by an ocpp-rpc strict charger", () => {
  afterEach(closeClients);

  it("SendLocalList: the first push is Full with version 1, the next Differential with version 2", async () => {
    const point = await newCharger();
    const a = await api();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const lists = answering(client, "SendLocalList", { status: "Accepted" });
    const list = await a.post<{ id: number }>("/customer-service/offline-list", { name: `Peer ${point.serialNumber}`, customerIds: [(await anna()).id], chargeableType: "RFID" });

    await a.post(`/customer-service/offline-list/${list.id}/push`, { pointIds: [point.id] });
    expect(await lists.next(15_000)).toEqual({
      listVersion: 1,
      updateType: "Full",
      localAuthorizationList: [{ idTag: "DEMO0001", idTagInfo: { status: "Accepted", parentIdTag: "NOWAKFAM" } }],
    });
    const items = () => a.get<{ records: { status: string; listVersion: number }[] }>(`/customer-service/offline-list/${list.id}/items`);
    await until(async () => (await items()).records.every((i) => i.status === "SUCCESS"), "the first delivery to succeed");

    await a.post(`/customer-service/offline-list/${list.id}/push`, { pointIds: [point.id] });
    const second = await until(async () => lists.received[1], "the second SendLocalList", 15_000);
    expect(second).toEqual({ listVersion: 2, updateType: "Differential", localAuthorizationList: [] });
    await until(async () => (await items()).records.every((i) => i.status === "SUCCESS"), "the second delivery to succeed");
    expect(client.validationFailures).toEqual([]);
  });

  it("ReserveNow: Accepted makes the reservation reserved; a start with its id finishes it; CancelReservation cancels another", async () => {
    const point = await newCharger();
    const a = await api();
    const { client } = await bootedClient(point.serialNumber, point.key);
    const reservations = answering(client, "ReserveNow", { status: "Accepted" });
    const cancels = answering(client, "CancelReservation", { status: "Accepted" });
    const expiryDate = new Date(Date.now() + 3_600_000).toISOString();

    const reserved = await a.post<{ id: number; status: string }>("/station-service/reservation", { pointId: point.id, connectorId: 1, idTag: "DEMO0001", expiryDate });
    expect(reserved.status).toBe("reserved");
    expect(await reservations.next()).toEqual({ connectorId: 1, expiryDate, idTag: "DEMO0001", parentIdTag: "NOWAKFAM", reservationId: reserved.id });
    const started = await client.call("StartTransaction", { connectorId: 1, idTag: "DEMO0001", meterStart: 0, timestamp: now(), reservationId: reserved.id });
    expect(started.idTagInfo.status).toBe("Accepted");
    expect(await a.get(`/station-service/reservation/${reserved.id}`)).toMatchObject({ status: "finished", transactionId: started.transactionId });
    // The demo card is free again for the other tests.
    await client.call("StopTransaction", { transactionId: started.transactionId, idTag: "DEMO0001", meterStop: 10, timestamp: now() });

    const other = await a.post<{ id: number }>("/station-service/reservation", { pointId: point.id, connectorId: 2, idTag: "PLCARD0002", expiryDate });
    expect(await a.put(`/station-service/reservation/${other.id}/cancel`)).toMatchObject({ status: "canceled" });
    expect(await cancels.next()).toEqual({ reservationId: other.id });
    expect(client.validationFailures).toEqual([]);
  });
});
