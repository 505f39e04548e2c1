import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { z } from "zod";
import { subOperatorInfoInput } from "../../../domain/schemas/platform";
import { useActionOutcome } from "~/components/page-actions";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { profileDefaults, ProfileFields } from "../platform/profile-fields";
import { loadOwnInfo, saveOwnInfo } from "./sub-operators.server";

/** subOperatorInfoEdit: the sub-operator edits its own contact and accounts, never its code or validity. */
export function loader(args: LoaderFunctionArgs) {
  return loadOwnInfo(args);
}

export function action(args: ActionFunctionArgs) {
  return saveOwnInfo(args);
}

type FormValues = z.input<typeof subOperatorInfoInput>;

export default function SubOperatorInfoForm() {
  const info = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<FormValues>({
    resolver: zodResolver(subOperatorInfoInput) as unknown as Resolver<FormValues>,
    defaultValues: profileDefaults(info) as unknown as FormValues,
  });
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("subInfo.saved"));
      navigate("/suboperators/subOperatorInfo/subOperatorInfo");
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));
  return (
    <FormPage onSubmit={submit} title={t("subInfo.edit")} cancelTo="/suboperators/subOperatorInfo/subOperatorInfo" sending={fetcher}>
      <FormSection>
        <ProfileFields control={form.control} />
      </FormSection>
    </FormPage>
  );
}
