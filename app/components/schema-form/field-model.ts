/**
 * A form's fields read from a JSON schema (draft 2020-12, as zod's `z.toJSONSchema` writes it),
 * and the way back from what was typed to a payload. Pure, so that it is tested without a browser
 * (docs/rules/console.md "Forms"). The point's Operations tab builds the request forms of the OCPP
 * actions from it (docs/rules/equipment.md "Point pages").
 *
 * What the form keeps while typing (`Draft`): text for every scalar (numbers, enums and date-times
 * included, as inputs give them), a boolean for a required checkbox, a list for an array, a record
 * for an object, and `undefined` for an optional object left out.
 */

export type FieldModel =
  | { kind: "object"; fields: NamedField[] }
  | { kind: "array"; item: FieldModel; minItems?: number; maxItems?: number }
  | { kind: "enum"; options: string[] }
  | { kind: "integer" | "number"; minimum?: number; maximum?: number; multipleOf?: number }
  | { kind: "string"; maxLength?: number; format?: "date-time" | "uri" }
  | { kind: "boolean" }
  /** Any JSON value (a schema that says nothing, such as 2.0.1 DataTransfer's `data`), typed as JSON text. */
  | { kind: "json" };

export interface NamedField {
  name: string;
  required: boolean;
  description?: string;
  model: FieldModel;
}

export type Draft = string | boolean | Draft[] | { [name: string]: Draft | undefined } | undefined;

/** The part of a JSON schema this reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  maxLength?: number;
  format?: string;
  description?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/**
 * zod bounds every integer to the safe-integer range; that says nothing about the field, so the
 * form shows no such bound.
 */
const boundOf = (value: number | undefined) => (value === undefined || Math.abs(value) >= Number.MAX_SAFE_INTEGER ? undefined : value);

/** Resolves a local `#/$defs/Name` reference against the root schema. */
function resolved(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, "");
  const target = root.$defs?.[name];
  return target ? { ...resolved(target, root), description: schema.description ?? target.description } : {};
}

/** The field model of a JSON schema: objects as their fields, arrays as their item, scalars by type. */
export function fieldModelOf(schema: JsonSchema, root: JsonSchema = schema): FieldModel {
  const s = resolved(schema, root);
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) return { kind: "enum", options: s.enum as string[] };
  switch (s.type) {
    case "object": {
      const required = new Set(s.required ?? []);
      const fields = Object.entries(s.properties ?? {}).map(([name, property]) => {
        const field: NamedField = { name, required: required.has(name), model: fieldModelOf(property, root) };
        const description = resolved(property, root).description;
        return description ? { ...field, description } : field;
      });
      return { kind: "object", fields };
    }
    case "array":
      return { kind: "array", item: s.items ? fieldModelOf(s.items, root) : { kind: "json" }, ...defined({ minItems: s.minItems, maxItems: s.maxItems }) };
    case "integer":
    case "number":
      return { kind: s.type, ...defined({ minimum: boundOf(s.minimum), maximum: boundOf(s.maximum), multipleOf: s.multipleOf }) };
    case "string":
      return { kind: "string", ...defined({ maxLength: s.maxLength, format: s.format === "date-time" || s.format === "uri" ? (s.format as "date-time" | "uri") : undefined }) };
    case "boolean":
      return { kind: "boolean" };
    default:
      return { kind: "json" };
  }
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What a new form holds: required objects opened with their fields, optional ones left out;
 * required arrays with as many items as they need at least; required checkboxes unticked.
 */
export function initialDraft(model: FieldModel, required = true): Draft {
  switch (model.kind) {
    case "object":
      if (!required) return undefined;
      return Object.fromEntries(model.fields.map((f) => [f.name, initialDraft(f.model, f.required)]));
    case "array":
      return required ? Array.from({ length: model.minItems ?? 0 }, () => initialDraft(model.item)) : [];
    case "boolean":
      return required ? false : "";
    default:
      return "";
  }
}

/** A field's place in the payload, dotted with array indexes as numbers (`chargingProfile.chargingSchedule.0.id`). */
export type FieldPath = string;

export const pathOf = (parent: FieldPath, name: string | number): FieldPath => (parent === "" ? String(name) : `${parent}.${name}`);

/**
 * A place as the server names it (OCPP payload checks write arrays as `[i]`, domain/ocpp/frames.ts
 * `checkPayload`), as the form names it.
 */
export const formPathOf = (serverPath: string): FieldPath => serverPath.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");

