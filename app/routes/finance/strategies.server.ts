import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { copyStrategy, createStrategy, deleteStrategy, getStrategy, listStrategies, updateStrategy } from "../../../workers/services/pricing/strategies";
import { admits } from "../../../workers/services/verb";
import { tariffTerms } from "../../../workers/services/ocpi/cpo-tariffs";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, bodyId, routeId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/**
 * Finance › Charging strategies (docs/rules/pricing.md "Strategies"), and the sub-operator's
 * charge configuration (pricing.md "Sub-operators"): `manage` says whether the actor may add,
 * edit, copy and delete, or only see the strategies and assign them to its devices.
 */
export async function loadStrategies({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { ...(await listStrategies(ctx, searchParamsObject(request))), manage: admits(createStrategy.access, ctx) };
}

/** The list's action: delete or copy the posted strategy. */
export async function strategiesAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  const intent = String(form.get("intent"));
  try {
    const id = bodyId(form.get("id"));
    if (intent === "copy") return { ok: true as const, intent, id: (await copyStrategy(ctx, id)).id };
    await deleteStrategy(ctx, id);
    return { ok: true as const, intent, id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The strategy being edited or copied (none when adding). */
export async function loadStrategyForm({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  // What the tariff preview needs to write the strategy as roaming partners read it (docs/rules/ocpi.md "Tariffs we publish").
  const terms = admits(tariffTerms.access, ctx) ? await tariffTerms(ctx) : null;
  // `loadedAt` dates the preview of a strategy not yet saved, the same on the server and in the browser.
  return { strategy: params.id ? await getStrategy(ctx, routeId(params.id)) : null, tariffTerms: terms, loadedAt: ctx.now() };
}

/** Saves the form: an edit of `/edit/:id` writes a new version; add and copy create a strategy. */
export async function saveStrategy({ request, context, params }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const editing = params.id !== undefined && !new URL(request.url).pathname.includes("/copy/");
  try {
    const input = await actionJson(request);
    const saved = editing ? await updateStrategy(ctx, routeId(params.id), input) : await createStrategy(ctx, input);
    return { ok: true as const, id: saved.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
