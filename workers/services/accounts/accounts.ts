import { count, desc, eq, like } from "drizzle-orm";
import { accounts, roles } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import {
  accountInput,
  accountListQuery,
  accountUpdateInput,
  enableInput,
} from "../../../domain/schemas/account-service";
import { owned } from "../../../tenants/scoped";
import { generateInitialPassword, hashPassword } from "../../auth/password";
import { invalidateAccountSessions } from "../../auth/session";
import { auditRow } from "../audit";
import { requireMenu, type Ctx } from "../context";

/** Carrier system › Account (SPEC.md §2 carrierAcount). */
const MENU = "carrier.carrierAcount";

type AccountRow = typeof accounts.$inferSelect;

const present = (a: AccountRow, roleName: string | null = null) => ({
  id: a.id,
  username: a.username,
  name: a.name,
  email: a.email,
  phone: a.phone,
  adminType: a.adminType,
  roleId: a.roleId,
  roleName,
  status: a.status,
  mustChangePassword: a.mustChangePassword,
  lastLoginAt: a.lastLoginAt?.toISOString() ?? null,
  createdAt: a.createdAt.toISOString(),
});

async function findAccount(ctx: Ctx, id: number) {
  const [row] = await ctx.db
    .select({ account: accounts, roleName: roles.name })
    .from(accounts)
    .leftJoin(roles, eq(roles.id, accounts.roleId))
    .where(owned(ctx, accounts, eq(accounts.id, id)))
    .limit(1);
  if (!row) throw new NotFound();
  return row;
}

/** The role must be one of the operator's own, enabled roles. */
async function checkRole(ctx: Ctx, roleId: number) {
  const [role] = await ctx.db
    .select({ id: roles.id, status: roles.status })
    .from(roles)
    .where(owned(ctx, roles, eq(roles.id, roleId)))
    .limit(1);
  if (!role || role.status !== "VALID") throw new Invalid("validation.roleRequired", {}, { roleId: "validation.roleRequired" });
}

const blankToNull = (v: string | undefined) => (v ? v : null);

export async function listAccounts(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, MENU);
  const q = accountListQuery.parse(raw);
  const where = owned(
    ctx,
    accounts,
    q.username ? like(accounts.username, `%${q.username.replace(/[%_]/g, "")}%`) : undefined,
    q.roleId ? eq(accounts.roleId, q.roleId) : undefined,
    q.status ? eq(accounts.status, q.status) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select({ account: accounts, roleName: roles.name })
      .from(accounts)
      .leftJoin(roles, eq(roles.id, accounts.roleId))
      .where(where)
      .orderBy(desc(accounts.createdAt), desc(accounts.id))
      .limit(q.size)
      .offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(accounts).where(where),
  ]);
  return { records: rows.map((r) => present(r.account, r.roleName)), total, current: q.current, size: q.size };
}

export async function getAccount(ctx: Ctx, id: number) {
  requireMenu(ctx, MENU);
  const row = await findAccount(ctx, id);
  return present(row.account, row.roleName);
}

/**
 * A new account gets an initial password, shown once in the answer (mail comes later), and
 * must change it at its first login.
 */
export async function createAccount(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, MENU);
  const input = accountInput.parse(raw);
  await checkRole(ctx, input.roleId);
  const initialPassword = generateInitialPassword();
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(accounts)
      .values({
        operatorId: ctx.operator.id,
        username: input.username,
        name: input.name,
        email: blankToNull(input.email),
        phone: blankToNull(input.phone),
        roleId: input.roleId,
        adminType: "NORMAL",
        passwordHash: await hashPassword(initialPassword, ctx.env.PASSWORD_PEPPER),
        mustChangePassword: true,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning(),
    auditRow(ctx, { table: "accounts", module: "account", type: "CREATE", newData: input }),
  ]);
  if (!created) throw new Conflict("errors.accountTaken");
  return { ...present(created), initialPassword };
}

export async function updateAccount(ctx: Ctx, id: number, raw: unknown) {
  requireMenu(ctx, MENU);
  const before = await findAccount(ctx, id);
  const input = accountUpdateInput.parse(raw);
  await checkRole(ctx, input.roleId);
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(accounts)
      .set({
        name: input.name,
        email: blankToNull(input.email),
        phone: blankToNull(input.phone),
        roleId: input.roleId,
        updatedAt: new Date(ctx.now()),
      })
      .where(owned(ctx, accounts, eq(accounts.id, id)))
      .returning(),
    auditRow(ctx, { table: "accounts", module: "account", type: "UPDATE", oldData: present(before.account), newData: input }),
  ]);
  return present(updated);
}

/** Enable or disable; disabling ends the account's sessions at once. Nobody disables themselves. */
export async function setAccountStatus(ctx: Ctx, id: number, raw: unknown) {
  requireMenu(ctx, MENU);
  const { status } = enableInput.parse(raw);
  const before = await findAccount(ctx, id);
  if (id === ctx.actor.accountId && status === "INVALID") throw new Conflict("errors.cannotDisableSelf");
  await ctx.db.batch([
    ctx.db
      .update(accounts)
      .set({ status, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, accounts, eq(accounts.id, id))),
    ...(status === "INVALID" ? [invalidateAccountSessions(ctx.db, ctx.operator.id, id)] : []),
    auditRow(ctx, {
      table: "accounts",
      module: "account",
      type: "UPDATE",
      oldData: { id, status: before.account.status },
      newData: { id, status },
    }),
  ]);
  return { id, status };
}
