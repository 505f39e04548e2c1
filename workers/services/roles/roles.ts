import { count, desc, eq, like } from "drizzle-orm";
import { accounts, roles } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { roleInput, roleListQuery } from "../../../domain/schemas/account-service";
import { catalogueFor } from "../../../tenants/permissions";
import { owned } from "../../../tenants/scoped";
import type { MenuEntry } from "../../../tenants/menu-catalogue";
import { auditRow } from "../audit";
import { requireMenu, type Ctx } from "../context";

/** Carrier system › Role (SPEC.md §2, §6). */
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

function codesOf(entries: readonly MenuEntry[]): string[] {
  return entries.flatMap((e) => [e.code, ...(e.children ? codesOf(e.children) : [])]);
}

/** A role may select only menu codes its operator can have at all. */
function checkMenuCodes(ctx: Ctx, codes: string[]) {
  const allowed = new Set(codesOf(catalogueFor(ctx.operator.code, ctx.operator.sub === 1 ? 1 : 0)));
  const unknown = codes.filter((c) => !allowed.has(c));
  if (unknown.length) throw new Invalid("validation.menuCodes", { codes: unknown.join(", ") }, { menuCodes: "validation.menuCodes" });
  return [...new Set(codes)];
}

async function findRole(ctx: Ctx, id: number) {
  const [row] = await ctx.db.select().from(roles).where(owned(ctx, roles, eq(roles.id, id))).limit(1);
  if (!row) throw new NotFound();
  return row;
}

export async function listRoles(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, MENU);
  const q = roleListQuery.parse(raw);
  const where = owned(
    ctx,
    roles,
    q.name ? like(roles.name, `%${q.name.replace(/[%_]/g, "")}%`) : undefined,
    q.type ? eq(roles.type, q.type) : undefined,
    q.status ? eq(roles.status, q.status) : undefined,
  );
  const [records, [{ total }]] = await Promise.all([
    ctx.db.select().from(roles).where(where).orderBy(desc(roles.createdAt), desc(roles.id)).limit(q.size).offset((q.current - 1) * q.size),
    ctx.db.select({ total: count() }).from(roles).where(where),
  ]);
  return { records: records.map(present), total, current: q.current, size: q.size };
}

export async function getRole(ctx: Ctx, id: number) {
  requireMenu(ctx, MENU);
  return present(await findRole(ctx, id));
}

export async function createRole(ctx: Ctx, raw: unknown) {
  requireMenu(ctx, MENU);
  const input = roleInput.parse(raw);
  const menuCodes = checkMenuCodes(ctx, input.menuCodes);
  const [clash] = await ctx.db
    .select({ id: roles.id })
    .from(roles)
    .where(owned(ctx, roles, eq(roles.code, input.code)))
    .limit(1);
  if (clash) throw new Conflict("errors.roleCodeTaken");
  const now = new Date(ctx.now());
  const values = { ...input, menuCodes, operatorId: ctx.operator.id, createdAt: now, updatedAt: now };
  const [[created]] = await ctx.db.batch([
    ctx.db.insert(roles).values(values).onConflictDoNothing().returning(),
    auditRow(ctx, { table: "roles", module: "role", type: "CREATE", newData: input }),
  ]);
  if (!created) throw new Conflict("errors.roleNameTaken");
  return present(created);
}

export async function updateRole(ctx: Ctx, id: number, raw: unknown) {
  requireMenu(ctx, MENU);
  const before = await findRole(ctx, id);
  const input = roleInput.parse(raw);
  const menuCodes = checkMenuCodes(ctx, input.menuCodes);
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(roles)
      .set({ ...input, menuCodes, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, roles, eq(roles.id, id)))
      .returning(),
    auditRow(ctx, { table: "roles", module: "role", type: "UPDATE", oldData: present(before), newData: input }),
  ]);
  return present(updated);
}

/** A role still given to accounts cannot be deleted: their permissions would vanish silently. */
export async function deleteRole(ctx: Ctx, id: number) {
  requireMenu(ctx, MENU);
  const before = await findRole(ctx, id);
  const [{ users }] = await ctx.db
    .select({ users: count() })
    .from(accounts)
    .where(owned(ctx, accounts, eq(accounts.roleId, id)));
  if (users > 0) throw new Conflict("errors.roleInUse", { count: users });
  await ctx.db.batch([
    ctx.db.delete(roles).where(owned(ctx, roles, eq(roles.id, id))),
    auditRow(ctx, { table: "roles", module: "role", type: "DELETE", oldData: present(before) }),
  ]);
}

/** Role options for the account form: the operator's enabled roles. */
export async function roleOptions(ctx: Ctx) {
  requireMenu(ctx, "carrier.carrierAcount");
  const rows = await ctx.db
    .select({ id: roles.id, name: roles.name, type: roles.type })
    .from(roles)
    .where(owned(ctx, roles, eq(roles.status, "VALID")))
    .orderBy(roles.name)
    .limit(500);
  return rows;
}

