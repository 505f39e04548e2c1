import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { chargePointName } from "../../workers/ocpp/identity";
import { alertingEvent, at, card, OCPP201, startedBy } from "../support/ocpp201";
import { connect, eventually, freshTag, landed, online16, recording } from "./support/charger";
import { row, rows } from "./support/d1";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { dailyMaximumProfile16, makeSite } from "./support/operations";

/**
 * OCPP 2.0.1 operations beside 1.6J (docs/rules/ocpp.md "Two protocols"): events raise and clear
 * alarms like a 1.6 error code (N07–N08), a charger ends its reservations (H01–H04), and a fleet of
 * both protocols shares one load-balancing group (K01, K08, K10) and one firmware rollout (L01), a signed version too (L02).
 */

let admin: string;
beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
});

/** A 2.0.1 charger of this point, booted, its two EVSEs Available. */
async function online201(point: { serialNumber: string; key: string }) {
  const charger = (await connect(point.serialNumber, { key: point.key, protocols: OCPP201 })).charger!;
  await charger.call("BootNotification", { reason: "PowerUp", chargingStation: { vendorName: "Alpitronic", model: "HYC300" } });
  for (const evseId of [1, 2]) await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId, connectorId: 1 });
  return charger;
}

type AlarmRow = { connector_no: number; type: string; level: string; status: string; message: string | null };
const alarmsOf = (pointId: number) =>
  rows<AlarmRow>("SELECT connector_no, type, level, status, message FROM alarms WHERE point_id = ? ORDER BY id", pointId);

describe("events (N07–N08)", { timeout: 30_000 }, () => {
  it("raises an alarm for a problem an event reports, on its EVSE or the station, and closes only that one when it clears", async () => {
    const point = await makeCharger("0PL002", { type: "DC" });
    const charger = await online201(point);
    const lock = { name: "ConnectorPlugRetentionLock", evse: { id: 2, connectorId: 1 } };
    const report = {
      generatedAt: at(),
      seqNo: 0,
      eventData: [
        alertingEvent(1, lock, "Problem", "true", { techCode: "E42", techInfo: "Lock motor stalled" }),
        alertingEvent(2, { name: "ChargingStation" }, "Problem", "true"),
        alertingEvent(3, { name: "EVSE", evse: { id: 1 } }, "AvailabilityState", "Unavailable", { trigger: "Delta" }),
      ],
    };
    expect(await charger.call("NotifyEvent", report)).toEqual({});
    await landed();
    expect(await alarmsOf(point.pointId)).toEqual([
      { connector_no: 2, type: "ConnectorLockFailure", level: "ERROR", status: "Undisposed", message: "ConnectorPlugRetentionLock.Problem · Lock motor stalled · E42" },
      { connector_no: 0, type: "OtherError", level: "WARN", status: "Undisposed", message: "ChargingStation.Problem" },
    ]);
    // What reports no problem is kept as the point's event; a repeat of the same part changes nothing.
    expect(await charger.call("NotifyEvent", report)).toEqual({});
    await landed();
    const events = await eventually(
      () => rows<{ detail: string }>("SELECT detail FROM point_events WHERE point_id = ? AND kind = 'Event'", point.pointId),
      (r) => r.length > 0,
    );
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].detail)).toMatchObject({ seqNo: 0, eventData: [{ eventId: 3, variable: { name: "AvailabilityState" }, actualValue: "Unavailable" }] });

    // A status says nothing of the problem: it stays open, and the connector shows its code as 1.6's would.
    await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Occupied", evseId: 2, connectorId: 1 });
    await landed();
    expect((await alarmsOf(point.pointId)).map((a) => a.status)).toEqual(["Undisposed", "Undisposed"]);
    expect(await row("SELECT status, error_code FROM connectors WHERE point_id = ? AND connector_no = 2", point.pointId)).toEqual({ status: "Preparing", error_code: "ConnectorLockFailure" });

    // A periodic reading of a problem variable is not a change; the clearing closes the lock's alarm only.
    await charger.call("NotifyEvent", {
      generatedAt: at(1),
      seqNo: 0,
      eventData: [alertingEvent(4, { name: "ChargingStation" }, "Problem", "true", { trigger: "Periodic" }), alertingEvent(5, lock, "Problem", "false", { cleared: true, cause: 1 })],
    });
    await landed();
    const after = await alarmsOf(point.pointId);
    expect(after.map((a) => [a.connector_no, a.type, a.status])).toEqual([
      [2, "ConnectorLockFailure", "AutoRecovery"],
      [0, "OtherError", "Undisposed"],
    ]);
    expect(await row("SELECT recovered_at IS NOT NULL AS recovered FROM alarms WHERE point_id = ? AND connector_no = 2", point.pointId)).toEqual({ recovered: 1 });
    // With no problem left, the next status carries no error code, as a 1.6 NoError.
    await charger.call("StatusNotification", { timestamp: at(), connectorStatus: "Available", evseId: 2, connectorId: 1 });
    await landed();
    expect(await row("SELECT error_code FROM connectors WHERE point_id = ? AND connector_no = 2", point.pointId)).toEqual({ error_code: "NoError" });
    charger.close();
  });

  it("opens a work order for an event's alarm by itself, as for a 1.6 fault, when the operator turned it on", async () => {
    const point = await makeCharger("0PL002", { type: "DC" });
    const role = await makeRole(admin, { type: "MAINTAINER", menuCodes: ["operation.maintain"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const bound = await call("POST", "/maintain-service/maintainer", { token: admin, body: { accountId: account.id, faultCodes: ["HighTemperature"], pointIds: [point.pointId] } });
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    const charger = await online201(point);
    try {
      await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: true } });
      await charger.call("NotifyEvent", { generatedAt: at(), seqNo: 0, eventData: [alertingEvent(7, { name: "EVSE", evse: { id: 1 } }, "Overheating", "true", { techCode: "T90" })] });
      await landed();
      const list = await call("GET", `/maintain-service/work-order?serialNumber=${point.serialNumber}`, { token: admin });
      expect(list.body.data.records).toEqual([expect.objectContaining({ source: "AUTO", faultCode: "HighTemperature", maintainerId: bound.body.data.id, status: "ALREADY" })]);
    } finally {
      await call("PUT", "/maintain-service/work-order-settings", { token: admin, body: { autoOpen: false } });
      charger.close();
    }
  });
});

