import { afterEach, describe, expect, it } from "vitest";
import { api, bootedClient, closeClients, newCharger, until } from "./support";

/**
 * A time-of-use session priced to the minor unit (docs/rules/pricing.md "The engine",
 * docs/rules/billing.md "Pricing at stop"): a strict ocpp-rpc charger sends a session with known
 * timestamps and registers across a slot boundary, and the charge record matches the totals
 * computed by hand.
 */
describe("a time-of-use session (ocpp-rpc strict client)", () => {
  afterEach(closeClients);

  it("splits the energy at the slot boundary in the station's local time and prices every line to the minor unit", async () => {
    const point = await newCharger();
    const a = await api();
    // Warsaw is UTC+1 in January: the slots change at 12:00 local, 11:00 UTC.
    const strategy = await a.post<{ id: number }>("/finance-service/strategy", {
      name: `Peer time of use ${point.serialNumber}`,
      electricity: {
        slots: [
          { start: "00:00", end: "12:00", price: "0.6500" },
          { start: "12:00", end: "24:00", price: "1.1500" },
        ],
      },
      service: { unit: "KWH", slots: [{ start: "00:00", end: "24:00", price: "0.2000" }] },
      idle: { before: null, during: null, after: null },
    });
    await a.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds: [point.id] });

    const { client } = await bootedClient(point.serialNumber, point.key);
    // The operator's remote tag: accepted, nobody behind it, so the record stays unsettled and undiscounted.
    const idTag = "PLREMOTE";
    const started = await client.call("StartTransaction", { connectorId: 1, idTag, meterStart: 10_000, timestamp: "2026-01-15T10:30:00.000Z" });
    const transactionId = started.transactionId;
    const register = (timestamp: string, wh: number) => ({
      connectorId: 1,
      transactionId,
      meterValue: [{ timestamp, sampledValue: [{ value: String(wh), context: "Sample.Periodic" as const, measurand: "Energy.Active.Import.Register" as const, unit: "Wh" as const }] }],
    });
    await client.call("MeterValues", register("2026-01-15T10:50:00.000Z", 11_000));
    await client.call("MeterValues", register("2026-01-15T11:10:00.000Z", 13_000));
    await client.call("StopTransaction", { transactionId, idTag, meterStop: 14_567, timestamp: "2026-01-15T11:30:00.000Z", reason: "Local" });

    const record = await until(async () => {
      const r = await a.get<Record<string, unknown>>(`/station-service/charge/record/${transactionId}`);
      return r.status === "CHARGE_COMPLETE" || r.status === "CHARGING" ? undefined : r;
    }, "the billed record", 20_000);
    // Halfway between the samples of 11 000 Wh (10:50) and 13 000 Wh (11:10), the register read
    // 12 000 Wh at the boundary: 2.000 kWh × 0.65 = 1.30 zł, then 2.567 kWh × 1.15 = 2.95205 → 2.95 zł.
    // Service: 4.567 kWh × 0.20 = 0.9134 → 0.91 zł. No tax rate, nobody to discount: 5.16 zł.
    expect(record).toMatchObject({
      transactionId,
      status: "RECORD_UNSETTLED",
      transactionStatus: "COMPLETED",
      currency: "PLN",
      energyWh: 4_567,
      chargingTime: 60,
      electricCost: 425,
      serviceCost: 91,
      reservationCost: 0,
      occupancyCost: 0,
      discountCost: 0,
      taxCost: 0,
      totalCost: 516,
      paidCost: null,
    });
    expect(record.strategyVersionId).toEqual(expect.any(Number));
    expect(client.validationFailures).toEqual([]);
  });
});
