import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { z } from "zod";
import { carrierInfoInput } from "../../../domain/schemas/platform";
import { PasswordField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { loadCarrierInfoForm, saveCarrierInfo } from "./carrier-info.server";
import { profileDefaults, ProfileFields } from "./profile-fields";

/** carrierInfoEdit: the operator edits its own contact, accounts, branding and EIPA access (docs/rules/platform.md "Operator info"). */
export function loader(args: LoaderFunctionArgs) {
  return loadCarrierInfoForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveCarrierInfo(args);
}

type FormValues = z.input<typeof carrierInfoInput>;
const BACK = "/carrierSystem/carrierInfo";

export default function CarrierInfoForm() {
  const info = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<FormValues>({
    resolver: zodResolver(carrierInfoInput) as unknown as Resolver<FormValues>,
    defaultValues: { ...profileDefaults(info), eipaAccount: info.eipaAccount ?? "", eipaPassword: "" } as unknown as FormValues,
  });
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("carrierInfo.saved"));
      navigate(BACK);
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));
  return (
    <FormPage onSubmit={submit} title={t("carrierInfo.edit")} cancelTo={BACK} sending={fetcher}>
      <FormSection>
        <ProfileFields control={form.control} />
        <TextField control={form.control} name="eipaAccount" label={t("operators.eipaAccount")} />
        <PasswordField
          control={form.control}
          name="eipaPassword"
          label={t("operators.eipaPassword")}
          hint={info.eipaPasswordSet ? t("operators.eipaPasswordHint") : undefined}
          autoComplete="new-password"
        />
      </FormSection>
    </FormPage>
  );
}
