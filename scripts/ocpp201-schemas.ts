/**
 * Writes domain/ocpp/v201/schemas.ts, the zod schemas of every OCPP 2.0.1 request and response,
 * from the official JSON schemas (OCPP 2.0.1 Part 2, as bundled in
 * `ocpp-rpc/lib/schemas/ocpp2_0_1.json`). Run with `npm run ocpp:schemas`; the unit test
 * tests/unit/ocpp/v201-schemas.test.ts fails when the committed file differs from what this writes.
 *
 * Every keyword the JSON files use is translated, and any other keyword stops the generator:
 * a schema it cannot read faithfully must not turn into a schema that accepts too much.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";

export const SOURCE = "ocpp-rpc/lib/schemas/ocpp2_0_1.json";
export const TARGET = "domain/ocpp/v201/schemas.ts";

/** The draft-07 keywords the 2.0.1 files use; `strictObject` makes any other one an error. */
interface SchemaNode {
  $ref?: string;
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean;
  items?: SchemaNode;
  additionalItems?: boolean;
  minItems?: number;
  maxItems?: number;
  enum?: string[];
  maxLength?: number;
  minLength?: number;
  format?: "date-time" | "uri";
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  default?: string | number | boolean;
}

const nodeShape = {
  $ref: z.string().regex(/^#\/definitions\/\w+$/).optional(),
  type: z.enum(["object", "array", "string", "integer", "number", "boolean"]).optional(),
  description: z.string().optional(),
  get properties() {
    return z.record(z.string(), SchemaNode).optional();
  },
  required: z.array(z.string()).optional(),
  additionalProperties: z.boolean().optional(),
  get items() {
    return SchemaNode.optional();
  },
  additionalItems: z.boolean().optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  enum: z.array(z.string()).optional(),
  maxLength: z.number().int().optional(),
  minLength: z.number().int().optional(),
  format: z.enum(["date-time", "uri"]).optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  multipleOf: z.number().optional(),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
};

const SchemaNode: z.ZodType<SchemaNode> = z.strictObject(nodeShape);

const MessageSchema = z.strictObject({
  ...nodeShape,
  $id: z.string().regex(/^urn:\w+\.(req|conf)$/),
  $schema: z.literal("http://json-schema.org/draft-07/schema"),
  definitions: z.record(z.string(), SchemaNode).optional(),
});
type MessageSchema = z.output<typeof MessageSchema>;

/** One message's pair: the action and whether it is the request (`.req`) or the response (`.conf`). */
function messageOf($id: string): { action: string; side: "Request" | "Response" } {
  const [, action, suffix] = /^urn:(\w+)\.(req|conf)$/.exec($id) ?? [];
  return { action, side: suffix === "req" ? "Request" : "Response" };
}

/** Messages by action, the request before the response. */
function order($id: string): string {
  const { action, side } = messageOf($id);
  return `${action}.${side === "Request" ? 0 : 1}`;
}

/** Descriptions are not part of what a definition means: two files may word the same type differently. */
function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== "description")
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

/**
 * What the JSDoc of a node says: its description on one line, and its default, which says what a
 * charger assumes when the field is absent (the schema still lets it be absent).
 */
function describe(node: SchemaNode): string {
  const told = node.description !== undefined && /default/i.test(node.description);
  const assumed = node.default === undefined || told ? "" : ` Default ${JSON.stringify(node.default)}.`;
  return oneLine(`${node.description ?? ""}${assumed}`);
}

/**
 * A description on one line, without the closing of a comment. The data-dictionary prefix of
 * many descriptions ("ID_ Token. Status. Authorization_ Status urn:x-oca:ocpp:uid:1:569372") is
 * dropped when a sentence follows it, and the AsciiDoc escapes of angle brackets are read.
 */
