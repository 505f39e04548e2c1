import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useLocation, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { IDLE_UNITS, SERVICE_UNITS, type ServiceUnit } from "../../../domain/pricing";
import { FormField } from "~/components/form/form-field";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { CostPreview } from "./cost-preview";
import { TariffPreview } from "../cpo/tariff-preview";
import { SlotEditor } from "./slot-editor";
import { loadStrategyForm, saveStrategy } from "./strategies.server";
import { draftOf, emptyDraft, errorUnder, readDraft, type Draft, type DraftErrors, type DraftIdle } from "./strategy-draft";
import { ErrorText } from "~/components/form/error-text";

/**
 * Add, edit and copy a charging strategy (docs/rules/pricing.md "The editor"): the day of
 * electricity prices and of service fees as 48-slot bars, the idle fees, and a cost preview of a
 * sample session. Saving an edit writes a new version.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadStrategyForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveStrategy(args);
}

const LIST = "/financialManagement/chargeConfigurationNew";

export default function StrategyForm() {
  const { strategy, tariffTerms, loadedAt } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { currency } = useFormat();
  const navigate = useNavigate();
  const copying = useLocation().pathname.includes("/copy/");
  const fetcher = useFetcher<typeof action>();
  const [draft, setDraft] = useState<Draft>(() =>
    strategy ? draftOf(strategy, currency.decimals, copying ? t("pricing.copyName", { name: strategy.name }).slice(0, 60) : strategy.name) : emptyDraft(),
  );
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<DraftErrors>({});
  const read = readDraft(draft, currency.decimals);

  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("pricing.saved"));
      navigate(LIST);
    },
    (name, message) => setServerErrors((e) => ({ ...e, [name]: message })),
  );

  const set = (change: Partial<Draft>) => {
    setDraft({ ...draft, ...change });
    setServerErrors({});
  };
  const message = (prefix: string) => {
    const own = errorUnder(shown, prefix);
    return own ? t(own.key, own.params) : errorUnder(serverErrors, prefix);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setShown(read.errors);
    if (!read.input) {
      toast.error(t("validation.invalid"));
      return;
    }
    fetcher.submit(JSON.stringify(read.body), { method: "post", encType: "application/json" });
  };

  const title = strategy && !copying ? t("pricing.edit") : copying ? t("pricing.copy") : t("pricing.add");
  const perUnit = (unit: string) => t(`pricing.perUnit.${unit}`, { currency: currency.code });

  return (
    <FormPage onSubmit={submit} title={title} cancelTo={LIST} sending={fetcher}>
      <FormSection>
        <FormField id="strategy-name" label={t("pricing.fields.name")} required error={message("name")}>
          <Input id="strategy-name" value={draft.name} maxLength={60} aria-invalid={Boolean(message("name")) || undefined} onChange={(e) => set({ name: e.target.value })} />
        </FormField>
        <FormField id="strategy-currency" label={t("pricing.fields.currency")}>
          <Input id="strategy-currency" value={currency.code} readOnly />
        </FormField>
      </FormSection>

      <Section title={t("pricing.fields.electricity")} description={t("pricing.electricityHint")}>
        <SlotEditor
          id="electricity"
          title={t("pricing.fields.electricity")}
          slots={draft.electricity}
          unitLabel={perUnit("KWH")}
          error={message("electricity")}
          onChange={(electricity) => set({ electricity })}
        />
      </Section>

      <Section title={t("pricing.fields.service")} description={t("pricing.serviceHint")}>
        <FormField id="service-unit" label={t("pricing.fields.serviceUnit")} error={message("service.unit")} className="max-w-xs">
          <NativeSelect id="service-unit" value={draft.serviceUnit} onChange={(e) => set({ serviceUnit: e.target.value as ServiceUnit })}>
            {SERVICE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {t(`pricing.units.${unit}`)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        {draft.serviceUnit !== "NONE" && (
          <SlotEditor
            id="service"
            title={t("pricing.fields.service")}
            slots={draft.service}
            unitLabel={perUnit(draft.serviceUnit)}
            error={message("service.slots")}
            onChange={(service) => set({ service })}
          />
        )}
      </Section>

      <Section title={t("pricing.fields.idle")} description={t("pricing.idleHint")}>
        <div className="grid gap-4 lg:grid-cols-3">
          {(["before", "during", "after"] as const).map((when) => (
            <IdleFee
              key={when}
              when={when}
              fee={draft[when]}
              error={message(`idle.${when}`)}
              currencyCode={currency.code}
              onChange={(fee) => set({ [when]: fee })}
              cap={
                when === "after" ? (
                  <FormField id="idle-after-cap" label={t("pricing.idle.capAmount", { currency: currency.code })} error={message("idle.after.capAmount")}>
                    <Input
                      id="idle-after-cap"
                      inputMode="decimal"
                      value={draft.after.capAmount}
                      disabled={!draft.after.enabled}
                      onChange={(e) => set({ after: { ...draft.after, capAmount: e.target.value } })}
                    />
                  </FormField>
                ) : null
              }
            />
          ))}
        </div>
      </Section>

      <Section title={t("pricing.extra.title")} description={t("pricing.extra.hint")}>
        {/* No subscription price: nothing in the product subscribes a driver to a strategy (docs/decisions/0079-no-subscription-price-on-strategies.md). */}
        <div className="grid gap-4 sm:grid-cols-2">
          {(["minimumThreshold", "preAuthAmount"] as const).map((field) => (
            <FormField key={field} id={`strategy-${field}`} label={t(`pricing.extra.${field}`, { currency: currency.code })} error={message(field)}>
              <Input id={`strategy-${field}`} inputMode="decimal" value={draft[field]} onChange={(e) => set({ [field]: e.target.value })} />
            </FormField>
          ))}
        </div>
      </Section>

      <CostPreview prices={read.input} decimals={currency.decimals} />
      <TariffPreview
        prices={read.input}
        strategy={{ id: copying ? null : (strategy?.id ?? null), name: draft.name, currency: currency.code, updatedAt: strategy && !copying ? Date.parse(strategy.updatedAt) : loadedAt }}
        terms={tariffTerms}
      />
    </FormPage>
  );
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

