import { and, eq, exists, isNull, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { bills, chargeRecords, customers, ocpiCdrs, ocpiPlatforms, operators } from "../../../db/schema";
import { Conflict, NotFound } from "../../../domain/errors";
import { checkCdrMoney, type CdrHoldReason } from "../../../domain/ocpi/cdr-checks";
import { cdrCharge, currencyDecimals, whOf, type CdrBillingStatus, type RoamingFacts } from "../../../domain/ocpi/cdr-price";
import type { CdrBillingMessage } from "../../../domain/schemas/billing";
import type { OcpiCdr } from "../../../domain/schemas/ocpi/cdrs";
import { ROAMING_RECORD_BASE } from "../../../domain/schemas/records";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned } from "../../../tenants/scope";
import { reportError } from "../../http/report-error";
import { queueSettlement } from "../billing/deliveries";
import { settleStatements } from "../billing/settlement";
import { payerOf, type Payer } from "../drivers/payer";
import { openRecordStatements } from "../charge-records/lifecycle";
import { auditRow } from "../audit";
import { systemCtx, type Ctx, type PartnerCtx, type SystemCtx, type UserCtx } from "../context";
import { verb } from "../verb";
import { ourIdentity } from "./identity";

/**
 * A partner's CDR billed to the driver behind its token (docs/rules/ocpi.md "CDRs billed to the
 * wallet"): it becomes a roaming charge record (docs/decisions/0063-roaming-charge-records.md)
 * priced by the CDR's total (docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md) and is
 * debited from the wallet by the same statements as our own sessions (docs/rules/billing.md
 * "Debits"), in one D1 batch, through the billing queue so that the partner's POST answers at once.
 */

/** A roaming record's number (docs/decisions/0063-roaming-charge-records.md). */
export const roamingRecordId = (cdrRowId: number) => ROAMING_RECORD_BASE + cdrRowId;

/** The roaming CDRs screen, whose verbs review held CDRs (docs/decisions/0006-verbs-declare-their-access.md). */
const CDR_MENU = "emsp.cdr";

/** A CDR left PENDING this long (its message lost, or pulled rather than posted) is queued again by the cron. */
export const PENDING_CDR_AFTER_MS = 10 * 60 * 1000;

/** Hands a stored CDR to the billing queue; a failed send is left to the cron's sweep. */
export async function queueCdrBilling(ctx: Pick<PartnerCtx, "env" | "operator" | "afterAnswer">, cdrRowId: number) {
  const sent = ctx.env.BILLING.send({ kind: "cdr", cdrRowId, operatorId: ctx.operator.id, operatorCode: ctx.operator.code } satisfies CdrBillingMessage).catch((error) =>
    reportError("ocpi", error, { cdrRowId }),
  );
  if (ctx.afterAnswer) ctx.afterAnswer(sent);
  else await sent;
}

/**
 * The driver behind a CDR's token: the token must be one we issued (our country code and party
 * id, OCPI 2.2.1 §12.4.2), and its uid one of our cards or tags held by a customer; else nobody.
 */
async function driverOf(ctx: Ctx, cdr: OcpiCdr): Promise<Payer | null> {
  const identity = await ourIdentity(ctx).catch(() => undefined);
  if (!identity || cdr.cdr_token.country_code !== identity.countryCode || cdr.cdr_token.party_id !== identity.partyId) return null;
  return payerOf(ctx, cdr.cdr_token.uid);
}

function factsOf(row: typeof ocpiCdrs.$inferSelect, platformName: string, cdr: OcpiCdr, costLines: RoamingFacts["costLines"], vatIncluded: boolean): RoamingFacts {
  const place = cdr.cdr_location;
  return {
    cdrRowId: row.id,
    platformId: row.platformId,
    platformName,
    countryCode: row.countryCode,
    partyId: row.partyId,
    cdrId: cdr.id,
    sessionId: cdr.session_id ?? null,
    tokenUid: cdr.cdr_token.uid,
    locationId: place.id,
    locationName: place.name ?? null,
    address: place.address,
    city: place.city,
    evseId: place.evse_id,
    connectorId: place.connector_id,
    stopAt: row.endAt.toISOString(),
    energyWh: whOf(cdr.total_energy),
    costLines,
    vatIncluded,
  };
}

