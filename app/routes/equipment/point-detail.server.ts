import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { reportByPoint } from "../../../workers/services/charge-records/charge-records";
import { setPointStatus } from "../../../workers/services/points/point-admin";
import { chargerSetup, pointDetail } from "../../../workers/services/points/points";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, routeId } from "../../lib/input.server";

/** The point, its monthly charge report and what a charger needs to be set up to connect. */
export async function loadPointDetail({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const id = routeId(params.id);
  const [point, report, setup] = await Promise.all([pointDetail(ctx, { id }), reportByPoint(ctx, { pointId: id }), chargerSetup(ctx)]);
  // The charger's address is given as this request reached the console (docs/rules/ocpp.md "Connection").
  const { protocol, host } = new URL(request.url);
  return { point, report, setup, origin: { protocol, host } };
}

/** The detail page's action: enable or disable the point. */
export async function setPointStatusAction({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const result = await setPointStatus(ctx, routeId(params.id), { status: form.get("status") });
    return { ok: true as const, status: result.status };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The configuration page: the point and the charger's setup, without the report. */
export async function loadPointConfig({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const [point, setup] = await Promise.all([pointDetail(ctx, { id: routeId(params.id) }), chargerSetup(ctx)]);
  return { point, setup };
}
