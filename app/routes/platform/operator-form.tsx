import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, useWatch, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { z } from "zod";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../domain/languages";
import { EDITIONS, operatorInput, operatorUpdateInput } from "../../../domain/schemas/platform";
import { amountInput } from "../../../domain/schemas/stations";
import { operatorDecimals, subscriptionMinor } from "../../../domain/subscription-amount";
import { NumberField, PasswordField, SelectField, TextareaField, TextField } from "~/components/form/fields";
import { TimeZoneField } from "~/components/form/time-zone-field";
import { InitialPasswordDialog } from "~/components/initial-password-dialog";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage } from "~/components/form/form-page";
import { loadOperatorForm, saveOperator } from "./operators.server";
import { AdminFields, profileDefaults, ProfileFields } from "./profile-fields";

/**
 * Provision or edit an operator (docs/rules/platform.md "Provisioning"): one form, the verb's
 * schema; a new operator's administrator password is shown once.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadOperatorForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveOperator(args);
}

type FormValues = z.input<typeof operatorInput>;

/**
 * The verb's schema, with the subscription typed in major units of the form's currency and turned
 * into minor units here, once, before the schema sees it (docs/rules/console.md "Forms").
 */
function subscriptionResolver(schema: typeof operatorInput | typeof operatorUpdateInput): Resolver<FormValues> {
  const base = zodResolver(schema) as unknown as Resolver<FormValues>;
  return async (values, context, options) => {
    const typed = values as unknown as { subscriptionAmount?: string; currency?: string; currencyDecimals?: string };
    const decimals = operatorDecimals(typed.currency ?? "", typed.currencyDecimals);
    const amount = subscriptionMinor(typed.subscriptionAmount ?? "", decimals);
    const result = await base({ ...values, subscriptionAmount: "minor" in amount ? amount.minor : undefined } as FormValues, context, options);
    if ("minor" in amount) return result;
    return { values: {}, errors: { ...result.errors, subscriptionAmount: { type: "amount", message: "formsHelp.money.amount" } } };
  };
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">{children}</CardContent>
    </Card>
  );
}

export default function OperatorForm() {
  const { operator } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const [issued, setIssued] = useState<{ code: string; username: string; password: string; mailed: boolean } | null>(null);
  const schema = operator ? operatorUpdateInput : operatorInput;
  const form = useForm<FormValues>({
    resolver: subscriptionResolver(schema),
    defaultValues: {
      code: operator?.code ?? "",
      ...profileDefaults(operator),
      edition: operator?.edition ?? "standard",
      validFrom: operator?.validFrom?.slice(0, 10) ?? "",
      validUntil: operator?.validUntil?.slice(0, 10) ?? "",
      subscriptionAmount: amountInput(operator?.subscriptionAmount ?? null, operator?.currencyDecimals ?? 2),
      timeZone: operator?.timeZone ?? "Europe/Warsaw",
      currency: operator?.currency ?? "PLN",
      currencySign: operator?.currencySign ?? "",
      currencyDecimals: operator ? String(operator.currencyDecimals) : "",
      defaultLanguage: operator?.defaultLanguage ?? "en",
      domains: operator?.domains.join("\n") ?? "",
      eipaAccount: operator?.eipaAccount ?? "",
      eipaPassword: "",
      joinOcpi: operator?.joinOcpi ? "true" : "false",
      admin: { username: "", email: "", name: "" },
    } as unknown as FormValues,
  });

  useActionOutcome<{ provisioned: { code: string; username: string; password: string; mailed: boolean } | null }>(
    fetcher,
    (data) => {
      toast.success(t("operators.saved"));
      if (data.provisioned) setIssued(data.provisioned);
      else navigate(operator ? `/platform/operator/detail/${operator.id}` : "/platform/operator");
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );

  const submit = form.handleSubmit((values) => {
    const body = operator ? { ...values, code: undefined, admin: undefined } : values;
    fetcher.submit(JSON.stringify(body), { method: "post", encType: "application/json" });
  });

  const [currency, currencyDecimals] = useWatch({ control: form.control, name: ["currency", "currencyDecimals"] as const }) as unknown as [string, string];
  const decimals = operatorDecimals(currency ?? "", currencyDecimals);

  const yesNo = [
    { value: "false", label: t("operators.no") },
    { value: "true", label: t("operators.yes") },
  ];

  return (
    <>
      <FormPage onSubmit={submit} title={operator ? t("operators.edit") : t("operators.add")} cancelTo="/platform/operator" sending={fetcher}>
        <Section title={t("operators.sections.operator")}>
          <TextField control={form.control} name="code" label={t("operators.code")} required disabled={Boolean(operator)} autoComplete="off" />
          <ProfileFields control={form.control} />
        </Section>
        <Section title={t("operators.sections.validity")}>
          <SelectField control={form.control} name="edition" label={t("operators.edition")} required options={EDITIONS.map((e) => ({ value: e, label: t(`operators.editions.${e}`) }))} />
          <NumberField
            control={form.control}
            name="subscriptionAmount"
            label={t("pickers.subscription.label")}
            decimals={decimals}
            suffix={currency?.trim().toUpperCase() || undefined}
            messageParams={{ decimals }}
            hint={t("pickers.subscription.hint", { currency: currency?.trim().toUpperCase() || "—" })}
          />
          <TextField control={form.control} name="validFrom" label={t("operators.validFrom")} type="date" />
          <TextField control={form.control} name="validUntil" label={t("operators.validUntil")} type="date" />
        </Section>
        <Section title={t("operators.sections.settings")}>
          <TimeZoneField control={form.control} name="timeZone" label={t("operators.timeZone")} required />
          <SelectField control={form.control} name="defaultLanguage" label={t("operators.defaultLanguage")} required options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
          <TextField control={form.control} name="currency" label={t("operators.currency")} required maxLength={3} />
          <TextField control={form.control} name="currencySign" label={t("operators.currencySign")} />
          <NumberField control={form.control} name="currencyDecimals" label={t("operators.currencyDecimals")} />
          <SelectField control={form.control} name="joinOcpi" label={t("operators.joinOcpi")} options={yesNo} />
        </Section>
        <Section title={t("operators.sections.accounts")}>
          <TextareaField control={form.control} name="domains" label={t("operators.domains")} hint={t("operators.domainsHint")} />
          <TextField control={form.control} name="eipaAccount" label={t("operators.eipaAccount")} />
          <PasswordField control={form.control} name="eipaPassword" label={t("operators.eipaPassword")} hint={operator?.eipaPasswordSet ? t("operators.eipaPasswordHint") : undefined} autoComplete="new-password" />
        </Section>
        {!operator && (
          <Section title={t("operators.sections.admin")}>
            <AdminFields control={form.control} />
          </Section>
        )}
      </FormPage>
      <InitialPasswordDialog
        password={issued?.password ?? null}
        title={t("operators.initialPasswordTitle")}
        text={`${t("operators.initialPasswordText", { code: issued?.code, username: issued?.username })}${issued?.mailed ? ` ${t("operators.initialPasswordMailed")}` : ""}`}
        onClose={() => navigate("/platform/operator")}
      />
    </>
  );
}
