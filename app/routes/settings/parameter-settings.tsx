import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { useController, useFieldArray, useForm, type Control, type FieldPath, type FieldValues, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../domain/languages";
import { CONNECTOR_STANDARDS } from "../../../domain/schemas/equipment";
import type { CurrencySet } from "../../../domain/schemas/settings";
import { formDecimals, toSettingsForm, toSettingsInput, type SettingsDocument, type SettingsForm } from "../../../domain/schemas/settings-form";
import { FormField, type BoundFieldProps } from "~/components/form/form-field";
import { NumberField, PasswordField, SelectField, TextField } from "~/components/form/fields";
import { TimeZoneField } from "~/components/form/time-zone-field";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { OPERATOR_ROLES } from "../../../domain/ocpi/roles";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { toast } from "~/components/ui/toast";
import type { SettingsView } from "../../../workers/services/settings/parameter-settings";
import { MailForm } from "./mail-form";
import { RetentionPanel } from "./retention-panel";
import { loadParameterSettings, saveParameterSettings } from "./parameter-settings.server";
import { Section, useIntent } from "./settings-kit";
import { ResilienceFields } from "./resilience-fields";

/**
 * Parameter settings (docs/rules/settings.md "The console screen"): the operator's document in
 * tabs, with its mail server and Serbian invoice system; a sub-operator sees its own part only.
 * Every form checks with the API's schema before sending and shows the server's messages after.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadParameterSettings(args);
}

export function action(args: ActionFunctionArgs) {
  return saveParameterSettings(args);
}

/** Nested react-hook-form errors from `path → message key`. */
function nestedErrors(fields: Record<string, string>) {
  const out: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(fields)) {
    const keys = path.split(".");
    let node = out;
    keys.slice(0, -1).forEach((k) => (node = (node[k] ??= {}) as Record<string, unknown>));
    node[keys[keys.length - 1]] = { type: "server", message };
  }
  return out;
}

const settingsResolver: Resolver<SettingsForm> = async (values) => {
  const { errors } = toSettingsInput(values);
  return Object.keys(errors).length ? { values: {}, errors: nestedErrors(errors) as never } : { values, errors: {} };
};

