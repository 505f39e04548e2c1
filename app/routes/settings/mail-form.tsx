import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormField } from "~/components/form/form-field";
import { NumberField, PasswordField, SelectField, TextField } from "~/components/form/fields";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toast";
import type { getMailSettings } from "../../../workers/services/mail/mail-settings";
import { Section, useIntent } from "./settings-kit";

export type MailSettingsView = Awaited<ReturnType<typeof getMailSettings>>;

type MailValues = Record<string, string | number | null>;

/**
 * A mail server form with its test send (docs/rules/settings.md "Mail"): the operator's on its
 * parameter-settings screen, the platform's on its own screen. The screen's action takes the
 * intents `mail` and `mailTest`; the ports a Worker can reach are suggested (587, 465).
 */
export function MailForm({ mail }: { mail: MailSettingsView }) {
  const { t } = useTranslation();
  const current = (mail.settings ?? { type: "SMTP", host: "", port: 587, username: "", from: "", tlsMode: "STARTTLS" }) as MailValues;
  const form = useForm<MailValues>({ defaultValues: { ...current, password: "", secretAccessKey: "" } });
  const [to, setTo] = useState("");
  const save = useIntent(
    () => toast.success(t("settings.mail.saved")),
    (name, message) => form.setError(name, { type: "server", message }),
  );
  const test = useIntent(() => toast.success(t("settings.mail.testSent", { to })));
  const type = form.watch("type");
  const submit = form.handleSubmit((v) => {
    const secret = (value: unknown) => (value ? value : null);
    save.submit(
      "mail",
      v.type === "SMTP"
        ? { type: "SMTP", host: v.host, port: v.port, username: v.username ?? "", password: secret(v.password), from: v.from, tlsMode: v.tlsMode }
        : { type: "AMAZON", region: v.region, accessKeyId: v.accessKeyId, secretAccessKey: secret(v.secretAccessKey), from: v.from },
    );
  });
  const hint = mail.settings && ("passwordSet" in mail.settings ? mail.settings.passwordSet : mail.settings.secretAccessKeySet) ? t("settings.hints.secretFollowsAddress") : undefined;
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate>
        <Section title={t("settings.tabs.mail")} description={t("settings.mail.ports", { ports: mail.suggestedPorts.join(", ") })}>
          <SelectField
            control={form.control}
            name="type"
            label={t("settings.mail.type")}
            required
            options={[
              { value: "SMTP", label: "SMTP" },
              { value: "AMAZON", label: "Amazon SES" },
            ]}
          />
          <TextField control={form.control} name="from" label={t("settings.mail.from")} required type="email" />
          {type === "SMTP" ? (
            <>
              <TextField control={form.control} name="host" label={t("settings.mail.host")} required />
              <NumberField control={form.control} name="port" label={t("settings.mail.port")} required hint={t("settings.mail.portHint")} maxLength={5} />
              <SelectField
                control={form.control}
                name="tlsMode"
                label={t("settings.mail.tlsMode")}
                required
                options={(["STARTTLS", "TLS", "NONE"] as const).map((value) => ({ value, label: t(`settings.mail.tls.${value}`) }))}
              />
              <TextField control={form.control} name="username" label={t("settings.mail.username")} autoComplete="off" />
              <PasswordField control={form.control} name="password" label={t("settings.mail.password")} autoComplete="new-password" hint={hint} />
            </>
          ) : (
            <>
              <TextField control={form.control} name="region" label={t("settings.mail.region")} required />
              <TextField control={form.control} name="accessKeyId" label={t("settings.mail.accessKeyId")} required autoComplete="off" />
              <PasswordField control={form.control} name="secretAccessKey" label={t("settings.mail.secretAccessKey")} autoComplete="new-password" hint={hint} />
            </>
          )}
          <div className="flex justify-end sm:col-span-2 lg:col-span-3">
            <Button type="submit" disabled={save.busy}>
              {t("settings.mail.save")}
            </Button>
          </div>
        </Section>
      </form>
      <Card>
        <CardHeader>
          <CardTitle>{t("settings.mail.test")}</CardTitle>
          <CardDescription>{t("settings.mail.testHint")}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-end gap-2">
          <FormField id="mail-test-to" label={t("settings.mail.testTo")} className="min-w-64 flex-1">
            <Input id="mail-test-to" type="email" value={to} onChange={(event) => setTo(event.target.value)} />
          </FormField>
          <Button type="button" variant="outline" disabled={test.busy || !mail.settings} onClick={() => test.submit("mailTest", { to })}>
            {t("settings.mail.sendTest")}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
