import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { Controller, useForm, useWatch, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { groupInput, type GroupFormValues } from "../../../domain/schemas/drivers";
import { SelectField, TextField } from "~/components/form/fields";
import { FormField } from "~/components/form/form-field";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage } from "~/components/form/form-page";
import { loadGroupForm, saveGroup } from "./groups.server";
import { customerLabel, MultiPicker, type Option } from "./pickers";

/** Add and edit a customer group: its code is the members' parent id tag (docs/rules/drivers.md "Customer groups"). */
export function loader(args: LoaderFunctionArgs) {
  return loadGroupForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveGroup(args);
}

export default function GroupForm() {
  const { group } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const membersId = useId();
  const [members, setMembers] = useState<Option[]>(group?.members.map((m) => ({ id: m.id, label: `${m.name} · ${m.email}` })) ?? []);
  const form = useForm<GroupFormValues>({
    resolver: zodResolver(groupInput) as Resolver<GroupFormValues>,
    defaultValues: {
      name: group?.name ?? "",
      code: group?.code ?? "",
      leaderId: group?.leaderId ?? ("" as unknown as number),
      deductionAccount: group?.deductionAccount ?? "",
      deductionEmail: group?.deductionEmail ?? "",
      memberIds: group?.memberIds ?? [],
    },
  });
  const leaderId = useWatch({ control: form.control, name: "leaderId" });

  useActionOutcome<{ id: number }>(
    fetcher,
    (data) => {
      toast.success(t("drivers.groups.saved"));
      navigate(`/userManagement/userGroupManagement/groupDetail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof GroupFormValues, { message }),
  );

  const chooseMembers = (chosen: Option[]) => {
    setMembers(chosen);
    form.setValue(
      "memberIds",
      chosen.map((m) => m.id),
      { shouldValidate: form.formState.isSubmitted },
    );
    if (!chosen.some((m) => String(m.id) === String(leaderId))) form.setValue("leaderId", "" as unknown as number);
  };

  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }));

  return (
    <FormPage onSubmit={submit} title={group ? t("drivers.groups.edit") : t("drivers.groups.add")} cancelTo="/userManagement/userGroupManagement" sending={fetcher}>
      <Card>
        <CardContent className="grid items-start gap-4 pt-6 sm:grid-cols-2">
          <TextField control={form.control} name="name" label={t("drivers.groups.fields.name")} required />
          <TextField control={form.control} name="code" label={t("drivers.groups.fields.code")} required hint={t("drivers.groups.codeHint")} autoComplete="off" />
          <TextField control={form.control} name="deductionAccount" label={t("drivers.groups.fields.deductionAccount")} />
          <TextField control={form.control} name="deductionEmail" label={t("drivers.groups.fields.deductionEmail")} type="email" />
          <Controller
            control={form.control}
            name="memberIds"
            render={({ fieldState }) => (
              <FormField id={membersId} label={t("drivers.groups.fields.members")} required error={fieldState.error?.message && t(fieldState.error.message)} className="sm:col-span-2">
                <MultiPicker path="/customer-service/customer/options" label={customerLabel} chosen={members} onChange={chooseMembers} searchLabel={t("drivers.pickers.searchCustomer")} />
              </FormField>
            )}
          />
          <SelectField
            control={form.control}
            name="leaderId"
            label={t("drivers.groups.fields.leader")}
            required
            hint={t("drivers.groups.leaderHint")}
            options={members.map((m) => ({ value: String(m.id), label: m.label }))}
          />
        </CardContent>
      </Card>
    </FormPage>
  );
}
