import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { disposeAlarm, listAlarms } from "../../../workers/services/alarms/alarms";
import { createWorkOrder } from "../../../workers/services/maintenance/work-orders";
import { operatorInfo } from "../../../workers/services/operators/public-info";
import { admits } from "../../../workers/services/verb";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { exportQueryOf, localPeriodParams, searchParamsObject } from "../../lib/search-params";

/** The alarm-record screens open on undisposed alarms; `status=all` shows every one. */
const opensOnUndisposed = (path: string) => !path.startsWith("/operationMaintenance/");

/** A page of alarms; a filter the verb refuses gives an empty page with its message instead of an error page. */
export async function loadAlarms({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const { timeZone } = await operatorInfo(ctx);
  const raw = searchParamsObject(request);
  const path = new URL(request.url).pathname;
  const status = raw.status === "all" ? undefined : (raw.status ?? (opensOnUndisposed(path) ? "Undisposed" : undefined));
  // The filter's times are typed in the operator's time zone; the verb takes UTC instants.
  const filter = { ...raw, status, ...localPeriodParams(raw, timeZone) };
  // What the export asks the API for: the same filter, in UTC, without the page.
  const exportQuery = exportQueryOf(filter);
  // Opening a work order from an alarm is the work-order screen's own action (docs/rules/maintenance.md "Work orders").
  const mayOpenOrders = admits(createWorkOrder.access, ctx);
  try {
    const page = await listAlarms(ctx, filter);
    return { page, status: status ?? "all", filterError: null, exportQuery, mayOpenOrders };
  } catch (error) {
    const filterError = refusal(error, ctx.lang).body.msg;
    const empty = { records: [], total: 0, current: 1, size: 10 };
    return { page: empty as Awaited<ReturnType<typeof listAlarms>>, status: status ?? "all", filterError, exportQuery, mayOpenOrders };
  }
}

/**
 * Closes the posted alarm with the comment typed for it (ManualDisposed), or, for
 * `intent=workOrder`, opens the alarm's work order after the screen's confirmation.
 */
export async function disposeAlarmAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    if (form.get("intent") === "workOrder") {
      const order = await createWorkOrder(ctx, { alarmId: bodyId(form.get("id")) });
      return { ok: true as const, intent: "workOrder" as const, workOrderId: order.id };
    }
    await disposeAlarm(ctx, bodyId(form.get("id")), { comment: form.get("comment") ?? undefined });
    return { ok: true as const, intent: "dispose" as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
