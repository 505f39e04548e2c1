import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { entryForPath } from "../../../tenants/permissions";
import { bindCard, createCard, deleteCard, listCards, resumeLostCard, setCardStatus, unbindCard, updateCard } from "../../../workers/services/drivers/cards";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionJson, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** The card list, and whether the user may open the charge records a replaced card's old tag links to. */
export async function loadCards({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { page: await listCards(ctx, searchParamsObject(request)), recordsOpen: entryForPath(ctx.actor.menu, "/financialManagement/chargeRecord") !== undefined };
}

/**
 * Every change the card screen makes, posted as JSON `{ intent, id?, … }`: create, edit, status,
 * bind, unbind, lost, delete. Each goes through its verb.
 */
export async function cardAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    const { intent, id, ...body } = await actionJson<{ intent?: string; id?: unknown } & Record<string, unknown>>(request);
    // Every intent but create names its card (docs/rules/input.md "Whole numbers").
    const cardId = () => bodyId(id);
    switch (intent) {
      case "create":
        return { ok: true as const, intent, card: await createCard(ctx, body) };
      case "update":
        return { ok: true as const, intent, card: await updateCard(ctx, cardId(), body) };
      case "status":
        return { ok: true as const, intent, card: await setCardStatus(ctx, cardId(), body) };
      case "bind":
        return { ok: true as const, intent, card: await bindCard(ctx, cardId(), body) };
      case "unbind":
        return { ok: true as const, intent, card: await unbindCard(ctx, cardId()) };
      case "lost":
        return { ok: true as const, intent, card: await resumeLostCard(ctx, cardId(), body) };
      case "delete":
        await deleteCard(ctx, cardId());
        return { ok: true as const, intent, card: null };
      default:
        throw new Response(null, { status: 400 });
    }
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
