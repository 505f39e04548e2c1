/**
 * The product's own D1 counters as the benches read them (workers/http/bench-counters.ts): served
 * only when the bench started the product with `PLUGDESK_BENCH_COUNTERS=on`
 * (docs/performance.md "How the figures are taken").
 */
export const COUNTERS_PATH = "/__bench/counters";

export interface Counters {
  d1: { statements: number; batches: number; batchedStatements: number };
}

export async function d1Counters(origin: string): Promise<Counters> {
  return (await fetch(`${origin}${COUNTERS_PATH}`)).json() as Promise<Counters>;
}

/** A batch is one round trip, and so is each statement sent alone. */
const roundTrips = (c: Counters) => c.d1.statements - c.d1.batchedStatements + c.d1.batches;

/** D1 statements and round trips between two readings, per `n`. */
export const perEach = (before: Counters, after: Counters, n: number) => ({
  statements: (after.d1.statements - before.d1.statements) / n,
  roundTrips: (roundTrips(after) - roundTrips(before)) / n,
});
