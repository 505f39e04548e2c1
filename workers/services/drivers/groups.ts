import { and, asc, count, desc, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { containing, containingIf } from "../../../db/like";
import { pageOf, rowsFor } from "../../../db/paging";
import { customerGroups, customers } from "../../../db/schema";
import { IN_LIST, isUniqueViolation, slices } from "../../../db/statements";
import { Invalid, NotFound } from "../../../domain/errors";
import { groupInput, groupListQuery, groupMemberQuery, optionsQuery, type GroupInput } from "../../../domain/schemas/drivers";
import { owned, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { ownedCount } from "../owned-count";
import { verb } from "../verb";
import { customerName } from "./customers";
import { customerGroupJoin } from "./joins";

/**
 * User management › Customer groups (docs/rules/drivers.md "Customer groups"): the group screen
 * changes them; the group list and the customer screen read them.
 */
export const GROUP_MENU = "users.userGroup";
export const GROUP_READ_MENUS = [GROUP_MENU, "users.groupList", "users.userProfile"];

type GroupRow = typeof customerGroups.$inferSelect;

const leaders = alias(customers, "leaders");
const leaderJoin = (ctx: UserCtx) => and(eq(leaders.id, customerGroups.leaderId), eq(leaders.operatorId, ctx.operator.id));

function presentGroup(g: GroupRow, extras: { leaderName?: string | null; memberIds?: number[]; memberCount?: number } = {}) {
  return {
    id: g.id,
    name: g.name,
    code: g.code,
    leaderId: g.leaderId,
    leaderName: extras.leaderName ?? null,
    deductionAccount: g.deductionAccount,
    deductionEmail: g.deductionEmail,
    memberIds: extras.memberIds ?? [],
    memberCount: extras.memberCount ?? extras.memberIds?.length ?? 0,
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
  };
}

const nameOf = (first: string | null, last: string | null) => (first === null ? null : `${first} ${last}`);

/** Groups, newest first, with their leader and member count, paged on the server. */
export const listGroups = verb({ menu: GROUP_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = groupListQuery.parse(raw);
  const where = owned(ctx, customerGroups, containingIf(customerGroups.name, q.name), containingIf(customerGroups.code, q.code));
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ group: customerGroups, leaderFirst: leaders.firstName, leaderLast: leaders.lastName })
        .from(customerGroups)
        .leftJoin(leaders, leaderJoin(ctx))
        .where(where)
        .orderBy(desc(customerGroups.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(customerGroups).where(where))[0].total,
  );
  const counts = await rowsFor(
    page.records.map((r) => r.group.id),
    (slice) =>
      ctx.db
        .select({ groupId: customers.groupId, n: count() })
        .from(customers)
        .where(owned(ctx, customers, inArray(customers.groupId, slice)))
        .groupBy(customers.groupId),
  );
  const countOf = new Map(counts.map((c) => [c.groupId, c.n]));
  return {
    ...page,
    records: page.records.map((r) => presentGroup(r.group, { leaderName: nameOf(r.leaderFirst, r.leaderLast), memberCount: countOf.get(r.group.id) ?? 0 })),
  };
});

const optionColumns = { id: customerGroups.id, name: customerGroups.name, code: customerGroups.code };

/**
 * Groups matching a name or code, at most 20, for the customer form's group and the customer
 * list's group filter: searched on the server as the user types (docs/rules/lists.md "Pickers").
 */
export const groupOptions = verb({ menu: GROUP_READ_MENUS }, async (ctx, raw: unknown) => {
  const { keyword } = optionsQuery.parse(raw);
  return ctx.db
    .select(optionColumns)
    .from(customerGroups)
    .where(owned(ctx, customerGroups, keyword ? or(containing(customerGroups.name, keyword), containing(customerGroups.code, keyword)) : undefined))
    .orderBy(asc(customerGroups.name), asc(customerGroups.id))
    .limit(20);
});

/** One group as a picker shows it (the chosen one, whatever the matches); null for another operator's. */
export const groupOption = verb({ menu: GROUP_READ_MENUS }, async (ctx, id: number) => {
  const [row] = await ctx.db
    .select(optionColumns)
    .from(customerGroups)
    .where(owned(ctx, customerGroups, eq(customerGroups.id, id)))
    .limit(1);
  return row ?? null;
});

