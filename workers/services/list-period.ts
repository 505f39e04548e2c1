import { Invalid } from "../../domain/errors";
import { localBound } from "../../domain/time";
import type { UserCtx } from "./context";
import { operatorSettings } from "./settings/parameter-settings";

/**
 * A list's period typed in the operator's time zone (`yyyy-MM-dd` or a local date-time), as the
 * instants it bounds (docs/rules/records.md "Filters"); the settings are read only when a bound is given.
 */
export async function periodOf(ctx: UserCtx, q: { from?: string; to?: string }) {
  if (!q.from && !q.to) return {};
  const { timeZone } = await operatorSettings(ctx);
  const from = q.from ? localBound(q.from, timeZone, "from") : undefined;
  const to = q.to ? localBound(q.to, timeZone, "to") : undefined;
  if ((q.from && from === undefined) || (q.to && to === undefined)) {
    throw new Invalid("records.validation.localTime", {}, { [q.from && from === undefined ? "from" : "to"]: "records.validation.localTime" });
  }
  if (from !== undefined && to !== undefined && to <= from) throw new Invalid("monitoring.validation.timeRange", {}, { to: "monitoring.validation.timeRange" });
  return { from: from === undefined ? undefined : new Date(from), to: to === undefined ? undefined : new Date(to) };
}
