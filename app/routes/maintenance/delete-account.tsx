import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { useActionOutcome } from "~/components/page-actions";
import { useOperatorSearch, type OperatorChoice } from "~/components/public/operator-search";
import { DocumentTitle } from "~/components/shell/document-title";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { loadDeletePage, requestDeletionAction } from "./media.server";

/**
 * The public page /app/delete/account (docs/rules/maintenance.md "Account deletion"): a driver asks
 * their operator to delete their account, without a login, mobile first; when the operator has a
 * mail server, a second step takes the code mailed to the customer. The operator is the one of the
 * domain or of the app's link; else the driver chooses it by its name, never by a code.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadDeletePage(args);
}

export function action(args: ActionFunctionArgs) {
  return requestDeletionAction(args);
}

type Outcome =
  /** `message`: what happens next when no mailed code can confirm the request (the operator gets in touch). */
  | { step: "received"; operatorName: string; message?: string }
  | { step: "done"; operatorName: string }
  | { step: "code"; operatorName: string; ticket: string; minutes: number };

export default function DeleteAccount() {
  const { operator } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState("");
  const [chosen, setChosen] = useState<OperatorChoice | null>(null);
  const choices = useOperatorSearch(chosen ? "" : keyword);
  const operatorCode = operator?.code ?? chosen?.operatorCode ?? "";
  const fetcher = useFetcher<typeof action>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useActionOutcome(
    fetcher,
    (data: Outcome) => {
      setErrors({});
      setOutcome(data);
    },
    (name, message) => setErrors((prev) => ({ ...prev, [name]: message })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const missing: Record<string, string> = {};
    if (form.intent === "confirm") {
      if (!/^[0-9]{6}$/.test(form.code?.trim() ?? "")) missing.code = t("mail.validation.code");
    } else {
      if (!form.operatorCode?.trim()) missing.operatorCode = t("maintenance.validation.operatorChoose");
      if (!form.contact?.trim()) missing.contact = t("maintenance.validation.contactRequired");
    }
    setErrors(missing);
    if (Object.keys(missing).length === 0) fetcher.submit(form, { method: "post" });
  };
  const title = t("maintenance.deletion.publicTitle");
  const field = (name: string, label: string, input: React.ReactNode) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`del-${name}`}>{label}</Label>
      {input}
      {errors[name] && (
        <p id={`del-${name}-error`} className="text-xs text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const aria = (name: string) => ({ id: `del-${name}`, name, "aria-invalid": errors[name] !== undefined, "aria-describedby": errors[name] ? `del-${name}-error` : undefined });
  const busy = fetcher.state !== "idle";
  return (
    <main className="min-h-screen bg-muted/40 px-3 py-4 sm:py-10">
      <DocumentTitle screen={title} />
      <article className="mx-auto flex w-full max-w-md flex-col gap-4 rounded-2xl border bg-card p-5 shadow-sm">
        <h1 className="text-xl font-semibold">{title}</h1>
        {outcome?.step === "received" || outcome?.step === "done" ? (
          <div role="status" className="flex flex-col gap-2 text-sm">
            <p>{outcome.step === "received" ? t("maintenance.deletion.received", { operator: outcome.operatorName }) : t("mail.deletion.confirmed", { operator: outcome.operatorName })}</p>
            {outcome.step === "received" && outcome.message && <p className="font-medium">{outcome.message}</p>}
          </div>
        ) : outcome?.step === "code" ? (
          <form onSubmit={submit} noValidate className="flex flex-col gap-4">
            <p role="status" className="text-sm">
              {t("mail.deletion.codeSent", { operator: outcome.operatorName, minutes: outcome.minutes })}
            </p>
            <input type="hidden" name="intent" value="confirm" />
            <input type="hidden" name="ticket" value={outcome.ticket} />
            {field("code", t("mail.deletion.code"), <Input {...aria("code")} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />)}
            <Button type="submit" variant="destructive" disabled={busy}>
              {t("mail.deletion.confirm")}
            </Button>
          </form>
        ) : (
          <form onSubmit={submit} noValidate className="flex flex-col gap-4">
            <p className="text-sm text-muted-foreground">{t("maintenance.deletion.publicText")}</p>
            <input type="hidden" name="operatorCode" value={operatorCode} />
            {operator ? (
              <p className="text-sm">
                <span className="text-muted-foreground">{t("maintenance.deletion.operator")}: </span>
                <span className="font-medium">{operator.name}</span>
              </p>
            ) : (
              field(
                "operatorCode",
                t("maintenance.deletion.operatorSearch"),
                <div className="flex flex-col gap-2">
                  <Input
                    id="del-operatorCode"
                    aria-invalid={errors.operatorCode !== undefined}
                    aria-describedby={errors.operatorCode ? "del-operatorCode-error" : "del-operatorCode-hint"}
                    value={chosen ? chosen.name : keyword}
                    onChange={(e) => {
                      setChosen(null);
                      setKeyword(e.target.value);
                    }}
                    autoComplete="organization"
                  />
                  <p id="del-operatorCode-hint" className="text-xs text-muted-foreground">
                    {t("maintenance.deletion.operatorSearchHint")}
                  </p>
                  {choices.length > 0 && (
                    <ul className="divide-y rounded-lg border" aria-label={t("maintenance.deletion.operatorSearch")}>
                      {choices.map((o) => (
                        <li key={o.operatorCode}>
                          <button type="button" className="w-full px-3 py-2 text-left text-sm hover:bg-muted" onClick={() => setChosen(o)}>
                            {o.name}
                          </button>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>,
              )
            )}
            {field("contact", t("maintenance.deletion.contact"), <Input {...aria("contact")} autoComplete="email" />)}
            {field("reason", t("maintenance.deletion.reason"), <Textarea {...aria("reason")} maxLength={500} rows={3} />)}
            <Button type="submit" variant="destructive" disabled={busy}>
              {t("maintenance.deletion.submit")}
            </Button>
          </form>
        )}
      </article>
    </main>
  );
}
