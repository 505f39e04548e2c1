import type { LoaderFunctionArgs } from "react-router";
import { homeDashboard } from "../../../workers/services/dashboard/dashboard";
import { requireCtx } from "../../lib/ctx.server";

export async function loadHome({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return { dashboard: await homeDashboard(ctx), now: ctx.now() };
}
