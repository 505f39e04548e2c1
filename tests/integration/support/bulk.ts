import { env } from "cloudflare:test";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { createDb } from "../../../db/client";
import { slices } from "../../../db/statements";

/** Inserts rows in slices that fit D1's parameter limit (every column may bind a value). */
export async function insertAll<T extends Record<string, unknown>>(table: SQLiteTable, rows: T[]) {
  const db = createDb(env.DB);
  const perRow = getTableConfig(table).columns.length;
  for (const slice of slices(rows, Math.max(1, Math.floor(99 / perRow)))) await db.insert(table).values(slice as never);
}
