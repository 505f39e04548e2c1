import { count, desc, eq, or, sql } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { accountDeletionRequests, customers } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { accountDeletionDecision, accountDeletionInput, accountDeletionListQuery } from "../../../domain/schemas/maintenance";
import { operatorByCode, operatorByHost } from "../../../tenants/resolve";
import { owned, ownedBy, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { systemCtx, type PublicCtx } from "../context";
import { verb } from "../verb";

/**
 * Drivers' account deletion (docs/rules/maintenance.md "Account deletion"): the public page
 * records a request; the operator completes it, erasing the customer's personal fields while their
 * sessions and money records stay, anonymised, or rejects it.
 */
export const DELETION_MENUS = ["users.userProfile"];

/**
 * Records a request from the public page. The operator is the one whose own domain the request
 * came through, else the code typed. The answer never says whether a customer has this contact,
 * so the page cannot be used to learn who drives with the operator.
 */
export const requestAccountDeletion = verb({ actors: ["public"] }, async (ctx: PublicCtx, host: string, raw: unknown) => {
  const input = accountDeletionInput.parse(raw);
  const operator = (await operatorByHost(ctx.db, host)) ?? (await operatorByCode(ctx.db, input.operatorCode));
  if (!operator || operator.kind === "PLATFORM") throw new Invalid("maintenance.errors.operatorNotFound", {}, { operatorCode: "maintenance.errors.operatorNotFound" });
  const contact = input.contact;
  const [customer] = await ctx.db
    .select({ id: customers.id })
    .from(customers)
    .where(ownedBy(operator.id, customers, or(sql`lower(${customers.email}) = ${contact.toLowerCase()}`, eq(customers.phone, contact))))
    .limit(1);
  const system = systemCtx(ctx.env, operator, "account deletion page", ctx.now);
  system.request = ctx.request;
  await ctx.db.batch([
    ctx.db.insert(accountDeletionRequests).values(ownedRow(system, { contact, customerId: customer?.id ?? null, reason: input.reason || null })),
    auditRow(system, { table: "account_deletion_requests", module: "customer", type: "CREATE", newData: { contact, customerId: customer?.id ?? null } }),
  ]);
  return { received: true as const, operatorName: operator.name };
});

type Row = typeof accountDeletionRequests.$inferSelect;
const present = (r: Row) => ({
  id: r.id,
  contact: r.contact,
  customerId: r.customerId,
  reason: r.reason,
  status: r.status,
  processedBy: r.processedBy,
  processedAt: r.processedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

export const listAccountDeletions = verb({ menu: DELETION_MENUS }, async (ctx, raw: unknown) => {
  const q = accountDeletionListQuery.parse(raw);
  const where = owned(ctx, accountDeletionRequests, q.status ? eq(accountDeletionRequests.status, q.status) : undefined);
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (await ctx.db.select().from(accountDeletionRequests).where(where).orderBy(desc(accountDeletionRequests.createdAt), desc(accountDeletionRequests.id)).limit(limit).offset(offset)).map(present),
    async () => (await ctx.db.select({ total: count() }).from(accountDeletionRequests).where(where))[0].total,
  );
});

/**
 * Completes (DONE) or rejects a pending request, once. Completing erases the customer's personal
 * fields: names, e-mail (replaced by a unique placeholder, the address being unique per operator),
 * phone, address, tax and id numbers, avatar and car; the customer is blocked from charging. Their
 * charge records and money records keep their amounts and point at the anonymised customer.
 */
export const decideAccountDeletion = verb({ menu: DELETION_MENUS, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { result } = accountDeletionDecision.parse(raw);
  const [before] = await ctx.db.select().from(accountDeletionRequests).where(owned(ctx, accountDeletionRequests, eq(accountDeletionRequests.id, id))).limit(1);
  if (!before) throw new NotFound("maintenance.errors.deletionNotFound");
  if (before.status !== "PENDING") throw new Conflict("maintenance.errors.deletionDone");
  const at = new Date(ctx.now());
  const erase =
    result === "DONE" && before.customerId !== null
      ? [
          ctx.db
            .update(customers)
            .set({
              firstName: "—",
              lastName: "—",
              email: `deleted-${before.customerId}@invalid`,
              phone: null,
              city: null,
              district: null,
              street: null,
              houseNumber: null,
              state: null,
              complement: null,
              cpf: null,
              idCard: null,
              avatarKey: null,
              carPlate: null,
              carBrand: null,
              carModel: null,
              status: "ABNORMAL",
              updatedAt: at,
            })
            .where(owned(ctx, customers, eq(customers.id, before.customerId))),
        ]
      : [];
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(accountDeletionRequests)
      .set({ status: result, processedBy: ctx.actor.username, processedAt: at })
      .where(owned(ctx, accountDeletionRequests, eq(accountDeletionRequests.id, id), eq(accountDeletionRequests.status, "PENDING")))
      .returning(),
    ...erase,
    auditRow(ctx, { table: "account_deletion_requests", module: "customer", type: "UPDATE", oldData: { id, status: before.status }, newData: { id, status: result, customerId: before.customerId } }),
  ]);
  if (!updated[0]) throw new Conflict("maintenance.errors.deletionDone");
  return present(updated[0]);
});
