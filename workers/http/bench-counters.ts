import { d1Use } from "../../db/client";

/** The path the OCPP bench reads this isolate's counters from. */
export const BENCH_COUNTERS_PATH = "/__bench/counters";

/**
 * The D1 statements this isolate has sent, for `npm run bench:ocpp` only: it answers when the
 * bench served the product with `BENCH_COUNTERS=on` (`wrangler dev --var`), which no deployed
 * configuration sets, and is a plain 404 otherwise (docs/performance.md "How the figures are taken").
 */
export function benchCounters(env: Env): Response {
  if ((env as { BENCH_COUNTERS?: string }).BENCH_COUNTERS !== "on") return new Response("Not found", { status: 404 });
  return Response.json({ d1: d1Use });
}
