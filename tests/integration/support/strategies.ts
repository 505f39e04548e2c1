import { expect } from "vitest";
import { call } from "./http";
import { uniqueTag } from "./drivers";

/**
 * A charging strategy at 1.0000 per kWh all day, no service or idle fees, with `body` laid over it
 * (`idle`, `preAuthAmount`…): the price the billing, wallet, payment and mail tests compute with.
 */
export async function flatStrategy(token: string, body: Record<string, unknown> = {}) {
  const res = await call("POST", "/finance-service/strategy", {
    token,
    body: {
      name: `Flat ${uniqueTag()}`,
      electricity: { slots: [{ start: "00:00", end: "24:00", price: "1.0000" }] },
      service: { unit: "NONE", slots: [] },
      idle: { before: null, during: null, after: null },
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; versionId: number };
}
