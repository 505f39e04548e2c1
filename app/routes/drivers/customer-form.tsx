import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useMemo, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { COUNTRY_CODES } from "../../../domain/countries";
import { intlLocale, parseLanguage, DEFAULT_LANGUAGE } from "../../../domain/languages";
import { customerForm, GENDERS, PAY_WAYS, toCustomerInput, type CustomerFormOutput, type CustomerFormValues } from "../../../domain/schemas/drivers";
import { amountInput } from "../../../domain/schemas/stations";
import { AmountField, SelectField, TextField } from "~/components/form/fields";
import { FormField } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage } from "~/components/form/form-page";
import { ChoiceField, LogoField } from "../equipment/station-fields";
import { loadCustomerForm, saveCustomer } from "./customers.server";
import { genderLabel } from "./gender";
import { GroupSelect, MultiPicker, pointLabel, type Option } from "./pickers";

/** Add and edit a customer (docs/rules/drivers.md "Customers"): profile, address, vehicle, account and where it may charge. */
export function loader(args: LoaderFunctionArgs) {
  return loadCustomerForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveCustomer(args);
}

/** Country names in the console's language. */
function useCountries() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([intlLocale(parseLanguage(i18n.language) ?? DEFAULT_LANGUAGE)], { type: "region" });
    return COUNTRY_CODES.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label));
  }, [i18n.language]);
}

