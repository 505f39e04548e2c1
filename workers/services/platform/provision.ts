import { and, eq, getTableColumns, is, sql, SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { accounts, operatorDomains, operators, parameterSettings, roles } from "../../../db/schema";
import { currencyFacts } from "../../../domain/currency";
import type { Language } from "../../../domain/languages";
import { Conflict } from "../../../domain/errors";
import type { Edition } from "../../../domain/schemas/platform";
import { catalogueFor, codesOf } from "../../../tenants/permissions";
import { operatorByCode } from "../../../tenants/resolve";
import { acrossTenants } from "../../../tenants/scope";
import { generateInitialPassword, hashPassword } from "../../auth/password";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { mailInitialPassword } from "../mail/mail";

/**
 * Provisioning an operator or a sub-operator in one D1 batch (docs/rules/platform.md
 * "Provisioning"; docs/decisions/0032-provisioning-in-one-batch.md): the operator row, its
 * parameter settings, a SUPER role with the menus its edition allows, its first account with an
 * initial password, and its branded domains. D1 has no interactive transactions
 * (docs/decisions/0002-d1-without-interactive-transactions.md), and the new operator's id is
 * not known before the batch, so every row after the first is inserted by a SELECT from the
 * operator row this request created: the row carries the request's random `provision_key`. A
 * request that loses a race on the code (the unique index) inserts nothing at all.
 */

export interface ProvisionSpec {
  code: string;
  name: string;
  edition: Edition;
  parentId: number | null;
  operator: Partial<typeof operators.$inferInsert>;
  settings: { defaultLanguage: Language; timeZone: string; currency: string; currencySign?: string; currencyDecimals?: number };
  domains: string[];
  admin: { username: string; email: string; name: string };
  /** The module the operation log names. */
  module: string;
}

/** The role every provisioned operator's first account holds. */
export const OWNER_ROLE = { code: "ADMIN", name: "Administrators" } as const;

type Value = unknown;

/** The contact, accounts and branding columns an operator or a sub-operator shares. */
export const profileColumns = (input: {
  name: string;
  contactName?: string;
  contactPhone?: string;
  contactEmail?: string;
  chargeAccount?: string;
  clearingAccount?: string;
  cardPaymentAccount?: string;
  paypalAccount?: string;
  homeUrl?: string;
  openingHours?: string;
}) => ({
  name: input.name,
  contactName: input.contactName ?? null,
  contactPhone: input.contactPhone ?? null,
  contactEmail: input.contactEmail ?? null,
  chargeAccount: input.chargeAccount ?? null,
  clearingAccount: input.clearingAccount ?? null,
  cardPaymentAccount: input.cardPaymentAccount ?? null,
  paypalAccount: input.paypalAccount ?? null,
  homeUrl: input.homeUrl ?? null,
  openingHours: input.openingHours ?? null,
});


/**
 * A SELECT that yields one row of `table` for the operator `created` finds: `values` for the
 * given columns, the new operator's id for `operator_id`, each other column's default (or
 * null). Built from the table's own columns, so columns added later get their defaults.
 */
function rowFor(ctx: UserCtx, table: SQLiteTable, created: SQL, values: Record<string, Value | SQL>, joinRole = false) {
  const fields: Record<string, SQL.Aliased> = {};
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, SQLiteColumn][]) {
    const given = values[key];
    let value: SQLWrapper;
    if (key === "operatorId") value = sql`${operators.id}`;
    else if (given !== undefined) value = is(given, SQL) ? given : sql`${column.mapToDriverValue(given)}`;
    else if (column.primary) value = sql`null`;
    else if (column.defaultFn) value = sql`${column.mapToDriverValue(column.defaultFn())}`;
    else if (column.default !== undefined) value = is(column.default, SQL) ? column.default : sql`${column.mapToDriverValue(column.default)}`;
    else value = sql`null`;
    fields[key] = sql`${value}`.as(column.name);
  }
  const query = ctx.db.select(fields).from(operators);
  // The new operator's owner role, joined on its own operator: the account is given that role.
  const select = (joinRole ? query.innerJoin(roles, and(eq(roles.operatorId, operators.id), eq(roles.code, OWNER_ROLE.code))) : query).where(created);
  // Every column of the table, in its order: drizzle checks that when it builds the insert.
  return select as never;
}

