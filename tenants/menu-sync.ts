import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { menus } from "../db/schema";
import { slices } from "../domain/slices";
import { flattenCatalogue } from "./menu-catalogue";

/**
 * Writes the menu catalogue into the `menus` table, so the database lists every screen and its
 * code as the code does (the catalogue stays the single source). Idempotent: changed entries are
 * updated and removed ones deleted.
 */
export async function syncMenus(db: Db) {
  const rows = flattenCatalogue().map(({ entry, parentCode, sort }) => ({
    code: entry.code,
    parentCode,
    area: entry.area,
    group: entry.top,
    kind: entry.children ? ("DIR" as const) : ("MENU" as const),
    url: entry.url ?? null,
    titleKey: entry.titleKey,
    codePrefix: entry.codePrefix ?? null,
    sort,
  }));
  for (const slice of slices(rows, 10)) {
    await db
      .insert(menus)
      .values(slice)
      .onConflictDoUpdate({
        target: menus.code,
        set: {
          parentCode: sql`excluded.parent_code`,
          area: sql`excluded.area`,
          group: sql`excluded.group_name`,
          kind: sql`excluded.kind`,
          url: sql`excluded.url`,
          titleKey: sql`excluded.title_key`,
          codePrefix: sql`excluded.code_prefix`,
          sort: sql`excluded.sort`,
        },
      });
  }
  const known = rows.map((r) => r.code);
  const stale = await db.select({ code: menus.code }).from(menus);
  const gone = stale.map((s) => s.code).filter((c) => !known.includes(c));
  if (gone.length) await db.delete(menus).where(inArray(menus.code, gone));
}
