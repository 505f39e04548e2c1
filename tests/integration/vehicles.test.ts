import { describe, expect, it } from "vitest";
import { makeAccount, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";
import { makeCustomerRow } from "./support/driver-rows";

const vehicle = (customerId: number, overrides: Record<string, unknown> = {}) => ({
  name: "Family car",
  customerId,
  plate: "WX 12345",
  brand: "Kia",
  model: "EV6",
  remark: "Charges at home too",
  ...overrides,
});

describe("vehicles (/customer-service/vehicle)", () => {
  it("creates, reads, edits and deletes a vehicle of a customer", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const owner = await makeCustomerRow("0PL002", { firstName: "Marta", lastName: "Wiśniewska" });
    const created = await call("POST", "/customer-service/vehicle", { token, body: vehicle(owner.id) });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: "Family car", customerId: owner.id, customerName: "Marta Wiśniewska", plate: "WX 12345", brand: "Kia", model: "EV6", default: false, remark: "Charges at home too" });
    const id = created.body.data.id;
    expect((await call("GET", `/customer-service/vehicle/${id}`, { token })).body.data.plate).toBe("WX 12345");
    const edited = await call("PUT", `/customer-service/vehicle/${id}`, { token, body: vehicle(owner.id, { plate: "WX 99999", brand: null }) });
    expect(edited.body.data).toMatchObject({ plate: "WX 99999", brand: null });
    const listed = await call("GET", `/customer-service/vehicle?customer=${encodeURIComponent("Marta Wiś")}&size=100`, { token });
    expect(listed.body.data.records.map((v: { id: number }) => v.id)).toEqual([id]);
    expect((await call("DELETE", `/customer-service/vehicle/${id}`, { token })).status).toBe(200);
    expect((await call("GET", `/customer-service/vehicle/${id}`, { token })).status).toBe(404);
  });

  it("keeps one default vehicle per customer: a new default takes it from the others", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const owner = await makeCustomerRow("0PL002");
    const other = await makeCustomerRow("0PL002");
    const first = (await call("POST", "/customer-service/vehicle", { token, body: vehicle(owner.id, { default: true }) })).body.data;
    const elsewhere = (await call("POST", "/customer-service/vehicle", { token, body: vehicle(other.id, { default: true }) })).body.data;
    const second = (await call("POST", "/customer-service/vehicle", { token, body: vehicle(owner.id, { name: "Second", default: true }) })).body.data;
    const mine = (await call("GET", `/customer-service/vehicle?customerId=${owner.id}`, { token })).body.data.records;
    expect(mine.map((v: { id: number; default: boolean }) => [v.id, v.default])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect((await call("GET", `/customer-service/vehicle/${elsewhere.id}`, { token })).body.data.default).toBe(true);
    await call("PUT", `/customer-service/vehicle/${first.id}`, { token, body: vehicle(owner.id, { default: true }) });
    const after = (await call("GET", `/customer-service/vehicle?customerId=${owner.id}`, { token })).body.data.records;
    expect(after.filter((v: { default: boolean }) => v.default).map((v: { id: number }) => v.id)).toEqual([first.id]);
  });

  it("requires a name, a plate and a customer, with messages in the language asked for", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", "/customer-service/vehicle?lang=pl", { token, body: { name: " ", plate: "" } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toMatchObject({ name: "Podaj nazwę pojazdu", plate: "Podaj numer rejestracyjny", customerId: "Wybierz klienta" });
  });

  it("never shows or changes another operator's vehicles, nor takes its customers (404)", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const owner = await makeCustomerRow("0PL002");
    const foreign = await makeCustomerRow("0DE001");
    const id = (await call("POST", "/customer-service/vehicle", { token: pl, body: vehicle(owner.id) })).body.data.id;
    expect((await call("GET", `/customer-service/vehicle/${id}`, { token: de })).status).toBe(404);
    expect((await call("PUT", `/customer-service/vehicle/${id}`, { token: de, body: vehicle(foreign.id) })).status).toBe(404);
    expect((await call("DELETE", `/customer-service/vehicle/${id}`, { token: de })).status).toBe(404);
    expect((await call("POST", "/customer-service/vehicle", { token: pl, body: vehicle(foreign.id) })).status).toBe(404);
    expect((await call("GET", "/customer-service/vehicle?size=100", { token: de })).body.data.records.some((v: { id: number }) => v.id === id)).toBe(false);
    expect((await call("GET", `/customer-service/vehicle/${id}`, { token: pl })).status).toBe(200);
  });

  it("refuses the vehicle API to an account without the vehicle menu (403)", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const owner = await makeCustomerRow("0PL002");
    const account = await makeAccount("0PL002", admin, (await makeRole(admin, { menuCodes: ["home"] })).id);
    const token = (await login("0PL002", account.username, account.password)).body.data.accessToken;
    expect((await call("GET", "/customer-service/vehicle", { token })).status).toBe(403);
    expect((await call("POST", "/customer-service/vehicle", { token, body: vehicle(owner.id) })).status).toBe(403);
    expect((await call("GET", "/customer-service/vehicle/customers", { token })).status).toBe(403);
  });
});
