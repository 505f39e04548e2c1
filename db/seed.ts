import { and, eq, inArray, sql } from "drizzle-orm";
import { flattenCatalogue } from "../tenants/menu-catalogue";
import type { Db } from "./client";
import { accounts, menus, operators, parameterSettings, platforms, roles } from "./schema";

/**
 * The demo platform of the README (issue #2). Idempotent: every insert skips rows that exist,
 * so a second `npm start` changes nothing and fails on nothing. Passwords are hashed by the
 * caller's function so that the worker's pepper and algorithm stay in one place.
 */
export const DEMO = {
  platform: { code: "PLATFORM", name: "Plugdesk Platform", account: "platform", password: "Platform123" },
  operators: [
    {
      code: "0PL002",
      name: "Plugdesk Polska",
      parent: null,
      timeZone: "Europe/Warsaw",
      currency: { code: "PLN", sign: "zł", decimals: 2 },
      areaCodes: ["48"],
      account: "demoadmin",
      password: "Demo12345",
    },
    {
      code: "0PL002A",
      name: "Plugdesk Kraków",
      parent: "0PL002",
      timeZone: "Europe/Warsaw",
      currency: { code: "PLN", sign: "zł", decimals: 2 },
      areaCodes: ["48"],
      account: "subadmin1",
      password: "Demo12345",
    },
    {
      code: "0DE001",
      name: "Plugdesk Deutschland",
      parent: null,
      timeZone: "Europe/Berlin",
      currency: { code: "EUR", sign: "€", decimals: 2 },
      areaCodes: ["49"],
      account: "deadmin1",
      password: "Demo12345",
    },
  ],
} as const;

type HashPassword = (password: string) => Promise<string>;

export async function seedMenus(db: Db) {
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
  for (let i = 0; i < rows.length; i += 10) {
    await db
      .insert(menus)
      .values(rows.slice(i, i + 10))
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

async function ensureOperator(
  db: Db,
  platformId: number,
  o: { code: string; name: string; kind: "PLATFORM" | "OPERATOR"; parentId: number | null },
) {
  await db
    .insert(operators)
    .values({ platformId, code: o.code, name: o.name, kind: o.kind, parentId: o.parentId, sub: o.parentId ? 1 : 0 })
    .onConflictDoNothing();
  const [row] = await db.select().from(operators).where(eq(operators.code, o.code));
  return row;
}

async function ensureAdmin(
  db: Db,
  operatorId: number,
  username: string,
  password: string,
  hash: HashPassword,
) {
  await db
    .insert(roles)
    .values({ operatorId, name: "Administrators", code: "ADMIN", type: "SUPER", menuCodes: [] })
    .onConflictDoNothing();
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.operatorId, operatorId), eq(roles.code, "ADMIN")));
  const [existing] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.operatorId, operatorId), eq(accounts.username, username)));
  if (existing) return;
  // Demo accounts are not forced to change their password (issue #2).
  await db
    .insert(accounts)
    .values({
      operatorId,
      username,
      name: username === "platform" ? "Platform administrator" : "Demo administrator",
      email: `${username}@plugdesk.example`,
      passwordHash: await hash(password),
      adminType: "SUPER",
      roleId: role.id,
      mustChangePassword: false,
    })
    .onConflictDoNothing();
}

export async function seedDemo(db: Db, hash: HashPassword) {
  await db.insert(platforms).values({ id: 1, name: DEMO.platform.name }).onConflictDoNothing();
  await seedMenus(db);

  const platform = await ensureOperator(db, 1, {
    code: DEMO.platform.code,
    name: DEMO.platform.name,
    kind: "PLATFORM",
    parentId: null,
  });
  await db
    .insert(parameterSettings)
    .values({ operatorId: platform.id, timeZone: "UTC", currencyCode: "EUR", currencySign: "€", currencyDecimals: 2 })
    .onConflictDoNothing();
  await ensureAdmin(db, platform.id, DEMO.platform.account, DEMO.platform.password, hash);

  for (const o of DEMO.operators) {
    const parentId = o.parent ? (await ensureOperator(db, 1, { code: o.parent, name: o.parent, kind: "OPERATOR", parentId: null })).id : null;
    const operator = await ensureOperator(db, 1, { code: o.code, name: o.name, kind: "OPERATOR", parentId });
    await db
      .insert(parameterSettings)
      .values({
        operatorId: operator.id,
        defaultLanguage: "en",
        timeZone: o.timeZone,
        currencyCode: o.currency.code,
        currencySign: o.currency.sign,
        currencyDecimals: o.currency.decimals,
        areaCodes: [...o.areaCodes],
      })
      .onConflictDoNothing();
    await ensureAdmin(db, operator.id, o.account, o.password, hash);
  }
}
