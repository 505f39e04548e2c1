import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The menu catalogue as stored: a mirror of tenants/menu-catalogue.ts (the source of truth),
 * written by the seed so that reports and SQL can join on menu codes.
 */
export const menus = sqliteTable("menus", {
  code: text("code").primaryKey(),
  parentCode: text("parent_code"),
  area: text("area", { enum: ["OPERATOR", "SUB", "PLATFORM"] }).notNull(),
  group: text("group_name").notNull(),
  kind: text("kind", { enum: ["DIR", "MENU", "PAGE"] }).notNull(),
  url: text("url"),
  titleKey: text("title_key").notNull(),
  codePrefix: text("code_prefix"),
  sort: integer("sort").notNull(),
});
