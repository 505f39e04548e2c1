import type { Ocpp201Request, Ocpp201Response } from "../../domain/ocpp/v201";

type GetVariableData = Ocpp201Request<"GetVariables">["getVariableData"][number];
type GetVariableResult = Ocpp201Response<"GetVariables">["getVariableResult"][number];
type SetVariableData = Ocpp201Request<"SetVariables">["setVariableData"][number];
type SetVariableResult = Ocpp201Response<"SetVariables">["setVariableResult"][number];
type ReportData = NonNullable<Ocpp201Request<"NotifyReport">["reportData"]>[number];
type ReportBase = Ocpp201Request<"GetBaseReport">["reportBase"];

export type Component = GetVariableData["component"];
export type Variable = GetVariableData["variable"];
type Mutability = "ReadOnly" | "WriteOnly" | "ReadWrite";
type DataType = "string" | "decimal" | "integer" | "dateTime" | "boolean" | "OptionList" | "SequenceList" | "MemberList";

/** One variable of the device model (OCPP 2.0.1 Part 1, the device model), with its Actual attribute only. */
export interface DeviceVariable {
  component: Component;
  variable: Variable;
  mutability: Mutability;
  dataType: DataType;
  /** The stored value; a ReadOnly variable that follows the station's state has `read` instead. */
  value?: string;
  read?: () => string;
  unit?: string;
  /** For numbers the range, for strings the length (Part 2, VariableCharacteristicsType). */
  minLimit?: number;
  maxLimit?: number;
  /** The allowed values of an OptionList, MemberList or SequenceList, comma separated. */
  valuesList?: string;
}

const componentKey = (c: Component) => [c.name, c.instance ?? "", c.evse?.id ?? "", c.evse?.connectorId ?? ""].join("|").toLowerCase();
const variableKey = (c: Component, v: Variable) => `${componentKey(c)}/${v.name}|${v.instance ?? ""}`.toLowerCase();

/** Why a SetVariables value is refused, or undefined when it fits the variable's characteristics. */
function refusal(entry: DeviceVariable, value: string): string | undefined {
  const { dataType, minLimit, maxLimit } = entry;
  const allowed = (entry.valuesList ?? "").split(",").map((x) => x.trim());
  switch (dataType) {
    case "integer":
    case "decimal": {
      const ok = dataType === "integer" ? /^-?\d+$/.test(value) : value.trim() !== "" && Number.isFinite(Number(value));
      if (!ok) return "ValueNotNumber";
      const n = Number(value);
      return (minLimit !== undefined && n < minLimit) || (maxLimit !== undefined && n > maxLimit) ? "ValueOutOfRange" : undefined;
    }
    case "boolean":
      return /^(true|false)$/i.test(value) ? undefined : "ValueNotBoolean";
    case "dateTime":
      return Number.isNaN(Date.parse(value)) ? "ValueNotDateTime" : undefined;
    case "OptionList":
      return allowed.includes(value) ? undefined : "ValueNotInList";
    case "MemberList":
    case "SequenceList":
      return value === "" || value.split(",").every((x) => allowed.includes(x.trim())) ? undefined : "ValueNotInList";
    case "string":
      return (minLimit !== undefined && value.length < minLimit) || (maxLimit !== undefined && value.length > maxLimit) ? "ValueTooLong" : undefined;
  }
}

/**
 * A Charging Station's device model as GetVariables, SetVariables and GetBaseReport see it
 * (OCPP 2.0.1 Part 2 B05–B07): components and variables with one Actual attribute each. Only
 * Actual is supported (other attribute types are NotSupportedAttributeType); a WriteOnly variable
 * is never read back (GetVariables Rejected, no value in a report); a ReadOnly one is never set.
 */
export class DeviceModel {
  private readonly entries = new Map<string, DeviceVariable>();
  private readonly components = new Set<string>();

  constructor(
    variables: readonly DeviceVariable[],
    /** A variable was set; called after its value is stored. */
    private readonly onChange: (entry: DeviceVariable, value: string) => void = () => {},
  ) {
    for (const v of variables) {
      this.entries.set(variableKey(v.component, v.variable), v);
      this.components.add(componentKey(v.component));
    }
  }

