import { count, desc, eq, exists, isNotNull, isNull, or, sql } from "drizzle-orm";
import { pageOf } from "../../../db/paging";
import { accountDeletionRequests, customers, deletionCodes } from "../../../db/schema";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import { accountDeletionConfirmInput, accountDeletionDecision, accountDeletionInput, accountDeletionListQuery } from "../../../domain/schemas/maintenance";
import { operatorByCode, operatorByHost, operatorById } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedBy, ownedRow } from "../../../tenants/scope";
import { auditRow } from "../audit";
import { systemCtx, type Ctx, type PublicCtx, type SystemCtx } from "../context";
import { translator } from "../../i18n";
import { mailTransportOf } from "../mail/mail-settings";
import { mailable } from "../mail/receipts";
import { verb } from "../verb";
import { assertUnderLimit, CODE_MINUTES, codeMatches, contactKey, deletionCodeRow, mailDeletionCode, usable } from "./deletion-codes";

/**
 * Drivers' account deletion (docs/rules/maintenance.md "Account deletion"): the public page
 * records a request; the operator completes it, erasing the customer's personal fields while their
 * sessions and money records stay, anonymised, or rejects it.
 */
export const DELETION_MENUS = ["users.userProfile"];

/** Writes the request the operator sees, with its log row, in one batch; answers its id. */
async function recordRequest(system: SystemCtx, request: { contact: string; customerId: number | null; reason: string | null }, codeRow?: Omit<typeof deletionCodes.$inferInsert, "operatorId">) {
  const [inserted] = await system.db.batch([
    system.db.insert(accountDeletionRequests).values(ownedRow(system, request)).returning({ id: accountDeletionRequests.id }),
    // The request counts towards the page's limits like any other (docs/rules/maintenance.md "Account deletion").
    ...(codeRow ? [system.db.insert(deletionCodes).values(ownedRow(system, { ...codeRow, requestId: sql<number>`last_insert_rowid()` }))] : []),
    auditRow(system, { table: "account_deletion_requests", module: "customer", type: "CREATE", newData: { contact: request.contact, customerId: request.customerId } }),
  ]);
  return inserted[0].id;
}

/**
 * The operator the public deletion page is for: the one whose own domain the page was opened
 * through, else the `operatorCode` of its address (the app's link); null when neither names one,
 * and the page then asks the driver to choose the operator by name (docs/rules/maintenance.md
 * "Account deletion"). Only what the page shows: the code and the name.
 */
export const deletionPageOperator = verb({ actors: ["public"] }, async (ctx: PublicCtx, host: string, operatorCode: string | null) => {
  const operator = (await operatorByHost(ctx.db, host)) ?? (operatorCode ? await operatorByCode(ctx.db, operatorCode) : undefined);
  if (!operator || operator.kind === "PLATFORM") return null;
  return { code: operator.code, name: operator.name };
});

/**
 * Records a request from the public page. The operator is the one whose own domain the request
 * came through, else the code typed. The answer never says whether a customer has this contact,
 * so the page cannot be used to learn who drives with the operator.
 *
 * With a mail server, a customer with an e-mail is mailed a code and the request waits for it
 * (`confirmAccountDeletion`); the answer carries the page's `ticket` whoever asked. A customer
 * without an e-mail goes to the operator at once, who verifies it, as without a mail server.
 */
export const requestAccountDeletion = verb({ actors: ["public"] }, async (ctx: PublicCtx, host: string, raw: unknown) => {
  const input = accountDeletionInput.parse(raw);
  const operator = (await operatorByHost(ctx.db, host)) ?? (await operatorByCode(ctx.db, input.operatorCode));
  if (!operator || operator.kind === "PLATFORM") throw new Invalid("maintenance.errors.operatorNotFound", {}, { operatorCode: "maintenance.errors.operatorNotFound" });
  const contact = input.contact;
  const system = systemCtx(ctx.env, operator, "account deletion page", ctx.now);
  system.request = ctx.request;
  await assertUnderLimit(system, contactKey(contact), ctx.request.ip);
  const [customer] = await ctx.db
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .where(ownedBy(operator.id, customers, or(sql`lower(${customers.email}) = ${contact.toLowerCase()}`, eq(customers.phone, contact))))
    .limit(1);
  const request = { contact, customerId: customer?.id ?? null, reason: input.reason || null };
  const withCode = await mailTransportOf(system);
  const code = withCode && customer && mailable(customer.email) ? await mailDeletionCode(system, customer.email) : null;
  const { ticket, row } = deletionCodeRow(system, { ...request, contact: contactKey(contact), client: ctx.request.ip, code });
  if (code !== null || (withCode && !customer)) {
    // Waits for the code; nobody can confirm a contact nobody has, and the answer is the same.
    await ctx.db.insert(deletionCodes).values(ownedRow(system, row));
  } else {
    await recordRequest(system, request, row);
  }
  // Without a mail server nothing proves the requester owns the account: the operator confirms it
  // through another channel before deleting, and the driver is told to expect that.
  return withCode
    ? { received: true as const, operatorName: operator.name, confirmation: "CODE" as const, ticket, minutes: CODE_MINUTES }
    : {
        received: true as const,
        operatorName: operator.name,
        confirmation: "OPERATOR" as const,
        message: translator(ctx.lang)("maintenance.deletion.operatorWillConfirm", { operator: operator.name }),
      };
});

