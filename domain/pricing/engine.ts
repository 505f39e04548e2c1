import { divideHalfUp, fixed, lineAmount, percentUnits, priceUnits, PRICE_SCALE } from "./decimal";
import { halfHourTable, slotAt, slotSegments, type SlotSegment } from "./slots";
import type { IdleFee, IdleUnit, PricedSlot, StrategyPrices } from "./strategy";

/**
 * The pricing engine (docs/rules/pricing.md "The engine"): pure, no I/O. It takes a strategy
 * version's prices and what is known of one session, and answers the itemised cost in minor units.
 * Each cost line is rounded once, half-up; category costs are sums of their lines and the total the
 * sum of the categories, so an itemised receipt always adds up
 * (docs/decisions/0021-cost-lines-rounded-once.md).
 */

const MINUTE_MS = 60_000;
const UNIT_MS: Record<IdleUnit, number> = { MINUTE: MINUTE_MS, HOUR: 60 * MINUTE_MS };

/** A reading of the energy import register (Wh) at an instant (ms). */
export interface RegisterSample {
  at: number;
  wh: number;
}

/** A connector status the charger reported, at the charger's own timestamp (OCPP 1.6 §4.9). */
export interface StatusSample {
  at: number;
  status: string;
}

export interface SessionFacts {
  startAt: number;
  stopAt: number;
  meterStartWh: number;
  meterStopWh: number;
  /** Register samples during the session (MeterValues and the stop's transaction data). */
  samples?: readonly RegisterSample[];
  /** The connector's status changes around the session, for the idle fee during charging. */
  statuses?: readonly StatusSample[];
  /** When the reservation that led to the session began, if one did. */
  reservationStartAt?: number | null;
  /** When the car left (the connector became Available); null while it is still plugged in. */
  unplugAt?: number | null;
}

/**
 * The operator's tax settings (docs/rules/pricing.md "The engine", tax): a rate in percent with up to four
 * decimals, and whether the strategy's prices already include it. None by default.
 */
export interface TaxSettings {
  rate: string;
  inclusive: boolean;
}

export const NO_TAX: TaxSettings | null = null;

export interface PricingInput {
  prices: StrategyPrices;
  session: SessionFacts;
  /** The station's time zone, else the operator's: slot boundaries are its wall clock. */
  timeZone: string;
  /** The currency's decimals (2 for PLN and EUR, 0 for JPY). */
  currencyDecimals: number;
  /** Default: no tax. */
  tax?: TaxSettings | null;
  /** The payer's membership discount: a percentage taken off the cost before tax. */
  discountPercent?: string | null;
  /**
   * The payer's discount card, then voucher, applied after the membership discount and before
   * tax, in this order (docs/rules/discounts.md "Billing order").
   */
  cards?: readonly CardDeduction[];
}

/**
 * A discount card or voucher as billing found it: a DISCOUNT takes `percent` off what is left,
 * up to `remaining` minor units (MONEY) or on at most `remaining` Wh of the session (DEGREE); a
 * VOUCHER takes `remaining` minor units off (MONEY) or the share of `remaining` Wh (DEGREE).
 */
export interface CardDeduction {
  source: "DISCOUNT" | "VOUCHER";
  cardId: number;
  unit: "MONEY" | "DEGREE";
  percent: number | null;
  remaining: number;
}

/** What one card took: `amount` off the cost, `consumed` off the card (minor units or Wh). */
export interface CardUse {
  source: "DISCOUNT" | "VOUCHER";
  cardId: number;
  amount: number;
  consumed: number;
}

export type CostKind = "ELECTRICITY" | "SERVICE" | "RESERVATION" | "IDLE_DURING" | "IDLE_AFTER" | "DISCOUNT" | "DISCOUNT_CARD" | "VOUCHER" | "TAX";
export type CostUnit = "KWH" | "COUNT" | "MINUTE" | "HOUR" | "PERCENT";

/** One priced item: quantity × unit price = amount, rounded once, in minor units. */
export interface CostLine {
  kind: CostKind;
  /** The slot the line prices, for slot-priced lines (local wall clock). */
  start?: string;
  end?: string;
  unit: CostUnit;
  /** kWh with three decimals, a count of started units, or a percentage. */
  quantity: string;
  /** The price of one unit (priced lines). */
  unitPrice?: string;
  /** What a percentage is taken of, in minor units (discount and tax lines). */
  base?: number;
  amount: number;
  /** Idle fees: the whole idle time, the free minutes taken off it, and whether the cap applied. */
  idleSeconds?: number;
  freeMinutes?: number;
  capped?: boolean;
}

