import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  OCPP_ACTIONS,
  OCPP_REQUESTS,
  OCPP_RESPONSES,
  SECURITY_ACTIONS,
  checkPayload,
  type OcppAction,
  type PayloadViolation,
} from "../../../domain/ocpp";
import { KNOWN_DIVERGENCES, SCHEMA_SAMPLES, type InvalidKind } from "./schema-samples";

const officialBundle = (path: string) => z.array(z.looseObject({ $id: z.string() })).parse(createRequire(import.meta.url)(path));

/**
 * The official OCPP 1.6 JSON schemas, as bundled by ocpp-rpc (ids like `urn:Authorize.req`), and
 * those of the security extension, edition 3, kept in the repository since ocpp-rpc lacks them
 * (ids like `urn:OCPP:Cp:1.6:2020:3:GetLog.req`).
 */
const officialSchemas = [
  ...officialBundle("ocpp-rpc/lib/schemas/ocpp1_6.json"),
  ...officialBundle("../../../domain/ocpp/security-schemas/ocpp1_6-security.json"),
];
const inExtension: ReadonlySet<string> = new Set(SECURITY_ACTIONS);

/**
 * ajv set up as ocpp-rpc's createValidator sets it up (the client of the peer tests, in strict
 * mode): plain ajv fails `multipleOf: 0.1` on 16.3 because 16.3 / 0.1 is 162.99999999999997, so
 * ocpp-rpc swaps the keyword for one with a 1e-6 tolerance.
 */
const ajv = new Ajv({ strictSchema: false });
addFormats(ajv);
// The extension's schemas name draft-06, which ajv 8 knows but does not load by default.
ajv.addMetaSchema(createRequire(import.meta.url)("ajv/dist/refs/json-schema-draft-06.json"));
ajv.addSchema(officialSchemas);
ajv.removeKeyword("multipleOf");
ajv.addKeyword({
  keyword: "multipleOf",
  type: "number",
  errors: false,
  metaSchema: { type: "number" },
  compile: (divisor: number) => (data: number) => {
    const quotient = data / divisor;
    return Math.abs(Math.round(quotient) - quotient) < 1e-6;
  },
});

type Side = "request" | "response";
const SIDES: readonly Side[] = ["request", "response"];
const schemaId = (action: OcppAction, side: Side) =>
  `urn:${inExtension.has(action) ? "OCPP:Cp:1.6:2020:3:" : ""}${action}.${side === "request" ? "req" : "conf"}`;
const ours = (action: OcppAction, side: Side): z.ZodType => (side === "request" ? OCPP_REQUESTS : OCPP_RESPONSES)[action];

function official(action: OcppAction, side: Side): ValidateFunction {
  const validate = ajv.getSchema(schemaId(action, side));
  if (!validate) throw new Error(`no official schema ${schemaId(action, side)}`);
  return validate;
}

/** The official schema with its `#/definitions/…` references put in place (the extension's schemas use them). */
function officialJson(action: OcppAction, side: Side): Record<string, unknown> {
  const schema = officialSchemas.find((s) => s.$id === schemaId(action, side));
  if (!schema) throw new Error(`no official schema ${schemaId(action, side)}`);
  const { definitions, ...rest } = schema;
  return inlined(rest, isNode(definitions) ? definitions : {}) as Record<string, unknown>;
}

type JsonNode = Record<string, unknown>;
const isNode = (value: unknown): value is JsonNode => typeof value === "object" && value !== null && !Array.isArray(value);

function inlined(node: unknown, definitions: JsonNode): unknown {
  if (Array.isArray(node)) return node.map((item) => inlined(item, definitions));
  if (!isNode(node)) return node;
  if (typeof node.$ref === "string") return inlined(definitions[node.$ref.replace("#/definitions/", "")], definitions);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(value, definitions)]));
}

/** Every JSON-schema node below (and including) `node`. */
function nodesOf(node: unknown): JsonNode[] {
  if (!isNode(node)) return [];
  const properties = isNode(node.properties) ? Object.values(node.properties) : [];
  return [node, ...properties.flatMap(nodesOf), ...nodesOf(node.items)];
}

