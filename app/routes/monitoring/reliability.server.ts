import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { trailingYear } from "../../../domain/uptime";
import { dayAfterKey, dayKey, localDate } from "../../../domain/time";
import { stationOptions } from "../../../workers/services/monitoring/stations";
import { operatorInfo } from "../../../workers/services/operators/public-info";
import { excludeOutage, listOutages, listUptime, reliabilitySummary } from "../../../workers/services/uptime/uptime";
import { admits } from "../../../workers/services/verb";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/**
 * The reliability screen (docs/rules/monitoring.md "Uptime"): uptime by port or the outages of the
 * period, and the summary cards. The period opens on this month so far, in the operator's zone;
 * a period the verbs refuse shows their message over empty tables.
 */
export async function loadReliability({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const { timeZone } = await operatorInfo(ctx);
  const raw = searchParamsObject(request);
  const today = localDate(ctx.now(), timeZone);
  const day = (at: number) => dayKey(localDate(at, timeZone));
  const year = trailingYear(ctx.now(), timeZone);
  // This month so far, and the trailing year the federal average is taken over, as the console's
  // date-range picker takes a period: local days, `to` included (docs/rules/console.md "Date ranges").
  const presets = {
    month: { from: dayKey({ ...today, day: 1 }), to: dayKey(today) },
    year: { from: day(year.from), to: dayKey(today) },
  };
  const range = { from: raw.from || presets.month.from, to: raw.to || presets.month.to };
  // The verbs take `to` exclusive: the day after the included one (a malformed day goes as typed, for the verb to refuse).
  const from = range.from;
  const to = dayAfterKey(range.to);
  const tab = raw.tab === "outages" ? "outages" : "ports";
  const query = { from, to, ...(raw.stationId && { stationId: raw.stationId }) };
  const paging = { current: raw.current ?? "1", size: raw.size ?? "10" };
  const stations = await stationOptions(ctx, {});
  const empty = { records: [], total: 0, current: 1, size: 10 };
  try {
    const [summary, ports, outages] = await Promise.all([
      reliabilitySummary(ctx, query),
      tab === "ports" ? listUptime(ctx, { ...query, ...paging }) : undefined,
      tab === "outages" ? listOutages(ctx, { ...query, ...paging }) : undefined,
    ]);
    return { query, range, presets, tab, stations, summary, ports: ports ?? { ...empty, minimumPercent: 97 }, outages: outages ?? empty, filterError: null, mayExclude: admits(excludeOutage.access, ctx) };
  } catch (error) {
    const filterError = refusal(error, ctx.lang).body.msg;
    return {
      query,
      range,
      presets,
      tab,
      stations,
      summary: null,
      ports: { ...empty, minimumPercent: 97 } as Awaited<ReturnType<typeof listUptime>>,
      outages: empty as Awaited<ReturnType<typeof listOutages>>,
      filterError,
      mayExclude: false,
    };
  }
}

/** Puts the posted outage down to the chosen cause, or (`reason` empty) counts it again. */
export async function excludeOutageAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const reason = form.get("reason");
    const note = form.get("note");
    await excludeOutage(ctx, bodyId(form.get("id")), { reason: reason ? reason : null, ...(typeof note === "string" && note.trim() && { note }) });
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