/** Creates the operator and everything it needs in one batch; answers its id and its admin's initial password. */
export async function provision(ctx: UserCtx, spec: ProvisionSpec) {
  if (await operatorByCode(ctx.db, spec.code)) throw new Conflict("platform.errors.codeTaken", { code: spec.code });
  await assertDomainsFree(ctx, spec.domains);
  const provisionKey = crypto.randomUUID();
  const created = and(eq(operators.code, spec.code), eq(operators.provisionKey, provisionKey))!;
  const sub = spec.parentId ? 1 : 0;
  const menuCodes = codesOf(catalogueFor({ operatorCode: spec.code, sub, kind: "OPERATOR", edition: spec.edition }));
  const initialPassword = generateInitialPassword();
  const facts = currencyFacts(spec.settings.currency);
  const now = new Date(ctx.now());

  // tenancy: the new operator's first rows, each stamped by rowFor with the id of the operator row this batch creates.
  const [, , , , [operator], [admin]] = await ctx.db.batch([
    ctx.db
      .insert(operators)
      .values({
        ...spec.operator,
        platformId: ctx.operator.platformId,
        code: spec.code,
        name: spec.name,
        kind: "OPERATOR",
        sub,
        parentId: spec.parentId,
        edition: spec.edition,
        provisionKey,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing(),
    ctx.db.insert(parameterSettings).select(
      rowFor(ctx, parameterSettings, created, {
        defaultLanguage: spec.settings.defaultLanguage,
        timeZone: spec.settings.timeZone,
        currencyCode: spec.settings.currency,
        currencySign: spec.settings.currencySign ?? facts.sign,
        currencyDecimals: spec.settings.currencyDecimals ?? facts.decimals,
      }),
    ),
    ctx.db.insert(roles).select(
      rowFor(ctx, roles, created, { name: OWNER_ROLE.name, code: OWNER_ROLE.code, type: "SUPER", menuCodes, createdAt: now, updatedAt: now }),
    ),
    ctx.db.insert(accounts).select(
      rowFor(
        ctx,
        accounts,
        created,
        {
          username: spec.admin.username,
          name: spec.admin.name,
          email: spec.admin.email,
          passwordHash: await hashPassword(initialPassword, ctx.env.PASSWORD_PEPPER),
          adminType: "SUPER",
          roleId: sql`${roles.id}`,
          mustChangePassword: true,
          createdAt: now,
          updatedAt: now,
        },
        true,
      ),
    ),
    ctx.db.select({ id: operators.id }).from(operators).where(created),
    ctx.db
      .select({ id: accounts.id })
      .from(operators)
      // The account the batch just made, found through the operator row it created.
      .innerJoin(accounts, and(eq(accounts.operatorId, operators.id), eq(accounts.username, spec.admin.username)))
      .where(created),
    ...spec.domains.map((domain) => ctx.db.insert(operatorDomains).select(rowFor(ctx, operatorDomains, created, { domain, createdAt: now }))),
    auditRow(ctx, {
      table: "operators",
      module: spec.module,
      type: "CREATE",
      newData: { code: spec.code, name: spec.name, edition: spec.edition, parentId: spec.parentId, domains: spec.domains, admin: spec.admin.username },
    }),
  ]);
  if (!operator || !admin) throw new Conflict("platform.errors.codeTaken", { code: spec.code });
  // The provisioning operator's mail server sends it, in the new operator's language.
  const mailed = await mailInitialPassword(ctx, {
    to: spec.admin.email,
    username: spec.admin.username,
    password: initialPassword,
    operatorCode: spec.code,
    lang: spec.settings.defaultLanguage,
  });
  return { id: operator.id, code: spec.code, admin: { id: admin.id, username: spec.admin.username, initialPassword, mailed } };
}

/** A branded host names one operator: a host another operator has is refused (409). */
export async function assertDomainsFree(ctx: UserCtx, domains: readonly string[], exceptOperatorId?: number) {
  for (const domain of domains) {
    const [row] = await ctx.db
      .select({ operatorId: operatorDomains.operatorId })
      .from(operatorDomains)
      .where(acrossTenants("a host names at most one operator across the platform: the check must see them all", eq(operatorDomains.domain, domain)))
      .limit(1);
    if (row && row.operatorId !== exceptOperatorId) throw new Conflict("platform.errors.domainTaken", { domain });
  }
}