export default function CustomerForm() {
  const { customer, chargePoints, group, rules } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const { currency, money } = useFormat();
  const countries = useCountries();
  const pointsId = useId();
  const groupId = useId();
  const schema = useMemo(() => customerForm(currency.decimals, rules), [currency.decimals, rules]);
  const [points, setPoints] = useState<Option[]>(chargePoints.map((p) => ({ id: p.id, label: `${p.serialNumber} · ${p.name}` })));
  const form = useForm<CustomerFormValues, unknown, CustomerFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      firstName: customer?.firstName ?? "",
      lastName: customer?.lastName ?? "",
      gender: customer?.gender ?? "UNSTATED",
      email: customer?.email ?? "",
      phone: customer?.phone ?? "",
      country: customer?.country ?? "",
      city: customer?.city ?? "",
      zipCode: customer?.zipCode ?? "",
      district: customer?.district ?? "",
      street: customer?.street ?? "",
      houseNumber: customer?.houseNumber ?? "",
      state: customer?.state ?? "",
      complement: customer?.complement ?? "",
      cpf: customer?.cpf ?? "",
      idCard: customer?.idCard ?? "",
      avatarKey: customer?.avatarKey ?? "",
      evModel: customer?.evModel ?? "",
      carPlate: customer?.carPlate ?? "",
      carBrand: customer?.carBrand ?? "",
      carModel: customer?.carModel ?? "",
      overdraftCredit: amountInput(customer?.overdraftCredit ?? 0, currency.decimals),
      payWay: customer?.payWay ?? "PERSONAL",
      groupId: customer?.groupId ?? null,
      chargeAllPoint: customer?.chargeAllPoint ?? true,
      chargePointList: customer?.chargePointList ?? [],
    },
  });
  const chargeAllPoint = useWatch({ control: form.control, name: "chargeAllPoint" });
  const avatar = useFetcher<typeof action>();
  const [avatarUrl, setAvatarUrl] = useState<string | null>(customer?.avatarKey ? `/user-service/file/show?key=${encodeURIComponent(customer.avatarKey)}` : null);
  useActionOutcome<{ key: string | null; url: string | null }>(
    avatar,
    (data) => {
      form.setValue("avatarKey", data.key ?? "", { shouldDirty: true });
      form.clearErrors("avatarKey");
      setAvatarUrl(data.url);
      toast.success(t("drivers.avatar.uploaded"));
    },
    (_name, message) => form.setError("avatarKey", { message }),
  );
  const uploadAvatar = (file: File) => {
    const data = new FormData();
    data.append("file", file);
    avatar.submit(data, { method: "post", encType: "multipart/form-data" });
  };
  const removeAvatar = () => {
    form.setValue("avatarKey", "", { shouldDirty: true });
    setAvatarUrl(null);
  };

  useActionOutcome<{ id: number | null }>(
    fetcher,
    (data) => {
      toast.success(t("drivers.customers.saved"));
      navigate(`/userManagement/userProfileManagement/customerDetail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof CustomerFormValues, { message }),
  );

  const submit = form.handleSubmit((values) => {
    fetcher.submit(JSON.stringify(toCustomerInput(values, currency.decimals)), { method: "post", encType: "application/json" });
  });

  const choosePoints = (chosen: Option[]) => {
    setPoints(chosen);
    form.setValue(
      "chargePointList",
      chosen.map((p) => p.id),
      { shouldValidate: form.formState.isSubmitted },
    );
  };

  return (
    <FormPage onSubmit={submit} title={customer ? t("drivers.customers.edit") : t("drivers.customers.add")} cancelTo="/userManagement/userProfileManagement" sending={fetcher}>
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.sections.profile")}</CardTitle>
        </CardHeader>
        <CardContent className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <TextField control={form.control} name="firstName" label={t("drivers.customers.fields.firstName")} required autoComplete="off" />
          <TextField control={form.control} name="lastName" label={t("drivers.customers.fields.lastName")} required autoComplete="off" />
          <SelectField control={form.control} name="gender" label={t("drivers.customers.fields.gender")} required={rules.gender} options={GENDERS.filter((g) => !rules.gender || g !== "UNSTATED").map((g) => ({ value: g, label: genderLabel(t, g) }))} />
          <TextField control={form.control} name="email" label={t("drivers.customers.fields.email")} required type="email" autoComplete="off" />
          <TextField control={form.control} name="phone" label={t("drivers.customers.fields.phone")} type="tel" hint={t("drivers.customers.phoneHint")} />
          {rules.cpf && <TextField control={form.control} name="cpf" label={t("drivers.customers.fields.cpf")} required />}
          <TextField control={form.control} name="idCard" label={t("drivers.customers.fields.idCard")} />
          <LogoField
            control={form.control}
            name="avatarKey"
            url={avatarUrl}
            uploading={avatar.state !== "idle"}
            onFile={uploadAvatar}
            onRemove={removeAvatar}
            texts="drivers.avatar"
            label="drivers.avatar.label"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.sections.address")}</CardTitle>
        </CardHeader>
        <CardContent className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <SelectField control={form.control} name="country" label={t("drivers.customers.fields.country")} required options={countries} />
          <TextField control={form.control} name="state" label={t("drivers.customers.fields.state")} />
          <TextField control={form.control} name="city" label={t("drivers.customers.fields.city")} />
          <TextField control={form.control} name="district" label={t("drivers.customers.fields.district")} />
          <TextField control={form.control} name="zipCode" label={t("drivers.customers.fields.zipCode")} required={rules.zipCode} />
          <TextField control={form.control} name="street" label={t("drivers.customers.fields.street")} />
          <TextField control={form.control} name="houseNumber" label={t("drivers.customers.fields.houseNumber")} />
          <TextField control={form.control} name="complement" label={t("drivers.customers.fields.complement")} className="sm:col-span-2" />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.sections.vehicle")}</CardTitle>
        </CardHeader>
        <CardContent className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField control={form.control} name="evModel" label={t("drivers.customers.fields.evModel")} required={rules.evModel} />
          <TextField control={form.control} name="carBrand" label={t("drivers.customers.fields.carBrand")} />
          <TextField control={form.control} name="carModel" label={t("drivers.customers.fields.carModel")} />
          <TextField control={form.control} name="carPlate" label={t("drivers.customers.fields.carPlate")} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("drivers.customers.sections.account")}</CardTitle>
        </CardHeader>
        <CardContent className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {customer && (
            <dl className="grid gap-1 text-sm sm:col-span-2 lg:col-span-3">
              <div className="flex gap-2">
                <dt className="text-muted-foreground">{t("drivers.customers.fields.memberLevel")}:</dt>
                <dd>{t(`drivers.customers.levels.${customer.memberLevel}`)}</dd>
              </div>
              <div className="flex gap-2">
                <dt className="text-muted-foreground">{t("drivers.customers.fields.balance")}:</dt>
                <dd>{money(customer.balance)}</dd>
              </div>
            </dl>
          )}
          <AmountField control={form.control} name="overdraftCredit" label={t("drivers.customers.fields.overdraftCredit")} />
          <Controller
            control={form.control}
            name="groupId"
            render={({ field, fieldState }) => (
              <FormField id={groupId} label={t("drivers.customers.fields.group")} error={fieldState.error?.message && t(fieldState.error.message)}>
                {/* Searched on the server, so that any group can be chosen, and "no group" again. */}
                <GroupSelect
                  id={groupId}
                  value={(field.value as number | null | undefined) ?? null}
                  onChange={field.onChange}
                  current={group}
                  noneLabel={t("drivers.customers.noGroup")}
                  invalid={Boolean(fieldState.error)}
                />
              </FormField>
            )}
          />
          <SelectField control={form.control} name="payWay" label={t("drivers.customers.fields.payWay")} required options={PAY_WAYS.map((p) => ({ value: p, label: t(`drivers.customers.payWays.${p}`) }))} />
          <ChoiceField
            control={form.control}
            name="chargeAllPoint"
            label={t("drivers.customers.fields.chargeAllPoint")}
            required
            options={[
              { value: true, label: t("drivers.customers.everywhere") },
              { value: false, label: t("drivers.customers.somePoints") },
            ]}
          />
          {chargeAllPoint === false && (
            <Controller
              control={form.control}
              name="chargePointList"
              render={({ fieldState }) => (
                <FormField id={pointsId} label={t("drivers.customers.fields.chargePointList")} required error={fieldState.error?.message && t(fieldState.error.message)} className="sm:col-span-2">
                  <MultiPicker path="/customer-service/customer/point-options" label={pointLabel} chosen={points} onChange={choosePoints} searchLabel={t("drivers.pickers.searchPoint")} />
                </FormField>
              )}
            />
          )}
        </CardContent>
      </Card>
    </FormPage>
  );
}