/** Property paths the schema defines that no sample value reaches: the "full" sample must reach all. */
function unreached(node: unknown, values: readonly unknown[], path: string): string[] {
  if (!isNode(node)) return [];
  if (node.type === "array") {
    return unreached(node.items, values.flatMap((v) => (Array.isArray(v) ? v : [])), `${path}[]`);
  }
  if (!isNode(node.properties)) return [];
  return Object.entries(node.properties).flatMap(([key, child]) => {
    const here = values.filter(isNode).filter((v) => key in v).map((v) => v[key]);
    const childPath = path ? `${path}.${key}` : key;
    return here.length === 0 ? [childPath] : unreached(child, here, childPath);
  });
}

/** Arrays that OCPP 1.6's message tables give as `1..*`, a bound the shipped JSON schemas leave out. */
const AT_LEAST_ONE = new Set(["meterValue", "sampledValue", "chargingSchedulePeriod"]);

/**
 * The official schema as 1.6 reads with its errata applied: the `1..*` lists get `minItems: 1`, and
 * the unit enum gets "Hertz" (errata v4.0). Divergences beyond these fail the shape test.
 */
function withErrata(node: unknown, name = ""): unknown {
  if (!isNode(node)) return node;
  const out: JsonNode = { ...node };
  if (isNode(node.properties)) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([key, child]) => [key, withErrata(child, key)]));
  }
  if (node.items !== undefined) out.items = withErrata(node.items);
  if (node.type === "array" && AT_LEAST_ONE.has(name)) out.minItems = 1;
  if (name === "unit" && Array.isArray(node.enum)) out.enum = [...node.enum, "Hertz"];
  return out;
}

/**
 * The validation-relevant shape of a JSON schema: types, properties, required, enums, lengths,
 * formats, multipleOf, additionalProperties. Patterns (zod's own rendering of date-time and URI)
 * and zod's safe-integer bounds are left out; they are covered by the divergence table.
 */
function shape(node: unknown): unknown {
  if (!isNode(node)) return node;
  const { type, properties, required, additionalProperties, items, ...rest } = node;
  const kept: JsonNode = { type };
  if (type === "object") {
    kept.properties = Object.fromEntries(Object.entries(isNode(properties) ? properties : {}).map(([k, v]) => [k, shape(v)]));
    kept.required = Array.isArray(required) ? [...required].sort() : [];
    kept.additionalProperties = additionalProperties ?? true;
  }
  if (type === "array") kept.items = shape(items);
  for (const key of ["enum", "maxLength", "minLength", "format", "multipleOf", "minItems", "maxItems"]) {
    if (key in rest) kept[key] = rest[key];
  }
  const safe = Number.MAX_SAFE_INTEGER;
  if ("minimum" in rest && !(type === "integer" && rest.minimum === -safe)) kept.minimum = rest.minimum;
  if ("maximum" in rest && !(type === "integer" && rest.maximum === safe)) kept.maximum = rest.maximum;
  return kept;
}

const EXPECTED_CODE: Record<InvalidKind, PayloadViolation> = {
  notObject: "FormationViolation",
  missing: "OccurenceConstraintViolation",
  wrongType: "TypeConstraintViolation",
  badEnum: "PropertyConstraintViolation",
  tooLong: "PropertyConstraintViolation",
  badDateTime: "PropertyConstraintViolation",
  badUri: "PropertyConstraintViolation",
  notMultipleOf: "PropertyConstraintViolation",
  extra: "PropertyConstraintViolation",
};

