import { count, desc, eq } from "drizzle-orm";
import { containingIf } from "../../../db/like";
import { pageOf } from "../../../db/paging";
import { accounts, roles } from "../../../db/schema";
import { Conflict, Forbidden, Invalid, NotFound } from "../../../domain/errors";
import { roleInput, roleListQuery, type RoleInput } from "../../../domain/schemas/account-service";
import { catalogueFor, catalogueKeyOf, codesOf, isSuper, menusBeyond } from "../../../tenants/permissions";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/** Carrier system › Role (docs/rules/access.md). */
const MENU = "carrier.role";

type RoleRow = typeof roles.$inferSelect;

const present = (r: RoleRow) => ({
  id: r.id,
  name: r.name,
  code: r.code,
  type: r.type,
  status: r.status,
  menuCodes: r.menuCodes,
  remark: r.remark,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const keyOf = (ctx: UserCtx) => catalogueKeyOf(ctx.operator);

/**
 * What a role may select (docs/rules/access.md "No escalation"): only codes its operator can
 * have at all, only what the acting account holds itself, and a SUPER role only from a SUPER.
 */
function checkGrant(ctx: UserCtx, input: RoleInput) {
  const allowed = new Set(codesOf(catalogueFor(keyOf(ctx))));
  const unknown = input.menuCodes.filter((c) => !allowed.has(c));
  if (unknown.length) throw new Invalid("validation.menuCodes", { codes: unknown.join(", ") }, { menuCodes: "validation.menuCodes" });
  if (input.type === "SUPER" && !isSuper(ctx.actor)) throw new Forbidden("errors.superOnly");
  const beyond = menusBeyond(ctx.actor.menu, keyOf(ctx), input.menuCodes);
  if (beyond.length) throw new Forbidden("errors.menusBeyondOwn", { codes: beyond.join(", ") });
  return [...new Set(input.menuCodes)];
}

/** Nobody changes the role they hold, and only a SUPER touches a SUPER role. */
function checkChange(ctx: UserCtx, role: RoleRow) {
  if (ctx.actor.role?.id === role.id) throw new Forbidden("errors.ownRole");
  if (role.type === "SUPER" && !isSuper(ctx.actor)) throw new Forbidden("errors.superOnly");
}

async function findRole(ctx: UserCtx, id: number) {
  const [row] = await ctx.db.select().from(roles).where(owned(ctx, roles, eq(roles.id, id))).limit(1);
  if (!row) throw new NotFound();
  return row;
}

export const listRoles = verb({ menu: MENU }, async (ctx, raw: unknown) => {
  const q = roleListQuery.parse(raw);
  const where = owned(
    ctx,
    roles,
    containingIf(roles.name, q.name),
    q.type ? eq(roles.type, q.type) : undefined,
    q.status ? eq(roles.status, q.status) : undefined,
  );
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (await ctx.db.select().from(roles).where(where).orderBy(desc(roles.createdAt), desc(roles.id)).limit(limit).offset(offset)).map(present),
    async () => (await ctx.db.select({ total: count() }).from(roles).where(where))[0].total,
  );
});

export const getRole = verb({ menu: MENU }, async (ctx, id: number) => present(await findRole(ctx, id)));

export const createRole = verb({ menu: MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = roleInput.parse(raw);
  const menuCodes = checkGrant(ctx, input);
  const [clash] = await ctx.db.select({ id: roles.id }).from(roles).where(owned(ctx, roles, eq(roles.code, input.code))).limit(1);
  if (clash) throw new Conflict("errors.roleCodeTaken");
  const now = new Date(ctx.now());
  const [[created]] = await ctx.db.batch([
    ctx.db
      .insert(roles)
      .values(ownedRow(ctx, { ...input, menuCodes, createdAt: now, updatedAt: now }))
      .onConflictDoNothing()
      .returning(),
    auditRow(ctx, { table: "roles", module: "role", type: "CREATE", newData: input }),
  ]);
  if (!created) throw new Conflict("errors.roleNameTaken");
  return present(created);
});

export const updateRole = verb({ menu: MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findRole(ctx, id);
  checkChange(ctx, before);
  const input = roleInput.parse(raw);
  const menuCodes = checkGrant(ctx, input);
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(roles)
      .set({ ...input, menuCodes, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, roles, eq(roles.id, id)))
      .returning(),
    auditRow(ctx, { table: "roles", module: "role", type: "UPDATE", oldData: present(before), newData: input }),
  ]);
  return present(updated);
});

/** A role still given to accounts cannot be deleted: their permissions would vanish silently. */
export const deleteRole = verb({ menu: MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findRole(ctx, id);
  checkChange(ctx, before);
  const [{ users }] = await ctx.db.select({ users: count() }).from(accounts).where(owned(ctx, accounts, eq(accounts.roleId, id)));
  if (users > 0) throw new Conflict("errors.roleInUse", { count: users });
  await ctx.db.batch([
    ctx.db.delete(roles).where(owned(ctx, roles, eq(roles.id, id))),
    auditRow(ctx, { table: "roles", module: "role", type: "DELETE", oldData: present(before) }),
  ]);
  return null;
});

/** Role options for the account form: the operator's enabled roles the actor may give. */
export const roleOptions = verb({ menu: "carrier.carrierAcount" }, async (ctx) => {
  const rows = await ctx.db
    .select()
    .from(roles)
    .where(owned(ctx, roles, eq(roles.status, "VALID")))
    .orderBy(roles.name)
    .limit(500);
  return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, assignable: mayAssign(ctx, r) }));
});

/** Whether the actor may give this role to an account (docs/rules/access.md "No escalation"). */
export function mayAssign(ctx: UserCtx, role: Pick<RoleRow, "type" | "menuCodes">): boolean {
  if (role.type === "SUPER") return isSuper(ctx.actor);
  return menusBeyond(ctx.actor.menu, keyOf(ctx), role.menuCodes).length === 0;
}
