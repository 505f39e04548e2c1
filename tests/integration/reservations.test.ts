import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_RESERVATION_ID } from "../../domain/schemas/driver-services";
import { boot, connect, now, type TestCharger } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";
import { makeCardRow, makeCustomerRow, makeGroupRow } from "./support/driver-rows";

type ReserveNow = { connectorId: number; expiryDate: string; idTag: string; parentIdTag?: string; reservationId: number };

/** A charger answering ReserveNow and CancelReservation with what the test says. */
async function reservingCharger(operatorCode = "0PL002") {
  const made = await makeCharger(operatorCode);
  const { charger } = await connect(made.serialNumber, { key: made.key });
  await boot(charger!);
  const reserved: ReserveNow[] = [];
  const canceled: number[] = [];
  const replies = { reserve: "Accepted", cancel: "Accepted" };
  charger!.answer("ReserveNow", (payload: ReserveNow) => {
    reserved.push(payload);
    return { status: replies.reserve };
  });
  charger!.answer("CancelReservation", (payload: { reservationId: number }) => {
    canceled.push(payload.reservationId);
    return { status: replies.cancel };
  });
  return { ...made, charger: charger as TestCharger, reserved, canceled, replies };
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const reserve = (token: string, body: Record<string, unknown>) => call("POST", "/station-service/reservation", { token, body: { connectorId: 1, expiryDate: inAnHour(), ...body } });
const detail = async (token: string, id: number) => (await call("GET", `/station-service/reservation/${id}`, { token })).body.data;

// Several chargers and calls per test: more than the default 5 s on a loaded machine.
describe("reservations (/station-service/reservation)", { timeout: 30_000 }, () => {
  it("sends ReserveNow at once with a system-wide integer id; Accepted makes it reserved, with the tag's parent", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    const group = await makeGroupRow("0PL002", [driver.id]);
    const card = await makeCardRow("0PL002", driver.id);
    const { pointId, reserved } = await reservingCharger();
    const expiryDate = inAnHour();
    const res = await reserve(token, { pointId, idTag: card.idTag.toLowerCase(), expiryDate });
    expect(res.status).toBe(200);
    expect(reserved).toEqual([{ connectorId: 1, expiryDate, idTag: card.idTag.toLowerCase(), parentIdTag: group.code, reservationId: res.body.data.id }]);
    expect(res.body.data).toMatchObject({ status: "reserved", pointId, connectorId: 1, idTag: card.idTag.toLowerCase(), parentIdTag: group.code, customerId: driver.id, expiryDate });
    expect(Number.isInteger(res.body.data.id) && res.body.data.id > 0 && res.body.data.id <= MAX_RESERVATION_ID).toBe(true);
    const listed = await call("GET", `/station-service/reservation?pointId=${pointId}&status=reserved`, { token });
    expect(listed.body.data.records.map((r: { id: number }) => r.id)).toEqual([res.body.data.id]);
  });

  it("reserves with a customer's valid bound card, and refuses a customer without one", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", driver.id, { status: "BLOCKED" });
    const good = await makeCardRow("0PL002", driver.id);
    const { pointId, reserved } = await reservingCharger();
    const res = await reserve(token, { pointId, customerId: driver.id });
    expect(res.body.data).toMatchObject({ status: "reserved", idTag: good.idTag, customerId: driver.id });
    expect(reserved[0].idTag).toBe(good.idTag);
    const cardless = await makeCustomerRow("0PL002");
    const refused = await reserve(token, { pointId, customerId: cardless.id });
    expect(refused.status).toBe(400);
    expect(refused.body.data.fields).toEqual({ customerId: "This customer has no bound card the charger would accept here (valid, not expired, allowed at this point)" });
    const both = await reserve(token, { pointId, customerId: driver.id, idTag: good.idTag });
    expect(both.status).toBe(400);
  });

  it("reserves with a card Authorize would accept, and refuses a customer whose cards it would not, with a message why", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId, reserved } = await reservingCharger();
    const driver = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", driver.id, { expiryDate: new Date(Date.now() - 60_000) });
    await makeCardRow("0PL002", driver.id, { status: "LOST" });
    const good = await makeCardRow("0PL002", driver.id, { expiryDate: new Date(Date.now() + 86_400_000) });
    expect((await reserve(token, { pointId, customerId: driver.id })).body.data).toMatchObject({ status: "reserved", idTag: good.idTag });
    expect(reserved.map((r) => r.idTag)).toEqual([good.idTag]);

    const noCard = { customerId: "This customer has no bound card the charger would accept here (valid, not expired, allowed at this point)" };
    const expired = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", expired.id, { expiryDate: new Date(Date.now() - 60_000) });
    const elsewhere = await makeCustomerRow("0PL002", { chargeAllPoint: false });
    await makeCardRow("0PL002", elsewhere.id);
    for (const customer of [expired, elsewhere]) {
      const refused = await reserve(token, { pointId, customerId: customer.id });
      expect(refused.status).toBe(400);
      expect(refused.body.data.fields).toEqual(noCard);
    }
    const abnormal = await makeCustomerRow("0PL002", { status: "ABNORMAL" });
    await makeCardRow("0PL002", abnormal.id);
    const blocked = await reserve(token, { pointId, customerId: abnormal.id });
    expect(blocked.status).toBe(400);
    expect(blocked.body.data.fields).toEqual({ customerId: "This customer is blocked: their cards are refused, so they cannot reserve" });
    const polish = await call("POST", "/station-service/reservation?lang=pl", { token, body: { pointId, connectorId: 1, customerId: abnormal.id, expiryDate: inAnHour() } });
    expect(polish.body.data.fields.customerId).toMatch(/zablokowany/);
    // Nothing went to the charger for the refused ones.
    expect(reserved).toHaveLength(1);
  });

  it("sends ReserveNow whatever the connector last reported: the charger decides", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId, charger, reserved } = await reservingCharger();
    for (const [connectorId, status, errorCode] of [
      [1, "Faulted", "GroundFailure"],
      [2, "Charging", "NoError"],
    ] as const) {
      await charger.call("StatusNotification", { connectorId, errorCode, status, timestamp: now() });
      const res = await reserve(token, { pointId, connectorId, idTag: "WALKIN10" });
      expect(res.status, status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "reserved", connectorId });
    }
    expect(reserved.map((r) => r.connectorId)).toEqual([1, 2]);
  });

  it("answers any other reply with 409 and the reply, records nothing, and never gives an id twice", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId, reserved, replies } = await reservingCharger();
    const ids: number[] = [];
    for (const status of ["Occupied", "Faulted", "Unavailable", "Rejected"]) {
      replies.reserve = status;
      const res = await reserve(token, { pointId, idTag: "WALKIN01" });
      expect(res.status, status).toBe(409);
      expect(res.body.data).toEqual({ status });
      ids.push(reserved.at(-1)!.reservationId);
    }
    expect((await call("GET", `/station-service/reservation?pointId=${pointId}`, { token })).body.data.total).toBe(0);
    replies.reserve = "Accepted";
    const accepted = (await reserve(token, { pointId, idTag: "WALKIN01" })).body.data;
    const other = await reservingCharger("0DE001");
    const elsewhere = (await reserve(await tokenFor("0DE001", "deadmin1"), { pointId: other.pointId, idTag: "WALKIN01" })).body.data;
    ids.push(accepted.id, elsewhere.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("fails at once with 409 'point offline' for a charger that is not connected, and refuses a past expiry", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId } = await makeCharger("0PL002");
    const offline = await reserve(token, { pointId, idTag: "WALKIN02" });
    expect(offline.status).toBe(409);
    expect(offline.body.msg).toBe("Point offline, unable to operate");
    const past = await reserve(token, { pointId, idTag: "WALKIN02", expiryDate: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.data.fields).toEqual({ expiryDate: "The expiry time must be in the future" });
    expect((await reserve(token, { pointId, idTag: "WALKIN02", connectorId: 3 })).status).toBe(400);
  });

  it("cancels with CancelReservation: canceled when the charger accepts, still reserved when it refuses", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId, canceled, replies } = await reservingCharger();
    const first = (await reserve(token, { pointId, idTag: "WALKIN03" })).body.data;
    replies.cancel = "Rejected";
    const refused = await call("PUT", `/station-service/reservation/${first.id}/cancel`, { token });
    expect(refused.status).toBe(409);
    expect((await detail(token, first.id)).status).toBe("reserved");
    replies.cancel = "Accepted";
    const done = await call("PUT", `/station-service/reservation/${first.id}/cancel`, { token });
    expect(done.body.data).toMatchObject({ id: first.id, status: "canceled" });
    expect(canceled).toEqual([first.id, first.id]);
    expect((await call("PUT", `/station-service/reservation/${first.id}/cancel`, { token })).status).toBe(409);
    expect((await call("GET", `/station-service/reservation?pointId=${pointId}&status=canceled`, { token })).body.data.total).toBe(1);
  });

  it("is finished by a start with its id on its connector, with the reserved tag or a tag of the same parent; other starts leave it", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const leader = await makeCustomerRow("0PL002");
    const member = await makeCustomerRow("0PL002");
    await makeGroupRow("0PL002", [leader.id, member.id]);
    const leaderCard = await makeCardRow("0PL002", leader.id);
    const memberCard = await makeCardRow("0PL002", member.id);
    const stranger = await makeCardRow("0PL002", (await makeCustomerRow("0PL002")).id);
    const { pointId, charger } = await reservingCharger();
    const own = (await reserve(token, { pointId, idTag: leaderCard.idTag })).body.data;
    const shared = (await reserve(token, { pointId, idTag: leaderCard.idTag, connectorId: 2 })).body.data;

    const start = (connectorId: number, idTag: string, reservationId: number) =>
      charger.call("StartTransaction", { connectorId, idTag, meterStart: 0, timestamp: now(), reservationId });
    await start(2, stranger.idTag, own.id);
    await start(2, leaderCard.idTag, own.id);
    expect((await detail(token, own.id)).status).toBe("reserved");
    const used = await start(1, leaderCard.idTag, own.id);
    expect(await detail(token, own.id)).toMatchObject({ status: "finished", endReason: "used", transactionId: used.transactionId });

    await start(2, stranger.idTag, shared.id);
    expect((await detail(token, shared.id)).status).toBe("reserved");
    const byMember = await start(2, memberCard.idTag, shared.id);
    expect(await detail(token, shared.id)).toMatchObject({ status: "finished", transactionId: byMember.transactionId });
  });

  it("finishes by itself when its expiry passes: at once when read, and in the record by the cron", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId } = await reservingCharger();
    const a = (await reserve(token, { pointId, idTag: "WALKIN04" })).body.data;
    const b = (await reserve(token, { pointId, idTag: "WALKIN05" })).body.data;
    // The expiry passes (moved back in the record rather than waited for).
    await env.DB.prepare("UPDATE reservations SET expiry_date = ? WHERE id = ?").bind(Date.now() - 1000, a.id).run();
    expect(await detail(token, a.id)).toMatchObject({ status: "finished", endReason: "expired" });
    const finished = await call("GET", `/station-service/reservation?pointId=${pointId}&status=finished`, { token });
    expect(finished.body.data.records.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect((await call("GET", `/station-service/reservation?pointId=${pointId}&status=reserved`, { token })).body.data.records.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect((await call("PUT", `/station-service/reservation/${a.id}/cancel`, { token })).status).toBe(409);

    const { createScheduledController, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../../workers/app")).default;
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *", scheduledTime: Date.now() + 2 * 3_600_000 }), env, ctx);
    await waitOnExecutionContext(ctx);
    const rows = await env.DB.prepare("SELECT id, status, end_reason FROM reservations WHERE id IN (?, ?) ORDER BY id").bind(a.id, b.id).all();
    expect(rows.results).toEqual([
      { id: a.id, status: "finished", end_reason: "expired" },
      { id: b.id, status: "finished", end_reason: "expired" },
    ]);
  });

  it("filters by expiry time and refuses a range that ends before it starts", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { pointId } = await reservingCharger();
    const soon = new Date(Date.now() + 600_000).toISOString();
    const late = new Date(Date.now() + 7_200_000).toISOString();
    const early = (await reserve(token, { pointId, idTag: "WALKIN06", expiryDate: soon })).body.data;
    await reserve(token, { pointId, idTag: "WALKIN07", expiryDate: late });
    const to = encodeURIComponent(new Date(Date.now() + 1_800_000).toISOString());
    const res = await call("GET", `/station-service/reservation?pointId=${pointId}&to=${to}`, { token });
    expect(res.body.data.records.map((r: { id: number }) => r.id)).toEqual([early.id]);
    const bad = await call("GET", `/station-service/reservation?from=${encodeURIComponent(late)}&to=${encodeURIComponent(soon)}`, { token });
    expect(bad.status).toBe(400);
  });

  it("never shows or cancels another operator's reservations, nor reserves its points (404)", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const { pointId } = await reservingCharger();
    const mine = (await reserve(pl, { pointId, idTag: "WALKIN08" })).body.data;
    expect((await call("GET", `/station-service/reservation/${mine.id}`, { token: de })).status).toBe(404);
    expect((await call("PUT", `/station-service/reservation/${mine.id}/cancel`, { token: de })).status).toBe(404);
    expect((await reserve(de, { pointId, idTag: "WALKIN08" })).status).toBe(404);
    expect((await call("GET", `/station-service/reservation?pointId=${pointId}`, { token: de })).body.data.total).toBe(0);
    const foreign = await makeCustomerRow("0DE001");
    expect((await reserve(pl, { pointId, customerId: foreign.id })).status).toBe(404);
  });

  it("refuses the reservation API to an account without its menu (403), and to one that may only watch", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const { pointId } = await reservingCharger();
    const made = (await reserve(admin, { pointId, idTag: "WALKIN09" })).body.data;
    const account = await makeAccount("0PL002", admin, (await makeRole(admin, { menuCodes: ["monitoring.charging"] })).id);
    const token = (await login("0PL002", account.username, account.password)).body.data.accessToken;
    expect((await call("GET", "/station-service/reservation", { token })).status).toBe(403);
    expect((await reserve(token, { pointId, idTag: "WALKIN09" })).status).toBe(403);
    expect((await call("PUT", `/station-service/reservation/${made.id}/cancel`, { token })).status).toBe(403);
  });
});

