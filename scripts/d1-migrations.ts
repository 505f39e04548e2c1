import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The D1 migrations of `db/migrations` (wrangler.toml `migrations_dir`), applied as
 * `wrangler d1 migrations apply` applies them, through one D1 binding: wrangler starts a runtime
 * of its own for every migration and every query of its bookkeeping, about 17 s of CPU for the
 * 46 migrations, against about 6.5 s here with wrangler's module loaded (docs/testing.md "Where
 * the time goes"). Both keep the same `d1_migrations` table, so either sees what the other applied.
 */
const MIGRATIONS_DIR = fileURLToPath(new URL("../db/migrations", import.meta.url));

/** A migration: its file name, which is what `d1_migrations` records, and its statements. */
interface Migration {
  name: string;
  queries: string[];
}

/** The `.sql` files of `dir` in wrangler's order (by name), each split into statements by wrangler's own splitter. */
async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const { unstable_splitSqlQuery } = await import("wrangler");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, queries: unstable_splitSqlQuery(readFileSync(join(dir, name), "utf8")) }));
}

/**
 * Applies the migrations of `db/migrations` that `d1_migrations` does not name yet, in order, each
 * with its record in one batch: a migration that fails leaves nothing of itself.
 */
export async function applyMigrations(d1: D1Database): Promise<void> {
  const migrations = await readMigrations();
  // wrangler's own table, column for column.
  await d1
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
    )
    .run();
  const { results } = await d1.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const applied = new Set(results.map((row) => row.name));
  const record = d1.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
  const pending = migrations.filter((migration) => !applied.has(migration.name));
  for (const migration of pending) {
    try {
      await d1.batch([...migration.queries.map((query) => d1.prepare(query)), record.bind(migration.name)]);
    } catch (error) {
      throw new Error(`Migration ${migration.name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
