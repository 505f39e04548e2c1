import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { z } from "zod";
import { accountInput } from "../../../domain/schemas/account-service";
import { SelectField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { InitialPasswordDialog } from "~/components/initial-password-dialog";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { loadAccountForm, saveAccount } from "./accounts.server";

/** Add and edit a console account; a new one's initial password is shown once (docs/rules/sessions.md "Initial password"). */
export function loader(args: LoaderFunctionArgs) {
  return loadAccountForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveAccount(args);
}

/** On edit the username stays as it is; the form still carries it for the shared schema. */
type FormValues = z.input<typeof accountInput>;

export default function AccountForm() {
  const { account, roles } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const [issued, setIssued] = useState<{ username: string; password: string } | null>(null);
  const form = useForm<FormValues>({
    resolver: zodResolver(accountInput) as Resolver<FormValues>,
    defaultValues: {
      username: account?.username ?? "",
      name: account?.name ?? "",
      email: account?.email ?? "",
      phone: account?.phone ?? "",
      roleId: account?.roleId ?? ("" as unknown as number),
    },
  });

  useActionOutcome<{ initialPassword: string | null; username: string | null }>(
    fetcher,
    (data) => {
      toast.success(t("accounts.saved"));
      if (data.initialPassword && data.username) setIssued({ username: data.username, password: data.initialPassword });
      else navigate("/carrierSystem/carrierAcount");
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );

  const submit = form.handleSubmit((values) => {
    const body = account ? { ...values, username: undefined } : values;
    fetcher.submit(JSON.stringify(body), { method: "post", encType: "application/json" });
  });

  return (
    <>
      <FormPage onSubmit={submit} title={account ? t("accounts.edit") : t("accounts.add")} cancelTo="/carrierSystem/carrierAcount" sending={fetcher}>
        <FormSection>
          <TextField control={form.control} name="username" label={t("accounts.username")} required disabled={Boolean(account)} autoComplete="off" />
          <TextField control={form.control} name="name" label={t("accounts.name")} required />
          <TextField control={form.control} name="email" label={t("accounts.email")} type="email" />
          <TextField control={form.control} name="phone" label={t("accounts.phone")} type="tel" />
          <SelectField
            control={form.control}
            name="roleId"
            label={t("accounts.role")}
            required
            // Roles beyond the actor's own rights are shown but cannot be chosen (docs/rules/access.md).
            options={roles.map((role) => ({
              value: String(role.id),
              label: role.assignable ? role.name : `${role.name} — ${t("accounts.roleBeyondRights")}`,
              disabled: !role.assignable && String(role.id) !== String(account?.roleId),
            }))}
          />
        </FormSection>
      </FormPage>
      <InitialPasswordDialog
        password={issued?.password ?? null}
        title={t("accounts.initialPasswordTitle")}
        text={t("accounts.initialPasswordText", { username: issued?.username })}
        onClose={() => navigate("/carrierSystem/carrierAcount")}
      />
    </>
  );
}