export interface PricedSession {
  electricCost: number;
  serviceCost: number;
  reservationCost: number;
  occupancyCost: number;
  /** Every discount: the membership's, the card's and the voucher's. */
  discountCost: number;
  memberDiscountCost: number;
  cardDiscountCost: number;
  voucherCost: number;
  /** The cards drawn on, in order. */
  cardUses: CardUse[];
  taxCost: number;
  /** What the driver pays. */
  totalCost: number;
  /** Before tax and after discount. */
  netCost: number;
  /** With tax. */
  grossCost: number;
  /** Energy priced (never negative), and the charging time, start to stop. */
  energyWh: number;
  chargingSeconds: number;
  /** True while an idle fee after charging awaits the unplug. */
  provisional: boolean;
  lines: CostLine[];
}

/**
 * The register as the engine reads it: the start and stop readings with the samples between them,
 * in time order, made non-decreasing and kept within [start, max(start, stop)]. A register that
 * goes backwards adds nothing until it climbs past its highest reading, and the energy priced is
 * never more than the stop reading says nor ever negative (docs/rules/ocpp.md "Meter values").
 */
export function registerSeries(session: SessionFacts): RegisterSample[] {
  const { startAt, stopAt, meterStartWh } = session;
  const top = Math.max(meterStartWh, session.meterStopWh);
  const inside = (session.samples ?? [])
    .filter((s) => s.at > startAt && s.at < stopAt && Number.isFinite(s.wh))
    .map((s) => ({ at: s.at, wh: Math.round(s.wh) }))
    .sort((a, b) => a.at - b.at);
  const raw = [{ at: startAt, wh: meterStartWh }, ...inside, { at: Math.max(startAt, stopAt), wh: session.meterStopWh }];
  let highest = meterStartWh;
  return raw.map((s) => {
    highest = Math.max(highest, s.wh);
    return { at: s.at, wh: Math.min(top, highest) };
  });
}

/**
 * Splits `whole` Wh over parts proportional to `weights`, in whole Wh that add up exactly (largest
 * remainder; the earlier part wins a tie).
 */
function apportion(whole: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return weights.map((_, i) => (i === 0 ? whole : 0));
  const exact = weights.map((w) => BigInt(whole) * BigInt(w));
  const shares = exact.map((e) => Number(e / BigInt(total)));
  let left = whole - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, rest: e % BigInt(total) })).sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of order) {
    if (left === 0) break;
    shares[i]++;
    left--;
  }
  return shares;
}

/**
 * Energy per slot, in whole Wh: each stretch between two register readings is assumed linear and
 * its energy shared among the slots it crosses in proportion to the time spent in each.
 */
export function energyBySlot(session: SessionFacts, slots: readonly PricedSlot[], timeZone: string): Map<number, number> {
  const table = halfHourTable(slots);
  const series = registerSeries(session);
  const startAt = series[0].at;
  const stopAt = series[series.length - 1].at;
  const segments: SlotSegment[] = stopAt > startAt ? slotSegments(table, startAt, stopAt, timeZone) : [];
  const bySlot = new Map<number, number>();
  const add = (slot: number, wh: number) => bySlot.set(slot, (bySlot.get(slot) ?? 0) + wh);
  let first = 0;
  for (let i = 1; i < series.length; i++) {
    const [a, b] = [series[i - 1], series[i]];
    const wh = b.wh - a.wh;
    if (wh === 0) continue;
    if (b.at === a.at) {
      // A reading repeated at one instant: its energy belongs to the slot of that instant.
      add(slotAt(table, a.at, timeZone), wh);
      continue;
    }
    while (first < segments.length && segments[first].to <= a.at) first++;
    const touched: SlotSegment[] = [];
    for (let j = first; j < segments.length && segments[j].from < b.at; j++) touched.push(segments[j]);
    const shares = apportion(
      wh,
      touched.map((s) => Math.min(s.to, b.at) - Math.max(s.from, a.at)),
    );
    touched.forEach((s, j) => shares[j] && add(s.slot, shares[j]));
  }
  return bySlot;
}

const kwh = (wh: number) => fixed(BigInt(wh), 3);

function slotLines(kind: "ELECTRICITY" | "SERVICE", slots: readonly PricedSlot[], bySlot: Map<number, number>, decimals: number): CostLine[] {
  return [...bySlot.entries()]
    .filter(([, wh]) => wh > 0)
    .map(([slot, wh]) => ({
      kind,
      start: slots[slot].start,
      end: slots[slot].end,
      unit: "KWH" as const,
      quantity: kwh(wh),
      unitPrice: slots[slot].price,
      amount: lineAmount(priceUnits(slots[slot].price), BigInt(wh), 1000n, decimals),
    }));
}

