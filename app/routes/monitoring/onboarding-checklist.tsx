import { CheckCircle2, Circle, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OnboardingChecklist as Checklist } from "../../../workers/services/onboarding/checklist";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { cn } from "~/lib/cn";

/** The cookie that hides an operator's checklist in this browser, for a year. */
export const onboardingHiddenCookie = (operatorCode: string) => `onboarding_hidden_${operatorCode}`;

/**
 * A new operator's first steps on the home page (docs/rules/console.md "Onboarding"), each
 * ticked from the operator's data and linked to its screen. Gone once every step is done, or
 * when hidden here.
 */
export function OnboardingChecklist({ checklist }: { checklist: Checklist & { operatorCode: string; endpoint: string } }) {
  const { t } = useTranslation();
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  const doneCount = checklist.steps.filter((s) => s.done).length;
  const hide = () => {
    document.cookie = `${onboardingHiddenCookie(checklist.operatorCode)}=1; Path=/; Max-Age=${365 * 24 * 3600}; SameSite=Lax`;
    setHidden(true);
  };
  const address = `${checklist.endpoint}<${t("onboarding.serialNumber")}>`;

  return (
    <section aria-labelledby="onboarding-title" data-testid="onboarding" className="flex flex-col gap-4 rounded-xl border border-primary/30 bg-card p-5 shadow-xs">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="onboarding-title" className="font-semibold">
            {t("onboarding.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("onboarding.progress", { done: doneCount, total: checklist.steps.length })}</p>
        </div>
        <Button type="button" variant="ghost" size="sm" onClick={hide}>
          <X aria-hidden />
          {t("onboarding.hide")}
        </Button>
      </div>
      <ol className="flex flex-col divide-y">
        {checklist.steps.map(({ step, done, href, allowed }) => (
          <li key={step} data-testid={`onboarding-${step}`} data-done={done || undefined} className="flex flex-wrap items-start gap-3 py-3">
            {done ? (
              <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
            ) : (
              <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
            )}
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <span className={cn("font-medium", done && "text-muted-foreground line-through")}>
                {t(`onboarding.steps.${step}.title`)}
                <span className="sr-only"> — {t(done ? "onboarding.done" : "onboarding.todo")}</span>
              </span>
              {!done && <span className="text-sm text-muted-foreground">{t(`onboarding.steps.${step}.text`)}</span>}
              {!done && step === "charger" && (
                <span className="flex flex-wrap items-center gap-2">
                  <code className="rounded bg-muted px-2 py-1 font-mono text-xs break-all" data-testid="onboarding-endpoint">
                    {address}
                  </code>
                  <CopyButton value={checklist.endpoint} item={t("onboarding.address")} />
                </span>
              )}
            </div>
            {!done &&
              (allowed ? (
                <Button asChild size="sm" variant="outline">
                  <Link to={href}>{t(`onboarding.steps.${step}.action`)}</Link>
                </Button>
              ) : (
                <span className="text-xs text-muted-foreground">{t("onboarding.askAdmin")}</span>
              ))}
          </li>
        ))}
      </ol>
    </section>
  );
}
