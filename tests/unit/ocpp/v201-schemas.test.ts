import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OCPP201_DIALECT, checkPayload, type Ocpp201PayloadViolation } from "../../../domain/ocpp";
import {
  OCPP201_ACTIONS,
  OCPP201_REQUESTS,
  OCPP201_RESPONSES,
  checkRequest201,
  type Ocpp201Action,
} from "../../../domain/ocpp/v201";
import { SOURCE, TARGET, generate } from "../../../scripts/ocpp201-schemas";

/** The official OCPP 2.0.1 JSON schemas, as bundled by ocpp-rpc (ids like `urn:Authorize.req`). */
const officialFiles: unknown = createRequire(import.meta.url)(SOURCE);
const officialSchemas = z.array(z.looseObject({ $id: z.string() })).parse(officialFiles);

/** ajv as ocpp-rpc's strict-mode validator sets it up (draft-07, ajv-formats for date-time). */
const ajv = new Ajv({ strictSchema: false });
addFormats(ajv);
ajv.addSchema(officialSchemas);

type Side = "request" | "response";
const SIDES: readonly Side[] = ["request", "response"];
const schemaId = (action: Ocpp201Action, side: Side) => `urn:${action}.${side === "request" ? "req" : "conf"}`;
const ours = (action: Ocpp201Action, side: Side): z.ZodType => (side === "request" ? OCPP201_REQUESTS : OCPP201_RESPONSES)[action];

function official(action: Ocpp201Action, side: Side): ValidateFunction {
  const validate = ajv.getSchema(schemaId(action, side));
  if (!validate) throw new Error(`no official schema ${schemaId(action, side)}`);
  return validate;
}

type JsonNode = Record<string, any>;
type Path = readonly (string | number)[];

function officialJson(action: Ocpp201Action, side: Side): JsonNode {
  const schema = officialSchemas.find((s) => s.$id === schemaId(action, side));
  if (!schema) throw new Error(`no official schema ${schemaId(action, side)}`);
  return schema;
}

/** A node with its `$ref` followed into the file's own definitions. */
function resolve(file: JsonNode, node: JsonNode): JsonNode {
  return typeof node.$ref === "string" ? file.definitions[node.$ref.replace("#/definitions/", "")] : node;
}

const DATE_TIME = "2026-11-21T10:00:00Z";

/**
 * A payload the schema takes, built from the schema: "minimal" has only the required fields,
 * "full" every field, with one item per list (more when minItems says so).
 */
function sample(file: JsonNode, raw: JsonNode, full: boolean): unknown {
  const node = resolve(file, raw);
  if (node.enum) return node.enum[0];
  switch (node.type) {
    case undefined:
      return { any: ["JSON", 1] };
    case "boolean":
      return true;
    case "string":
      return node.format === "date-time" ? DATE_TIME : "A";
    case "integer":
      return node.minimum ?? node.maximum ?? 1;
    case "number":
      return (node.minimum ?? 0) + 0.5;
    case "array":
      return Array.from({ length: Math.max(node.minItems ?? 0, full ? 1 : 0) }, () => sample(file, node.items, full));
    case "object":
      return Object.fromEntries(
        Object.entries(node.properties ?? {})
          .filter(([key]) => full || (node.required ?? []).includes(key))
          .map(([key, child]) => [key, sample(file, child as JsonNode, full)]),
      );
  }
  throw new Error(`no sample for ${JSON.stringify(node)}`);
}

type InvalidKind = "missing" | "extra" | "wrongType" | "notInteger" | "badEnum" | "tooLong" | "badDateTime" | "outOfRange" | "tooFew" | "tooMany";

const EXPECTED_CODE: Record<InvalidKind, Ocpp201PayloadViolation> = {
  missing: "OccurrenceConstraintViolation",
  tooFew: "OccurrenceConstraintViolation",
  tooMany: "OccurrenceConstraintViolation",
  wrongType: "TypeConstraintViolation",
  notInteger: "TypeConstraintViolation",
  extra: "PropertyConstraintViolation",
  badEnum: "PropertyConstraintViolation",
  tooLong: "PropertyConstraintViolation",
  badDateTime: "PropertyConstraintViolation",
  outOfRange: "PropertyConstraintViolation",
};

