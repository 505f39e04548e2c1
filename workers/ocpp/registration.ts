import { inService } from "../../domain/operator-validity";
import { chargerKeyMatches } from "../auth/charger-key";
import type { ChargerStore } from "./store";
import type { ChargerLimits } from "../../domain/ocpp/resilience";

/**
 * What a charger's Durable Object keeps of its registration in its own storage, so that a
 * connect and a boot need no D1 read: the key's hash, whether the point is enabled and the
 * operator's OCPP settings. It is filled from D1 on a miss and dropped or updated by the verbs
 * that change any of it, before they answer, so that what decides an answer stays exact
 * (docs/decisions/0016-charger-registration-kept-by-the-charger.md).
 */
export interface Registration {
  pointId: number;
  operatorId: number;
  keyHash: string | null;
  enabled: boolean;
  /** The operator's status and validity: outside them its chargers are Rejected at boot (docs/rules/platform.md "Validity"). */
  operatorValidity?: { status: "VALID" | "INVALID"; validFrom: number | null; validUntil: number | null };
  heartbeatIntervalS: number;
  disabledPointBoot: "Pending" | "Rejected";
  /**
   * The OCPP versions the point admits (docs/rules/ocpp.md "Two protocols"); absent in a
   * registration kept from before 2.0.1: AUTO.
   */
  ocppVersion?: "AUTO" | "OCPP16" | "OCPP201";
  /** The hub shard its live events go to (workers/live/shards.ts); absent in a registration kept from before: 0. */
  liveShard?: number;
  /**
   * The operator's limits for its chargers (docs/rules/ocpp.md "A charger that floods"); absent in
   * a registration kept from before: the defaults. Updated in place when the operator changes them.
   */
  limits?: ChargerLimits;
  /** Each connector's power in W, by connector number (the meter-jump review); absent: not checked. */
  connectorPowerW?: Record<string, number>;
}

const KEY = "registration";

/** Whether the registration's operator is in service at `now` (a registration kept from before validity existed is). */
export function operatorInService(registration: Registration, now: number): boolean {
  const v = registration.operatorValidity;
  if (!v) return true;
  return inService({ status: v.status, validFrom: v.validFrom === null ? null : new Date(v.validFrom), validUntil: v.validUntil === null ? null : new Date(v.validUntil) }, now);
}

export class RegistrationCache {
  private value: Registration | null | undefined;

  constructor(private readonly store: ChargerStore) {}

  get(): Registration | undefined {
    if (this.value === undefined) this.value = this.store.get<Registration>(KEY) ?? null;
    return this.value ?? undefined;
  }

  set(registration: Registration) {
    this.value = registration;
    this.store.put(KEY, registration);
  }

  forget() {
    this.value = null;
    this.store.put(KEY, null);
  }

  /** A rotated key: kept when the registration is, else the next connect reads it from D1. */
  keyChanged(keyHash: string) {
    const current = this.get();
    if (current) this.set({ ...current, keyHash });
  }

  /** The operator changed its charger limits: kept when the registration is, else the next connect reads them from D1. */
  limitsChanged(limits: ChargerLimits) {
    const current = this.get();
    if (current) this.set({ ...current, limits });
  }

  keyMatches(password: string, pepper: string): boolean {
    return chargerKeyMatches(password, this.get()?.keyHash ?? null, pepper);
  }
}
