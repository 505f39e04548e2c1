import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { seedDemo } from "../../db/seed";
import { hashChargerKey, keyBytesOf } from "../../workers/auth/charger-key";
import { hashPassword } from "../../workers/auth/password";
import { call, tokenFor } from "./support/http";

/** The demo vehicles and reservations (docs/rules/demo.md "Demo drivers and cards"). */
const count = async (table: string) => (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe("the demo vehicles and reservations", () => {
  it("gives each demo driver a default vehicle and 0PL002 a reservation history on PL002-CP01, once", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const cars = (await call("GET", "/customer-service/vehicle?size=100", { token })).body.data.records as { plate: string; default: boolean; customerName: string }[];
    expect(cars.filter((c) => ["WA 12345", "KR 54321"].includes(c.plate)).map((c) => [c.plate, c.default, c.customerName]).sort()).toEqual([
      ["KR 54321", true, "Jan Kowalski"],
      ["WA 12345", true, "Anna Nowak"],
    ]);
    const de = (await call("GET", "/customer-service/vehicle?size=100", { token: await tokenFor("0DE001", "deadmin1") })).body.data.records as { plate: string }[];
    expect(de.map((c) => c.plate)).toContain("B-PD 1001");
    const held = (await call("GET", "/station-service/reservation?size=100", { token })).body.data.records as { serialNumber: string; idTag: string; status: string; customerName: string }[];
    expect(held.map((r) => [r.serialNumber, r.idTag, r.status, r.customerName]).sort()).toEqual([
      ["PL002-CP01", "DEMO0001", "canceled", "Anna Nowak"],
      ["PL002-CP01", "DEMO0001", "finished", "Anna Nowak"],
    ]);

    const before = [await count("vehicles"), await count("reservations"), await count("reservation_ids")];
    await seedDemo(
      createDb(env.DB),
      (password) => hashPassword(password, env.PASSWORD_PEPPER),
      (key) => hashChargerKey(keyBytesOf(key)!, env.CHARGER_KEY_PEPPER),
    );
    expect([await count("vehicles"), await count("reservations"), await count("reservation_ids")]).toEqual(before);
  });
});
