import { beforeAll, describe, expect, it } from "vitest";
import { customerBody } from "./support/drivers";
import { call, tokenFor } from "./support/http";

/** What the customer form asks for, by the operator's country and settings (docs/rules/drivers.md "What the customer form asks"). */
let pl: string;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
});

async function settingsWith(change: (current: Record<string, any>) => Record<string, unknown>) {
  const current = (await call("GET", "/system-service/parameter-settings", { token: pl })).body.data;
  const saved = await call("PUT", "/system-service/parameter-settings", { token: pl, body: { ...current, ...change(current) } });
  expect(saved.status).toBe(200);
  return saved.body.data;
}

const bare = () => customerBody({ gender: undefined, zipCode: undefined, evModel: undefined });

describe("the customer form's fields", () => {
  it("takes a customer without gender, zip code or EV model while the settings do not require them, and no CPF outside Brazil", async () => {
    expect((await call("GET", "/system-service/parameter-settings", { token: pl })).body.data.customerFields).toEqual({ gender: false, zipCode: false, evModel: false });
    const res = await call("POST", "/customer-service/customer", { token: pl, body: { ...bare(), cpf: "529.982.247-25" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ gender: "UNSTATED", zipCode: "", evModel: "", cpf: null });
    // An edit of a customer with a stored CPF keeps it.
    const edited = await call("PUT", `/customer-service/customer/${res.body.data.id}`, { token: pl, body: { ...bare(), email: res.body.data.email, cpf: "", zipCode: "00-001" } });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ zipCode: "00-001", cpf: null });
  });

  it("requires what the operator's settings require, naming each field", async () => {
    const saved = await settingsWith(() => ({ customerFields: { gender: true, zipCode: true, evModel: true } }));
    expect(saved.customerFields).toEqual({ gender: true, zipCode: true, evModel: true });
    const res = await call("POST", "/customer-service/customer", { token: pl, body: { ...bare(), gender: "UNSTATED" } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual({ gender: "Please choose a gender", zipCode: "Please enter a valid zip code", evModel: "Please enter the EV model" });
    expect((await call("POST", "/customer-service/customer", { token: pl, body: customerBody() })).status).toBe(200);
    await settingsWith(() => ({ customerFields: { gender: false, zipCode: false, evModel: false } }));
    expect((await call("POST", "/customer-service/customer", { token: pl, body: bare() })).status).toBe(200);
  });

  it("asks a Brazilian operator for a valid CPF and keeps it", async () => {
    await settingsWith((current) => ({ ocpi: { ...current.ocpi, countryCode: "BR" } }));
    const missing = await call("POST", "/customer-service/customer?lang=pt_BR", { token: pl, body: bare() });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.data.fields)).toEqual(["cpf"]);
    const wrong = await call("POST", "/customer-service/customer", { token: pl, body: { ...bare(), cpf: "529.982.247-24" } });
    expect(wrong.body.data.fields).toEqual({ cpf: "This CPF is not valid (check digits)" });
    const res = await call("POST", "/customer-service/customer", { token: pl, body: { ...bare(), cpf: "529.982.247-25" } });
    expect(res.status).toBe(200);
    expect(res.body.data.cpf).toBe("52998224725");
  });

  it("names the fields of a refused body in the headline when they have no message of their own", async () => {
    const res = await call("POST", "/customer-service/customer", { token: pl, body: { ...customerBody(), chargeAllPoint: "yes", city: 7 } });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^Data validation failed: check /);
    expect(res.body.msg).toContain("city");
  });
});
