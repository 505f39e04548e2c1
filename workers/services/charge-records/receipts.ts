import { eq } from "drizzle-orm";
import { chargeRecords, operators } from "../../../db/schema";
import { NotFound } from "../../../domain/errors";
import { maskCredential } from "../../../domain/schemas/payments";
import { publicCode } from "../../../domain/schemas/records";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, ownedBy } from "../../../tenants/scope";
import type { Db } from "../../../db/client";
import { CHARGE_RECORD_MENUS, findRecord, presentRecord, recordRows, type RecordRow } from "./charge-records";
import { verb } from "../verb";

/**
 * Charging receipts (docs/rules/records.md "Receipts"): every field of a charging receipt, in
 * minor units of the record's currency, with the operator's currency format and time zone for
 * the page to render in the reader's language. The public pages find a receipt by its token and
 * a bill by its code (128 random bits each), never by the record's number, and show nothing of
 * the operator beyond that record and the operator's name.
 */

const sumOrNull = (...amounts: (number | null)[]) => (amounts.every((a) => a === null) ? null : amounts.reduce<number>((s, a) => s + (a ?? 0), 0));

/** A receipt from a record row and its operator's display settings. */
export function receiptOf(row: RecordRow, operator: { name: string }, settings: Awaited<ReturnType<typeof settingsOf>>) {
  const r = presentRecord(row);
  const record = row.record;
  // Cost lines are net; tax is its own line (docs/decisions/0005-money-in-minor-units.md).
  const cost = sumOrNull(r.electricCost, r.serviceCost, r.reservationCost, r.occupancyCost);
  const net = cost === null ? null : cost - (r.discountCost ?? 0);
  // The operator may keep its energy price to itself: the receipt then carries no energy line at
  // all, its own or a partner's, and the cost stays whole (docs/rules/settings.md "Display switches").
  const energyPriceHidden = settings.parameters.hideEnergyPrice;
  const roaming = r.roaming && energyPriceHidden ? { ...r.roaming, costLines: r.roaming.costLines.filter((line) => line.kind !== "ENERGY") } : r.roaming;
  return {
    operatorName: operator.name,
    format: {
      currency: { code: r.currency, sign: settings.currencySign, decimals: settings.currencyDecimals },
      timeZone: settings.timeZone,
      decimalSeparator: settings.parameters.decimalSeparator,
    },
    status: r.status,
    account: r.customerId === null ? r.idTag : `#${r.customerId}`,
    paidBy: record.paidBy,
    transactionId: r.transactionId,
    date: r.startAt,
    station: row.pointName ?? row.serialNumber ?? record.roaming?.evseId ?? null,
    serialNumber: r.serialNumber,
    connectorId: r.connectorId,
    location: r.stationName,
    address: row.stationAddress ?? (record.roaming ? `${record.roaming.address}, ${record.roaming.city}` : null),
    /** A partner's CDR: who charged, its id, and the partner's own cost lines (docs/rules/ocpi.md "CDRs billed to the wallet"). */
    roaming,
    startAt: r.startAt,
    stopAt: r.stopAt,
    unplugAt: r.unplugAt,
    reservationStartAt: record.reservationStartAt?.toISOString() ?? null,
    reservationEndAt: record.reservationEndAt?.toISOString() ?? null,
    chargingTime: r.chargingTime,
    energyWh: r.energyWh,
    priced: r.priced,
    /** Energy, service, reservation and idle fees before discount and tax. */
    cost,
    energyPriceHidden,
    /** Null when the operator hides its energy price. */
    energyFee: energyPriceHidden ? null : r.electricCost,
    serviceFee: r.serviceCost,
    parkingInCharging: record.idleDuringCost,
    parkingReservation: r.reservationCost,
    parkingPostCharging: record.idleAfterCost,
    discount: r.discountCost,
    /** What each discount took, in billing order, the ones that took something (docs/rules/discounts.md "Billing order"). */
    discountLines: (
      [
        ["MEMBER", r.memberDiscountCost],
        ["DISCOUNT", r.cardDiscountCost],
        ["VOUCHER", r.voucherCost],
      ] as const
    )
      .filter(([, amount]) => (amount ?? 0) > 0)
      .map(([source, amount]) => ({ source, amount: amount! })),
    /** Cost less discount, before tax. */
    netCost: net,
    tax: r.taxCost,
    /** Net cost plus tax: the session's total. */
    grossCost: r.totalCost,
    amountDue: r.totalCost,
    paid: r.paidCost,
  };
}
export type Receipt = ReturnType<typeof receiptOf>;

async function operatorName(db: Db, operatorId: number) {
  const [operator] = await db.select({ name: operators.name }).from(operators).where(eq(operators.id, operatorId)).limit(1);
  return operator ?? { name: "" };
}

/** GET /station-service/charge/record/{id}/receipt: a record's receipt for the console. */
export const recordReceipt = verb({ menu: CHARGE_RECORD_MENUS }, async (ctx, rawId: unknown) => {
  const row = await findRecord(ctx, rawId);
  const [operator, settings] = await Promise.all([operatorName(ctx.db, row.record.operatorId), settingsOf(ctx.db, row.record.operatorId)]);
  // A sub-operator reading its parent's record hides the energy price when either of them does
  // (docs/rules/settings.md "Display switches").
  if (ctx.operator.id !== row.record.operatorId && !settings.parameters.hideEnergyPrice) {
    const own = await settingsOf(ctx.db, ctx.operator.id);
    if (own.parameters.hideEnergyPrice) return receiptOf(row, operator, { ...settings, parameters: { ...settings.parameters, hideEnergyPrice: true } });
  }
  return receiptOf(row, operator, settings);
});

/**
 * The receipt of the record a public token or code names; anything else (a malformed or unknown
 * one) is the same 404, so a wrong guess learns nothing.
 */
async function publicReceipt(db: Db, column: "receiptToken" | "billCode", raw: unknown) {
  const code = publicCode.safeParse(raw);
  if (!code.success) throw new NotFound("records.errors.receiptNotFound");
  const [found] = await db
    .select({ id: chargeRecords.transactionId, operatorId: chargeRecords.operatorId })
    .from(chargeRecords)
    .where(acrossTenants("a public code names its record, the record its operator: the lookup that finds the tenant", eq(chargeRecords[column], code.data)))
    .limit(1);
  if (!found) throw new NotFound("records.errors.receiptNotFound");
  const [[row], operator, settings] = await Promise.all([
    recordRows({ db }, ownedBy(found.operatorId, chargeRecords, eq(chargeRecords.transactionId, found.id))).limit(1),
    operatorName(db, found.operatorId),
    settingsOf(db, found.operatorId),
  ]);
  const receipt = receiptOf(row, operator, settings);
  // A public page never shows a driver's RFID tag whole: without a customer, the account is the
  // tag masked like a credential (docs/rules/records.md "Receipts"); a tag is never empty.
  return row.record.customerId === null ? { ...receipt, account: maskCredential(row.record.idTag)! } : receipt;
}

/** /tourist/chargingRecordDetails/{token} and /tourist/invoices/{token}: no login. */
export const receiptByToken = verb({ actors: ["public"] }, (ctx, token: unknown) => publicReceipt(ctx.db, "receiptToken", token));

/** /valina-bill/{code}: no login. */
export const billByCode = verb({ actors: ["public"] }, (ctx, code: unknown) => publicReceipt(ctx.db, "billCode", code));