/** A yes/no setting as a checkbox with its label beside it. */
function CheckField<T extends FieldValues, N extends FieldPath<T>>({ control, name, label, hint }: BoundFieldProps<T, N, T> & { hint?: string }) {
  const { field } = useController({ control, name });
  const id = `check-${name.replace(/\W/g, "-")}`;
  return (
    <div className="flex items-start gap-2 pt-1">
      <Checkbox id={id} checked={Boolean(field.value)} onCheckedChange={(checked) => field.onChange(checked === true)} onBlur={field.onBlur} aria-describedby={hint ? `${id}-hint` : undefined} />
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm leading-none font-medium">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}

const SEPARATOR_AUTO = "auto";

/** Items every screen has: language, time zone, area codes, how numbers and costs are written. */
function GeneralFields({ control }: { control: Control<SettingsForm> }) {
  const { t } = useTranslation();
  const separator = useController({ control, name: "decimalSeparator" as never });
  return (
    <>
      <Section title={t("settings.tabs.general")}>
        <TimeZoneField control={control} name="timeZone" label={t("settings.fields.timeZone")} required hint={t("settings.hints.timeZone")} />
        <SelectField
          control={control}
          name={"defaultLanguage" as never}
          label={t("settings.fields.defaultLanguage")}
          required
          options={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
        />
        <TextField control={control} name="areaCodes" label={t("settings.fields.areaCodes")} required hint={t("settings.hints.list")} />
      </Section>
      <Section title={t("settings.sections.display")}>
        <FormField id="decimal-separator" label={t("settings.fields.decimalSeparator")}>
          <select
            id="decimal-separator"
            className="h-9 rounded-md border bg-background px-3 text-sm"
            value={(separator.field.value as string | null) ?? SEPARATOR_AUTO}
            onChange={(event) => separator.field.onChange(event.target.value === SEPARATOR_AUTO ? null : event.target.value)}
          >
            <option value={SEPARATOR_AUTO}>{t("settings.options.separatorAuto")}</option>
            <option value=".">{t("settings.options.separatorDot")}</option>
            <option value=",">{t("settings.options.separatorComma")}</option>
          </select>
        </FormField>
        <CheckField control={control} name={"hideZeroCosts" as never} label={t("settings.fields.hideZeroCosts")} hint={t("settings.hints.hideZeroCosts")} />
        <CheckField control={control} name={"hideEnergyPrice" as never} label={t("settings.fields.hideEnergyPrice")} />
      </Section>
    </>
  );
}

function CurrencyFields({ control, decimals, values }: { control: Control<SettingsForm>; decimals: number; values: SettingsForm }) {
  const { t } = useTranslation();
  const sets = useFieldArray({ control: control as unknown as Control<{ currencies: CurrencySet[] }>, name: "currencies" });
  const codes = values.currencies.map((c) => c.code).filter((code) => /^[A-Z]{3}$/.test(code));
  const money = { decimals, suffix: values.mainCurrency || undefined };
  return (
    <>
      <Section title={t("settings.sections.currencies")} description={t("settings.hints.currencies")}>
        {sets.fields.map((set, index) => (
          <div key={set.id} className="grid grid-cols-[1fr_1fr_1fr_auto] items-end gap-2 sm:col-span-2 lg:col-span-3">
            <TextField control={control} name={`currencies.${index}.code`} label={t("settings.fields.currencyCode")} required maxLength={3} />
            <TextField control={control} name={`currencies.${index}.sign`} label={t("settings.fields.currencySign")} required maxLength={5} />
            <NumberField control={control} name={`currencies.${index}.decimals`} label={t("settings.fields.currencyDecimals")} required maxLength={1} />
            <Button type="button" variant="outline" size="icon" aria-label={t("settings.actions.removeCurrency")} disabled={sets.fields.length === 1} onClick={() => sets.remove(index)}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
        <div className="flex flex-wrap items-end gap-4 sm:col-span-2 lg:col-span-3">
          <Button type="button" variant="outline" disabled={sets.fields.length >= 3} onClick={() => sets.append({ code: "", sign: "", decimals: 2 })}>
            <Plus aria-hidden />
            {t("settings.actions.addCurrency")}
          </Button>
        </div>
        <SelectField control={control} name={"mainCurrency" as never} label={t("settings.fields.mainCurrency")} required options={codes.map((code) => ({ value: code, label: code }))} />
        <NumberField control={control} name={"decimals" as never} label={t("settings.fields.decimals")} required hint={t("settings.hints.decimals")} maxLength={1} />
      </Section>
      <Section title={t("settings.sections.balance")}>
        <CheckField control={control} name={"balancePayment" as never} label={t("settings.fields.balancePayment")} hint={t("settings.hints.balancePayment")} />
        <NumberField control={control} name="minimumRecharge" label={t("settings.fields.minimumRecharge")} required {...money} messageParams={{ decimals }} />
        <NumberField
          control={control}
          name="minimumChargeBalance"
          label={t("settings.fields.minimumChargeBalance")}
          hint={t("settings.hints.minimumChargeBalance")}
          required
          {...money}
          messageParams={{ decimals }}
        />
        <TextField control={control} name="rechargeParameter.presets" label={t("settings.fields.rechargePresets")} hint={t("settings.hints.list")} messageParams={{ decimals }} />
        <NumberField control={control} name="adHocHold" label={t("settings.fields.adHocHold")} hint={t("settings.hints.adHocHold")} {...money} messageParams={{ decimals }} />
      </Section>
    </>
  );
}

function MembershipFields({ control, decimals, suffix }: { control: Control<SettingsForm>; decimals: number; suffix?: string }) {
  const { t } = useTranslation();
  return (
    <Section title={t("settings.tabs.membership")} description={t("settings.hints.membership")}>
      <NumberField control={control} name="membership.silverFee" label={t("settings.fields.silverFee")} required decimals={decimals} suffix={suffix} messageParams={{ decimals }} />
      <NumberField control={control} name="membership.goldFee" label={t("settings.fields.goldFee")} required decimals={decimals} suffix={suffix} messageParams={{ decimals }} />
      <span className="hidden lg:block" />
      <NumberField control={control} name="membership.silverDiscount" label={t("settings.fields.silverDiscount")} required suffix="%" />
      <NumberField control={control} name="membership.goldDiscount" label={t("settings.fields.goldDiscount")} required suffix="%" />
    </Section>
  );
}

/** The roles the operator takes on the OCPI wire (docs/rules/ocpi.md "CPO role"): eMSP, CPO or both. */
function RolesField({ control }: { control: Control<SettingsForm> }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: "ocpi.roles" as never });
  const roles = (field.value as string[] | undefined) ?? ["EMSP"];
  const toggle = (role: string, on: boolean) => field.onChange(OPERATOR_ROLES.filter((r) => (r === role ? on : roles.includes(r))));
  return (
    <fieldset className="grid gap-1" aria-describedby="ocpi-roles-hint">
      <legend className="text-sm font-medium">{t("settings.fields.ocpiRoles")}</legend>
      <div className="flex gap-4 pt-1">
        {OPERATOR_ROLES.map((role) => (
          <label key={role} className="flex items-center gap-2 text-sm">
            <Checkbox checked={roles.includes(role)} onCheckedChange={(checked) => toggle(role, checked === true)} />
            {t(`ocpi.cpo.role.${role}`)}
          </label>
        ))}
      </div>
      <p id="ocpi-roles-hint" className="text-xs text-muted-foreground">
        {t("settings.hints.ocpiRoles")}
      </p>
      {fieldState.error?.message && <p className="text-xs text-destructive">{t(fieldState.error.message)}</p>}
    </fieldset>
  );
}

/** The order connector types are listed in: moved up and down. */
function ConnectorOrder({ control }: { control: Control<SettingsForm> }) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: "connectorTypeOrder" as never });
  const order = (field.value as string[]) ?? [];
  const missing = CONNECTOR_STANDARDS.filter((s) => !order.includes(s));
  const list = [...order, ...missing];
  const move = (from: number, to: number) => {
    const next = [...list];
    [next[from], next[to]] = [next[to], next[from]];
    field.onChange(next);
  };
  return (
    <Section title={t("settings.fields.connectorTypeOrder")} description={t("settings.hints.connectorTypeOrder")}>
      <ol className="grid gap-1 sm:col-span-2 lg:col-span-3">
        {list.map((standard, index) => (
          <li key={standard} className="flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm">
            <span className="w-6 text-muted-foreground tabular-nums">{index + 1}</span>
            <span className="flex-1">{t(`points.standards.${standard}`)}</span>
            <Button type="button" variant="ghost" size="icon" aria-label={t("settings.actions.moveUp", { name: t(`points.standards.${standard}`) })} disabled={index === 0} onClick={() => move(index, index - 1)}>
              <ArrowUp aria-hidden />
            </Button>
            <Button type="button" variant="ghost" size="icon" aria-label={t("settings.actions.moveDown", { name: t(`points.standards.${standard}`) })} disabled={index === list.length - 1} onClick={() => move(index, index + 1)}>
              <ArrowDown aria-hidden />
            </Button>
          </li>
        ))}
      </ol>
    </Section>
  );
}

type LoaderData = Awaited<ReturnType<typeof loadParameterSettings>>;
type OperatorData = Extract<LoaderData, { sub: false }>;

function SettingsTabs({ data }: { data: OperatorData }) {
  const { t } = useTranslation();
  const doc = data.settings as SettingsView;
  const { submit, busy } = useIntent(
    () => toast.success(t("settings.saved")),
    (name, message) => form.setError(name as never, { type: "server", message }),
  );
  const form = useForm<SettingsForm>({ resolver: settingsResolver, defaultValues: toSettingsForm(doc as unknown as SettingsDocument) });
  const values = form.watch();
  const decimals = formDecimals(values);
  const save = form.handleSubmit((v) => {
    const { input } = toSettingsInput(v);
    const billPush = input.billPush as { signatureKey?: string | null };
    // An empty secret field keeps the stored secret (docs/rules/settings.md "Secrets at rest").
    submit("settings", {
      ...input,
      billPush: { ...billPush, signatureKey: billPush.signatureKey || null },
    });
  });
  const keepHint = (set: boolean) => (set ? t("settings.hints.secretKept") : undefined);
  const tabs = ["general", "currency", "membership", "tax", "map", "billPush", "ocpi", "mail", "invoice", "retention"] as const;
  const [tab, setTab] = useState<string>("general");
  return (
    <Tabs value={tab} onValueChange={setTab}>
      <TabsList aria-label={t("settings.tabsLabel")}>
        {tabs.map((tab) => (
          <TabsTrigger key={tab} value={tab}>
            {tab === "retention" ? t("retention.tab") : t(`settings.tabs.${tab}`)}
          </TabsTrigger>
        ))}
      </TabsList>
      <form onSubmit={save} noValidate className="contents" id="settings-form">
        <TabsContent value="general" className="flex flex-col gap-4">
          <GeneralFields control={form.control} />
          <ConnectorOrder control={form.control} />
          <ResilienceFields control={form.control} />
          {/* What the customer form requires (docs/rules/drivers.md "What the customer form asks"). */}
          <Section title={t("formsHelp.settings.title")} description={t("formsHelp.settings.hint")}>
            <CheckField control={form.control} name={"customerFields.gender" as never} label={t("formsHelp.settings.gender")} />
            <CheckField control={form.control} name={"customerFields.zipCode" as never} label={t("formsHelp.settings.zipCode")} />
            <CheckField control={form.control} name={"customerFields.evModel" as never} label={t("formsHelp.settings.evModel")} />
          </Section>
        </TabsContent>
        <TabsContent value="currency" className="flex flex-col gap-4">
          <CurrencyFields control={form.control} decimals={decimals} values={values} />
        </TabsContent>
        <TabsContent value="membership">
          <MembershipFields control={form.control} decimals={decimals} suffix={values.mainCurrency || undefined} />
        </TabsContent>
        <TabsContent value="tax">
          <Section title={t("settings.tabs.tax")} description={t("settings.hints.tax")}>
            <TextField control={form.control} name={"tax.mark" as never} label={t("settings.fields.taxMark")} maxLength={8} />
            <TextField control={form.control} name={"tax.rate" as never} label={t("settings.fields.taxRate")} required inputMode="decimal" />
            <CheckField control={form.control} name={"tax.inclusive" as never} label={t("settings.fields.taxInclusive")} />
          </Section>
        </TabsContent>
        <TabsContent value="map">
          <Section title={t("settings.tabs.map")} description={t("settings.hints.map")}>
            <SelectField
              control={form.control}
              name={"map.provider" as never}
              label={t("settings.fields.mapProvider")}
              required
              options={[
                { value: "osm", label: t("settings.map.osm") },
                { value: "bing", label: "Bing" },
                { value: "google", label: "Google" },
              ]}
            />
            <TextField control={form.control} name={"map.keys.bing" as never} label={t("settings.fields.bingKey")} autoComplete="off" />
            <TextField control={form.control} name={"map.keys.google" as never} label={t("settings.fields.googleKey")} autoComplete="off" />
            <TextField control={form.control} name={"map.centre.lat" as never} label={t("settings.fields.centreLat")} required inputMode="decimal" />
            <TextField control={form.control} name={"map.centre.lng" as never} label={t("settings.fields.centreLng")} required inputMode="decimal" />
            <NumberField control={form.control} name={"map.zoom" as never} label={t("settings.fields.zoom")} required maxLength={2} />
          </Section>
        </TabsContent>
        <TabsContent value="billPush">
          <Section title={t("settings.tabs.billPush")} description={t("settings.hints.billPush")}>
            <TextField control={form.control} name={"billPush.url" as never} label={t("settings.fields.billPushUrl")} type="url" className="sm:col-span-2" />
            <PasswordField
              control={form.control}
              name={"billPush.signatureKey" as never}
              label={t("settings.fields.signatureKey")}
              autoComplete="new-password"
              hint={keepHint(doc.billPush.signatureKeySet)}
            />
          </Section>
        </TabsContent>
        <TabsContent value="ocpi">
          <Section title={t("settings.tabs.ocpi")}>
            <TextField control={form.control} name={"ocpi.countryCode" as never} label={t("settings.fields.countryCode")} maxLength={2} />
            <TextField control={form.control} name={"ocpi.partyId" as never} label={t("settings.fields.partyId")} maxLength={3} />
            <RolesField control={form.control} />
            <CheckField control={form.control} name={"rfCardRestriction" as never} label={t("settings.fields.rfCardRestriction")} hint={t("settings.hints.rfCardRestriction")} />
            {/* The most a partner's CDR may cost (docs/rules/ocpi.md "What a CDR may bill"): unit prices, four decimals at most. */}
            <NumberField
              control={form.control}
              name={"roamingCdrLimit.perKwh" as never}
              label={t("settings.fields.cdrLimitPerKwh")}
              hint={t("settings.hints.roamingCdrLimit")}
              required
              decimals={4}
              suffix={values.mainCurrency || undefined}
            />
            <NumberField control={form.control} name={"roamingCdrLimit.perMinute" as never} label={t("settings.fields.cdrLimitPerMinute")} required decimals={4} suffix={values.mainCurrency || undefined} />
          </Section>
        </TabsContent>
      </form>
      <TabsContent value="mail">
        <MailForm mail={data.mail} />
      </TabsContent>
      <TabsContent value="invoice">
        <InvoiceForm invoice={data.invoice} />
      </TabsContent>
      <TabsContent value="retention">
        <RetentionPanel retention={data.retention} />
      </TabsContent>
      {/* Mail, the invoice system and retention have their own forms and buttons. */}
      {tab !== "mail" && tab !== "invoice" && tab !== "retention" && (
        <div className="flex justify-end">
          <Button type="submit" form="settings-form" disabled={busy}>
            {t("settings.actions.save")}
          </Button>
        </div>
      )}
    </Tabs>
  );
}

function InvoiceForm({ invoice }: { invoice: OperatorData["invoice"] }) {
  const { t } = useTranslation();
  const form = useForm<Record<string, unknown>>({ defaultValues: { ...invoice, url: invoice.url ?? "", password: "" } });
  const save = useIntent(
    () => toast.success(t("settings.invoice.saved")),
    (name, message) => form.setError(name, { type: "server", message }),
  );
  const submit = form.handleSubmit((v) =>
    save.submit("invoice", { enabled: v.enabled, url: v.url || null, account: v.account, password: v.password || null, pac: v.pac }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Section title={t("settings.tabs.invoice")} description={t("settings.invoice.hint")}>
        <CheckField control={form.control} name="enabled" label={t("settings.invoice.enabled")} />
        <TextField control={form.control} name="url" label={t("settings.invoice.url")} type="url" className="sm:col-span-2" />
        <TextField control={form.control} name="account" label={t("settings.invoice.account")} autoComplete="off" />
        <PasswordField control={form.control} name="password" label={t("settings.invoice.password")} autoComplete="new-password" hint={invoice.passwordSet ? t("settings.hints.secretFollowsAddress") : undefined} />
        <TextField control={form.control} name="pac" label={t("settings.invoice.pac")} autoComplete="off" />
        <div className="flex justify-end sm:col-span-2 lg:col-span-3">
          <Button type="submit" disabled={save.busy}>
            {t("settings.invoice.save")}
          </Button>
        </div>
      </Section>
    </form>
  );
}

/** A sub-operator's part: one tab of its own settings (docs/rules/settings.md "Sub-operators"). */
function SubOperatorSettings({ settings }: { settings: Record<string, unknown> }) {
  const { t } = useTranslation();
  const form = useForm<SettingsForm>({ defaultValues: { ...settings, areaCodes: (settings.areaCodes as string[]).join(", ") } as never });
  const { submit, busy } = useIntent(
    () => toast.success(t("settings.saved")),
    (name, message) => form.setError(name as never, { type: "server", message }),
  );
  const save = form.handleSubmit((v) => submit("settings", { ...v, areaCodes: String(v.areaCodes).split(/[\s,;]+/).filter(Boolean) }));
  return (
    <form onSubmit={save} noValidate className="flex flex-col gap-4">
      <GeneralFields control={form.control} />
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {t("settings.actions.save")}
        </Button>
      </div>
    </form>
  );
}

export default function ParameterSettings() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("settings.title")} />
      {data.sub ? <SubOperatorSettings settings={data.settings as Record<string, unknown>} /> : <SettingsTabs data={data} />}
    </div>
  );
}