describe("reservations (H01–H04)", { timeout: 30_000 }, () => {
  const reserve = (body: Record<string, unknown>) =>
    call("POST", "/station-service/reservation", { token: admin, body: { expiryDate: at(3600), ...body } }).then((res) => {
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      return res.body.data as { id: number };
    });
  const detail = async (id: number) => (await call("GET", `/station-service/reservation/${id}`, { token: admin })).body.data;

  it("reserves an EVSE or the station, cancels, is used by a TransactionEvent naming it, and ends when the charger says Expired or Removed", async () => {
    const point = await makeCharger("0PL002", { type: "DC" });
    const charger = await online201(point);
    const reserved = recording(charger, "ReserveNow", { status: "Accepted" });
    const canceled = recording(charger, "CancelReservation", { status: "Accepted" });
    const idTag = await freshTag(point.pointId);

    const onEvse = await reserve({ pointId: point.pointId, connectorId: 2, idTag });
    const anyEvse = await reserve({ pointId: point.pointId, connectorId: 0, idTag });
    // The tag is registered as RFID: the charger is told it is a card, read as ISO14443.
    expect(reserved).toEqual([
      { id: onEvse.id, expiryDateTime: expect.any(String), idToken: { idToken: idTag, type: "ISO14443" }, evseId: 2 },
      { id: anyEvse.id, expiryDateTime: expect.any(String), idToken: { idToken: idTag, type: "ISO14443" } },
    ]);
    // A tag the registry holds as no card, and one it does not hold, are the CSMS's: Central.
    const appTag = await freshTag(point.pointId);
    await env.DB.prepare("UPDATE id_tags SET kind = 'APP' WHERE id_tag = ?").bind(appTag).run();
    const byApp = await reserve({ pointId: point.pointId, connectorId: 1, idTag: appTag });
    const unknown = await reserve({ pointId: point.pointId, connectorId: 1, idTag: "NOTREGISTERED1" });
    expect(reserved.slice(2)).toEqual([
      { id: byApp.id, expiryDateTime: expect.any(String), idToken: { idToken: appTag, type: "Central" }, evseId: 1 },
      { id: unknown.id, expiryDateTime: expect.any(String), idToken: { idToken: "NOTREGISTERED1", type: "Central" }, evseId: 1 },
    ]);
    for (const made of [byApp, unknown]) expect((await call("PUT", `/station-service/reservation/${made.id}/cancel`, { token: admin })).status).toBe(200);
    canceled.length = 0;

    const toCancel = await reserve({ pointId: point.pointId, connectorId: 1, idTag });
    expect((await call("PUT", `/station-service/reservation/${toCancel.id}/cancel`, { token: admin })).status).toBe(200);
    expect(canceled).toEqual([{ reservationId: toCancel.id }]);
    expect(await detail(toCancel.id)).toMatchObject({ status: "canceled" });

    // H04: the charger ends them itself; another point's reservation is not this charger's to end.
    const other = await makeCharger("0PL002");
    const otherCharger = await online16(other);
    recording(otherCharger, "ReserveNow", { status: "Accepted" });
    const foreign = await reserve({ pointId: other.pointId, connectorId: 1, idTag: "WALKIN09" });
    expect(await charger.call("ReservationStatusUpdate", { reservationId: anyEvse.id, reservationUpdateStatus: "Removed" })).toEqual({});
    expect(await charger.call("ReservationStatusUpdate", { reservationId: foreign.id, reservationUpdateStatus: "Expired" })).toEqual({});
    expect(await detail(anyEvse.id)).toMatchObject({ status: "finished", endReason: "removed" });
    expect(await detail(foreign.id)).toMatchObject({ status: "reserved", endReason: null });

    // H03: a transaction naming the reservation uses it.
    const transactionId = crypto.randomUUID();
    await charger.call("TransactionEvent", { ...startedBy(card(idTag), transactionId, { evseId: 2, meterWh: 100, chargingState: "EVConnected" }), reservationId: onEvse.id });
    const tx = await row<{ id: number; reservation_id: number }>("SELECT id, reservation_id FROM transactions WHERE charger_transaction_id = ?", transactionId);
    expect(tx?.reservation_id).toBe(onEvse.id);
    expect(await detail(onEvse.id)).toMatchObject({ status: "finished", endReason: "used", transactionId: tx!.id });
    // A late Expired of a reservation already used changes nothing.
    await charger.call("ReservationStatusUpdate", { reservationId: onEvse.id, reservationUpdateStatus: "Expired" });
    expect(await detail(onEvse.id)).toMatchObject({ endReason: "used" });

    const expiring = await reserve({ pointId: point.pointId, connectorId: 1, idTag });
    await charger.call("ReservationStatusUpdate", { reservationId: expiring.id, reservationUpdateStatus: "Expired" });
    expect(await detail(expiring.id)).toMatchObject({ status: "finished", endReason: "expired" });
    charger.close();
    otherCharger.close();
  });
});