/**
 * POST /customer-service/account-deletion/confirm {ticket, code}: the request reaches the operator
 * once the code is right. A wrong, spent, expired or unknown ticket gives one message, so this step
 * tells nothing about the contact either; a ticket takes `CODE_TRIES` wrong codes.
 */
export const confirmAccountDeletion = verb({ actors: ["public"] }, async (ctx: PublicCtx, raw: unknown) => {
  const input = accountDeletionConfirmInput.parse(raw);
  const wrong = () => new Invalid("mail.errors.deletionCodeWrong", {}, { code: "mail.errors.deletionCodeWrong" });
  // The ticket (128 random bits) names its row across operators, as a public receipt code does
  // (docs/decisions/0026-public-receipt-codes.md); everything after is done within that operator.
  const [found] = await ctx.db.select().from(deletionCodes).where(acrossTenants("a deletion ticket (128 random bits) names its row, the row its operator", eq(deletionCodes.ticket, input.ticket))).limit(1);
  if (!usable(found, ctx.now())) throw wrong();
  const operator = await operatorById(ctx.db, found.operatorId);
  if (!operator) throw wrong();
  const system = systemCtx(ctx.env, operator, "account deletion page", ctx.now);
  system.request = ctx.request;
  const pending = owned(system, deletionCodes, eq(deletionCodes.id, found.id), isNull(deletionCodes.confirmedAt));
  if (!codeMatches(ctx.env.PASSWORD_PEPPER, found.ticket, input.code, found.codeHash!)) {
    await ctx.db.update(deletionCodes).set({ attempts: sql`${deletionCodes.attempts} + 1` }).where(pending);
    throw wrong();
  }
  // Claimed first, so that a second click cannot send the operator the request twice.
  const [claimed] = await ctx.db.update(deletionCodes).set({ confirmedAt: new Date(ctx.now()) }).where(pending).returning({ id: deletionCodes.id });
  if (!claimed) throw wrong();
  const row = owned(system, deletionCodes, eq(deletionCodes.id, found.id));
  try {
    const requestId = await recordRequest(system, { contact: found.contact, customerId: found.customerId, reason: found.reason });
    await ctx.db.update(deletionCodes).set({ requestId }).where(row);
  } catch (error) {
    await ctx.db.update(deletionCodes).set({ confirmedAt: null }).where(row);
    throw error;
  }
  return { confirmed: true as const, operatorName: operator.name };
});

type Row = typeof accountDeletionRequests.$inferSelect;
const present = (r: Row, verified: boolean) => ({
  id: r.id,
  contact: r.contact,
  customerId: r.customerId,
  reason: r.reason,
  status: r.status,
  /** Whether the driver typed the code mailed to the customer's address; otherwise nothing proves they own the account. */
  verified,
  processedBy: r.processedBy,
  processedAt: r.processedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/**
 * Whether a request came through a mailed code the driver typed back (`confirmAccountDeletion`):
 * one without a mail server, or for a customer without an e-mail, reached the operator unproven.
 */
const codeConfirmed = (ctx: Ctx) =>
  sql<number>`${exists(
    ctx.db
      .select({ one: sql`1` })
      .from(deletionCodes)
      .where(owned(ctx, deletionCodes, eq(deletionCodes.requestId, accountDeletionRequests.id), isNotNull(deletionCodes.confirmedAt))),
  )}`;

export const listAccountDeletions = verb({ menu: DELETION_MENUS }, async (ctx, raw: unknown) => {
  const q = accountDeletionListQuery.parse(raw);
  const where = owned(ctx, accountDeletionRequests, q.status ? eq(accountDeletionRequests.status, q.status) : undefined);
  return pageOf(
    q,
    async ({ limit, offset }) =>
      (
        await ctx.db
          .select({ request: accountDeletionRequests, verified: codeConfirmed(ctx) })
          .from(accountDeletionRequests)
          .where(where)
          .orderBy(desc(accountDeletionRequests.createdAt), desc(accountDeletionRequests.id))
          .limit(limit)
          .offset(offset)
      ).map((r) => present(r.request, Boolean(r.verified))),
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
  const { result, identityConfirmedBy } = accountDeletionDecision.parse(raw);
  const [found] = await ctx.db
    .select({ request: accountDeletionRequests, verified: codeConfirmed(ctx) })
    .from(accountDeletionRequests)
    .where(owned(ctx, accountDeletionRequests, eq(accountDeletionRequests.id, id)))
    .limit(1);
  if (!found) throw new NotFound("maintenance.errors.deletionNotFound");
  const before = found.request;
  const verified = Boolean(found.verified);
  if (before.status !== "PENDING") throw new Conflict("maintenance.errors.deletionDone");
  // Nothing proved the requester owns the account: the operator confirms it through another
  // channel first and says how, which the log keeps (docs/rules/maintenance.md "Account deletion").
  if (result === "DONE" && !verified && !identityConfirmedBy) {
    throw new Invalid("maintenance.validation.identityConfirmedBy", {}, { identityConfirmedBy: "maintenance.validation.identityConfirmedBy" });
  }
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
    auditRow(ctx, {
      table: "account_deletion_requests",
      module: "customer",
      type: "UPDATE",
      oldData: { id, status: before.status },
      newData: { id, status: result, customerId: before.customerId, verified, ...(identityConfirmedBy && { identityConfirmedBy }) },
    }),
  ]);
  if (!updated[0]) throw new Conflict("maintenance.errors.deletionDone");
  return present(updated[0], verified);
});
