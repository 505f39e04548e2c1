/**
 * A D1 database written out as the SQL statements that rebuild it: its tables, their rows, the
 * AUTOINCREMENT counters, then its indexes. The integration project's global setup
 * (`tests/integration/support/seeded-database.ts`) migrates and seeds one database per run and
 * writes it out with `snapshotOf`; every test file's setup (`tests/integration/support/setup.ts`)
 * replays the statements into its own empty D1 with `restore` (docs/testing.md "Integration tests").
 *
 * Only the D1 API is used (`prepare`, `all`, `batch`), so the same code reads the database in Node
 * (through wrangler's platform proxy) and in the Workers runtime.
 */

/** Column values are written by SQLite's own `quote()`, so integers, reals, text and blobs come back as they were. */
const name = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** D1 takes statements of up to 100 KB: rows are grouped into INSERTs well below that. */
const STATEMENT_BYTES = 50_000;

interface SchemaObject {
  type: "table" | "index";
  name: string;
  sql: string;
}

export async function snapshotOf(d1: D1Database): Promise<string[]> {
  // sqlite_* (sqlite_sequence, autoindexes) and D1's own _cf_* tables are made by the database itself.
  const { results: objects } = await d1
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL AND name NOT LIKE 'sqlite!_%' ESCAPE '!' AND name NOT LIKE '!_cf!_%' ESCAPE '!' ORDER BY rowid",
    )
    .all<SchemaObject>();
  const tables = objects.filter((o) => o.type === "table");
  const statements = tables.map((t) => t.sql);
  for (const table of tables) {
    const { results: columns } = await d1.prepare(`PRAGMA table_info(${name(table.name)})`).all<{ name: string }>();
    const list = columns.map((c) => name(c.name)).join(", ");
    const quoted = columns.map((c) => `quote(${name(c.name)})`).join(" || ', ' || ");
    const { results: rows } = await d1.prepare(`SELECT ${quoted} AS v FROM ${name(table.name)}`).all<{ v: string }>();
    let values: string[] = [];
    let bytes = 0;
    const flush = () => {
      if (values.length) statements.push(`INSERT INTO ${name(table.name)} (${list}) VALUES ${values.join(", ")}`);
      values = [];
      bytes = 0;
    };
    for (const { v } of rows) {
      if (bytes + v.length > STATEMENT_BYTES) flush();
      values.push(`(${v})`);
      bytes += v.length + 4;
    }
    flush();
  }
  // The next id of an AUTOINCREMENT table is one above the highest ever used, not the highest left.
  const { results: counters } = await d1.prepare("SELECT name, seq FROM sqlite_sequence ORDER BY name").all<{ name: string; seq: number }>();
  if (counters.length) {
    statements.push("DELETE FROM sqlite_sequence");
    statements.push(`INSERT INTO sqlite_sequence (name, seq) VALUES ${counters.map((c) => `(${quote(c.name)}, ${c.seq})`).join(", ")}`);
  }
  statements.push(...objects.filter((o) => o.type === "index").map((o) => o.sql));
  return statements;
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Replays a snapshot into an empty database, in one batch (one transaction). Foreign keys are
 * checked when it commits, so the order of the tables does not matter.
 */
export async function restore(d1: D1Database, snapshot: readonly string[]) {
  await d1.batch([d1.prepare("PRAGMA defer_foreign_keys = on"), ...snapshot.map((statement) => d1.prepare(statement))]);
}
