/**
 * Security events a charger reports (OCPP 1.6 security extension §4.5 and Appendix 1; OCPP 2.0.1
 * Part 2 A04 and Appendix 1 "Security Events"). The list is open: a charger may name events of
 * its own, which are kept like any other. The events the appendix marks critical (those a charger
 * must push rather than only log) raise an alarm on the point, like a 1.6 fault
 * (docs/rules/ocpp.md "Security extension").
 */

/**
 * The critical events of the appendix (the same seven in both versions), with the alarm level
 * each raises: a tampered casing, exhausted memory and a cleared security log are faults to look
 * at (ERROR); a restart, a clock set or a firmware change are to be checked against what the
 * operator did (WARN).
 */
export const CRITICAL_SECURITY_EVENTS: ReadonlyMap<string, "ERROR" | "WARN"> = new Map([
  ["FirmwareUpdated", "WARN"],
  ["SettingSystemTime", "WARN"],
  ["StartupOfTheDevice", "WARN"],
  ["ResetOrReboot", "WARN"],
  ["SecurityLogWasCleared", "ERROR"],
  ["MemoryExhaustion", "ERROR"],
  ["TamperDetectionActivated", "ERROR"],
]);

/** The alarm level a security event raises, or null when it is only kept. */
export function securityAlarmLevel(type: string): "ERROR" | "WARN" | null {
  return CRITICAL_SECURITY_EVENTS.get(type) ?? null;
}
