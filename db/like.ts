import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * Text search in lists. What the user typed is matched literally: `%`, `_` and the escape
 * character itself are escaped, so "50%" finds "50%" and not everything that starts with "50".
 */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column` contains `text` (case-insensitive for ASCII, as SQLite's LIKE is). */
export function containing(column: SQLiteColumn | SQL, text: string): SQL {
  return sql`${column} LIKE ${`%${escapeLike(text)}%`} ESCAPE '\\'`;
}

/** `column` starts with `text`. */
export function startingWith(column: SQLiteColumn | SQL, text: string): SQL {
  return sql`${column} LIKE ${`${escapeLike(text)}%`} ESCAPE '\\'`;
}

/** A filter only when the user typed something: `undefined` leaves the list unfiltered. */
export function containingIf(column: SQLiteColumn | SQL, text: string | undefined): SQL | undefined {
  return text ? containing(column, text) : undefined;
}
