/**
 * The readable difference between a log row's old and new data (docs/rules/content.md
 * "Operation log"): both sides flattened to dotted field paths, each field once, with whether it
 * changed. Arrays are compared whole, as one value.
 */
export interface DiffLine {
  field: string;
  before: string | null;
  after: string | null;
  change: "added" | "removed" | "changed" | "same";
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function flatten(value: unknown, prefix: string, out: Map<string, string>) {
  if (isObject(value) && (prefix === "" || Object.keys(value).length > 0)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else if (value !== undefined) {
    out.set(prefix || "value", typeof value === "string" ? value : JSON.stringify(value));
  }
  return out;
}

export function diffLines(before: unknown, after: unknown): DiffLine[] {
  const old = before === null || before === undefined ? new Map<string, string>() : flatten(before, "", new Map());
  const next = after === null || after === undefined ? new Map<string, string>() : flatten(after, "", new Map());
  const fields = [...new Set([...old.keys(), ...next.keys()])];
  return fields.map((field) => {
    const b = old.get(field) ?? null;
    const a = next.get(field) ?? null;
    const change = b === null ? "added" : a === null ? "removed" : a === b ? "same" : "changed";
    return { field, before: b, after: a, change };
  });
}