interface Mutation {
  kind: InvalidKind;
  path: string;
  payload: unknown;
}

function withValue(payload: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  if (Array.isArray(payload)) return payload.map((item, i) => (i === key ? withValue(item, rest, value) : item));
  return { ...(payload as JsonNode), [key]: withValue((payload as JsonNode)[key], rest, value) };
}

function without(payload: unknown, path: Path, key: string): unknown {
  if (path.length === 0) {
    const { [key]: _gone, ...rest } = payload as JsonNode;
    return rest;
  }
  const [head, ...tail] = path;
  if (Array.isArray(payload)) return payload.map((item, i) => (i === head ? without(item, tail, key) : item));
  return { ...(payload as JsonNode), [head]: without((payload as JsonNode)[head], tail, key) };
}

/**
 * Every invalid payload derived from the full sample: at each node of it, each rule the schema
 * states there broken once (a required field dropped, an unknown field added to a strict object,
 * a value of the wrong JSON type, an enum value, length, date-time, range or list bound broken).
 */
function mutations(file: JsonNode, full: unknown): Mutation[] {
  const found: Mutation[] = [];
  const at = (kind: InvalidKind, path: Path, value: unknown) =>
    found.push({ kind, path: path.join("."), payload: withValue(full, path, value) });
  const walk = (raw: JsonNode, value: unknown, path: Path) => {
    const node = resolve(file, raw);
    if (node.type === undefined) return;
    if (path.length > 0) at("wrongType", path, node.type === "string" ? 1 : node.type === "boolean" ? "true" : "x");
    if (node.enum) at("badEnum", path, "NotInTheEnum");
    if (node.maxLength !== undefined) at("tooLong", path, "x".repeat(node.maxLength + 1));
    if (node.format === "date-time") {
      at("badDateTime", path, "21.11.2026 10:00");
      at("badDateTime", path, "2026-11-21T25:00:00Z");
    }
    if (node.type === "integer") at("notInteger", path, 1.5);
    if (node.minimum !== undefined) at("outOfRange", path, node.minimum - 1);
    if (node.maximum !== undefined) at("outOfRange", path, node.maximum + 1);
    if (node.type === "array" && Array.isArray(value)) {
      if (node.minItems !== undefined) at("tooFew", path, value.slice(0, node.minItems - 1));
      if (node.maxItems !== undefined) at("tooMany", path, Array.from({ length: node.maxItems + 1 }, () => value[0]));
      value.forEach((item, i) => walk(node.items, item, [...path, i]));
    }
    if (node.type === "object" && typeof value === "object" && value !== null) {
      const record = value as JsonNode;
      for (const key of node.required ?? []) {
        found.push({ kind: "missing", path: [...path, key].join("."), payload: without(full, path, key) });
      }
      if (node.additionalProperties === false) at("extra", [...path, "unexpected"], "x");
      for (const [key, child] of Object.entries(node.properties ?? {})) walk(child as JsonNode, record[key], [...path, key]);
    }
  };
  walk(file, full, []);
  return found;
}

const MESSAGES = OCPP201_ACTIONS.flatMap((action) => SIDES.map((side) => [schemaId(action, side), action, side] as const));

describe("the generated file", () => {
  it("is what scripts/ocpp201-schemas.ts writes from the official schemas now (run `npm run ocpp:schemas`)", () => {
    const committed = readFileSync(new URL(`../../../${TARGET}`, import.meta.url), "utf8");
    expect(generate(officialFiles)).toBe(committed);
  });

  it("covers the 64 actions, each with a request and a response schema, and nothing else", () => {
    expect(Object.keys(OCPP201_REQUESTS).sort()).toEqual([...OCPP201_ACTIONS].sort());
    expect(Object.keys(OCPP201_RESPONSES).sort()).toEqual([...OCPP201_ACTIONS].sort());
    expect(officialSchemas.map((s) => s.$id).sort()).toEqual(MESSAGES.map(([id]) => id).sort());
  });
});