/** Deliveries and rollouts go through queues, whose batches wait up to a second each. */
const QUEUE_ROUNDS_MS = 30_000;

describe("a fleet of both protocols (K01, K08, K10, L01)", { timeout: QUEUE_ROUNDS_MS }, () => {
  it("gives each charger of one load-balancing group its profile in its own protocol, reads a 2.0.1 composite schedule, and clears both", async () => {
    const site = await makeSite("0PL002", { count: 2 });
    const [a, b] = site.chargers;
    const old = await online16(a);
    const young = await online201(b);
    const set16 = recording(old, "SetChargingProfile", { status: "Accepted" });
    const set201 = recording(young, "SetChargingProfile", { status: "Accepted" });
    const clear16 = recording(old, "ClearChargingProfile", { status: "Accepted" });
    const clear201 = recording(young, "ClearChargingProfile", { status: "Accepted" });
    const LB = "/station-service/load-balancing";
    const created = await call("POST", LB, {
      token: admin,
      body: { name: `Mixed ${Date.now()}`, stationId: site.stationId, pointIds: [a.pointId, b.pointId], powerLimit: 60, stackLevel: 1, repeat: "Daily", slots: [{ start: "18:00", end: "22:00", limitKw: 30 }], validFrom: "2025-06-01T10:00:00Z" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    await call("POST", `${LB}/${id}/deliver`, { token: admin });
    const done = await eventually(
      () => call("GET", `${LB}/${id}`, { token: admin }),
      (res) => res.body.data.points.every((p: { delivery: string }) => p.delivery === "Accepted"),
    );
    expect(done.body.data.points).toHaveLength(2);
    const periods = [
      { startPeriod: 0, limit: 30_000 },
      { startPeriod: 64_800, limit: 15_000 },
      { startPeriod: 79_200, limit: 30_000 },
    ];
    expect(set16).toEqual([dailyMaximumProfile16(id, periods)]);
    expect(set201).toEqual([
      {
        evseId: 0,
        chargingProfile: {
          id,
          stackLevel: 1,
          chargingProfilePurpose: "ChargingStationMaxProfile",
          chargingProfileKind: "Recurring",
          recurrencyKind: "Daily",
          validFrom: "2025-06-01T10:00:00.000Z",
          chargingSchedule: [{ id, duration: 86_400, startSchedule: "2025-05-31T22:00:00.000Z", chargingRateUnit: "W", chargingSchedulePeriod: periods }],
        },
      },
    ]);

    // K08 through the configuration's endpoint: the 2.0.1 schedule comes back in 1.6's shape.
    const asked = recording(young, "GetCompositeSchedule", {
      status: "Accepted",
      schedule: { evseId: 0, duration: 3600, scheduleStart: "2025-06-01T00:00:00Z", chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 30000 }] },
    });
    const schedule = await call("GET", `${LB}/${id}/composite-schedule?pointId=${b.pointId}&duration=3600`, { token: admin });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(200);
    expect(asked).toEqual([{ evseId: 0, duration: 3600, chargingRateUnit: "W" }]);
    expect(schedule.body.data).toEqual({
      status: "Accepted",
      connectorId: 0,
      scheduleStart: "2025-06-01T00:00:00Z",
      chargingSchedule: { duration: 3600, chargingRateUnit: "W", chargingSchedulePeriod: [{ startPeriod: 0, limit: 30000 }] },
    });

    // K10: disabled, each charger clears the group's profile by its id.
    await call("PUT", `${LB}/${id}/valid`, { token: admin, body: { status: "INVALID" } });
    await eventually(
      () => call("GET", `${LB}/${id}`, { token: admin }),
      (res) => res.body.data.points.every((p: { action: string; delivery: string }) => p.action === "clear" && p.delivery === "Accepted"),
    );
    expect(clear16).toEqual([{ id }]);
    expect(clear201).toEqual([{ chargingProfileId: id }]);
    old.close();
    young.close();
  });

  it("names the charger's transaction in a TxProfile for the EVSE it runs on", async () => {
    const point = await makeCharger("0PL002", { type: "DC" });
    const charger = await online201(point);
    const seen = recording(charger, "SetChargingProfile", { status: "Accepted" });
    const transactionId = crypto.randomUUID();
    await charger.call("TransactionEvent", startedBy(card(await freshTag(point.pointId)), transactionId));
    const ours = (await row<{ id: number }>("SELECT id FROM transactions WHERE charger_transaction_id = ?", transactionId))!.id;
    const profile = (transaction?: number) => ({
      chargingProfileId: 77,
      stackLevel: 2,
      chargingProfilePurpose: "TxProfile" as const,
      chargingProfileKind: "Relative" as const,
      ...(transaction !== undefined && { transactionId: transaction }),
      chargingSchedule: { chargingRateUnit: "W" as const, chargingSchedulePeriod: [{ startPeriod: 0, limit: 11000 }] },
    });
    const object = env.CHARGE_POINT.getByName(chargePointName(point.operatorId, point.serialNumber));
    expect(await object.send("SetChargingProfile", { connectorId: 1, csChargingProfiles: profile(ours) })).toMatchObject({ ok: true });
    expect(await object.send("SetChargingProfile", { connectorId: 1, csChargingProfiles: profile() })).toMatchObject({ ok: true });
    expect(seen.map((s) => [s.evseId, s.chargingProfile.chargingProfilePurpose, s.chargingProfile.transactionId])).toEqual([
      [1, "TxProfile", transactionId],
      [1, "TxProfile", transactionId],
    ]);
    charger.close();
  });

  it("rolls one firmware version out over a 1.6 and a 2.0.1 charger, each moving with its own statuses", async () => {
    const site = await makeSite("0PL002", { count: 2 });
    const [a, b] = site.chargers;
    const old = await online16(a);
    const young = await online201(b);
    const asked16 = recording(old, "UpdateFirmware", {});
    const asked201 = recording(young, "UpdateFirmware", { status: "Accepted" });
    const FIRMWARE = "/maintain-service/firmware";
    const created = await call("POST", FIRMWARE, {
      token: admin,
      body: { version: `3.${Date.now() % 100000}.1`, location: "ftp://firmware.example.com/mixed.bin", retries: 2, retryIntervalS: 60, retrieveDate: "2025-01-01T00:00:00Z" },
    });
    const id = created.body.data.id;
    expect((await call("POST", `${FIRMWARE}/${id}/issue`, { token: admin, body: { pointIds: [a.pointId, b.pointId] } })).status).toBe(200);
    await eventually(
      () => call("GET", `${FIRMWARE}/${id}`, { token: admin }),
      (res) => res.body.data.rollout.every((r: { delivery: string }) => r.delivery === "Sent"),
    );
    expect(asked16).toEqual([{ location: "ftp://firmware.example.com/mixed.bin", retrieveDate: expect.any(String), retries: 2, retryInterval: 60 }]);
    expect(asked201).toEqual([
      { requestId: expect.any(Number), firmware: { location: "ftp://firmware.example.com/mixed.bin", retrieveDateTime: expect.any(String) }, retries: 2, retryInterval: 60 },
    ]);
    const { requestId } = asked201[0];

    const statusOf = async () => {
      const detail = await call("GET", `${FIRMWARE}/${id}`, { token: admin });
      return Object.fromEntries(detail.body.data.rollout.map((r: { pointId: number; status: string }) => [r.pointId, r.status]));
    };
    await young.call("FirmwareStatusNotification", { status: "Downloading", requestId });
    await old.call("FirmwareStatusNotification", { status: "Downloading" });
    expect(await statusOf()).toEqual({ [a.pointId]: "Downloading", [b.pointId]: "Downloading" });
    await young.call("FirmwareStatusNotification", { status: "InstallRebooting", requestId });
    await old.call("FirmwareStatusNotification", { status: "InstallationFailed" });
    expect(await statusOf()).toEqual({ [a.pointId]: "InstallationFailed", [b.pointId]: "Installing" });
    await young.call("FirmwareStatusNotification", { status: "Installed", requestId });
    await young.call("FirmwareStatusNotification", { status: "Idle" });
    expect(await statusOf()).toEqual({ [a.pointId]: "InstallationFailed", [b.pointId]: "Installed" });
    old.close();
    young.close();
  });
  it("rolls a signed version out as SignedUpdateFirmware to 1.6 and UpdateFirmware with its signature to 2.0.1 (L02)", async () => {
    const site = await makeSite("0PL002", { count: 3 });
    const [a, b, c] = site.chargers;
    const old = await online16(a);
    const young = await online201(b);
    const doubter = await online16(c);
    const asked16 = recording(old, "SignedUpdateFirmware", { status: "Accepted" });
    const asked201 = recording(young, "UpdateFirmware", { status: "Accepted" });
    recording(doubter, "SignedUpdateFirmware", { status: "InvalidCertificate" });
    const FIRMWARE = "/maintain-service/firmware";
    const signingCertificate = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUSigned\n-----END CERTIFICATE-----";
    const signature = "c2lnbmVkIGZpcm13YXJl";
    const version = `4.${Date.now() % 100000}.0`;
    const location = "ftps://firmware.example.com/signed.bin";

    const half = await call("POST", FIRMWARE, { token: admin, body: { version, location, signingCertificate } });
    expect(half.status).toBe(400);
    expect(JSON.stringify(half.body)).toContain("signature");
    const notPem = await call("POST", FIRMWARE, { token: admin, body: { version, location, signingCertificate: "MIIB", signature } });
    expect(notPem.status).toBe(400);

    const created = await call("POST", FIRMWARE, { token: admin, body: { version, location, signingCertificate, signature, retries: 1 } });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ signed: true, signingCertificate, signature });
    const id = created.body.data.id;
    expect((await call("POST", `${FIRMWARE}/${id}/issue`, { token: admin, body: { pointIds: [a.pointId, b.pointId, c.pointId] } })).status).toBe(200);
    const delivered = await eventually(
      () => call("GET", `${FIRMWARE}/${id}`, { token: admin }),
      (res) => res.body.data.rollout.every((r: { delivery: string }) => r.delivery !== "Queued"),
    );
    const deliveryOf = Object.fromEntries(delivered.body.data.rollout.map((r: { pointId: number; delivery: string }) => [r.pointId, r.delivery]));
    // A charger that refuses the certificate never fetches the file: its rollout is Failed, not Sent.
    expect(deliveryOf).toEqual({ [a.pointId]: "Sent", [b.pointId]: "Sent", [c.pointId]: "Failed" });
    const signed = { location, retrieveDateTime: expect.any(String), signingCertificate, signature };
    expect(asked16).toEqual([{ requestId: expect.any(Number), firmware: signed, retries: 1 }]);
    expect(asked201).toEqual([{ requestId: expect.any(Number), firmware: signed, retries: 1 }]);

    await old.call("SignedFirmwareStatusNotification", { status: "SignatureVerified", requestId: asked16[0].requestId });
    await young.call("FirmwareStatusNotification", { status: "InvalidSignature", requestId: asked201[0].requestId });
    const detail = await call("GET", `${FIRMWARE}/${id}`, { token: admin });
    const statusOf = Object.fromEntries(detail.body.data.rollout.map((r: { pointId: number; status: string }) => [r.pointId, r.status]));
    expect(statusOf).toMatchObject({ [a.pointId]: "Installing", [b.pointId]: "InstallationFailed" });
    for (const charger of [old, young, doubter]) charger.close();
  });
});