/** What settling a CDR made of it. */
export interface CdrOutcome {
  billed: boolean;
  status: CdrBillingStatus | undefined;
  recordId?: number;
  holdReason?: CdrHoldReason;
}

type CdrRow = typeof ocpiCdrs.$inferSelect;

/**
 * The debit a credit CDR refers to (OCPI 2.2.1 §10.4.1 `credit_reference_id`): a CDR the same
 * platform and party sent us whose record's bill debited a wallet from the balance, with what
 * earlier credits gave back of it; null when we hold none.
 */
async function creditedDebitOf(ctx: Ctx, row: CdrRow, cdr: OcpiCdr) {
  if (!cdr.credit_reference_id) return null;
  const [credited] = await ctx.db
    .select({ id: ocpiCdrs.id, returned: ocpiCdrs.credited, debited: bills.cost, payerId: bills.customerId })
    .from(ocpiCdrs)
    .innerJoin(
      bills,
      and(
        eq(bills.operatorId, ocpiCdrs.operatorId),
        eq(bills.transactionId, sql`${ROAMING_RECORD_BASE} + ${ocpiCdrs.id}`),
        eq(bills.phase, "FINAL"),
        eq(bills.status, "PaySuccess"),
        eq(bills.paymentMethod, "BALANCE"),
        eq(bills.applied, true),
      ),
    )
    .where(
      owned(
        ctx,
        ocpiCdrs,
        eq(ocpiCdrs.platformId, row.platformId),
        eq(ocpiCdrs.countryCode, row.countryCode),
        eq(ocpiCdrs.partyId, row.partyId),
        eq(ocpiCdrs.cdrId, cdr.credit_reference_id),
        eq(ocpiCdrs.billingStatus, "BILLED"),
      ),
    )
    .limit(1);
  return credited ?? null;
}

/**
 * A credit given back, once, in one batch (docs/rules/ocpi.md "What a CDR may bill"): the credit
 * CDR turns CREDITED only while the CDR it credits has that much of its debit left (the check is
 * in the statement, so two credits of one CDR at once never give back more than it debited); then
 * a `Charging` bill of phase REFUND with the amount negative (its unique key on the credit's own
 * number), the payer's balance, the credited CDR's running total and the bill's `applied` mark.
 */
function creditStatements(ctx: Ctx, row: CdrRow, from: CdrBillingStatus, credited: { id: number; payerId: number; debited: number }, amount: number, remark: string) {
  const now = ctx.now();
  const number = roamingRecordId(row.id);
  const creditedRow = owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, credited.id));
  const left = sql`(select ${credited.debited} - ${ocpiCdrs.credited} from ${ocpiCdrs} where ${creditedRow})`;
  const mark = ctx.db
    .update(ocpiCdrs)
    .set({ billingStatus: "CREDITED", chargeRecordId: roamingRecordId(credited.id) })
    .where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, row.id), eq(ocpiCdrs.billingStatus, from), sql`${amount} <= ${left}`));
  const done = owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, row.id), eq(ocpiCdrs.billingStatus, "CREDITED"));
  const payer = owned(ctx, customers, eq(customers.id, credited.payerId));
  const insertBill = ctx.db
    .insert(bills)
    .select(
      sql`select null, ${customers.operatorId}, ${customers.id}, ${-amount}, ${customers.balance}, ${customers.balance} + ${amount},
            ${customers.memberLevel}, ${customers.memberLevel}, 'Charging', 'BALANCE', 'PaySuccess',
            ${remark}, ${String(number)}, ${number}, 'REFUND', 0, ${now}, ${now}
          from ${customers} where ${payer} and exists (select 1 from ${ocpiCdrs} where ${done})`,
    )
    .onConflictDoNothing();
  const unapplied = owned(ctx, bills, eq(bills.transactionId, number), eq(bills.phase, "REFUND"), eq(bills.applied, false));
  const given = sql`(select -${bills.cost} from ${bills} where ${unapplied})`;
  const pending = exists(ctx.db.select({ one: sql`1` }).from(bills).where(unapplied));
  return [
    mark,
    insertBill,
    ctx.db.update(customers).set({ balance: sql`${customers.balance} + ${given}`, updatedAt: new Date(now) }).where(owned(ctx, customers, eq(customers.id, credited.payerId), pending)),
    ctx.db.update(ocpiCdrs).set({ credited: sql`${ocpiCdrs.credited} + ${given}` }).where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, credited.id), pending)),
    ctx.db.update(bills).set({ applied: true }).where(unapplied),
  ];
}