async function findGroup(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select({ group: customerGroups, leaderFirst: leaders.firstName, leaderLast: leaders.lastName })
    .from(customerGroups)
    .leftJoin(leaders, leaderJoin(ctx))
    .where(owned(ctx, customerGroups, eq(customerGroups.id, id)))
    .limit(1);
  if (!row) throw new NotFound("drivers.errors.groupNotFound");
  return row;
}

/** A group's members: the customers whose group it is (at most the 500 a group may be given). */
async function membersOf(ctx: UserCtx, groupId: number) {
  return ctx.db
    .select({
      id: customers.id,
      firstName: customers.firstName,
      lastName: customers.lastName,
      email: customers.email,
      payWay: customers.payWay,
      balance: customers.balance,
      status: customers.status,
    })
    .from(customers)
    .where(owned(ctx, customers, eq(customers.groupId, groupId)))
    .orderBy(asc(customers.firstName), asc(customers.lastName), asc(customers.id))
    .limit(500);
}

/** A group with its leader and members (and whose balance each member charges on). */
export const groupDetail = verb({ menu: GROUP_READ_MENUS }, async (ctx, id: number) => {
  const { group, leaderFirst, leaderLast } = await findGroup(ctx, id);
  const members = await membersOf(ctx, id);
  const leaderName = nameOf(leaderFirst, leaderLast);
  return {
    ...presentGroup(group, { leaderName, memberIds: members.map((m) => m.id) }),
    members: members.map((m) => ({
      id: m.id,
      name: customerName(m),
      email: m.email,
      payWay: m.payWay,
      balance: m.balance,
      status: m.status,
      paysFrom: m.payWay === "LEADER" ? leaderName : customerName(m),
    })),
  };
});

/**
 * Members of every group, for the group list screen (/userManagement/groupList): who belongs
 * where, and whose balance pays (the leader's for a LEADER member; docs/rules/drivers.md
 * "Customer groups").
 */
