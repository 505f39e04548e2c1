import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { firmwareInput } from "../../../domain/schemas/operations";
import { NumberField, TextareaField, TextField } from "~/components/form/fields";
import { useActionOutcome } from "~/components/page-actions";
import { Card, CardContent } from "~/components/ui/card";
import { toast } from "~/components/ui/toast";
import { FormPage, FormSection } from "~/components/form/form-page";
import { firmwareForm, saveFirmware } from "./firmware.server";
import { instantOf, localValueOf } from "~/lib/datetime-local";

/** Add and edit a firmware version: its FTP location and how chargers fetch it (docs/rules/operations.md "Firmware"). */
export function loader(args: LoaderFunctionArgs) {
  return firmwareForm(args);
}

export function action(args: ActionFunctionArgs) {
  return saveFirmware(args);
}

interface FormValues {
  version: string;
  location: string;
  retries: string;
  retryIntervalS: string;
  retrieveDate: string;
  description: string;
  signingCertificate: string;
  signature: string;
}


export default function FirmwareForm() {
  const { firmware } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<FormValues>({
    defaultValues: {
      version: firmware?.version ?? "",
      location: firmware?.location ?? "",
      retries: firmware?.retries == null ? "" : String(firmware.retries),
      retryIntervalS: firmware?.retryIntervalS == null ? "" : String(firmware.retryIntervalS),
      retrieveDate: localValueOf(firmware?.retrieveDate ?? null),
      description: firmware?.description ?? "",
      signingCertificate: firmware?.signingCertificate ?? "",
      signature: firmware?.signature ?? "",
    },
  });
  useActionOutcome(
    fetcher,
    (data: { id: number }) => {
      toast.success(t("operations.fw.saved"));
      navigate(`/operationMaintenance/ocppUpdateConfig/detail/${data.id}`);
    },
    (name, message) => form.setError(name as keyof FormValues, { message }),
  );
  const submit = form.handleSubmit((values) => {
    const body = {
      version: values.version,
      location: values.location,
      retries: values.retries || undefined,
      retryIntervalS: values.retryIntervalS || undefined,
      retrieveDate: instantOf(values.retrieveDate),
      description: values.description || undefined,
      signingCertificate: values.signingCertificate.trim() || undefined,
      signature: values.signature.trim() || undefined,
    };
    // The verb's own schema, so the form shows its messages before sending.
    const checked = firmwareInput.safeParse(body);
    if (!checked.success) {
      for (const issue of checked.error.issues) form.setError(issue.path.join(".") as keyof FormValues, { message: issue.message });
      return;
    }
    fetcher.submit(JSON.stringify(checked.data), { method: "post", encType: "application/json" });
  });
  return (
    <FormPage
      onSubmit={submit}
      title={firmware ? t("operations.fw.edit") : t("operations.fw.add")}
      cancelTo={firmware ? `/operationMaintenance/ocppUpdateConfig/detail/${firmware.id}` : "/operationMaintenance/ocppUpdateConfig"}
      sending={fetcher}
    >
      <FormSection>
        <TextField control={form.control} name="version" label={t("operations.fw.version")} required />
        <TextField control={form.control} name="location" label={t("operations.fw.location")} placeholder="ftp://user:password@files.example.com/firmware.bin" required />
        <NumberField control={form.control} name="retries" label={t("operations.fw.retries")} decimals={0} />
        <NumberField control={form.control} name="retryIntervalS" label={t("operations.fw.retryInterval")} decimals={0} suffix="s" />
        <TextField control={form.control} name="retrieveDate" type="datetime-local" label={t("operations.fw.retrieveDate")} hint={t("operations.fw.retrieveHint")} />
        <TextField control={form.control} name="description" label={t("operations.fw.description")} />
      </FormSection>
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <p className="text-sm text-muted-foreground">{t("operations.fw.signedHint")}</p>
          <TextareaField control={form.control} name="signingCertificate" label={t("operations.fw.signingCertificate")} rows={6} />
          <TextareaField control={form.control} name="signature" label={t("operations.fw.signature")} rows={3} />
        </CardContent>
      </Card>
    </FormPage>
  );
}
