import { divideHalfUp, lineAmount, percentUnits, PRICE_SCALE, priceUnits } from "../pricing/decimal";
import { zoneOffsetMs } from "../time";
import type { OcpiTariff } from "../schemas/ocpi/tariffs";

/**
 * A session priced by an OCPI 2.2.1 Tariff, as a partner prices a CDR's charging periods
 * (docs/rules/ocpi.md "Tariffs we publish", OCPI 2.2.1 §11.3, §10.4.6): each period takes, per
 * dimension, the first element whose restrictions hold at the period's start (local time of the
 * location) and that prices the dimension; FLAT once, from the element in force at the start; a
 * dimension's total is rounded up to the step size of the last component that priced it. Each
 * element's component is rounded once, half up, to the currency's minor unit; VAT goes on the
 * total excl. VAT. Exact decimals throughout, no float touches money.
 */

export interface ChargingPeriod {
  /** When the period starts (ms). */
  startAt: number;
  /** Wh charged, seconds charging, seconds parked (not charging) in the period. */
  energyWh?: number;
  timeS?: number;
  parkingS?: number;
}

type Dimension = "ENERGY" | "TIME" | "PARKING_TIME";
const VOLUME: Record<Dimension, keyof ChargingPeriod> = { ENERGY: "energyWh", TIME: "timeS", PARKING_TIME: "parkingS" };
/** Volumes per unit a price is quoted in: Wh per kWh, seconds per hour. */
const PER: Record<Dimension, bigint> = { ENERGY: 1000n, TIME: 3600n, PARKING_TIME: 3600n };
const DAYS = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"] as const;

export interface TariffLine {
  type: Dimension | "FLAT";
  element: number;
  volume: number;
  amount: number;
}

type Element = OcpiTariff["elements"][number];

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether an element's time and day restrictions hold at an instant in `timeZone`. */
export function elementApplies(element: Element, at: number, timeZone: string): boolean {
  const r = element.restrictions;
  if (!r) return true;
  const wall = new Date(at + zoneOffsetMs(at, timeZone));
  const minute = wall.getUTCHours() * 60 + wall.getUTCMinutes();
  if (r.day_of_week && !r.day_of_week.includes(DAYS[wall.getUTCDay()])) return false;
  if (r.start_time !== undefined || r.end_time !== undefined) {
    const start = r.start_time === undefined ? 0 : minuteOf(r.start_time);
    const end = r.end_time === undefined ? 24 * 60 : minuteOf(r.end_time);
    // An end before (or at) the start wraps midnight (OCPI 2.2.1 §11.4.6).
    const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
    if (!inside) return false;
  }
  return true;
}

const componentOf = (element: Element, type: TariffLine["type"]) => element.price_components.find((c) => c.type === type);
const units = (price: number) => priceUnits(String(price));

export function priceByTariff(tariff: OcpiTariff, periods: readonly ChargingPeriod[], timeZone: string, decimals: number) {
  const sorted = [...periods].sort((a, b) => a.startAt - b.startAt);
  const pick = (type: TariffLine["type"], at: number) => tariff.elements.findIndex((e) => componentOf(e, type) && elementApplies(e, at, timeZone));
  const volumes = new Map<string, { type: Dimension; element: number; volume: number }>();
  const lastElement = new Map<Dimension, number>();
  for (const period of sorted) {
    for (const type of ["ENERGY", "TIME", "PARKING_TIME"] as const) {
      const volume = (period[VOLUME[type]] as number | undefined) ?? 0;
      if (volume <= 0) continue;
      const element = pick(type, period.startAt);
      if (element < 0) continue;
      const key = `${type}:${element}`;
      volumes.set(key, { type, element, volume: (volumes.get(key)?.volume ?? 0) + volume });
      lastElement.set(type, element);
    }
  }
  // Step sizes: the dimension's total, rounded up by the last component's step, the extra on that component.
  for (const [type, element] of lastElement) {
    const step = componentOf(tariff.elements[element], type)!.step_size;
    const total = [...volumes.values()].filter((v) => v.type === type).reduce((t, v) => t + v.volume, 0);
    if (step > 1 && total % step) volumes.get(`${type}:${element}`)!.volume += step - (total % step);
  }
  const lines: TariffLine[] = [...volumes.values()].map((v) => ({
    ...v,
    amount: lineAmount(units(componentOf(tariff.elements[v.element], v.type)!.price), BigInt(v.volume), PER[v.type], decimals),
  }));
  const flat = sorted.length > 0 ? pick("FLAT", sorted[0].startAt) : -1;
  if (flat >= 0) lines.push({ type: "FLAT", element: flat, volume: 1, amount: lineAmount(units(componentOf(tariff.elements[flat], "FLAT")!.price), 1n, 1n, decimals) });
  const exclVat = lines.reduce((t, l) => t + l.amount, 0);
  const vat = tariff.elements.flatMap((e) => e.price_components).find((c) => c.vat !== undefined)?.vat;
  const rate = vat === undefined ? undefined : percentUnits(String(vat));
  const tax = rate ? Number(divideHalfUp(BigInt(exclVat) * rate, 100n * PRICE_SCALE)) : 0;
  return { lines, exclVat, inclVat: exclVat + tax };
}