const remarkOf = (row: CdrRow, platformName: string | null, cdr: OcpiCdr) =>
  `OCPI ${platformName ?? row.platformId} ${row.countryCode}*${row.partyId} CDR ${cdr.id}${cdr.credit ? ` credits ${cdr.credit_reference_id ?? ""}` : ""}`.slice(0, 200);

/**
 * Settles one stored CDR from `from` (PENDING: the billing job; HELD: the operator's release),
 * once: a CDR in another state is left alone, and every statement of the batch is conditioned (the
 * record's insert on its key, its price on CHARGING, the debit on the bill's unique key, the flag
 * on `from`), so a message delivered twice, or twice at once, bills once. Its money passes
 * `checkCdrMoney` first (docs/rules/ocpi.md "What a CDR may bill"): what the rule holds is HELD
 * with its reason, never billed. `also`: statements that go with the change (the release's log row).
 */
async function settleCdr(
  ctx: Ctx,
  cdrRowId: number,
  from: "PENDING" | "HELD",
  also: (outcome: CdrOutcome) => BatchItem<"sqlite">[] = () => [],
  again = true,
): Promise<CdrOutcome> {
  const [row] = await ctx.db
    .select({ cdr: ocpiCdrs, platformName: ocpiPlatforms.name })
    .from(ocpiCdrs)
    .leftJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, ocpiCdrs.platformId), eq(ocpiPlatforms.operatorId, ocpiCdrs.operatorId)))
    .where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, cdrRowId)))
    .limit(1);
  if (!row) return { billed: false, status: undefined };
  if (row.cdr.billingStatus !== from) return { billed: false, status: row.cdr.billingStatus };
  const cdr = row.cdr.data as OcpiCdr;
  const released = from === "HELD";
  const pending = owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, row.cdr.id), eq(ocpiCdrs.billingStatus, from));
  const flag = (status: CdrBillingStatus, chargeRecordId: number | null = null, holdReason?: CdrHoldReason) =>
    ctx.db.update(ocpiCdrs).set({ billingStatus: status, chargeRecordId, ...(holdReason ? { holdReason } : {}) }).where(pending);
  const finish = async (outcome: CdrOutcome, statements: BatchItem<"sqlite">[]) => {
    await ctx.db.batch([...statements, ...also(outcome)] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    return outcome;
  };
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const main = mainCurrencyOf(settings.parameters);
  const facts = { currency: { code: main.code, decimals: main.decimals }, limit: settings.parameters.roamingCdrLimit, released };
  const held = (reason: CdrHoldReason): Promise<CdrOutcome> | CdrOutcome =>
    // A release the rule still refuses changes nothing: the operator is told why.
    released ? { billed: false, status: "HELD", holdReason: reason } : finish({ billed: false, status: "HELD", holdReason: reason }, [flag("HELD", null, reason)]);

  if (cdr.credit) {
    const credited = await creditedDebitOf(ctx, row.cdr, cdr);
    const verdict = checkCdrMoney(cdr, { ...facts, credited: credited && { debited: credited.debited, returned: credited.returned } });
    if (verdict.kind !== "CREDIT" || !credited) return held(verdict.kind === "HOLD" ? verdict.reason : "CREDIT_REFERENCE");
    const outcome = await finish({ billed: true, status: "CREDITED", recordId: roamingRecordId(credited.id) }, creditStatements(ctx, row.cdr, from, credited, verdict.amount, remarkOf(row.cdr, row.platformName, cdr)));
    // Another credit of the same CDR took what was left between the read and the batch: judged again on what is left now.
    const [after] = await ctx.db.select({ status: ocpiCdrs.billingStatus }).from(ocpiCdrs).where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, row.cdr.id))).limit(1);
    if (after?.status === "CREDITED") return outcome;
    return after?.status === from && again ? settleCdr(ctx, cdrRowId, from, also, false) : { billed: false, status: after?.status };
  }
  const verdict = checkCdrMoney(cdr, facts);
  if (verdict.kind === "HOLD" && verdict.reason === "NEGATIVE_TOTAL") return held(verdict.reason);
  const driver = await driverOf(ctx, cdr);
  if (!driver) return finish({ billed: false, status: "UNKNOWN_TOKEN" }, [flag("UNKNOWN_TOKEN")]);
  if (verdict.kind === "HOLD") return held(verdict.reason);
  // A CDR in another currency is recorded in it and never debited from a wallet kept in ours.
  const sameCurrency = verdict.kind === "DEBIT";
  const charge = cdrCharge(cdr, sameCurrency ? main.decimals : currencyDecimals(cdr.currency));
  const id = roamingRecordId(row.cdr.id);
  const now = new Date(ctx.now());
  const status: CdrBillingStatus = sameCurrency ? "BILLED" : "CURRENCY_MISMATCH";
  return finish({ billed: sameCurrency, status, recordId: id }, [
    ...openRecordStatements(ctx, { transactionId: id, pointId: 0, connectorNo: 0, idTag: cdr.cdr_token.uid, startAt: row.cdr.startAt, abnormal: false }, cdr.currency, settings.timeZone),
    ctx.db
      .update(chargeRecords)
      .set({
        source: "OCPI",
        roaming: factsOf(row.cdr, row.platformName ?? "", cdr, charge.costLines, charge.vatIncluded),
        customerId: driver.customerId,
        totalCost: charge.totalCost,
        taxCost: charge.taxCost,
        status: sameCurrency ? "CHARGE_COMPLETE" : "RECORD_UNSETTLED",
        pricingPhase: "FINAL",
        pricedAt: now,
        updatedAt: now,
      })
      .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, id), eq(chargeRecords.status, "CHARGING"))),
    ...(sameCurrency
      ? [
          ...settleStatements(ctx, id, driver, settings.parameters.balancePayment),
          // The bill says which CDR it paid (docs/rules/wallets.md "Bills").
          ctx.db
            .update(bills)
            .set({ remark: remarkOf(row.cdr, row.platformName, cdr) })
            .where(owned(ctx, bills, eq(bills.transactionId, id), eq(bills.phase, "FINAL"), isNull(bills.remark))),
        ]
      : []),
    flag(status, id),
  ]);
}

