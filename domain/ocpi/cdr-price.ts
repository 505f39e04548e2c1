import { divideHalfUp, pow10 } from "../pricing/decimal";

/**
 * A partner's CDR in our money (docs/rules/ocpi.md "CDRs billed to the wallet",
 * docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md): the CDR's amounts are decimal
 * numbers in its currency; a record keeps integer minor units
 * (docs/decisions/0005-money-in-minor-units.md), each amount rounded once, half away from zero.
 */

/**
 * What billing made of a CDR (docs/rules/ocpi.md "CDRs billed to the wallet", "What a CDR may
 * bill"): HELD for the operator's review (then BILLED, CREDITED or REJECTED); a credit CDR given
 * back to the wallet is CREDITED. CREDIT is what credit CDRs were flagged before credits were given back.
 */
export const CDR_BILLING_STATUSES = ["PENDING", "BILLED", "UNKNOWN_TOKEN", "CURRENCY_MISMATCH", "CREDIT", "HELD", "CREDITED", "REJECTED"] as const;
export type CdrBillingStatus = (typeof CDR_BILLING_STATUSES)[number];

/** OCPI Price (OCPI 2.2.1 §16.4): the amount without VAT, and with it when the CPO gives it. */
export interface OcpiPrice {
  excl_vat: number;
  incl_vat?: number;
}

/** The cost parts a CDR may carry besides its total (OCPI 2.2.1 §10.4.1). */
export const CDR_COST_PARTS = [
  ["FIXED", "total_fixed_cost"],
  ["ENERGY", "total_energy_cost"],
  ["TIME", "total_time_cost"],
  ["PARKING", "total_parking_cost"],
  ["RESERVATION", "total_reservation_cost"],
] as const;
export type CdrCostKind = (typeof CDR_COST_PARTS)[number][0];

/** One of the partner's cost lines in minor units; `inclVat` null when the CPO gave none. */
export interface PartnerCostLine {
  kind: CdrCostKind | "TOTAL";
  exclVat: number;
  inclVat: number | null;
}

/**
 * What a roaming charge record keeps of its CDR (a copy: the record stays readable if the
 * platform and what it sent are deleted later).
 */
export interface RoamingFacts {
  /** The `ocpi_cdrs` row the record was billed from. */
  cdrRowId: number;
  platformId: number;
  platformName: string;
  countryCode: string;
  partyId: string;
  /** The CDR's own id (OCPI 2.2.1 §10.3.1 `id`) and the session it closed. */
  cdrId: string;
  sessionId: string | null;
  tokenUid: string;
  locationId: string;
  locationName: string | null;
  address: string;
  city: string;
  evseId: string;
  connectorId: string;
  stopAt: string;
  energyWh: number;
  /** The partner's cost lines, the total last, in minor units of the record's currency. */
  costLines: PartnerCostLine[];
  /** Whether the amount billed includes VAT (the CPO gave `incl_vat`). */
  vatIncluded: boolean;
}

/**
 * Fraction digits of an ISO 4217 currency, from the runtime's currency data (2 when unknown):
 * a CDR's currency need not be one of the operator's sets.
 */
export function currencyDecimals(code: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * A decimal number as the partner wrote it, in minor units of a currency with `decimals`, rounded
 * half away from zero once. The number is read through its shortest decimal text, so 6.07 is
 * 607, never 606.9999.
 */
export function minorOf(value: number, decimals: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`not an amount: ${value}`);
  // The shortest text that reads back as the same number (ECMAScript Number::toString), maybe with an exponent.
  const [mantissa, exponent = "0"] = String(Math.abs(value)).split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const digits = BigInt(whole + fraction);
  const shift = Number(exponent) - fraction.length + decimals;
  const minor = Number(shift >= 0 ? digits * pow10(shift) : divideHalfUp(digits, pow10(-shift)));
  return value < 0 && minor !== 0 ? -minor : minor;
}

/** Kilowatt-hours as the partner sent them, in whole watt-hours. */
export const whOf = (kwh: number) => minorOf(kwh, 3);

type CdrAmounts = { total_cost: OcpiPrice } & Partial<Record<(typeof CDR_COST_PARTS)[number][1], OcpiPrice>>;

const lineOf = (kind: PartnerCostLine["kind"], price: OcpiPrice, decimals: number): PartnerCostLine => ({
  kind,
  exclVat: minorOf(price.excl_vat, decimals),
  inclVat: price.incl_vat === undefined ? null : minorOf(price.incl_vat, decimals),
});

/**
 * The amount a driver is charged for a CDR, and its lines: the total including VAT when the CPO
 * gave it (what a consumer pays), else the total without VAT, whose tax is then unknown (null)
 * (docs/decisions/0064-roaming-cdrs-priced-by-the-partner.md).
 */
export function cdrCharge(cdr: CdrAmounts, decimals: number) {
  const lines = CDR_COST_PARTS.flatMap(([kind, field]) => (cdr[field] ? [lineOf(kind, cdr[field], decimals)] : []));
  const total = lineOf("TOTAL", cdr.total_cost, decimals);
  const vatIncluded = total.inclVat !== null;
  return {
    totalCost: total.inclVat ?? total.exclVat,
    taxCost: total.inclVat === null ? null : total.inclVat - total.exclVat,
    vatIncluded,
    costLines: [...lines, total],
  };
}