export const listGroupMembers = verb({ menu: GROUP_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = groupMemberQuery.parse(raw);
  const where = owned(
    ctx,
    customers,
    isNotNull(customers.groupId),
    q.groupId ? eq(customers.groupId, q.groupId) : undefined,
    containingIf(sql`${customers.firstName} || ' ' || ${customers.lastName}`, q.name),
    q.payWay ? eq(customers.payWay, q.payWay) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({
          member: customers,
          groupName: customerGroups.name,
          groupCode: customerGroups.code,
          leaderId: customerGroups.leaderId,
          leaderFirst: leaders.firstName,
          leaderLast: leaders.lastName,
        })
        .from(customers)
        .innerJoin(customerGroups, customerGroupJoin(ctx))
        .leftJoin(leaders, leaderJoin(ctx))
        .where(where)
        .orderBy(asc(customerGroups.name), asc(customers.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(customers).where(where))[0].total,
  );
  return {
    ...page,
    records: page.records.map((r) => ({
      customerId: r.member.id,
      name: customerName(r.member),
      email: r.member.email,
      groupId: r.member.groupId,
      groupName: r.groupName,
      groupCode: r.groupCode,
      leader: r.leaderId === r.member.id,
      leaderName: nameOf(r.leaderFirst, r.leaderLast),
      payWay: r.member.payWay,
      paysFrom: r.member.payWay === "LEADER" ? nameOf(r.leaderFirst, r.leaderLast) : customerName(r.member),
      balance: r.member.balance,
    })),
  };
});

const codeTaken = () => new Invalid("drivers.validation.codeTaken", {}, { code: "drivers.validation.codeTaken" });
/** Group codes compare case-insensitively, as the parent id tags they are (OCPP 1.6 §7.28 IdToken). */
const sameCode = (code: string) => sql`upper(${customerGroups.code}) = upper(${code})`;

async function checkGroup(ctx: UserCtx, input: GroupInput, exceptId?: number) {
  const [taken] = await ctx.db
    .select({ id: customerGroups.id })
    .from(customerGroups)
    .where(owned(ctx, customerGroups, sameCode(input.code), exceptId === undefined ? undefined : ne(customerGroups.id, exceptId)))
    .limit(1);
  if (taken) throw codeTaken();
  if ((await ownedCount(ctx, customers, input.memberIds)) !== input.memberIds.length) throw new NotFound("drivers.errors.customerNotFound");
  // A customer is in at most one group (it has one parent tag): members of another group are named, not moved.
  const elsewhere = (
    await rowsFor(input.memberIds, (slice) =>
      ctx.db
        .select({ firstName: customers.firstName, lastName: customers.lastName })
        .from(customers)
        .where(
          owned(
            ctx,
            customers,
            inArray(customers.id, slice),
            isNotNull(customers.groupId),
            exceptId === undefined ? undefined : ne(customers.groupId, exceptId),
          ),
        ),
    )
  ).map(customerName);
  if (elsewhere.length) {
    throw new Invalid("drivers.validation.memberInGroup", { names: elsewhere.join(", ") }, { memberIds: "drivers.validation.memberInGroup" });
  }
}

const rowValues = (input: GroupInput) => ({
  name: input.name,
  code: input.code,
  leaderId: input.leaderId,
  deductionAccount: input.deductionAccount,
  deductionEmail: input.deductionEmail,
});


export const createGroup = verb({ menu: GROUP_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = groupInput.parse(raw);
  await checkGroup(ctx, input);
  const now = new Date(ctx.now());
  const newGroupId = ctx.db
    .select({ id: customerGroups.id })
    .from(customerGroups)
    .where(owned(ctx, customerGroups, sameCode(input.code)));
  try {
    const [[created]] = await ctx.db.batch([
      ctx.db
        .insert(customerGroups)
        .values(ownedRow(ctx, { ...rowValues(input), createdAt: now, updatedAt: now }))
        .returning(),
      ...slices(input.memberIds, IN_LIST).map((slice) =>
        ctx.db
          .update(customers)
          .set({ groupId: sql`(${newGroupId})`, updatedAt: now })
          .where(owned(ctx, customers, inArray(customers.id, slice))),
      ),
      auditRow(ctx, { table: "customer_groups", module: "customerGroup", type: "CREATE", newData: input }),
    ]);
    return presentGroup(created, { memberIds: input.memberIds });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
});

/**
 * Edit a group: members who leave pay personally again (a LEADER payer needs a group), new
 * members join; in one batch with the group's own change.
 */
export const updateGroup = verb({ menu: GROUP_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { group: before } = await findGroup(ctx, id);
  const input = groupInput.parse(raw);
  await checkGroup(ctx, input, id);
  const now = new Date(ctx.now());
  const staying = new Set(input.memberIds);
  const leaving = (await membersOf(ctx, id)).map((m) => m.id).filter((m) => !staying.has(m));
  try {
    const [[updated]] = await ctx.db.batch([
      ctx.db
        .update(customerGroups)
        .set({ ...rowValues(input), updatedAt: now })
        .where(owned(ctx, customerGroups, eq(customerGroups.id, id)))
        .returning(),
      ...slices(leaving, IN_LIST).map((slice) =>
        ctx.db
          .update(customers)
          .set({ groupId: null, payWay: "PERSONAL", updatedAt: now })
          .where(owned(ctx, customers, eq(customers.groupId, id), inArray(customers.id, slice))),
      ),
      ...slices(input.memberIds, IN_LIST).map((slice) =>
        ctx.db
          .update(customers)
          .set({ groupId: id, updatedAt: now })
          .where(owned(ctx, customers, inArray(customers.id, slice))),
      ),
      auditRow(ctx, { table: "customer_groups", module: "customerGroup", type: "UPDATE", oldData: presentGroup(before), newData: input }),
    ]);
    return presentGroup(updated, { memberIds: input.memberIds });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
});

/** Delete a group: its members stay customers, now outside any group and paying personally. */
export const deleteGroup = verb({ menu: GROUP_MENU, mutates: true }, async (ctx, id: number) => {
  const { group } = await findGroup(ctx, id);
  const now = new Date(ctx.now());
  await ctx.db.batch([
    ctx.db
      .update(customers)
      .set({ groupId: null, payWay: "PERSONAL", updatedAt: now })
      .where(owned(ctx, customers, eq(customers.groupId, id))),
    ctx.db.delete(customerGroups).where(owned(ctx, customerGroups, eq(customerGroups.id, id))),
    auditRow(ctx, { table: "customer_groups", module: "customerGroup", type: "DELETE", oldData: presentGroup(group) }),
  ]);
  return { id };
});