/**
 * A billed CDR's record goes to the operator's bill push and invoice system like its own records
 * (docs/rules/settings.md "Bill push"): queued each time billing meets it, so a message that comes
 * again after a crash queues what was not queued; `queueSettlement` queues a delivery once.
 */
async function settleDeliveries(ctx: SystemCtx, cdrRowId: number) {
  const [row] = await ctx.db
    .select({ status: ocpiCdrs.billingStatus, recordId: ocpiCdrs.chargeRecordId })
    .from(ocpiCdrs)
    .where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, cdrRowId)))
    .limit(1);
  if (row?.recordId && (row.status === "BILLED" || row.status === "CURRENCY_MISMATCH")) await queueSettlement(ctx, row.recordId);
}

/** Bills one stored CDR left PENDING, once (the billing queue's job), then queues its record's deliveries. */
export const billCdr = verb({ actors: ["system"] }, async (ctx, cdrRowId: number) => {
  const outcome = await settleCdr(ctx, cdrRowId, "PENDING");
  await settleDeliveries(ctx, cdrRowId);
  return outcome;
});

/** What the CDR list shows of a CDR the operator reviewed. */
async function reviewedCdr(ctx: UserCtx, id: number) {
  const [row] = await ctx.db
    .select({ id: ocpiCdrs.id, cdrId: ocpiCdrs.cdrId, billingStatus: ocpiCdrs.billingStatus, holdReason: ocpiCdrs.holdReason, chargeRecordId: ocpiCdrs.chargeRecordId })
    .from(ocpiCdrs)
    .where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, id)))
    .limit(1);
  if (!row) throw new NotFound("ocpi.errors.notFound");
  return row;
}

