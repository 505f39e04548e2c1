import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { CHARGEABLE_TYPES, offlineListInput, type OfflineListFormValues } from "../../../domain/schemas/driver-services";
import { SelectField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { instantOf, localValueOf } from "~/lib/datetime-local";
import { customerLabel, MultiPicker, type Option, type PickerPath } from "../drivers/pickers";
import { loadOfflineListForm, saveOfflineList } from "./offline-lists.server";

/**
 * Add and edit an offline list: name, chargeable type, effective time, and at least one customer
 * or group (docs/rules/driver-services.md "Offline lists").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadOfflineListForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveOfflineList(args);
}

const groupLabel = (row: Record<string, unknown>) => `${String(row.name)} (${String(row.code)})`;

/** A picker of records searched on the server, under its legend with how many are chosen. */
function MemberPicker({ legend, path, label, searchLabel, chosen, onChange }: { legend: string; path: PickerPath; label: (row: Record<string, unknown>) => string; searchLabel: string; chosen: Option[]; onChange: (chosen: Option[]) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">
        {legend} <span className="text-muted-foreground">({t("driverServices.common.selected", { n: chosen.length })})</span>
      </legend>
      <MultiPicker path={path} label={label} searchLabel={searchLabel} chosen={chosen} onChange={onChange} />
    </fieldset>
  );
}

export default function OfflineListForm() {
  const { list } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<OfflineListFormValues>({
    resolver: zodResolver(offlineListInput) as Resolver<OfflineListFormValues>,
    defaultValues: {
      name: list?.name ?? "",
      chargeableType: list?.chargeableType ?? ("" as never),
      effectiveTime: list?.effectiveTime ?? null,
      customerIds: list?.customerIds ?? [],
      groupIds: list?.groupIds ?? [],
    },
  });
  useActionOutcome<{ id: number }>(
    fetcher,
    (data) => {
      toast.success(t("driverServices.lists.saved"));
      navigate(`/userManagement/offlineUserList/detail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof OfflineListFormValues, { message }),
  );
  // The pickers search the server (docs/rules/lists.md "Pickers"); the form holds the chosen ids.
  const [customers, setCustomers] = useState<Option[]>(() => (list?.customers ?? []).map((c) => ({ id: c.id, label: customerLabel(c) })));
  const [groups, setGroups] = useState<Option[]>(() => (list?.groups ?? []).map((g) => ({ id: g.id, label: groupLabel(g) })));
  const membersError = form.formState.errors.customerIds?.message;
  // Typed in the browser's time zone; the form holds the instant the shared schema reads.
  const [effective, setEffective] = useState(localValueOf(list?.effectiveTime ?? null));
  const effectiveError = form.formState.errors.effectiveTime?.message;
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));
  return (
    <FormPage onSubmit={submit} title={list ? t("driverServices.lists.edit") : t("driverServices.lists.add")} cancelTo="/userManagement/offlineUserList" sending={fetcher}>
      <FormSection columns="three">
        <TextField control={form.control} name="name" label={t("driverServices.lists.name")} required />
        <SelectField
          control={form.control}
          name="chargeableType"
          label={t("driverServices.lists.chargeableType")}
          required
          options={CHARGEABLE_TYPES.map((value) => ({ value, label: t(`driverServices.lists.types.${value}`) }))}
        />
        <div className="flex flex-col gap-2">
          <Label htmlFor="list-effective">{t("driverServices.lists.effectiveTime")}</Label>
          <Input
            id="list-effective"
            type="datetime-local"
            value={effective}
            aria-describedby="list-effective-hint"
            aria-invalid={Boolean(effectiveError)}
            onChange={(e) => {
              setEffective(e.target.value);
              form.setValue("effectiveTime", instantOf(e.target.value) ?? null, { shouldDirty: true });
            }}
          />
          <p id="list-effective-hint" className={effectiveError ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
            {effectiveError ? t(effectiveError) : t("driverServices.lists.effectiveHint")}
          </p>
        </div>
      </FormSection>
      <Card>
        <CardContent className="grid gap-4 pt-6 md:grid-cols-2">
          <MemberPicker
            legend={t("driverServices.lists.customers")}
            path="/customer-service/vehicle/customers"
            label={customerLabel}
            searchLabel={t("drivers.pickers.searchCustomer")}
            chosen={customers}
            onChange={(chosen) => {
              setCustomers(chosen);
              form.setValue("customerIds", chosen.map((c) => c.id), { shouldDirty: true });
            }}
          />
          <MemberPicker
            legend={t("driverServices.lists.groups")}
            path="/customer-service/offline-list/groups"
            label={groupLabel}
            searchLabel={t("driverServices.lists.searchGroup")}
            chosen={groups}
            onChange={(chosen) => {
              setGroups(chosen);
              form.setValue("groupIds", chosen.map((g) => g.id), { shouldDirty: true });
            }}
          />
          {membersError && (
            <p role="alert" className="text-sm text-destructive md:col-span-2">
              {t(membersError)}
            </p>
          )}
        </CardContent>
      </Card>
    </FormPage>
  );
}
