import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { z } from "zod";
import { subOperatorInput, subOperatorUpdateInput } from "../../../domain/schemas/platform";
import { TextField } from "~/components/form/fields";
import { InitialPasswordDialog } from "~/components/initial-password-dialog";
import { useActionOutcome } from "~/components/page-actions";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { AdminFields, profileDefaults, ProfileFields } from "../platform/profile-fields";
import { loadSubOperatorForm, saveSubOperator } from "./sub-operators.server";

/** Add or edit a sub-operator; a new one's initial password is shown once (docs/rules/platform.md "Sub-operators"). */
export function loader(args: LoaderFunctionArgs) {
  return loadSubOperatorForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveSubOperator(args);
}

type FormValues = z.input<typeof subOperatorInput>;

export default function SubOperatorForm() {
  const { subOperator } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const [issued, setIssued] = useState<{ code: string; username: string; password: string; mailed: boolean } | null>(null);
  const form = useForm<FormValues>({
    resolver: zodResolver(subOperator ? subOperatorUpdateInput : subOperatorInput) as unknown as Resolver<FormValues>,
    defaultValues: {
      code: subOperator?.code ?? "",
      ...profileDefaults(subOperator),
      validFrom: subOperator?.validFrom?.slice(0, 10) ?? "",
      validUntil: subOperator?.validUntil?.slice(0, 10) ?? "",
      admin: { username: "", email: "", name: "" },
    } as unknown as FormValues,
  });
  useActionOutcome<{ provisioned: { code: string; username: string; password: string; mailed: boolean } | null }>(
    fetcher,
    (data) => {
      toast.success(t("subOperators.saved"));
      if (data.provisioned) setIssued(data.provisioned);
      else navigate("/SubOperator/operatorAcount");
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => {
    const body = subOperator ? { ...values, code: undefined, admin: undefined } : values;
    fetcher.submit(JSON.stringify(body), { method: "post", encType: "application/json" });
  });

  return (
    <>
      <FormPage onSubmit={submit} title={subOperator ? t("subOperators.edit") : t("subOperators.add")} cancelTo="/SubOperator/operatorAcount" sending={fetcher}>
        <FormSection>
          <TextField control={form.control} name="code" label={t("operators.code")} required disabled={Boolean(subOperator)} autoComplete="off" />
          <ProfileFields control={form.control} />
          <TextField control={form.control} name="validFrom" label={t("operators.validFrom")} type="date" />
          <TextField control={form.control} name="validUntil" label={t("operators.validUntil")} type="date" />
          {!subOperator && <AdminFields control={form.control} />}
        </FormSection>
      </FormPage>
      <InitialPasswordDialog
        password={issued?.password ?? null}
        title={t("subOperators.initialPasswordTitle")}
        text={`${t("subOperators.initialPasswordText", { code: issued?.code, username: issued?.username })}${issued?.mailed ? ` ${t("subOperators.initialPasswordMailed")}` : ""}`}
        onClose={() => navigate("/SubOperator/operatorAcount")}
      />
    </>
  );
}