describe("the sub-operator's reservations (/suboperators/reservation)", { timeout: 30_000 }, () => {
  it("lists only the reservations of its devices, without the operator's customers, and neither reserves nor cancels", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    const admin = await tokenFor("0PL002", "demoadmin");
    const point = (await env.DB.prepare("SELECT id, operator_id FROM points WHERE serial_number = 'PL002-CP01'").first<{ id: number; operator_id: number }>())!;
    const other = await makeCharger("0PL002");
    const driver = await makeCustomerRow("0PL002");
    const insert = async (pointId: number) =>
      (await env.DB.prepare(
        "INSERT INTO reservations (operator_id, point_id, connector_id, id_tag, customer_id, status, expiry_date, created_at, updated_at) VALUES (?, ?, 1, 'SUBRESV', ?, 'reserved', ?, ?, ?) RETURNING id",
      )
        .bind(point.operator_id, pointId, driver.id, Date.now() + 3_600_000, Date.now(), Date.now())
        .first<{ id: number }>())!.id;
    const mine = await insert(point.id);
    const theirs = await insert(other.pointId);

    const listed = await call("GET", "/station-service/reservation?size=100", { token: sub });
    expect(listed.status).toBe(200);
    const ids = listed.body.data.records.map((r: { id: number }) => r.id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    expect(listed.body.data.records.find((r: { id: number }) => r.id === mine)).toMatchObject({ serialNumber: "PL002-CP01", customerName: null });
    expect((await call("GET", `/station-service/reservation/${theirs}`, { token: sub })).status).toBe(404);
    expect((await call("GET", `/station-service/reservation/${mine}`, { token: sub })).body.data).toMatchObject({ id: mine, status: "reserved", customerName: null });
    expect((await call("PUT", `/station-service/reservation/${mine}/cancel`, { token: sub })).status).toBe(403);
    expect((await detail(admin, mine)).status).toBe("reserved");
    expect((await reserve(sub, { pointId: point.id, idTag: "SUBRESV" })).status).toBe(403);
    // The operator still sees both, with the customer.
    expect((await detail(admin, theirs)).customerName).toBe(`${driver.firstName} ${driver.lastName}`);
  });
});