describe("the generator", () => {
  const files = z.array(z.looseObject({ $id: z.string() })).parse(officialFiles);
  const edited = (edit: (file: JsonNode) => void) =>
    files.map((file) => {
      const copy = structuredClone(file);
      edit(copy);
      return copy;
    });

  it("stops when two files define one name differently", () => {
    const clash = edited((file) => {
      if (file.$id === "urn:Authorize.req") file.definitions.IdTokenEnumType.enum.push("Sticker");
    });
    expect(() => generate(clash)).toThrow(/IdTokenEnumType is defined differently/);
  });

  it("stops on a keyword it does not translate, rather than accept too much", () => {
    const patterned = edited((file) => {
      if (file.$id === "urn:Heartbeat.req") file.properties.customData = { type: "string", pattern: "^x$" };
    });
    expect(() => generate(patterned)).toThrow();
  });

  it("stops on a recursive definition", () => {
    const recursive = edited((file) => {
      const info = file.definitions?.AdditionalInfoType;
      if (info) info.properties.token = { $ref: "#/definitions/IdTokenType" };
    });
    expect(() => generate(recursive)).toThrow(/recursive definition/);
  });
});

describe.each(MESSAGES)("%s against the official schema", (_id, action, side) => {
  const file = officialJson(action, side);
  const minimal = sample(file, file, false);
  const full = sample(file, file, true);

  it.each([
    ["minimal", minimal],
    ["full", full],
  ])("accepts the %s sample, as the official schema does", (_label, payload) => {
    const validate = official(action, side);
    expect(validate(payload), ajv.errorsText(validate.errors)).toBe(true);
    expect(ours(action, side).safeParse(payload).error?.issues ?? []).toEqual([]);
  });

  it("accepts vendor fields in customData, as the official schema does", () => {
    const payload = { ...(minimal as JsonNode), customData: { vendorId: "com.plugdesk", anything: { at: 1 } } };
    expect(official(action, side)(payload)).toBe(true);
    expect(ours(action, side).safeParse(payload).success).toBe(true);
  });

  it("rejects every broken rule the official schema rejects, with the 2.0.1 code for it", () => {
    const cases = mutations(file, full);
    expect(cases.map((c) => c.kind)).toContain("extra");
    for (const { kind, path, payload } of cases) {
      expect(official(action, side)(payload), `${kind} at ${path}: the official schema`).toBe(false);
      const checked = checkPayload(ours(action, side), payload, OCPP201_DIALECT);
      expect(checked.ok ? "accepted" : checked.code, `${kind} at ${path}`).toBe(EXPECTED_CODE[kind]);
    }
  });

  it("rejects a payload that is not an object with FormatViolation", () => {
    for (const payload of [null, [], "{}", 1]) {
      expect(official(action, side)(payload)).toBe(false);
      expect(checkPayload(ours(action, side), payload, OCPP201_DIALECT)).toMatchObject({ ok: false, code: "FormatViolation" });
    }
  });
});

describe("known divergences from the official schemas under ajv", () => {
  it("refuses a date-time without an offset, which RFC 3339 §5.6 requires and ajv-formats lets through", () => {
    const boot = { currentTime: "2026-11-21T10:00:00", interval: 300, status: "Accepted" };
    expect(official("BootNotification", "response")(boot)).toBe(true);
    expect(checkPayload(OCPP201_RESPONSES.BootNotification, boot, OCPP201_DIALECT)).toMatchObject({
      ok: false,
      code: "PropertyConstraintViolation",
      details: { path: "currentTime" },
    });
  });
});

describe("named definitions", () => {
  it("type a TransactionEvent as the charger sends it", () => {
    const checked = checkRequest201("TransactionEvent", {
      eventType: "Started",
      timestamp: "2026-11-21t10:00:00z",
      triggerReason: "Authorized",
      seqNo: 0,
      transactionInfo: { transactionId: "tx-1", chargingState: "Charging" },
      idToken: { idToken: "04A2B3C4", type: "ISO14443" },
      evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp: DATE_TIME, sampledValue: [{ value: 1234.5, measurand: "Energy.Active.Import.Register" }] }],
    });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    // Read upper-cased, as 1.6 reads date-times (RFC 3339 §5.6 allows lower-case t and z).
    expect(checked.value.timestamp).toBe("2026-11-21T10:00:00Z");
    expect(checked.value.transactionInfo.transactionId).toBe("tx-1");
    expect(checked.value.meterValue?.[0].sampledValue[0].value).toBe(1234.5);
  });
});
