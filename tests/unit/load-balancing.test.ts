import { describe, expect, it } from "vitest";
import { chargingProfileOf, dayPeriods, limitAt, type BalancingPlan } from "../../domain/load-balancing";
import { periodAt } from "../../scripts/sim/meter";

const plan = (overrides: Partial<BalancingPlan> = {}): BalancingPlan => ({
  id: 7,
  purpose: "ChargePointMaxProfile",
  stackLevel: 2,
  repeat: "Daily",
  powerLimitW: 60_000,
  slots: [{ start: "18:00", end: "22:00", limitKw: 30 }],
  validFrom: null,
  validTo: null,
  ...overrides,
});

describe("load balancing as a charging profile (docs/rules/operations.md)", () => {
  it("gives the configured limit outside the slots and each slot's inside, merging equal neighbours", () => {
    expect(dayPeriods(plan())).toEqual([
      { startPeriod: 0, limitW: 60_000 },
      { startPeriod: 64_800, limitW: 30_000 },
      { startPeriod: 79_200, limitW: 60_000 },
    ]);
    expect(dayPeriods(plan({ slots: [{ start: "00:00", end: "06:00", limitKw: 10 }, { start: "06:00", end: "24:00", limitKw: 60 }] }))).toEqual([
      { startPeriod: 0, limitW: 10_000 },
      { startPeriod: 21_600, limitW: 60_000 },
    ]);
  });

  it("shares a location's limit evenly over its points, and gives each point the whole limit per point", () => {
    const shared = chargingProfileOf(plan(), 4, "Europe/Warsaw", Date.parse("2025-07-10T12:00:00Z"));
    expect(shared.connectorId).toBe(0);
    expect(shared.csChargingProfiles).toMatchObject({
      chargingProfileId: 7,
      stackLevel: 2,
      chargingProfileKind: "Recurring",
      recurrencyKind: "Daily",
      chargingSchedule: {
        duration: 86_400,
        // Local midnight in Warsaw in summer (UTC+2).
        startSchedule: "2025-07-09T22:00:00.000Z",
        chargingSchedulePeriod: [
          { startPeriod: 0, limit: 15_000 },
          { startPeriod: 64_800, limit: 7_500 },
          { startPeriod: 79_200, limit: 15_000 },
        ],
      },
    });
    const each = chargingProfileOf(plan({ purpose: "TxDefaultProfile", repeat: "Weekly" }), 4, "UTC", Date.parse("2025-01-10T12:00:00Z"));
    expect(each.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit).toBe(60_000);
    expect(each.csChargingProfiles.chargingSchedule.duration).toBe(604_800);
  });

  it("applies an Absolute configuration's slots on its first day and the configured limit after it", () => {
    const once = chargingProfileOf(plan({ repeat: "Absolute", validFrom: Date.parse("2025-01-10T08:00:00Z") }), 1, "UTC", 0);
    expect(once.csChargingProfiles.recurrencyKind).toBeUndefined();
    expect(once.csChargingProfiles.validFrom).toBe("2025-01-10T08:00:00.000Z");
    expect(once.csChargingProfiles.chargingSchedule.startSchedule).toBe("2025-01-10T00:00:00.000Z");
    expect(once.csChargingProfiles.chargingSchedule.chargingSchedulePeriod.at(-1)).toEqual({ startPeriod: 79_200, limit: 60_000 });
  });

  it("knows the limit in force now, in the location's zone and within the validity", () => {
    const warsaw = "Europe/Warsaw";
    expect(limitAt(plan(), Date.parse("2025-07-10T17:00:00Z"), warsaw)).toBe(30_000); // 19:00 local
    expect(limitAt(plan(), Date.parse("2025-07-10T21:00:00Z"), warsaw)).toBe(60_000); // 23:00 local
    expect(limitAt(plan({ validTo: Date.parse("2025-07-01T00:00:00Z") }), Date.parse("2025-07-10T17:00:00Z"), warsaw)).toBeNull();
    const weekly = plan({ repeat: "Weekly", validFrom: Date.parse("2025-07-07T00:00:00Z") }); // a Monday in UTC
    expect(limitAt(weekly, Date.parse("2025-07-14T19:00:00Z"), "UTC")).toBe(30_000);
    expect(limitAt(weekly, Date.parse("2025-07-15T19:00:00Z"), "UTC")).toBe(60_000);
    const once = plan({ repeat: "Absolute", validFrom: Date.parse("2025-07-07T00:00:00Z") });
    expect(limitAt(once, Date.parse("2025-07-07T19:00:00Z"), "UTC")).toBe(30_000);
    expect(limitAt(once, Date.parse("2025-07-08T19:00:00Z"), "UTC")).toBe(60_000);
  });

  it("lets the simulator follow the period in force, so its power follows the limit", () => {
    const { csChargingProfiles: profile } = chargingProfileOf(plan(), 1, "UTC", Date.parse("2025-07-10T00:00:00Z"));
    expect(periodAt(profile, Date.parse("2025-07-12T19:00:00Z"))?.limit).toBe(30_000);
    expect(periodAt(profile, Date.parse("2025-07-12T23:00:00Z"))?.limit).toBe(60_000);
    expect(periodAt({ ...profile, validTo: "2025-07-11T00:00:00Z" }, Date.parse("2025-07-12T19:00:00Z"))).toBeUndefined();
  });
});
