import type { PackageState, PackageType } from "./schemas/platform";

/**
 * Price packages, as pure rules (docs/rules/platform.md "Price packages"): the state a package is
 * in at an instant, which package bills which enabled connectors, and what a day costs, in
 * integer minor units rounded once per line (docs/decisions/0005-money-in-minor-units.md).
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** ineffective → effective → expired by its dates; void stays void. */
export function packageStateAt(pkg: { status: PackageState; beginAt: Date; endAt: Date }, now: number): PackageState {
  if (pkg.status === "void") return "void";
  if (now < pkg.beginAt.getTime()) return "ineffective";
  if (now >= pkg.endAt.getTime()) return "expired";
  return "effective";
}

/** The UTC day of an instant, `YYYY-MM-DD`: package days are the platform's, in UTC. */
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The UTC midnight that begins the day of an instant. */
export const utcMidnight = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;

const PRICE_SCALE = 4;

/**
 * What `connectors` cost for one day at `unitPrice` per connector per day, in minor units of a
 * currency with `decimals`: exact product, rounded half up once.
 */
export function dayCharge(unitPrice: string, connectors: number, decimals: number): number {
  const [whole, fraction = ""] = unitPrice.split(".");
  const scaled = BigInt(whole + fraction.padEnd(PRICE_SCALE, "0").slice(0, PRICE_SCALE));
  const exact = scaled * BigInt(connectors) * 10n ** BigInt(decimals);
  const divisor = 10n ** BigInt(PRICE_SCALE);
  return Number((exact * 2n + divisor) / (2n * divisor));
}

const TYPE_ORDER: Record<PackageType, number> = { default: 0, regular: 1, temporary: 2 };

export interface BillablePackage {
  id: number;
  type: PackageType;
  acConnectors: number;
  dcConnectors: number;
  beginAt: Date;
}

/**
 * Which package bills which enabled connectors on a day: each enabled connector once, by the
 * first package with room (default, then regular, then temporary; older first). Connectors beyond
 * every package are not billed (the quota refuses them being added).
 */
export function allocateConnectors<P extends BillablePackage>(packages: readonly P[], enabled: { AC: number; DC: number }) {
  const ordered = [...packages].sort(
    (a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.beginAt.getTime() - b.beginAt.getTime() || a.id - b.id,
  );
  let ac = enabled.AC;
  let dc = enabled.DC;
  return ordered.map((pkg) => {
    const acBilled = Math.min(ac, pkg.acConnectors);
    const dcBilled = Math.min(dc, pkg.dcConnectors);
    ac -= acBilled;
    dc -= dcBilled;
    return { pkg, ac: acBilled, dc: dcBilled };
  });
}

/** Days from `now`'s day to the end, counting the day begun (at least one). */
export function daysLeft(now: number, endAt: number): number {
  return Math.max(1, Math.ceil((endAt - utcMidnight(now)) / DAY_MS));
}
