import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { createOperator, getOperator, listOperators, setOperatorStatus, updateOperator } from "../../../workers/services/platform/operators";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Platform › Operators (docs/rules/platform.md "Operators"): the list, paged and filtered by the verb. */
export async function loadOperators({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listOperators(ctx, searchParamsObject(request));
}

/** The list's action: enable or disable the posted operator. */
export async function operatorStatusAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const result = await setOperatorStatus(ctx, bodyId(form.get("id")), { status: form.get("status") });
    return { ok: true as const, status: result.status };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadOperator({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return getOperator(ctx, routeId(params.id));
}

export async function loadOperatorForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { operator: params.id ? await getOperator(ctx, routeId(params.id)) : null };
}

/** Provisions or edits an operator; a new one's admin password comes back to be shown once. */
export async function saveOperator({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const input = await actionJson(request);
    if (params.id) {
      await updateOperator(ctx, routeId(params.id), input);
      return { ok: true as const, provisioned: null };
    }
    const created = await createOperator(ctx, input);
    return { ok: true as const, provisioned: { code: created.code, username: created.admin.username, password: created.admin.initialPassword, mailed: created.admin.mailed } };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
