import { and, asc, count, desc, eq, ne, sql } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { accounts, roles } from "../../../db/schema";
import { isUniqueViolation } from "../../../db/statements";
import { Conflict, Forbidden, Invalid, NotFound } from "../../../domain/errors";
import { accountInput, accountListQuery, accountUpdateInput, enableInput } from "../../../domain/schemas/account-service";
import { isSuper } from "../../../tenants/permissions";
import { owned, ownedRow } from "../../../tenants/scope";
import { generateInitialPassword, hashPassword } from "../../auth/password";
import { invalidateAccountSessions } from "../../auth/session";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { mailInitialPassword } from "../mail/mail";
import { mayAssign } from "../roles/roles";
import { verb } from "../verb";

/** Carrier system › Account (docs/rules/access.md "No takeover"). */
const MENU = "carrier.carrierAcount";

type AccountRow = typeof accounts.$inferSelect;
type RoleRow = typeof roles.$inferSelect;

const present = (a: AccountRow, role: Pick<RoleRow, "name" | "type"> | null = null, owner = false) => ({
  id: a.id,
  username: a.username,
  name: a.name,
  email: a.email,
  phone: a.phone,
  adminType: a.adminType,
  roleId: a.roleId,
  roleName: role?.name ?? null,
  roleType: role?.type ?? null,
  owner,
  status: a.status,
  mustChangePassword: a.mustChangePassword,
  lastLoginAt: a.lastLoginAt?.toISOString() ?? null,
  createdAt: a.createdAt.toISOString(),
});

/** The operator's owner: its first SUPER account, which only the platform may disable or demote. */
async function ownerId(ctx: UserCtx): Promise<number | undefined> {
  const [row] = await ctx.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(owned(ctx, accounts, eq(accounts.adminType, "SUPER")))
    .orderBy(asc(accounts.id))
    .limit(1);
  return row?.id;
}

async function findAccount(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select({ account: accounts, role: roles })
    .from(accounts)
    .leftJoin(roles, and(eq(roles.id, accounts.roleId), eq(roles.operatorId, accounts.operatorId)))
    .where(owned(ctx, accounts, eq(accounts.id, id)))
    .limit(1);
  if (!row) throw new NotFound();
  return { ...row, owner: (await ownerId(ctx)) === id };
}

/** The role must be one of the operator's own, enabled roles, and one the actor may give. */
async function checkRole(ctx: UserCtx, roleId: number) {
  const [role] = await ctx.db.select().from(roles).where(owned(ctx, roles, eq(roles.id, roleId))).limit(1);
  if (!role || role.status !== "VALID") throw new Invalid("validation.roleRequired", {}, { roleId: "validation.roleRequired" });
  if (!mayAssign(ctx, role)) throw new Forbidden(role.type === "SUPER" ? "errors.superOnly" : "errors.menusBeyondOwn", { codes: "" });
}

/** Only a SUPER changes or disables a SUPER account (its admin type or its role makes it one). */
function checkTarget(ctx: UserCtx, target: { account: AccountRow; role: RoleRow | null }) {
  if (isSuper({ adminType: target.account.adminType, role: target.role }) && !isSuper(ctx.actor)) throw new Forbidden("errors.superOnly");
}

const blankToNull = (v: string | undefined) => (v ? v : null);

export const listAccounts = verb({ menu: MENU }, async (ctx, raw: unknown) => {
  const q = accountListQuery.parse(raw);
  const where = owned(
    ctx,
    accounts,
    containingIf(accounts.username, q.username),
    q.roleId ? eq(accounts.roleId, q.roleId) : undefined,
    q.status ? eq(accounts.status, q.status) : undefined,
  );
  const owner = await ownerId(ctx);
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ account: accounts, role: roles })
          .from(accounts)
          .leftJoin(roles, and(eq(roles.id, accounts.roleId), eq(roles.operatorId, accounts.operatorId)))
          .where(where)
          .orderBy(desc(accounts.createdAt), desc(accounts.id))
          .limit(limit)
          .offset(offset)
      ).map((r) => present(r.account, r.role, r.account.id === owner)),
    async () => (await ctx.db.select({ total: count() }).from(accounts).where(where))[0].total,
  );
});

