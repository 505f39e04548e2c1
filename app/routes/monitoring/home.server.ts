import type { LoaderFunctionArgs } from "react-router";
import { chargerEndpoint } from "../../../domain/ocpp/endpoint";
import { homeDashboard } from "../../../workers/services/dashboard/dashboard";
import { onboardingChecklist } from "../../../workers/services/onboarding/checklist";
import { readCookie } from "../../../workers/http/cookies";
import { onboardingHiddenCookie } from "./onboarding-checklist";
import { requireCtx } from "../../lib/ctx.server";

export async function loadHome({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const hidden = readCookie(request, onboardingHiddenCookie(ctx.operator.code)) === "1";
  const [dashboard, checklist] = await Promise.all([homeDashboard(ctx), hidden ? null : onboardingChecklist(ctx)]);
  const onboarding =
    checklist && !checklist.complete
      ? {
          ...checklist,
          operatorCode: ctx.operator.code,
          // The address chargers dial, as this request reached the console (docs/rules/ocpp.md "Connection").
          endpoint: chargerEndpoint(new URL(request.url), ctx.operator.code, ""),
        }
      : null;
  return { dashboard, onboarding, now: ctx.now() };
}
