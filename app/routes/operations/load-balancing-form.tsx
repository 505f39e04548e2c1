import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { loadBalancingInput, PROFILE_PURPOSES, REPEATS, STACK_LEVELS } from "../../../domain/schemas/operations";
import { NumberField, SelectField, TextField } from "~/components/form/fields";
import { FormField } from "~/components/form/form-field";
import { useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { StationOptions } from "./parts";
import { loadBalancingForm, saveLoadBalancing } from "./load-balancing.server";
import { instantOf, localValueOf } from "~/lib/datetime-local";

/**
 * Add and edit a load-balancing configuration (docs/rules/operations.md "Load balancing"): the
 * location, its points, the power limit within the location's load power, priority, repetition,
 * time slots in the location's local time and the validity.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadBalancingForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveLoadBalancing(args);
}

interface FormValues {
  name: string;
  stationId: string;
  pointIds: number[];
  powerLimit: string;
  purpose: string;
  stackLevel: string;
  repeat: string;
  slots: { start: string; end: string; limitKw: string }[];
  validFrom: string;
  validTo: string;
}


export default function LoadBalancingForm() {
  const { config, stationId, stations, points } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [, setParams] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<FormValues>({
    defaultValues: {
      name: config?.name ?? "",
      stationId: stationId ? String(stationId) : "",
      pointIds: config?.points.map((p) => p.pointId) ?? [],
      powerLimit: config ? String(config.powerLimit) : "",
      purpose: config?.purpose ?? "ChargePointMaxProfile",
      stackLevel: String(config?.stackLevel ?? 1),
      repeat: config?.repeat ?? "Daily",
      slots: config?.slots.map((s) => ({ start: s.start, end: s.end, limitKw: String(s.limitKw) })) ?? [],
      validFrom: localValueOf(config?.validFrom ?? null),
      validTo: localValueOf(config?.validTo ?? null),
    },
  });
  const slots = useFieldArray({ control: form.control, name: "slots" });
  const chosen = form.watch("pointIds");
  const station = stations.find((s) => String(s.id) === form.watch("stationId"));

  const listTo = config ? `/equipmentManagement/loadingBalance/detail/${config.id}` : "/equipmentManagement/loadingBalance";
  useActionOutcome(
    fetcher,
    (data: { id: number }) => {
      toast.success(t("operations.lb.saved"));
      navigate(`/equipmentManagement/loadingBalance/detail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );

  const submit = form.handleSubmit((values) => {
    const body = {
      ...values,
      stationId: values.stationId,
      stackLevel: Number(values.stackLevel),
      validFrom: instantOf(values.validFrom),
      validTo: instantOf(values.validTo),
    };
    // The same schema as the verb, so the form shows the server's messages before sending.
    const checked = loadBalancingInput.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) form.setError(issue.path.join(".") as keyof FormValues, { message: issue.message });
      return;
    }
    fetcher.submit(JSON.stringify(checked.data), { method: "post", encType: "application/json" });
  });

  const pointsError = form.formState.errors.pointIds?.message;
  const slotsError = form.formState.errors.slots?.message ?? form.formState.errors.slots?.root?.message;
  return (
    <FormPage onSubmit={submit} title={config ? t("operations.lb.edit") : t("operations.lb.add")} cancelTo={listTo} sending={fetcher}>
      <FormSection columns="three">
        <TextField control={form.control} name="name" label={t("operations.lb.name")} required />
        <FormField id="lb-station" label={t("operations.lb.station")} required error={form.formState.errors.stationId?.message && t(form.formState.errors.stationId.message)}>
          <NativeSelect
            id="lb-station"
            value={form.watch("stationId")}
            onChange={(e) => {
              form.setValue("stationId", e.target.value);
              form.setValue("pointIds", []);
              // The points to choose from are the chosen location's: the loader reads them.
              setParams(e.target.value ? { stationId: e.target.value } : {}, { replace: true, preventScrollReset: true });
            }}
          >
            <StationOptions stations={stations} empty={t("ui.form.selectPlaceholder")} withLoad />
          </NativeSelect>
        </FormField>
        <NumberField
          control={form.control}
          name="powerLimit"
          label={t("operations.lb.powerLimit")}
          required
          decimals={2}
          suffix="kW"
          hint={station?.powerLimit != null ? t("operations.lb.stationLoad", { limit: station.powerLimit }) : t("operations.lb.stationNoLoad")}
        />
        <SelectField
          control={form.control}
          name="purpose"
          label={t("operations.lb.purpose")}
          required
          options={PROFILE_PURPOSES.map((value) => ({ value, label: t(`operations.lb.purposes.${value}`) }))}
        />
        <SelectField
          control={form.control}
          name="stackLevel"
          label={t("operations.lb.stackLevel")}
          required
          options={STACK_LEVELS.map((value) => ({ value: String(value), label: t(`operations.lb.stackLevels.${value}`) }))}
        />
        <SelectField control={form.control} name="repeat" label={t("operations.lb.repeat")} required options={REPEATS.map((value) => ({ value, label: t(`operations.lb.repeats.${value}`) }))} />
        <TextField control={form.control} name="validFrom" type="datetime-local" label={t("operations.lb.validFrom")} />
        <TextField control={form.control} name="validTo" type="datetime-local" label={t("operations.lb.validTo")} />
      </FormSection>
      <Card>
        <CardHeader>
          <CardTitle>{t("operations.lb.points")}</CardTitle>
          <CardDescription>{station ? t("operations.lb.pointsHint") : t("operations.lb.chooseStation")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          {pointsError && <p className="text-sm text-destructive">{t(pointsError)}</p>}
          <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {points.map((p) => (
              <div key={p.id} className="flex items-center gap-2">
                <Checkbox
                  id={`lb-point-${p.id}`}
                  checked={chosen.includes(p.id)}
                  onCheckedChange={(on) => form.setValue("pointIds", on ? [...chosen, p.id] : chosen.filter((id) => id !== p.id))}
                />
                <Label htmlFor={`lb-point-${p.id}`} className="font-normal">
                  {p.serialNumber} <span className="text-muted-foreground">· {p.name}</span>
                </Label>
              </div>
            ))}
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("operations.lb.slots")}</CardTitle>
          <CardDescription>{t("operations.lb.slotsHint")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {slotsError && <p className="text-sm text-destructive">{t(slotsError)}</p>}
          {slots.fields.map((field, i) => (
            <div key={field.id} className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_1fr_auto]">
              <TextField control={form.control} name={`slots.${i}.start`} type="time" label={t("operations.lb.slotStart")} required />
              <TextField control={form.control} name={`slots.${i}.end`} label={t("operations.lb.slotEnd")} placeholder="24:00" required />
              <NumberField control={form.control} name={`slots.${i}.limitKw`} label={t("operations.lb.slotLimit")} decimals={2} suffix="kW" required />
              <Button type="button" variant="ghost" className="text-destructive" onClick={() => slots.remove(i)}>
                <Trash2 aria-hidden />
                {t("common.delete")}
              </Button>
            </div>
          ))}
          <Button type="button" variant="outline" className="w-fit" onClick={() => slots.append({ start: "18:00", end: "22:00", limitKw: "" })}>
            <Plus aria-hidden />
            {t("operations.lb.addSlot")}
          </Button>
        </CardContent>
      </Card>
    </FormPage>
  );
}
