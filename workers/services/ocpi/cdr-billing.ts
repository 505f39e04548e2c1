import { and, eq, isNull, lte } from "drizzle-orm";
import { bills, chargeRecords, ocpiCdrs, ocpiPlatforms, operators } from "../../../db/schema";
import { cdrCharge, currencyDecimals, whOf, type CdrBillingStatus, type RoamingFacts } from "../../../domain/ocpi/cdr-price";
import type { CdrBillingMessage } from "../../../domain/schemas/billing";
import type { OcpiCdr } from "../../../domain/schemas/ocpi/cdrs";
import { ROAMING_RECORD_BASE } from "../../../domain/schemas/records";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned } from "../../../tenants/scope";
import { reportError } from "../../http/report-error";
import { payerOf, settleStatements, type Payer } from "../billing/settlement";
import { openRecordStatements } from "../charge-records/lifecycle";
import type { PartnerCtx, SystemCtx } from "../context";
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
async function driverOf(ctx: SystemCtx, cdr: OcpiCdr): Promise<Payer | null> {
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

/**
 * Bills one stored CDR, once: a CDR no longer PENDING is left alone, and every statement of the
 * batch is conditioned (the record's insert on its key, its price on CHARGING, the debit on the
 * bill's unique key, the flag on PENDING), so a message delivered twice, or twice at once, bills once.
 */
export const billCdr = verb({ actors: ["system"] }, async (ctx, cdrRowId: number) => {
  const [row] = await ctx.db
    .select({ cdr: ocpiCdrs, platformName: ocpiPlatforms.name })
    .from(ocpiCdrs)
    .leftJoin(ocpiPlatforms, and(eq(ocpiPlatforms.id, ocpiCdrs.platformId), eq(ocpiPlatforms.operatorId, ocpiCdrs.operatorId)))
    .where(owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, cdrRowId)))
    .limit(1);
  if (!row) return { billed: false as const, status: undefined };
  if (row.cdr.billingStatus !== "PENDING") return { billed: false as const, status: row.cdr.billingStatus };
  const cdr = row.cdr.data as OcpiCdr;
  const pending = owned(ctx, ocpiCdrs, eq(ocpiCdrs.id, row.cdr.id), eq(ocpiCdrs.billingStatus, "PENDING"));
  const flag = (status: CdrBillingStatus, chargeRecordId: number | null = null) => ctx.db.update(ocpiCdrs).set({ billingStatus: status, chargeRecordId }).where(pending);
  // A credit CDR gives money back for an earlier one: not a debit, left to the operator (OCPI 2.2.1 §10.4.1 `credit`).
  if (cdr.credit) {
    await ctx.db.batch([flag("CREDIT")]);
    return { billed: false as const, status: "CREDIT" as const };
  }
  const driver = await driverOf(ctx, cdr);
  if (!driver) {
    await ctx.db.batch([flag("UNKNOWN_TOKEN")]);
    return { billed: false as const, status: "UNKNOWN_TOKEN" as const };
  }
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const main = mainCurrencyOf(settings.parameters);
  // A CDR in another currency is recorded in it and never debited from a wallet kept in ours.
  const sameCurrency = cdr.currency === main.code;
  const charge = cdrCharge(cdr, sameCurrency ? main.decimals : currencyDecimals(cdr.currency));
  const id = roamingRecordId(row.cdr.id);
  const now = new Date(ctx.now());
  const status: CdrBillingStatus = sameCurrency ? "BILLED" : "CURRENCY_MISMATCH";
  await ctx.db.batch([
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
          ...settleStatements(ctx, id, driver),
          // The bill says which CDR it paid (docs/rules/wallets.md "Bills").
          ctx.db
            .update(bills)
            .set({ remark: `OCPI ${row.platformName ?? row.cdr.platformId} ${row.cdr.countryCode}*${row.cdr.partyId} CDR ${cdr.id}`.slice(0, 200) })
            .where(owned(ctx, bills, eq(bills.transactionId, id), eq(bills.phase, "FINAL"), isNull(bills.remark))),
        ]
      : []),
    flag(status, id),
  ]);
  return { billed: sameCurrency, status, recordId: id };
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
    .where(acrossTenants(eq(ocpiCdrs.billingStatus, "PENDING"), lte(ocpiCdrs.receivedAt, new Date(ctx.now() - PENDING_CDR_AFTER_MS))))
    .limit(500),
);
