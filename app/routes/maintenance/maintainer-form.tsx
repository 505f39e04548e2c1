import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { maintainerInput } from "../../../domain/schemas/maintenance";
import { SelectField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { loadMaintainerForm, saveMaintainer } from "./maintain.server";

/**
 * Add and edit a maintainer: an account of a MAINTAINER role, its manufacturer and warden account,
 * the fault codes it is bound to and the locations and points it answers for
 * (docs/rules/maintenance.md "Maintainers").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadMaintainerForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveMaintainer(args);
}

interface FormValues {
  accountId: string;
  manufacturer: string;
  wardenAccount: string;
  faultCodes: string[];
  stationIds: number[];
  pointIds: number[];
}

export default function MaintainerForm() {
  const { choices, maintainer, own } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<FormValues>({
    defaultValues: {
      accountId: maintainer ? String(maintainer.accountId) : "",
      manufacturer: maintainer?.manufacturer ?? "",
      wardenAccount: maintainer?.wardenAccount ?? "",
      faultCodes: maintainer?.faultCodes ?? [],
      stationIds: maintainer?.stations.map((s) => s.id) ?? [],
      pointIds: maintainer?.points.map((p) => p.id) ?? [],
    },
  });
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("maintenance.ui.saved"));
      navigate("/operationMaintenance/maintain?tab=maintainers");
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => {
    const body = { ...values, accountId: values.accountId, manufacturer: values.manufacturer || undefined, wardenAccount: values.wardenAccount || undefined };
    // The verb's own schema, so the form shows its messages before sending.
    const checked = maintainerInput.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) form.setError(String(issue.path[0]) as keyof FormValues, { message: t(issue.message) });
      return;
    }
    fetcher.submit(JSON.stringify(checked.data), { method: "post", encType: "application/json" });
  });
  const toggle = <K extends "faultCodes" | "stationIds" | "pointIds">(name: K, value: FormValues[K][number], on: boolean) => {
    const current = form.getValues(name) as FormValues[K][number][];
    const next = on ? [...current, value] : current.filter((v) => v !== value);
    // react-hook-form cannot narrow a path given as a type parameter.
    form.setValue(name as "faultCodes", next as string[], { shouldDirty: true });
  };
  const values = form.watch();
  const group = <K extends "faultCodes" | "stationIds" | "pointIds">(name: K, title: string, items: { value: FormValues[K][number]; label: string }[]) => (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {own && <p className="text-xs text-muted-foreground">{t("maintenance.ui.ownScopeHint")}</p>}
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("maintenance.ui.noChoices")}</p>
        ) : (
          <fieldset className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label={title}>
            {items.map((item) => {
              const id = `${name}-${item.value}`;
              return (
                <div key={id} className="flex items-center gap-2">
                  <Checkbox id={id} disabled={own} checked={(values[name] as unknown[]).includes(item.value)} onCheckedChange={(on) => toggle(name, item.value, on === true)} />
                  <Label htmlFor={id} className="font-normal break-all">
                    {item.label}
                  </Label>
                </div>
              );
            })}
          </fieldset>
        )}
        {form.formState.errors[name] && <p className="mt-2 text-xs text-destructive">{String(form.formState.errors[name]?.message ?? "")}</p>}
      </CardContent>
    </Card>
  );
  return (
    <FormPage onSubmit={submit} title={maintainer ? t("maintenance.ui.editMaintainer") : t("maintenance.ui.addMaintainer")} cancelTo="/operationMaintenance/maintain?tab=maintainers" sending={fetcher}>
      <FormSection>
        <SelectField
          control={form.control}
          name="accountId"
          label={t("maintenance.ui.account")}
          hint={t("maintenance.ui.accountHint")}
          required
          disabled={maintainer !== null}
          options={choices.accounts.map((a) => ({ value: String(a.id), label: `${a.name} (${a.username})` }))}
        />
        <TextField control={form.control} name="manufacturer" label={t("maintenance.ui.manufacturer")} />
        <TextField control={form.control} name="wardenAccount" label={t("maintenance.ui.wardenAccount")} />
      </FormSection>
      {group(
        "faultCodes",
        t("maintenance.ui.faultCodes"),
        choices.faultCodes.map((c) => ({ value: c, label: t(`monitoring.faultTypes.${c}`, { defaultValue: c }) })),
      )}
      {group(
        "stationIds",
        t("maintenance.ui.stations"),
        choices.stations.map((s) => ({ value: s.id, label: s.name })),
      )}
      {group(
        "pointIds",
        t("maintenance.ui.points"),
        choices.points.map((p) => ({ value: p.id, label: p.serialNumber })),
      )}
    </FormPage>
  );
}