function IdleFee({
  when,
  fee,
  error,
  currencyCode,
  onChange,
  cap,
}: {
  when: "before" | "during" | "after";
  fee: DraftIdle;
  error?: string;
  currencyCode: string;
  onChange: (fee: DraftIdle & { capAmount: string }) => void;
  cap: ReactNode;
}) {
  const { t } = useTranslation();
  const id = `idle-${when}`;
  const change = (part: Partial<DraftIdle>) => onChange({ capAmount: "", ...fee, ...part });
  return (
    <fieldset className="flex flex-col gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">{t(`pricing.idle.${when}`)}</legend>
      <label className="flex items-center gap-2 text-sm">
        <Checkbox checked={fee.enabled} onCheckedChange={(checked) => change({ enabled: checked === true })} aria-label={t("pricing.idle.enabledOf", { fee: t(`pricing.idle.${when}`) })} />
        {t("pricing.idle.enabled")}
      </label>
      <div className="grid grid-cols-2 gap-2">
        <FormField id={`${id}-unit`} label={t("pricing.idle.unit")}>
          <NativeSelect id={`${id}-unit`} value={fee.unit} disabled={!fee.enabled} onChange={(e) => change({ unit: e.target.value as DraftIdle["unit"] })}>
            {IDLE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {t(`pricing.units.${unit}`)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField id={`${id}-price`} label={t(`pricing.perUnit.${fee.unit}`, { currency: currencyCode })}>
          <Input id={`${id}-price`} inputMode="decimal" value={fee.price} disabled={!fee.enabled} onChange={(e) => change({ price: e.target.value.replace(",", ".") })} />
        </FormField>
        <FormField id={`${id}-free`} label={t("pricing.idle.freeMinutes")}>
          <Input id={`${id}-free`} inputMode="numeric" value={fee.freeMinutes} disabled={!fee.enabled} onChange={(e) => change({ freeMinutes: e.target.value.replace(/\D/g, "") })} />
        </FormField>
        {cap}
      </div>
      <ErrorText message={error} field />
    </fieldset>
  );
}
