import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { CHARGEABLE_TYPES, offlineListInput, type OfflineListFormValues } from "../../../domain/schemas/driver-services";
import { SelectField, TextField } from "~/components/form/fields";
import { FormHeader, useActionOutcome } from "~/components/page-actions";
import { Card, CardContent } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { ChoiceList } from "./choice-list";
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

/** `datetime-local` in the browser's zone ↔ an ISO instant. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const toInstant = (local: string | null | undefined) => (local ? new Date(local).toISOString() : null);

export default function OfflineListForm() {
  const { list, customers, groups } = useLoaderData<typeof loader>();
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
  const customerIds = (form.watch("customerIds") ?? []) as number[];
  const groupIds = (form.watch("groupIds") ?? []) as number[];
  const membersError = form.formState.errors.customerIds?.message;
  // Typed in the browser's time zone; the form holds the instant the shared schema reads.
  const [effective, setEffective] = useState(toLocalInput(list?.effectiveTime ?? null));
  const effectiveError = form.formState.errors.effectiveTime?.message;
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <FormHeader title={list ? t("driverServices.lists.edit") : t("driverServices.lists.add")} cancelTo="/userManagement/offlineUserList" saving={fetcher.state !== "idle"} />
      <Card>
        <CardContent className="grid gap-4 pt-6 sm:grid-cols-2 lg:grid-cols-3">
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
                form.setValue("effectiveTime", toInstant(e.target.value), { shouldDirty: true });
              }}
            />
            <p id="list-effective-hint" className={effectiveError ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
              {effectiveError ? t(effectiveError) : t("driverServices.lists.effectiveHint")}
            </p>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="grid gap-4 pt-6 md:grid-cols-2">
          <ChoiceList
            id="list-customers"
            label={t("driverServices.lists.customers")}
            options={customers.map((c) => ({ id: c.id, label: `${c.name} (${c.email})` }))}
            value={customerIds}
            onChange={(ids) => form.setValue("customerIds", ids, { shouldDirty: true })}
          />
          <ChoiceList
            id="list-groups"
            label={t("driverServices.lists.groups")}
            options={groups.map((g) => ({ id: g.id, label: `${g.name} (${g.code})` }))}
            value={groupIds}
            onChange={(ids) => form.setValue("groupIds", ids, { shouldDirty: true })}
          />
          {membersError && (
            <p role="alert" className="text-sm text-destructive md:col-span-2">
              {t(membersError)}
            </p>
          )}
        </CardContent>
      </Card>
    </form>
  );
}
