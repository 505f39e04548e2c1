import { data } from "react-router";
import { AppError } from "../../../domain/errors";
import type { UserCtx } from "../../../workers/services/context";
import { temporaryOffer } from "../../../workers/services/platform/price-packages";
import { actionError } from "../../lib/ctx.server";

interface QuotaFigures {
  kind: "AC" | "DC";
  adding: number;
  used: number;
  authorized: number;
}

/**
 * A point refused for the quota comes back with the temporary package that would let it in, its
 * price shown before the operator confirms (docs/rules/platform.md "Temporary package"); any
 * other error, or no package to extend, is the usual action error.
 */
export async function quotaRefusal(ctx: UserCtx, error: unknown) {
  if (!(error instanceof AppError) || error.key !== "points.errors.quotaExceeded") return actionError(error, ctx.lang);
  const quota = error.data as QuotaFigures;
  const missing = Math.max(1, quota.used + quota.adding - quota.authorized);
  let offer: Awaited<ReturnType<typeof temporaryOffer>> | null = null;
  try {
    offer = await temporaryOffer(ctx, quota.kind === "AC" ? { acConnectors: missing } : { dcConnectors: missing });
  } catch (refused) {
    if (!(refused instanceof AppError)) throw refused;
  }
  const refusal = actionError(error, ctx.lang);
  return data({ ...refusal.data, temporary: offer ? { offer, quota: { ...quota, missing } } : null }, { status: 409 });
}
