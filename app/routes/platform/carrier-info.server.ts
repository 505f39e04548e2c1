import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { carrierInfo, updateCarrierInfo } from "../../../workers/services/platform/carrier-info";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson } from "../../lib/input.server";

/** carrierInfoEdit: the operator's own record (docs/rules/platform.md "Operator info"). */
export async function loadCarrierInfoForm({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return carrierInfo(ctx);
}

export async function saveCarrierInfo({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    await updateCarrierInfo(ctx, input);
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
