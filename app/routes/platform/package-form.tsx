import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { z } from "zod";
import { PACKAGE_TYPES, pricePackageInput } from "../../../domain/schemas/platform";
import { NumberField, SelectField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { loadPackageForm, savePackage } from "./packages.server";

/** Add a price package for an operator (docs/rules/platform.md "Price packages"). */
export function loader(args: LoaderFunctionArgs) {
  return loadPackageForm(args);
}

export function action(args: ActionFunctionArgs) {
  return savePackage(args);
}

type FormValues = z.input<typeof pricePackageInput>;

export default function PackageForm() {
  const { operators } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<FormValues>({
    resolver: zodResolver(pricePackageInput) as unknown as Resolver<FormValues>,
    defaultValues: { operatorId: "", type: "default", acPrice: "", dcPrice: "", acConnectors: "", dcConnectors: "", beginAt: "", endAt: "", remark: "" } as unknown as FormValues,
  });
  useActionOutcome<{ id: number }>(
    fetcher,
    (data) => {
      toast.success(t("packages.saved"));
      navigate(`/platform/pricePackage/detail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));

  return (
    <FormPage onSubmit={submit} title={t("packages.add")} cancelTo="/platform/pricePackage" sending={fetcher}>
      <FormSection>
        <SelectField
          control={form.control}
          name="operatorId"
          label={t("packages.operator")}
          required
          options={operators.map((o) => ({ value: String(o.id), label: `${o.code} · ${o.name}` }))}
        />
        <SelectField control={form.control} name="type" label={t("packages.type")} required options={PACKAGE_TYPES.map((type) => ({ value: type, label: t(`packages.types.${type}`) }))} />
        <NumberField control={form.control} name="acPrice" label={t("packages.acPrice")} decimals={4} required />
        <NumberField control={form.control} name="dcPrice" label={t("packages.dcPrice")} decimals={4} required />
        <NumberField control={form.control} name="acConnectors" label={t("packages.acConnectors")} required />
        <NumberField control={form.control} name="dcConnectors" label={t("packages.dcConnectors")} required />
        <TextField control={form.control} name="beginAt" label={t("packages.beginAt")} type="date" required />
        <TextField control={form.control} name="endAt" label={t("packages.endAt")} type="date" required />
        <TextField control={form.control} name="remark" label={t("packages.remark")} className="sm:col-span-2" />
      </FormSection>
    </FormPage>
  );
}