function oneLine(text: string): string {
  const flat = text
    .replace(/\s+/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\*\//g, "*\\/")
    .trim();
  const afterUrn = flat.replace(/^.*?urn:x-\S+\s*/, "");
  return afterUrn || flat;
}

function jsDoc(text: string, indent: string): string {
  return text ? `${indent}/** ${text} */\n` : "";
}

function refName(ref: string): string {
  return ref.slice("#/definitions/".length);
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** What the generated file needs from the 1.6 schemas, found while writing expressions. */
interface Needs {
  dateTime: boolean;
  uri: boolean;
}

function expression(node: SchemaNode, where: string, needs: Needs, indent: string): string {
  if (node.$ref !== undefined) {
    if (Object.keys(node).length > 1) throw new Error(`${where}: $ref beside other keywords is not supported`);
    return refName(node.$ref);
  }
  const bounds = (minKey: "min", maxKey: "max", min?: number, max?: number) =>
    `${min === undefined ? "" : `.${minKey}(${min})`}${max === undefined ? "" : `.${maxKey}(${max})`}`;
  switch (node.type) {
    case undefined:
      // No type at all (DataTransfer's `data`): any JSON value is allowed (OCPP 2.0.1 Part 2 P01).
      return "z.unknown()";
    case "boolean":
      return "z.boolean()";
    case "string": {
      if (node.enum) {
        const values = node.enum.map((value) => JSON.stringify(value));
        const flat = `z.enum([${values.join(", ")}])`;
        return flat.length <= 100 ? flat : `z.enum([\n${values.map((value) => `${indent}  ${value},\n`).join("")}${indent}])`;
      }
      if (node.format === "date-time") {
        if (node.maxLength !== undefined || node.minLength !== undefined) throw new Error(`${where}: a bounded date-time`);
        needs.dateTime = true;
        return "dateTime";
      }
      if (node.format === "uri") needs.uri = true;
      const base = node.format === "uri" ? "uri" : "z.string()";
      return `${base}${bounds("min", "max", node.minLength, node.maxLength)}`;
    }
    case "integer":
    case "number": {
      const base = node.type === "integer" ? "z.number().int()" : "z.number()";
      const step = node.multipleOf === undefined ? "" : `.multipleOf(${node.multipleOf})`;
      return `${base}${bounds("min", "max", node.minimum, node.maximum)}${step}`;
    }
    case "array": {
      if (!node.items) throw new Error(`${where}: an array without items`);
      const items = expression(node.items, `${where}[]`, needs, indent);
      return `z.array(${items})${bounds("min", "max", node.minItems, node.maxItems)}`;
    }
    case "object": {
      // A schema says `additionalProperties: false` on every object but CustomDataType, which
      // exists to carry vendor fields (OCPP 2.0.1 Part 2 §1.1 "CustomData").
      const constructor = node.additionalProperties === false ? "z.strictObject" : "z.looseObject";
      const required = new Set(node.required ?? []);
      const properties = Object.entries(node.properties ?? {});
      for (const key of required) {
        if (!properties.some(([name]) => name === key)) throw new Error(`${where}: required ${key} is not a property`);
      }
      if (properties.length === 0) return `${constructor}({})`;
      const inner = `${indent}  `;
      const lines = properties.map(([key, child]) => {
        const value = expression(child, `${where}.${key}`, needs, inner);
        const doc = jsDoc(describe(child), inner);
        return `${doc}${inner}${propertyKey(key)}: ${value}${required.has(key) ? "" : ".optional()"},\n`;
      });
      return `${constructor}({\n${lines.join("")}${indent}})`;
    }
  }
}

interface Definition {
  name: string;
  node: SchemaNode;
  from: string;
}

/** The definitions of every file, once each by name; a name defined two ways stops the generator. */
function collectDefinitions(messages: readonly MessageSchema[]): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  for (const message of messages) {
    for (const [name, node] of Object.entries(message.definitions ?? {})) {
      const known = definitions.get(name);
      if (!known) {
        definitions.set(name, { name, node, from: message.$id });
        continue;
      }
      if (JSON.stringify(withoutDescriptions(known.node)) !== JSON.stringify(withoutDescriptions(node))) {
        throw new Error(`${name} is defined differently in ${known.from} and ${message.$id}`);
      }
    }
  }
  return definitions;
}

function referencesOf(node: SchemaNode): string[] {
  const own = node.$ref === undefined ? [] : [refName(node.$ref)];
  const children = [...Object.values(node.properties ?? {}), ...(node.items ? [node.items] : [])];
  return [...own, ...children.flatMap(referencesOf)];
}

/**
 * Definitions in an order where each comes after those it refers to. The 2.0.1 schemas have no
 * recursive type; should a later edition bring one, it needs `z.lazy` and an explicit type, so the
 * generator stops rather than write a const used before it is defined.
 */
function inDependencyOrder(definitions: Map<string, Definition>): Definition[] {
  const ordered: Definition[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string, path: readonly string[]) => {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`${path.join(" → ")} refers to ${name}, which no file defines`);
    if (state.get(name) === "done") return;
    if (state.get(name) === "visiting") throw new Error(`recursive definition: ${[...path, name].join(" → ")}`);
    state.set(name, "visiting");
    for (const reference of referencesOf(definition.node)) visit(reference, [...path, name]);
    state.set(name, "done");
    ordered.push(definition);
  };
  for (const name of definitions.keys()) visit(name, []);
  return ordered;
}

