import { and, asc, count, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import { containing, containingIf } from "../../../db/like";
import { groupBy, pageOf, rowsFor } from "../../../db/paging";
import { customerGroups, customerPoints, customers, idTags, points, rfCards, stations } from "../../../db/schema";
import { batchOf, IN_LIST, isUniqueViolation, slices } from "../../../db/statements";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { customerInputFor, customerListQuery, customerRulesOf, customerStatusInput, optionsQuery, type CustomerRules } from "../../../domain/schemas/drivers";
import { operatorSettings } from "../settings/parameter-settings";
import { owned, ownedRow, ownedRows } from "../../../tenants/scope";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { ownedCount } from "../owned-count";
import { verb } from "../verb";
import { enqueue, pushItemIds, pushItemInserts } from "../driver-services/offline-lists";
import { customerRemovals, listsHoldingTagsOf, refuseKeptHistory } from "./customer-removal";
import { customerTokens, tokensChanged } from "../ocpi/token-push";
import { customerGroupJoin, customerJoin } from "./joins";

/**
 * User management › Customers (docs/rules/drivers.md "Customers"). Changing customers is the
 * customer screen's permission; the card, group and group-list screens read them to pick owners
 * and members.
 */
export const CUSTOMER_MENU = "users.userProfile";
export const CUSTOMER_READ_MENUS = [
  CUSTOMER_MENU,
  "users.rfCard",
  "users.userGroup",
  "users.groupList",
  // The recharge and bill screens pick the customer they recharge or filter by (docs/rules/wallets.md).
  "users.userRecharge",
  "finance.billManagement",
  "finance.expenseRecord",
];

type CustomerRow = typeof customers.$inferSelect;

/** Customer-point rows per insert: three bound columns each. */
const POINT_ROWS = 30;

export const customerName = (c: { firstName: string; lastName: string }) => `${c.firstName} ${c.lastName}`;
/** The full name as SQL, for searching "Anna Nowak" as well as "Nowak". */
const fullName = sql`${customers.firstName} || ' ' || ${customers.lastName}`;

export function presentCustomer(c: CustomerRow, extras: { chargePointList?: number[]; groupName?: string | null } = {}) {
  return {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    name: customerName(c),
    gender: c.gender,
    email: c.email,
    phone: c.phone,
    country: c.country,
    city: c.city,
    zipCode: c.zipCode,
    district: c.district,
    street: c.street,
    houseNumber: c.houseNumber,
    state: c.state,
    complement: c.complement,
    cpf: c.cpf,
    idCard: c.idCard,
    avatarKey: c.avatarKey,
    evModel: c.evModel,
    carPlate: c.carPlate,
    carBrand: c.carBrand,
    carModel: c.carModel,
    memberLevel: c.memberLevel,
    /** Until when a SILVER or GOLD level is paid (docs/rules/wallets.md "Membership"). */
    memberUntil: c.memberUntil?.toISOString() ?? null,
    /** Minor units of the operator's currency. */
    balance: c.balance,
    /** Minor units of the operator's currency. */
    overdraftCredit: c.overdraftCredit,
    payWay: c.payWay,
    groupId: c.groupId,
    groupName: extras.groupName ?? null,
    chargeAllPoint: c.chargeAllPoint,
    chargePointList: c.chargeAllPoint ? [] : (extras.chargePointList ?? []),
    status: c.status,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
export type Customer = ReturnType<typeof presentCustomer>;

/** One of the operator's customers; another operator's is 404. */
export async function findCustomer(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(owned(ctx, customers, eq(customers.id, id)))
    .limit(1);
  if (!row) throw new NotFound("drivers.errors.customerNotFound");
  return row;
}

/** The points each customer of a page may charge at, read in slices (docs/rules/lists.md "D1's 100 parameters"). */
async function pointListsOf(ctx: UserCtx, customerIds: number[]) {
  const rows = await rowsFor(customerIds, (slice) =>
    ctx.db
      .select({ customerId: customerPoints.customerId, pointId: customerPoints.pointId })
      .from(customerPoints)
      .where(owned(ctx, customerPoints, inArray(customerPoints.customerId, slice)))
      .orderBy(asc(customerPoints.pointId)),
  );
  const lists = groupBy(rows, (r) => r.customerId);
  return (id: number) => (lists.get(id) ?? []).map((r) => r.pointId);
}


/** Customers, newest first, filtered and paged on the server (docs/rules/lists.md). */
export const listCustomers = verb({ menu: CUSTOMER_READ_MENUS }, async (ctx, raw: unknown) => {
  const q = customerListQuery.parse(raw);
  const where = owned(
    ctx,
    customers,
    containingIf(fullName, q.name),
    containingIf(customers.email, q.email),
    containingIf(customers.phone, q.phone),
    q.memberLevel ? eq(customers.memberLevel, q.memberLevel) : undefined,
    q.status ? eq(customers.status, q.status) : undefined,
    q.groupId ? eq(customers.groupId, q.groupId) : undefined,
  );
  const page = await pageOf(
    q,
    ({ limit, offset }) =>
      ctx.db
        .select({ customer: customers, groupName: customerGroups.name })
        .from(customers)
        .leftJoin(customerGroups, customerGroupJoin(ctx))
        .where(where)
        .orderBy(desc(customers.id))
        .limit(limit)
        .offset(offset),
    async () => (await ctx.db.select({ total: count() }).from(customers).where(where))[0].total,
  );
  const pointList = await pointListsOf(
    ctx,
    page.records.filter((r) => !r.customer.chargeAllPoint).map((r) => r.customer.id),
  );
  return { ...page, records: page.records.map((r) => presentCustomer(r.customer, { groupName: r.groupName, chargePointList: pointList(r.customer.id) })) };
});

/** Customers matching a name or e-mail, for the owner and member pickers (docs/rules/lists.md "Pickers"). */
export const customerOptions = verb({ menu: CUSTOMER_READ_MENUS }, async (ctx, raw: unknown) => {
  const { keyword } = optionsQuery.parse(raw);
  const rows = await ctx.db
    .select({ id: customers.id, firstName: customers.firstName, lastName: customers.lastName, email: customers.email, groupId: customers.groupId })
    .from(customers)
    .where(owned(ctx, customers, keyword ? or(containing(fullName, keyword), containing(customers.email, keyword)) : undefined))
    .orderBy(asc(customers.firstName), asc(customers.lastName), asc(customers.id))
    .limit(20);
  return rows.map((c) => ({ id: c.id, name: customerName(c), email: c.email, groupId: c.groupId }));
});

/** Points for the "may charge at" picker of the customer form: matching a serial number or name, capped. */
export const chargePointOptions = verb({ menu: CUSTOMER_MENU }, async (ctx, raw: unknown) => {
  const { keyword } = optionsQuery.parse(raw);
  return ctx.db
    .select({ id: points.id, serialNumber: points.serialNumber, name: points.name, stationName: stations.name })
    .from(points)
    .innerJoin(stations, eq(stations.id, points.stationId))
    .where(owned(ctx, points, keyword ? or(containing(points.serialNumber, keyword), containing(points.name, keyword)) : undefined))
    .orderBy(asc(points.serialNumber))
    .limit(50);
});

/**
 * A customer with what the detail page shows (docs/rules/drivers.md "Customer detail"): the
 * profile, the group and who pays (the leader for a LEADER member), the cards, and the points the
 * customer may charge at.
 */
export const customerDetail = verb({ menu: CUSTOMER_MENU }, async (ctx, id: number) => {
  const customer = await findCustomer(ctx, id);
  const [group] = customer.groupId
    ? await ctx.db
        .select({
          id: customerGroups.id,
          name: customerGroups.name,
          code: customerGroups.code,
          leaderId: customerGroups.leaderId,
          leaderFirstName: customers.firstName,
          leaderLastName: customers.lastName,
          leaderBalance: customers.balance,
        })
        .from(customerGroups)
        .leftJoin(customers, customerJoin(ctx, customerGroups.leaderId))
        .where(owned(ctx, customerGroups, eq(customerGroups.id, customer.groupId)))
        .limit(1)
    : [];
  const [cards, allowed] = await Promise.all([
    ctx.db
      .select()
      .from(rfCards)
      .where(owned(ctx, rfCards, eq(rfCards.customerId, id)))
      .orderBy(desc(rfCards.id))
      .limit(200),
    ctx.db
      .select({ id: points.id, serialNumber: points.serialNumber, name: points.name })
      .from(customerPoints)
      .innerJoin(points, eq(points.id, customerPoints.pointId))
      .where(owned(ctx, customerPoints, eq(customerPoints.customerId, id)))
      .orderBy(asc(points.serialNumber))
      .limit(500),
  ]);
  const leader = group?.leaderId && group.leaderFirstName !== null ? { id: group.leaderId, name: `${group.leaderFirstName} ${group.leaderLastName}` } : null;
  return {
    customer: presentCustomer(customer, { groupName: group?.name ?? null, chargePointList: allowed.map((p) => p.id) }),
    group: group ? { id: group.id, name: group.name, code: group.code, leader } : null,
    /** Whose balance pays this customer's sessions: the leader's for a LEADER member of a group. */
    paysFrom:
      customer.payWay === "LEADER" && leader && group
        ? { kind: "LEADER" as const, customerId: leader.id, name: leader.name, balance: group.leaderBalance ?? 0 }
        : { kind: "PERSONAL" as const, customerId: customer.id, name: customerName(customer), balance: customer.balance },
    // A lost card keeps its owner, so both cards of a resume are here (docs/rules/drivers.md "Lost cards").
    cards: cards.map((c) => ({
      id: c.id,
      cardName: c.cardName,
      idTag: c.idTag,
      status: c.status,
      bindStatus: c.bindStatus,
      expiryDate: c.expiryDate?.toISOString() ?? null,
      replacesIdTag: cards.find((old) => old.id === c.replacesCardId)?.idTag ?? null,
      replacedByIdTag: cards.find((next) => next.replacesCardId === c.id)?.idTag ?? null,
    })),
    chargePoints: allowed,
  };
});

const emailTaken = () => new Invalid("drivers.validation.emailTaken", {}, { email: "drivers.validation.emailTaken" });
const sameEmail = (email: string) => sql`lower(${customers.email}) = lower(${email})`;

/** Whether another of the operator's customers has this e-mail address (compared case-insensitively). */
async function emailUsed(ctx: UserCtx, email: string, exceptId?: number) {
  const [row] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(owned(ctx, customers, sameEmail(email), exceptId === undefined ? undefined : ne(customers.id, exceptId)))
    .limit(1);
  return row !== undefined;
}

/** An avatar must be a file this operator uploaded. */
async function checkAvatar(ctx: UserCtx, key: string | null) {
  if (key === null) return;
  const fail = () => new Invalid("drivers.validation.avatar", {}, { avatarKey: "drivers.validation.avatar" });
  if (!key.startsWith(`operators/${ctx.operator.id}/`)) throw fail();
  if (!(await ctx.env.FILES.head(key))) throw fail();
}

/** The references a customer's input makes must be the operator's own: its group and its points (404 otherwise). */
type CustomerInput = ReturnType<ReturnType<typeof customerInputFor>["parse"]>;

/** What the operator's customer form asks for: its country and its settings (docs/rules/drivers.md "What the customer form asks"). */
export async function customerRules(ctx: UserCtx): Promise<CustomerRules> {
  const settings = await operatorSettings(ctx);
  return customerRulesOf(settings.ocpi.countryCode, settings.customerFields);
}

async function checkReferences(ctx: UserCtx, input: CustomerInput) {
  await checkAvatar(ctx, input.avatarKey);
  if (input.groupId !== null) {
    const [group] = await ctx.db
      .select({ id: customerGroups.id })
      .from(customerGroups)
      .where(owned(ctx, customerGroups, eq(customerGroups.id, input.groupId)))
      .limit(1);
    if (!group) throw new NotFound("drivers.errors.groupNotFound");
  }
  const pointIds = input.chargeAllPoint ? [] : input.chargePointList;
  if ((await ownedCount(ctx, points, pointIds)) !== pointIds.length) throw new NotFound("errors.pointNotFound");
}

function rowValues(input: CustomerInput) {
  const { chargePointList: _points, ...values } = input;
  return values;
}


/**
 * A new customer: NORMAL member level, zero balance, user status NORMAL (docs/rules/drivers.md
 * "Customers"). The customer and the points it may charge at are written in one batch: the point
 * rows find the new customer by its e-mail address, unique within the operator.
 */
export const createCustomer = verb({ menu: CUSTOMER_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = customerInputFor(await customerRules(ctx)).parse(raw);
  await checkReferences(ctx, input);
  if (await emailUsed(ctx, input.email)) throw emailTaken();
  const values = rowValues(input);
  const now = new Date(ctx.now());
  const pointIds = input.chargeAllPoint ? [] : input.chargePointList;
  try {
    const [[created]] = await ctx.db.batch([
      ctx.db
        .insert(customers)
        .values(ownedRow(ctx, { ...values, createdAt: now, updatedAt: now }))
        .returning(),
      ...slices(pointIds, IN_LIST).map((slice) =>
        ctx.db.insert(customerPoints).select(
          ctx.db
            .select({ id: sql<number>`NULL`.as("id"), operatorId: customers.operatorId, customerId: customers.id, pointId: points.id })
            .from(customers)
            .innerJoin(points, and(eq(points.operatorId, customers.operatorId), inArray(points.id, slice)))
            .where(owned(ctx, customers, sameEmail(input.email))),
        ),
      ),
      auditRow(ctx, { table: "customers", module: "customer", type: "CREATE", newData: input }),
    ]);
    return presentCustomer(created, { chargePointList: pointIds });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
});

/** The group a customer leads, if any: a leader stays in its group (docs/rules/drivers.md "Customer groups"). */
async function ledGroup(ctx: UserCtx, customerId: number) {
  const [group] = await ctx.db
    .select({ id: customerGroups.id, name: customerGroups.name })
    .from(customerGroups)
    .where(owned(ctx, customerGroups, eq(customerGroups.leaderId, customerId)))
    .limit(1);
  return group;
}

/** Edit a customer; its member level, balance and status are not changed here. */
export const updateCustomer = verb({ menu: CUSTOMER_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findCustomer(ctx, id);
  const input = customerInputFor(await customerRules(ctx)).parse(raw);
  await checkReferences(ctx, input);
  if (await emailUsed(ctx, input.email, id)) throw emailTaken();
  if (before.groupId !== null && input.groupId !== before.groupId) {
    const led = await ledGroup(ctx, id);
    if (led) throw new Conflict("drivers.errors.leaderLeaves", { group: led.name });
  }
  const values = rowValues(input);
  const pointIds = input.chargeAllPoint ? [] : input.chargePointList;
  const ofCustomer = owned(ctx, customerPoints, eq(customerPoints.customerId, id));
  try {
    const [[updated]] = await ctx.db.batch([
      ctx.db
        .update(customers)
        .set({ ...values, updatedAt: new Date(ctx.now()) })
        .where(owned(ctx, customers, eq(customers.id, id)))
        .returning(),
      ctx.db.delete(customerPoints).where(ofCustomer),
      ...slices(
        pointIds.map((pointId) => ({ customerId: id, pointId })),
        POINT_ROWS,
      ).map((rows) => ctx.db.insert(customerPoints).values(ownedRows(ctx, rows))),
      auditRow(ctx, { table: "customers", module: "customer", type: "UPDATE", oldData: presentCustomer(before), newData: input }),
    ]);
    return presentCustomer(updated, { chargePointList: pointIds });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
});

/**
 * PUT /customer-service/customer/{id}/status: an ABNORMAL customer cannot charge, every tag of
 * theirs answers Blocked from the next Authorize on (docs/rules/drivers.md "Who may charge").
 */
export const setCustomerStatus = verb({ menu: CUSTOMER_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findCustomer(ctx, id);
  const { status } = customerStatusInput.parse(raw);
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(customers)
      .set({ status, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, customers, eq(customers.id, id)))
      .returning(),
    auditRow(ctx, { table: "customers", module: "customer", type: "UPDATE", oldData: { id, status: before.status }, newData: { id, status } }),
  ]);
  // Its tokens' validity follows: partners that take our tokens hear of it (docs/rules/ocpi.md "Token pushes").
  await tokensChanged(ctx, await customerTokens(ctx, id));
  return presentCustomer(updated);
});

/**
 * Delete a customer: refused while it leads a group (choose another leader first), holds money
 * (a balance is the driver's), or has a reservation a charger still holds, bills or charge records
 * (its history is kept). In one batch its cards become unbound, its other tags lose their holder,
 * its vehicles and offline-list memberships go, and every charger holding one of its tags gets a
 * push item, handed to the queue once the batch has landed, that blocks the tag there.
 */
export const deleteCustomer = verb({ menu: CUSTOMER_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findCustomer(ctx, id);
  const led = await ledGroup(ctx, id);
  if (led) throw new Conflict("drivers.errors.leaderDelete", { group: led.name });
  if (before.balance !== 0) throw new Conflict("drivers.errors.balanceDelete");
  await refuseKeptHistory(ctx, id);
  const pushes = pushItemInserts(ctx, await listsHoldingTagsOf(ctx, id), null);
  const tokens = await customerTokens(ctx, id);
  const now = new Date(ctx.now());
  const results = await batchOf(ctx.db, [
    ...pushes,
    ...customerRemovals(ctx, id),
    ctx.db
      .update(rfCards)
      .set({ customerId: null, bindStatus: "UNBIND", updatedAt: now })
      .where(owned(ctx, rfCards, eq(rfCards.customerId, id))),
    ctx.db.update(idTags).set({ customerId: null }).where(owned(ctx, idTags, eq(idTags.customerId, id))),
    ctx.db.delete(customerPoints).where(owned(ctx, customerPoints, eq(customerPoints.customerId, id))),
    ctx.db.delete(customers).where(owned(ctx, customers, eq(customers.id, id))),
    auditRow(ctx, { table: "customers", module: "customer", type: "DELETE", oldData: presentCustomer(before) }),
  ]);
  await enqueue(ctx, pushItemIds(results.slice(0, pushes.length)));
  await tokensChanged(ctx, tokens);
  return { id };
});
