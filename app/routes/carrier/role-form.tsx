import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { roleInput, type RoleInput } from "../../../domain/schemas/account-service";
import { SelectField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { MenuPicker } from "./menu-picker";
import { loadRoleForm, saveRole } from "./roles.server";

/**
 * Add and edit a role: name, code, type and menu selection (docs/rules/access.md "Menus are
 * permissions", "No escalation").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRoleForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveRole(args);
}

export default function RoleForm() {
  const { role, catalogue } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<RoleInput>({
    resolver: zodResolver(roleInput) as Resolver<RoleInput>,
    defaultValues: role
      ? { name: role.name, code: role.code, type: role.type, menuCodes: role.menuCodes, remark: role.remark ?? "" }
      : { name: "", code: "", type: "NORMAL", menuCodes: [], remark: "" },
  });

  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("roles.saved"));
      navigate("/carrierSystem/role");
    },
    (name, message) => form.setError(name as keyof RoleInput, { message }),
  );

  const type = form.watch("type");
  const menuCodes = form.watch("menuCodes");
  const submit = form.handleSubmit((values) =>
    fetcher.submit(JSON.stringify(values), { method: "post", encType: "application/json" }),
  );

  return (
    <FormPage onSubmit={submit} title={role ? t("roles.edit") : t("roles.add")} cancelTo="/carrierSystem/role" sending={fetcher}>
      <FormSection columns="three">
        <TextField control={form.control} name="name" label={t("roles.name")} required />
        <TextField control={form.control} name="code" label={t("roles.code")} required disabled={Boolean(role)} />
        <SelectField
          control={form.control}
          name="type"
          label={t("roles.type")}
          required
          options={(["SUPER", "NORMAL", "MAINTAINER"] as const).map((value) => ({ value, label: t(`roles.types.${value}`) }))}
        />
        <TextField control={form.control} name="remark" label={t("roles.remark")} className="sm:col-span-2 lg:col-span-3" />
      </FormSection>
      <Card>
        <CardHeader>
          <CardTitle>{t("roles.menus")}</CardTitle>
          <CardDescription>{type === "SUPER" ? t("common.all") : t("roles.menusHint")}</CardDescription>
        </CardHeader>
        <CardContent>
          {type !== "SUPER" && (
            <MenuPicker catalogue={catalogue} value={menuCodes} onChange={(codes) => form.setValue("menuCodes", codes, { shouldDirty: true })} />
          )}
        </CardContent>
      </Card>
    </FormPage>
  );
}