/** A count of units at one slot's price. */
function countLine(kind: CostKind, unit: CostUnit, slot: PricedSlot | undefined, price: string, count: number, decimals: number): CostLine {
  return {
    kind,
    ...(slot && { start: slot.start, end: slot.end }),
    unit,
    quantity: String(count),
    unitPrice: price,
    amount: lineAmount(priceUnits(price), BigInt(count), 1n, decimals),
  };
}

/**
 * The service fee: none; once per session at the price in force when it starts (COUNT); per kWh by
 * the slots, like electricity (KWH); or per started minute or hour of charging time, each started
 * unit at the price of the slot in force when that unit begins (MINUTE, HOUR).
 */
function serviceLines(input: PricingInput, chargingMs: number): CostLine[] {
  const { unit, slots } = input.prices.service;
  const { session, timeZone, currencyDecimals } = input;
  if (unit === "NONE" || slots.length === 0) return [];
  const table = halfHourTable(slots);
  if (unit === "COUNT") {
    const slot = slots[slotAt(table, session.startAt, timeZone)];
    return [countLine("SERVICE", "COUNT", slot, slot.price, 1, currencyDecimals)];
  }
  if (unit === "KWH") return slotLines("SERVICE", slots, energyBySlot(session, slots, timeZone), currencyDecimals);
  const unitMs = UNIT_MS[unit];
  // Units begin at start + k·unit; those beginning inside a slot's stretch are counted there.
  const begunBy = (at: number) => Math.ceil((at - session.startAt) / unitMs);
  const counts = new Map<number, number>();
  for (const segment of slotSegments(table, session.startAt, session.startAt + chargingMs, timeZone)) {
    const units = begunBy(segment.to) - begunBy(segment.from);
    if (units > 0) counts.set(segment.slot, (counts.get(segment.slot) ?? 0) + units);
  }
  return [...counts.entries()].map(([slot, count]) => countLine("SERVICE", unit, slots[slot], slots[slot].price, count, currencyDecimals));
}

/** Time inside [from, to) that the connector spent suspended (SuspendedEV or SuspendedEVSE). */
export function suspendedMs(statuses: readonly StatusSample[], from: number, to: number): number {
  const sorted = [...statuses].sort((a, b) => a.at - b.at);
  let total = 0;
  sorted.forEach((s, i) => {
    if (s.status !== "SuspendedEV" && s.status !== "SuspendedEVSE") return;
    const until = i + 1 < sorted.length ? sorted[i + 1].at : to;
    total += Math.max(0, Math.min(until, to) - Math.max(s.at, from));
  });
  return total;
}

/** An idle fee for `idleMs`: free minutes off, then every started unit at the fee's price. */
function idleLine(kind: "RESERVATION" | "IDLE_DURING" | "IDLE_AFTER", fee: IdleFee & { capAmount?: number | null }, idleMs: number, decimals: number): CostLine {
  const billable = Math.max(0, idleMs - fee.freeMinutes * MINUTE_MS);
  const units = Math.ceil(billable / UNIT_MS[fee.unit]);
  const line = countLine(kind, fee.unit, undefined, fee.price, units, decimals);
  const cap = fee.capAmount ?? null;
  const capped = cap !== null && line.amount > cap;
  return { ...line, amount: capped ? cap : line.amount, idleSeconds: Math.floor(idleMs / 1000), freeMinutes: fee.freeMinutes, ...(cap !== null && { capped }) };
}

/**
 * What one card takes off `left` (minor units, never more, so the cost never goes below zero) and
 * what it gives up (docs/rules/discounts.md "Billing order"). DEGREE cards cover at most the
 * session's energy; their share of the cost is `left` × covered Wh / session Wh, rounded once.
 */
export function cardUse(card: CardDeduction, left: number, energyWh: number): CardUse {
  const base = { source: card.source, cardId: card.cardId };
  if (left <= 0 || card.remaining <= 0) return { ...base, amount: 0, consumed: 0 };
  const coveredWh = card.unit === "DEGREE" ? Math.min(card.remaining, Math.max(0, energyWh)) : 0;
  const share = (amount: number) => (energyWh > 0 ? Number(divideHalfUp(BigInt(amount) * BigInt(coveredWh), BigInt(energyWh))) : 0);
  if (card.source === "DISCOUNT") {
    const percentOf = Number(divideHalfUp(BigInt(left) * BigInt(Math.max(0, Math.min(100, card.percent ?? 0))), 100n));
    if (card.unit === "MONEY") {
      const amount = Math.min(percentOf, card.remaining, left);
      return { ...base, amount, consumed: amount };
    }
    const amount = Math.min(share(percentOf), left);
    return { ...base, amount, consumed: amount > 0 ? coveredWh : 0 };
  }
  if (card.unit === "MONEY") {
    const amount = Math.min(card.remaining, left);
    return { ...base, amount, consumed: amount };
  }
  const amount = Math.min(share(left), left);
  return { ...base, amount, consumed: amount > 0 ? coveredWh : 0 };
}