/** The text of domain/ocpp/v201/schemas.ts for the given official schema files (a JSON array). */
export function generate(jsonSchemas: unknown): string {
  const messages = z
    .array(MessageSchema)
    .parse(jsonSchemas)
    .toSorted((a, b) => order(a.$id).localeCompare(order(b.$id), "en"));
  const definitions = collectDefinitions(messages);
  const needs: Needs = { dateTime: false, uri: false };

  const definitionBlocks = inDependencyOrder(definitions).map(({ name, node }) => {
    const doc = describe(node) || name;
    const value = expression(node, name, needs, "");
    return `${jsDoc(doc, "")}export const ${name} = ${value};\nexport type ${name} = z.output<typeof ${name}>;\n`;
  });

  const actions = new Map<string, { Request?: string; Response?: string }>();
  const messageBlocks = messages.map((message) => {
    const { action, side } = messageOf(message.$id);
    const name = `${action}${side}`;
    if (definitions.has(name)) throw new Error(`${name} is both a message and a definition`);
    actions.set(action, { ...actions.get(action), [side]: name });
    const { $id, $schema: _schema, definitions: _definitions, ...node } = message;
    const value = expression(node, $id, needs, "");
    const doc = oneLine(`${action} ${side.toLowerCase()} (${$id}). ${message.description ?? ""}`);
    return `${jsDoc(doc, "")}export const ${name} = ${value};\n`;
  });

  const table = (side: "Request" | "Response") =>
    [...actions.entries()]
      .map(([action, names]) => {
        const name = names[side];
        if (!name) throw new Error(`${action} has no ${side.toLowerCase()} schema`);
        return `  ${action}: ${name},\n`;
      })
      .join("");

  const imported = [needs.dateTime ? "dateTime" : "", needs.uri ? "uri" : ""].filter(Boolean);
  const header = [
    "/**",
    ` * GENERATED by scripts/ocpp201-schemas.ts from ${SOURCE}`,
    " * (the official OCPP 2.0.1 JSON schemas, Part 2). Do not edit: regenerate with",
    " * `npm run ocpp:schemas`.",
    " *",
    " * Objects are strict (`additionalProperties: false`), but CustomDataType, which carries vendor",
    " * fields; date-times are read as the 1.6 schemas read them (domain/ocpp/schemas.ts `dateTime`).",
    " */",
    'import { z } from "zod";',
    ...(imported.length > 0 ? [`import { ${imported.join(", ")} } from "../schemas";`] : []),
    'import type { Ocpp201Action } from "./actions";',
    "",
  ].join("\n");

  return [
    header,
    ...definitionBlocks,
    ...messageBlocks,
    "/** The request schema of every 2.0.1 action. */",
    `export const OCPP201_REQUESTS = {\n${table("Request")}} as const satisfies Record<Ocpp201Action, z.ZodType>;\n`,
    "/** The response schema of every 2.0.1 action. */",
    `export const OCPP201_RESPONSES = {\n${table("Response")}} as const satisfies Record<Ocpp201Action, z.ZodType>;\n`,
    "export type Ocpp201Request<A extends Ocpp201Action> = z.output<(typeof OCPP201_REQUESTS)[A]>;",
    "export type Ocpp201Response<A extends Ocpp201Action> = z.output<(typeof OCPP201_RESPONSES)[A]>;",
    "",
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const source = createRequire(import.meta.url).resolve(SOURCE);
  const target = fileURLToPath(new URL(`../${TARGET}`, import.meta.url));
  writeFileSync(target, generate(JSON.parse(readFileSync(source, "utf8"))));
  console.log(`Wrote ${TARGET} from ${SOURCE}.`);
}
