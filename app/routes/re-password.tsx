import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useActionData, useLoaderData, useNavigation, useSubmit, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { changePasswordInput, type ChangePasswordInput } from "../../domain/schemas/account-service";
import { DocumentTitle } from "~/components/shell/document-title";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useEffect } from "react";
import { toast } from "~/components/ui/toast";
import { changePasswordAction, loadRePassword } from "./re-password.server";

/**
 * /rePassword and /suboperators/rePassword: change the password (forced for an initial password,
 * docs/rules/sessions.md "Initial password"); afterwards every session ends and the user logs in
 * again.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRePassword(args);
}

export function action(args: ActionFunctionArgs) {
  return changePasswordAction(args);
}

export default function RePassword() {
  const { forced, operatorName } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation();
  const submit = useSubmit();
  const navigation = useNavigation();
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInput),
    defaultValues: { oldPassword: "", newPassword: "", confirmPassword: "" },
  });
  useEffect(() => {
    if (result && !result.ok) toast.error(result.message);
  }, [result]);

  const field = (name: keyof ChangePasswordInput, label: string, autoComplete: string) => {
    const message = form.formState.errors[name]?.message ?? (result && !result.ok ? result.fields[name] : undefined);
    return (
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={name}>{label}</Label>
        <Input id={name} type="password" autoComplete={autoComplete} {...form.register(name)} />
        {message && <p className="text-sm text-destructive">{t(message)}</p>}
      </div>
    );
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-primary/10 via-background to-background p-4">
      <DocumentTitle screen={t("rePassword.title")} owner={operatorName} />
      <div className="w-full max-w-sm rounded-2xl border bg-card p-8 shadow-lg">
        <h1 className="text-xl font-semibold">{t("rePassword.title")}</h1>
        <p className="mt-1 text-sm text-muted-foreground">{forced ? t("rePassword.forced") : t("rePassword.hint")}</p>
        <form
          method="post"
          noValidate
          className="mt-6 flex flex-col gap-4"
          onSubmit={form.handleSubmit((values) => submit(values, { method: "post" }))}
        >
          {field("oldPassword", t("rePassword.old"), "current-password")}
          {field("newPassword", t("rePassword.new"), "new-password")}
          {field("confirmPassword", t("rePassword.confirm"), "new-password")}
          <Button type="submit" disabled={navigation.state !== "idle"}>
            {t("rePassword.submit")}
          </Button>
        </form>
      </div>
    </main>
  );
}