export const getAccount = verb({ menu: MENU }, async (ctx, id: number) => {
  const row = await findAccount(ctx, id);
  return present(row.account, row.role, row.owner);
});

const emailTaken = () => new Invalid("errors.accountEmailTaken", {}, { email: "errors.accountEmailTaken" });

/**
 * Whether another of the operator's accounts has this e-mail address, compared case-insensitively:
 * an e-mail signs in too (docs/rules/sessions.md "Login"). A blank address is no address.
 */
async function emailUsed(ctx: UserCtx, email: string | undefined, exceptId?: number) {
  const address = blankToNull(email);
  if (address === null) return false;
  const [row] = await ctx.db
    .select({ id: accounts.id })
    .from(accounts)
    .where(owned(ctx, accounts, sql`lower(${accounts.email}) = lower(${address})`, exceptId === undefined ? undefined : ne(accounts.id, exceptId)))
    .limit(1);
  return row !== undefined;
}

/**
 * A new account gets an initial password, shown once in the answer, and must change it at its
 * first login. It is always a NORMAL account, with a role the actor may give.
 */
export const createAccount = verb({ menu: MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = accountInput.parse(raw);
  await checkRole(ctx, input.roleId);
  if (await emailUsed(ctx, input.email)) throw emailTaken();
  const initialPassword = generateInitialPassword();
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(accounts)
      .values(
        ownedRow(ctx, {
          username: input.username,
          name: input.name,
          email: blankToNull(input.email),
          phone: blankToNull(input.phone),
          roleId: input.roleId,
          adminType: "NORMAL" as const,
          passwordHash: await hashPassword(initialPassword, ctx.env.PASSWORD_PEPPER),
          mustChangePassword: true,
          createdAt: now,
          updatedAt: now,
        }),
      )
      .onConflictDoNothing()
      .returning(),
    auditRow(ctx, { table: "accounts", module: "account", type: "CREATE", newData: input }),
  ]);
  // The insert skips on either unique index: a duplicate e-mail that raced past the check above
  // says so, anything else is the username.
  if (!created) throw (await emailUsed(ctx, input.email)) ? emailTaken() : new Conflict("errors.accountTaken");
  return { ...present(created), initialPassword, mailed: await mailInitialPassword(ctx, { to: created.email, username: input.username, password: initialPassword, operatorCode: ctx.operator.code }) };
});

/**
 * Edit an account (docs/rules/access.md "No takeover"): nobody changes their own role, only a
 * SUPER edits a SUPER account, and the owner's role changes only through the platform.
 */
export const updateAccount = verb({ menu: MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findAccount(ctx, id);
  checkTarget(ctx, before);
  const input = accountUpdateInput.parse(raw);
  const roleChanges = input.roleId !== before.account.roleId;
  if (roleChanges && id === ctx.actor.accountId) throw new Forbidden("errors.ownAccountRights");
  if (roleChanges && before.owner) throw new Forbidden("errors.ownerProtected");
  if (roleChanges) await checkRole(ctx, input.roleId);
  if (await emailUsed(ctx, input.email, id)) throw emailTaken();
  try {
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
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
});

/**
 * Enable or disable; disabling ends the account's sessions at once. Nobody changes their own
 * status, only a SUPER disables a SUPER, and nobody here disables the owner.
 */
export const setAccountStatus = verb({ menu: MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findAccount(ctx, id);
  if (id === ctx.actor.accountId) throw new Forbidden("errors.ownAccountRights");
  checkTarget(ctx, before);
  const { status } = enableInput.parse(raw);
  if (before.owner && status === "INVALID") throw new Forbidden("errors.ownerProtected");
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
});
