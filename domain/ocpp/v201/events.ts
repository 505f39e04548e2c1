/**
 * OCPP 2.0.1 events (Part 2 N07–N08 NotifyEvent) in the charger model's terms: an event that says a
 * component has a problem raises the alarm a 1.6 charger's error code raises, and its clearing
 * closes it (docs/rules/maintenance.md, docs/decisions/0030-fault-codes-and-failures.md). Alarms and
 * work orders bind fault codes by their string, so a problem is named by the 1.6 code that says the
 * same thing; the component, variable, techInfo and techCode go into the alarm's message, as 1.6's
 * info and vendorErrorCode do.
 */
import type { EventDataType } from "./schemas";

/** A problem an event raises or clears on one of the product's connector numbers (a 2.0.1 EVSE id; 0 is the station). */
export interface ProblemEvent {
  connectorId: number;
  /** The fault code of the catalogue (OCPP 1.6 §7.6) the alarm is raised under. */
  faultCode: string;
  raised: boolean;
  /** Which component and variable, so that a repeat or a clearing finds the same problem. */
  source: string;
  message: string;
}

/**
 * The boolean variables of Part 2's standardized components that report a problem ("true" while
 * it lasts), with the 1.6 code of each; `Problem` names its code by the component that has it.
 */
const PROBLEM_VARIABLES: Record<string, (component: string) => string> = {
  Problem: (component) => PROBLEM_OF_COMPONENT[component] ?? "OtherError",
  Tripped: (component) => (component === "RCD" ? "GroundFailure" : "OverCurrentFailure"),
  Overload: () => "OverCurrentFailure",
  Overheating: () => "HighTemperature",
  Fallback: () => "OtherError",
};

/** A `Problem` of these components is the 1.6 code for that part; any other component's is OtherError. */
const PROBLEM_OF_COMPONENT: Record<string, string> = {
  ConnectorPlugRetentionLock: "ConnectorLockFailure",
  PowerContactor: "PowerSwitchFailure",
  TokenReader: "ReaderFailure",
  FiscalMetering: "PowerMeterFailure",
  Controller: "InternalError",
};

/** Triggers that report a change (N07 Alerting, a Delta monitor); Periodic readings change nothing. */
const CHANGES: ReadonlySet<EventDataType["trigger"]> = new Set(["Alerting", "Delta"]);

/**
 * The problem an event raises or clears, or undefined when it is not one (kept as a point event):
 * a change of a problem variable whose value is "true" raises; `cleared` or "false" clears. The
 * place is the component's EVSE, or the station (0) when it names none.
 */
export function problemOf(event: EventDataType): ProblemEvent | undefined {
  if (!CHANGES.has(event.trigger)) return undefined;
  const codeOf = Object.hasOwn(PROBLEM_VARIABLES, event.variable.name) ? PROBLEM_VARIABLES[event.variable.name] : undefined;
  if (!codeOf) return undefined;
  const value = event.actualValue.trim().toLowerCase();
  const raised = event.cleared !== true && value === "true";
  if (!raised && event.cleared !== true && value !== "false") return undefined;
  const { component, variable } = event;
  const name = (n: string, instance?: string) => (instance ? `${n}[${instance}]` : n);
  const source = `${name(component.name, component.instance)}.${name(variable.name, variable.instance)}`;
  return {
    connectorId: component.evse?.id ?? 0,
    faultCode: codeOf(component.name),
    raised,
    source,
    message: [source, event.techInfo, event.techCode].filter(Boolean).join(" · "),
  };
}
