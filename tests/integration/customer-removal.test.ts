import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { boot, connect } from "./support/charger";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { eventually, makeAppTokenRow, makeCardRow, makeCustomerRow, operatorIdOf } from "./support/driver-rows";

/**
 * Deleting a customer (docs/rules/drivers.md "Customers"): vehicles and offline-list memberships go
 * with it, the chargers holding its tags are told to block them, and kept history (reservations a
 * charger still holds, bills, charge records) refuses the deletion with a 409 that says why.
 */
const remove = (token: string, id: number, lang = "en") => call("DELETE", `/customer-service/customer/${id}?lang=${lang}`, { token });
const exists = async (table: string, id: number) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE id = ?`).bind(id).first<{ n: number }>())!.n > 0;

async function insertReservation(operatorId: number, pointId: number, customerId: number, status: string, expiresInMs: number) {
  const expiry = Date.now() + expiresInMs;
  const row = await env.DB.prepare(
    "INSERT INTO reservations (operator_id, point_id, connector_id, id_tag, customer_id, status, expiry_date, created_at, updated_at) VALUES (?, ?, 1, 'RESV', ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(operatorId, pointId, customerId, status, expiry, Date.now(), Date.now())
    .first<{ id: number }>();
  return row!.id;
}

describe("deleting a customer (DELETE /customer-service/customer/{id})", { timeout: 30_000 }, () => {
  it("takes its vehicles and offline-list memberships along in the same batch", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    const other = await makeCustomerRow("0PL002");
    const car = await call("POST", "/customer-service/vehicle", { token, body: { name: "Family car", customerId: driver.id, plate: "WA 12345", default: true } });
    expect(car.status).toBe(200);
    const list = await call("POST", "/customer-service/offline-list", { token, body: { name: "Night drivers", chargeableType: "ALL", customerIds: [driver.id, other.id] } });
    expect(list.status).toBe(200);

    expect((await remove(token, driver.id)).status).toBe(200);
    expect(await exists("customers", driver.id)).toBe(false);
    expect(await exists("vehicles", car.body.data.id)).toBe(false);
    const after = await call("GET", `/customer-service/offline-list/${list.body.data.id}`, { token });
    expect(after.body.data.customerIds).toEqual([other.id]);
  });

  it("pushes the lists whose chargers hold its tags, so that the next update blocks them there", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    const card = await makeCardRow("0PL002", driver.id);
    const app = await makeAppTokenRow("0PL002", driver.id);
    const list = (await call("POST", "/customer-service/offline-list", { token, body: { name: "Fleet", chargeableType: "ALL", customerIds: [driver.id] } })).body.data;
    const made = await makeCharger("0PL002");
    const { charger } = await connect(made.serialNumber, { key: made.key });
    await boot(charger!);
    const sent: { updateType: string; localAuthorizationList?: { idTag: string; idTagInfo?: { status: string } }[] }[] = [];
    charger!.answer("SendLocalList", (payload: (typeof sent)[number]) => {
      sent.push(payload);
      return { status: "Accepted" };
    });
    const items = async () => (await call("GET", `/customer-service/offline-list/${list.id}/items?size=100`, { token })).body.data.records as { status: string; updateType: string }[];
    await call("POST", `/customer-service/offline-list/${list.id}/push`, { token, body: { pointIds: [made.pointId] } });
    await eventually(items, (rows) => rows.length === 1 && rows[0].status === "SUCCESS");

    expect((await remove(token, driver.id)).status).toBe(200);
    const rows = await eventually(items, (r) => r.length === 2 && r.every((i) => i.status !== "PENDING"));
    expect(rows[0]).toMatchObject({ status: "SUCCESS", updateType: "Differential" });
    const blocked = (sent[1]?.localAuthorizationList ?? []).map((e) => [e.idTag, e.idTagInfo?.status]).sort();
    expect(blocked).toEqual(
      [
        [card.idTag, "Blocked"],
        [app.idTag, "Blocked"],
      ].sort(),
    );
  });

  it("refuses while a charger still holds one of its reservations, and releases finished ones", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const operatorId = await operatorIdOf("0PL002");
    const { pointId } = await makeCharger("0PL002");
    const driver = await makeCustomerRow("0PL002");
    const held = await insertReservation(operatorId, pointId, driver.id, "reserved", 3_600_000);
    const past = await insertReservation(operatorId, pointId, driver.id, "canceled", -60_000);
    const refused = await remove(token, driver.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("This customer has reservations a charger still holds (1): cancel them or let them expire before deleting the customer");
    expect(await exists("customers", driver.id)).toBe(true);

    // A reservation past its expiry no longer holds the connector.
    await env.DB.prepare("UPDATE reservations SET expiry_date = ? WHERE id = ?").bind(Date.now() - 1000, held).run();
    expect((await remove(token, driver.id)).status).toBe(200);
    const left = await env.DB.prepare("SELECT customer_id FROM reservations WHERE id IN (?, ?)").bind(held, past).all<{ customer_id: number | null }>();
    expect(left.results.map((r) => r.customer_id)).toEqual([null, null]);
  });

  it("refuses a customer with bills, saying why, in the language asked for", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const operatorId = await operatorIdOf("0PL002");
    const driver = await makeCustomerRow("0PL002");
    await env.DB.prepare(
      "INSERT INTO bills (operator_id, customer_id, cost, balance_before, balance_after, type, payment_method, status, created_at, updated_at) VALUES (?, ?, 500, 0, 500, 'Recharge', 'CASH', 'PaySuccess', ?, ?)",
    )
      .bind(operatorId, driver.id, Date.now(), Date.now())
      .run();
    const refused = await remove(token, driver.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("This customer has bills (1) that are kept for the accounts, so it cannot be deleted: set its status to Blocked instead");
    const polish = await remove(token, driver.id, "pl");
    expect(polish.body.msg).toContain("rachunki (1)");
    expect(await exists("customers", driver.id)).toBe(true);
  });

  it("refuses a customer with charge records, saying why", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const operatorId = await operatorIdOf("0PL002");
    const { pointId } = await makeCharger("0PL002");
    const driver = await makeCustomerRow("0PL002");
    const tx = await env.DB.prepare(
      "INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at, status) VALUES (?, ?, 1, 'CARD-X', 'Accepted', 0, ?, 'COMPLETED') RETURNING id",
    )
      .bind(operatorId, pointId, Date.now())
      .first<{ id: number }>();
    await env.DB.prepare(
      "INSERT INTO charge_records (transaction_id, operator_id, point_id, connector_no, id_tag, customer_id, start_at, currency, receipt_token, bill_code) VALUES (?, ?, ?, 1, 'CARD-X', ?, ?, 'PLN', ?, ?)",
    )
      .bind(tx!.id, operatorId, pointId, driver.id, Date.now(), `removal-${tx!.id}`, `RM${tx!.id}`)
      .run();
    const refused = await remove(token, driver.id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe("This customer has charge records (1) that are kept as charging history, so it cannot be deleted: set its status to Blocked instead");
    expect(await exists("customers", driver.id)).toBe(true);
  });
});