/** Where a release ends: the states `settleCdr` leaves a released CDR in. */
const RELEASED: readonly CdrBillingStatus[] = ["BILLED", "CREDITED", "UNKNOWN_TOKEN", "CURRENCY_MISMATCH"];

/**
 * PUT /ocpi-service/cdr/{id}/release (docs/rules/ocpi.md "What a CDR may bill"): the operator
 * reviewed a HELD CDR and bills it as any other, past the limit and the rounding; the sign rules
 * and a credit's cap still hold (409 with the reason when they refuse it). A CDR already released
 * answers as it is; one rejected, or never held, is 409. The log row goes in the billing's batch.
 */
export const releaseCdr = verb({ menu: CDR_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await reviewedCdr(ctx, id);
  if (before.billingStatus !== "HELD") {
    if (before.holdReason && RELEASED.includes(before.billingStatus)) return before;
    throw new Conflict("roaming.errors.notHeld");
  }
  const outcome = await settleCdr(ctx, id, "HELD", (o) => [
    auditRow(ctx, { table: "ocpi_cdrs", module: "ocpi", type: "UPDATE", oldData: { id, billingStatus: "HELD", holdReason: before.holdReason }, newData: { id, action: "release", billingStatus: o.status, chargeRecordId: o.recordId ?? null } }),
  ]);
  if (outcome.status === "HELD" && outcome.holdReason) throw new Conflict("roaming.errors.cannotRelease", { reason: outcome.holdReason });
  // The deliveries go as the system would send them after billing, the release having billed it.
  await settleDeliveries(systemCtx(ctx.env, ctx.operator, "roaming CDR release", ctx.now), id);
  return reviewedCdr(ctx, id);
});

/** PUT /ocpi-service/cdr/{id}/reject: a HELD CDR is never billed; rejected again, it answers as it is. */
export const rejectCdr = verb({ menu: CDR_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await reviewedCdr(ctx, id);
  if (before.billingStatus === "REJECTED") return before;
  if (before.billingStatus !== "HELD") throw new Conflict("roaming.errors.notHeld");
  await ctx.db.batch([
    ctx.db.update(ocpiCdrs).set({ billingStatus: "REJECTED" }).where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, id), eq(ocpiCdrs.billingStatus, "HELD"))),
    auditRow(ctx, { table: "ocpi_cdrs", module: "ocpi", type: "UPDATE", oldData: { id, billingStatus: "HELD", holdReason: before.holdReason }, newData: { id, action: "reject", billingStatus: "REJECTED" } }),
  ]);
  return reviewedCdr(ctx, id);
});

/**
 * The CDRs still PENDING `PENDING_CDR_AFTER_MS` after they arrived, across operators: a message
 * that was lost, or CDRs stored by a pull; the cron hands them to the billing queue again.
 */
export const pendingCdrs = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .select({ id: ocpiCdrs.id, operatorId: ocpiCdrs.operatorId, operatorCode: operators.code })
    .from(ocpiCdrs)
    .innerJoin(operators, eq(operators.id, ocpiCdrs.operatorId))
    .where(acrossTenants("the cron finds every operator's roaming CDRs still waiting to be billed; each is billed as its own operator", eq(ocpiCdrs.billingStatus, "PENDING"), lte(ocpiCdrs.receivedAt, new Date(ctx.now() - PENDING_CDR_AFTER_MS))))
    .limit(500),
);