const sum = (lines: readonly CostLine[]) => lines.reduce((total, line) => total + line.amount, 0);

/** Prices one session. */
export function priceSession(input: PricingInput): PricedSession {
  const { prices, session, timeZone, currencyDecimals: decimals } = input;
  const chargingMs = Math.max(0, session.stopAt - session.startAt);
  const series = registerSeries(session);
  const energyWh = series[series.length - 1].wh - series[0].wh;

  const electricity = slotLines("ELECTRICITY", prices.electricity.slots, energyBySlot(session, prices.electricity.slots, timeZone), decimals);
  const service = serviceLines(input, chargingMs);
  const idle: CostLine[] = [];
  const { before, during, after } = prices.idle;
  const reservedFrom = session.reservationStartAt ?? null;
  if (before && reservedFrom !== null && reservedFrom < session.startAt) idle.push(idleLine("RESERVATION", before, session.startAt - reservedFrom, decimals));
  if (during) {
    const suspended = suspendedMs(session.statuses ?? [], session.startAt, session.startAt + chargingMs);
    if (suspended > 0) idle.push(idleLine("IDLE_DURING", during, suspended, decimals));
  }
  const unplugAt = session.unplugAt ?? null;
  if (after && unplugAt !== null && unplugAt > session.stopAt) idle.push(idleLine("IDLE_AFTER", after, unplugAt - session.stopAt, decimals));

  const lines = [...electricity, ...service, ...idle];
  const subtotal = sum(lines);
  const discountPercent = input.discountPercent ? percentUnits(input.discountPercent) : undefined;
  let memberDiscountCost = 0;
  if (discountPercent !== undefined && discountPercent > 0n) {
    memberDiscountCost = Math.min(subtotal, Number(divideHalfUp(BigInt(subtotal) * discountPercent, 100n * PRICE_SCALE)));
    lines.push({ kind: "DISCOUNT", unit: "PERCENT", quantity: input.discountPercent!, base: subtotal, amount: memberDiscountCost });
  }
  let left = subtotal - memberDiscountCost;
  const cardUses: CardUse[] = [];
  for (const card of input.cards ?? []) {
    const use = cardUse(card, left, energyWh);
    if (use.amount === 0 && use.consumed === 0) continue;
    cardUses.push(use);
    left -= use.amount;
    lines.push({ kind: card.source === "DISCOUNT" ? "DISCOUNT_CARD" : "VOUCHER", unit: "COUNT", quantity: String(use.consumed), base: left + use.amount, amount: use.amount });
  }
  const takenBy = (source: CardUse["source"]) => cardUses.filter((u) => u.source === source).reduce((t, u) => t + u.amount, 0);
  const cardDiscountCost = takenBy("DISCOUNT");
  const voucherCost = takenBy("VOUCHER");
  const discountCost = memberDiscountCost + cardDiscountCost + voucherCost;
  const afterDiscount = left;

  let taxCost = 0;
  const tax = input.tax ?? NO_TAX;
  const rate = tax ? percentUnits(tax.rate) : undefined;
  if (tax && rate !== undefined && rate > 0n) {
    const base = BigInt(afterDiscount);
    // Exclusive: tax on top of the net cost. Inclusive: the share of the gross cost that is tax.
    taxCost = Number(tax.inclusive ? divideHalfUp(base * rate, 100n * PRICE_SCALE + rate) : divideHalfUp(base * rate, 100n * PRICE_SCALE));
    lines.push({ kind: "TAX", unit: "PERCENT", quantity: tax.rate, base: afterDiscount, amount: taxCost });
  }
  const inclusive = tax?.inclusive ?? false;
  const netCost = inclusive ? afterDiscount - taxCost : afterDiscount;
  const grossCost = netCost + taxCost;

  return {
    electricCost: sum(electricity),
    serviceCost: sum(service),
    reservationCost: sum(idle.filter((l) => l.kind === "RESERVATION")),
    occupancyCost: sum(idle.filter((l) => l.kind !== "RESERVATION")),
    discountCost,
    memberDiscountCost,
    cardDiscountCost,
    voucherCost,
    cardUses,
    taxCost,
    totalCost: grossCost,
    netCost,
    grossCost,
    energyWh,
    chargingSeconds: Math.floor(chargingMs / 1000),
    provisional: after !== null && unplugAt === null,
    lines,
  };
}