  /** The Actual value of a variable, WriteOnly ones included (the station itself knows them). */
  value(component: Component, variable: Variable): string | undefined {
    const entry = this.entries.get(variableKey(component, variable));
    return entry && (entry.read ? entry.read() : entry.value);
  }

  flag(component: Component, variable: Variable): boolean {
    return this.value(component, variable)?.toLowerCase() === "true";
  }

  number(component: Component, variable: Variable): number {
    return Number(this.value(component, variable));
  }

  private unknown(component: Component): "UnknownComponent" | "UnknownVariable" {
    return this.components.has(componentKey(component)) ? "UnknownVariable" : "UnknownComponent";
  }

  /** B06 GetVariables: one result per request, in the same order. */
  get(request: readonly GetVariableData[]): GetVariableResult[] {
    return request.map(({ component, variable, attributeType }) => {
      const echo = { component, variable, ...(attributeType ? { attributeType } : {}) };
      const entry = this.entries.get(variableKey(component, variable));
      if (!entry) return { ...echo, attributeStatus: this.unknown(component) };
      if (attributeType && attributeType !== "Actual") return { ...echo, attributeStatus: "NotSupportedAttributeType" };
      if (entry.mutability === "WriteOnly") return { ...echo, attributeStatus: "Rejected", attributeStatusInfo: { reasonCode: "WriteOnly" } };
      return { ...echo, attributeStatus: "Accepted", attributeValue: entry.read ? entry.read() : (entry.value ?? "") };
    });
  }

  /** B05 SetVariables: each value checked against its variable's characteristics before it is stored. */
  set(request: readonly SetVariableData[]): SetVariableResult[] {
    return request.map(({ component, variable, attributeType, attributeValue }) => {
      const echo = { component, variable, ...(attributeType ? { attributeType } : {}) };
      const entry = this.entries.get(variableKey(component, variable));
      if (!entry) return { ...echo, attributeStatus: this.unknown(component) };
      if (attributeType && attributeType !== "Actual") return { ...echo, attributeStatus: "NotSupportedAttributeType" };
      if (entry.mutability === "ReadOnly") return { ...echo, attributeStatus: "Rejected", attributeStatusInfo: { reasonCode: "ReadOnly" } };
      const why = refusal(entry, attributeValue);
      if (why) return { ...echo, attributeStatus: "Rejected", attributeStatusInfo: { reasonCode: why } };
      entry.value = entry.dataType === "boolean" ? attributeValue.toLowerCase() : attributeValue;
      this.onChange(entry, entry.value);
      return { ...echo, attributeStatus: "Accepted" };
    });
  }

  /**
   * B07 GetBaseReport: FullInventory is every variable, ConfigurationInventory the ones the CSMS
   * may set, SummaryInventory the state of the station, its EVSEs and connectors
   * (AvailabilityState). Answers undefined when the base is not one of these.
   */
  report(base: ReportBase): ReportData[] {
    const chosen = [...this.entries.values()].filter((e) =>
      base === "FullInventory" ? true : base === "ConfigurationInventory" ? e.mutability !== "ReadOnly" : e.variable.name === "AvailabilityState",
    );
    return chosen.map((e) => {
      const value = e.mutability === "WriteOnly" ? undefined : e.read ? e.read() : e.value;
      return {
        component: e.component,
        variable: e.variable,
        variableAttribute: [
          { type: "Actual", mutability: e.mutability, persistent: !e.read, constant: false, ...(value === undefined ? {} : { value }) },
        ],
        variableCharacteristics: {
          dataType: e.dataType,
          supportsMonitoring: false,
          ...(e.unit ? { unit: e.unit } : {}),
          ...(e.minLimit !== undefined ? { minLimit: e.minLimit } : {}),
          ...(e.maxLimit !== undefined ? { maxLimit: e.maxLimit } : {}),
          ...(e.valuesList ? { valuesList: e.valuesList } : {}),
        },
      };
    });
  }
}
