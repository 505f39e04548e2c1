import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import {
  createDiscountStrategy,
  deleteDiscountStrategy,
  generateDiscountCards,
  listDiscountStrategies,
  updateDiscountStrategy,
} from "../../../workers/services/discounts/strategies";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Finance › Discount strategies (docs/rules/discounts.md "Strategies"). */
export async function loadDiscountStrategies({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listDiscountStrategies(ctx, searchParamsObject(request));
}

/**
 * The list's action: create, edit (`id` given), delete (`intent: "delete"`) or generate cards
 * (`intent: "generate"`, answering the new cards for the download).
 */
export async function discountStrategyAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, id, ...input } = await actionJson<{ intent?: string; id?: number } & Record<string, unknown>>(request);
    if (intent === "delete") await deleteDiscountStrategy(ctx, bodyId(id));
    else if (intent === "generate") return { ok: true as const, intent, ...(await generateDiscountCards(ctx, bodyId(id), input)) };
    else if (id) await updateDiscountStrategy(ctx, bodyId(id), input);
    else await createDiscountStrategy(ctx, input);
    return { ok: true as const, intent: intent ?? "save" };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