describe("the zod schemas against the official OCPP 1.6 JSON schemas", () => {
  it("cover the 28 actions and the security extension's 11, each with a request and a response schema", () => {
    expect(OCPP_ACTIONS).toHaveLength(39);
    expect(Object.keys(OCPP_REQUESTS).sort()).toEqual([...OCPP_ACTIONS].sort());
    expect(Object.keys(OCPP_RESPONSES).sort()).toEqual([...OCPP_ACTIONS].sort());
    for (const action of OCPP_ACTIONS) for (const side of SIDES) expect(official(action, side)).toBeTypeOf("function");
  });

  describe.each(OCPP_ACTIONS.flatMap((action) => SIDES.map((side) => [schemaId(action, side), action, side] as const)))(
    "%s",
    (_id, action, side) => {
      const table = SCHEMA_SAMPLES[action][side];
      const json = officialJson(action, side);

      it("has the same shape as the official schema", () => {
        // A composite schedule's empty period list means no limit: that answer keeps the official bound.
        const read = action === "GetCompositeSchedule" && side === "response" ? json : withErrata(json);
        expect(shape(z.toJSONSchema(ours(action, side), { target: "draft-07" }))).toEqual(shape(read));
      });

      it("has a sample table with every kind of case the schema calls for", () => {
        const nodes = nodesOf(json);
        const labels = table.valid.map(([label]) => label);
        const kinds = new Set(table.invalid.map(([kind]) => kind));
        expect(labels).toEqual(expect.arrayContaining(["minimal", "full"]));
        expect(kinds).toContain("notObject");
        expect(kinds).toContain("extra");
        const needs: Array<[InvalidKind, boolean]> = [
          ["missing", Array.isArray(json.required) && json.required.length > 0],
          ["wrongType", isNode(json.properties) && Object.keys(json.properties).length > 0],
          ["badEnum", nodes.some((n) => "enum" in n)],
          ["tooLong", nodes.some((n) => "maxLength" in n)],
          ["badDateTime", nodes.some((n) => n.format === "date-time")],
          ["badUri", nodes.some((n) => n.format === "uri")],
          ["notMultipleOf", nodes.some((n) => "multipleOf" in n)],
        ];
        for (const [kind, needed] of needs) if (needed) expect(kinds, kind).toContain(kind);
        const full = table.valid.find(([label]) => label === "full")?.[1];
        expect(unreached(json, [full], "")).toEqual([]);
      });

      it.each(table.valid)("accepts %s, as the official schema does", (_label, payload) => {
        const validate = official(action, side);
        expect(validate(payload), ajv.errorsText(validate.errors)).toBe(true);
        const result = ours(action, side).safeParse(payload);
        expect(result.error?.issues ?? []).toEqual([]);
      });

      it.each(table.invalid.map(([kind, payload], i) => [kind, i, payload] as const))(
        "rejects %s (#%i) as the official schema does, with the matching 1.6 error code",
        (kind, _i, payload) => {
          expect(official(action, side)(payload)).toBe(false);
          const checked = checkPayload(ours(action, side), payload);
          expect(checked.ok).toBe(false);
          if (checked.ok) return;
          expect(checked.code).toBe(EXPECTED_CODE[kind]);
          expect(checked.details).toEqual(expect.objectContaining({ path: expect.any(String), issue: expect.any(String) }));
        },
      );
    },
  );
});

describe("known divergences from the official schemas under ajv", () => {
  it.each(KNOWN_DIVERGENCES)("$why", ({ action, side, payload, ajv: ajvAccepts, zod: zodAccepts }) => {
    expect(official(action, side)(payload)).toBe(ajvAccepts);
    expect(ours(action, side).safeParse(payload).success).toBe(zodAccepts);
  });
});

describe("date-time fields", () => {
  it.each(["2026-11-21T10:00:00Z", "2026-11-21T10:00:00+02:00", "2026-11-21T10:00:00.5-05:30", "2026-11-21T10:00:00.123456789Z"])(
    "accept the RFC 3339 form %s",
    (currentTime) => {
      expect(OCPP_RESPONSES.Heartbeat.safeParse({ currentTime }).success).toBe(true);
    },
  );

  it.each([
    ["2026-11-21t10:00:00z", "2026-11-21T10:00:00Z"],
    ["2026-11-21t12:00:00.5+02:00", "2026-11-21T12:00:00.5+02:00"],
  ])("accept %s, with lower-case t or z (RFC 3339 §5.6), and give it upper-cased", (timestamp, read) => {
    const checked = checkPayload(OCPP_REQUESTS.StartTransaction, { connectorId: 1, idTag: "A", meterStart: 0, timestamp });
    expect(checked).toEqual({ ok: true, value: { connectorId: 1, idTag: "A", meterStart: 0, timestamp: read } });
    expect(Date.parse(checked.ok ? checked.value.timestamp : "")).toBe(Date.parse(read));
  });
});

describe("1..* lists", () => {
  it.each([
    ["MeterValues", { connectorId: 1, meterValue: [] }, "meterValue"],
    ["MeterValues", { connectorId: 1, meterValue: [{ timestamp: "2026-11-21T10:00:00Z", sampledValue: [] }] }, "meterValue[0].sampledValue"],
  ] as const)("refuse an empty list in %s with OccurenceConstraintViolation", (action, payload, path) => {
    const checked = checkPayload(OCPP_REQUESTS[action], payload);
    expect(checked).toMatchObject({ ok: false, code: "OccurenceConstraintViolation", details: { path, issue: "too_small" } });
  });
});