/** Problems found while reading a draft into a payload, by field, as catalogue keys. */
export type DraftErrors = Record<FieldPath, { key: string; params?: Record<string, unknown> }>;

/**
 * The payload a draft stands for. Empty optional fields, optional objects left out and empty
 * optional arrays are not sent; an empty required field is left out too, so that the schema's
 * check names it as missing. Numbers and JSON that cannot be read are reported at their field.
 * `instantOf` turns a `datetime-local` value into an ISO instant (the browser's zone).
 */
export function payloadOf(model: FieldModel, draft: Draft, instantOf: (local: string) => string, required = true, path: FieldPath = ""): { value: unknown; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const read = (m: FieldModel, d: Draft, req: boolean, at: FieldPath): unknown => {
    switch (m.kind) {
      case "object": {
        if (d === undefined || typeof d !== "object" || Array.isArray(d)) return req ? {} : undefined;
        const out: Record<string, unknown> = {};
        for (const field of m.fields) {
          const value = read(field.model, d[field.name], field.required, pathOf(at, field.name));
          if (value !== undefined) out[field.name] = value;
        }
        return out;
      }
      case "array": {
        const items = Array.isArray(d) ? d : [];
        if (items.length === 0 && !req) return undefined;
        return items.map((item, i) => read(m.item, item, true, pathOf(at, i)));
      }
      case "boolean":
        if (typeof d === "boolean") return d;
        return d === "true" ? true : d === "false" ? false : undefined;
      case "integer":
      case "number": {
        const text = typeof d === "string" ? d.trim() : "";
        if (text === "") return undefined;
        const n = Number(text.replace(",", "."));
        if (!Number.isFinite(n)) {
          errors[at] = { key: "schemaForm.check.number" };
          return undefined;
        }
        return n;
      }
      case "string": {
        const text = typeof d === "string" ? d : "";
        if (text === "") return undefined;
        return m.format === "date-time" ? instantOf(text) : text;
      }
      case "enum":
        return typeof d === "string" && d !== "" ? d : undefined;
      case "json": {
        const text = typeof d === "string" ? d.trim() : "";
        if (text === "") return undefined;
        try {
          return JSON.parse(text);
        } catch {
          // Text that is not JSON is sent as a JSON string, as a vendor's data often is.
          return text;
        }
      }
    }
  };
  return { value: read(model, draft, required, path), errors };
}

/** One problem the schema's check found (a zod issue, in the part this reads). */
export interface CheckIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  origin?: string;
  format?: string;
  divisor?: number;
  values?: unknown[];
}

/**
 * The schema's problems by field, as catalogue keys with their parameters: missing, too long, too
 * few or too many items, not one of the choices, not a date-time, a whole number, a multiple… The
 * first problem of a field wins.
 */
export function issuesByField(issues: readonly CheckIssue[]): DraftErrors {
  const out: DraftErrors = {};
  for (const issue of issues) {
    const at = issue.path.map(String).join(".");
    if (out[at]) continue;
    out[at] = messageOf(issue);
  }
  return out;
}

function messageOf(issue: CheckIssue): { key: string; params?: Record<string, unknown> } {
  const limit = (value: number | bigint | undefined) => (value === undefined ? undefined : Number(value));
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return { key: "schemaForm.check.required" };
      return { key: issue.expected === "int" ? "schemaForm.check.integer" : "schemaForm.check.type" };
    case "too_big":
      if (issue.origin === "string") return { key: "schemaForm.check.maxLength", params: { max: limit(issue.maximum) } };
      if (issue.origin === "array") return { key: "schemaForm.check.maxItems", params: { max: limit(issue.maximum) } };
      return { key: "schemaForm.check.maximum", params: { max: limit(issue.maximum) } };
    case "too_small":
      if (issue.origin === "string") return { key: "schemaForm.check.minLength", params: { min: limit(issue.minimum) } };
      if (issue.origin === "array") return { key: "schemaForm.check.minItems", params: { min: limit(issue.minimum) } };
      return { key: "schemaForm.check.minimum", params: { min: limit(issue.minimum) } };
    case "invalid_value":
      return { key: "schemaForm.check.choice" };
    case "invalid_format":
      return { key: issue.format === "datetime" ? "schemaForm.check.dateTime" : "schemaForm.check.format" };
    case "not_multiple_of":
      return { key: "schemaForm.check.multipleOf", params: { step: issue.divisor } };
    case "unrecognized_keys":
      return { key: "schemaForm.check.unknownField" };
    default:
      return { key: "schemaForm.check.invalid" };
  }
}
