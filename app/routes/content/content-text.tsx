import { zodResolver } from "@hookform/resolvers/zod";
import { Save } from "lucide-react";
import { useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { LANGUAGES, LANGUAGE_NAMES } from "../../../domain/languages";
import { contentTextInput } from "../../../domain/schemas/content";
import { TextareaField } from "~/components/form/fields";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { loadContentText, saveContentText } from "./content-text.server";

/**
 * The disclaimer and the privacy policy, one text per language (docs/rules/content.md
 * "Disclaimer and privacy policy"); drivers read them on /disclaimer/mobile and /privacy/mobile.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadContentText(args);
}

export function action(args: ActionFunctionArgs) {
  return saveContentText(args);
}

export default function ContentText() {
  const text = useLoaderData<typeof loader>();
  // A new language or a saved text starts the form again from what the server has.
  return <TextForm key={`${text.lang}:${text.updatedAt ?? ""}`} />;
}

function TextForm() {
  const text = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const [, setParams] = useSearchParams();
  const fetcher = useFetcher<typeof action>();
  const privacy = text.kind === "PRIVACY_POLICY";
  const form = useForm<{ content: string }>({ resolver: zodResolver(contentTextInput) as Resolver<{ content: string }>, defaultValues: { content: text.content } });
  useActionOutcome(
    fetcher,
    () => toast.success(t("content.texts.saved")),
    (name, message) => form.setError(name as "content", { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(JSON.stringify({ ...values, lang: text.lang }), { method: "post", encType: "application/json" }));
  const publicPath = `${privacy ? "/privacy/mobile" : "/disclaimer/mobile"}?operatorCode=${encodeURIComponent(text.operatorCode)}&lang=${text.lang}`;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <PageHeader
        title={t(privacy ? "menu.carrier.privacyPolicy" : "menu.carrier.disclaimer")}
        description={t(privacy ? "content.texts.privacyDescription" : "content.texts.disclaimerDescription")}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to={publicPath} target="_blank" rel="noopener">
                {t("content.texts.preview")}
              </Link>
            </Button>
            <Button type="submit" disabled={fetcher.state !== "idle"}>
              <Save aria-hidden />
              {t("common.save")}
            </Button>
          </>
        }
      />
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <div className="flex flex-wrap items-center gap-3">
            <Label htmlFor="text-lang">{t("content.texts.language")}</Label>
            <NativeSelect id="text-lang" className="w-56" value={text.lang} onChange={(e) => setParams({ textLang: e.target.value }, { replace: true })}>
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </NativeSelect>
            <span className="text-xs text-muted-foreground">
              {text.updatedAt ? t("content.texts.lastSaved", { time: dateTime(text.updatedAt), account: text.updatedBy ?? "—" }) : t("content.texts.notWritten")}
            </span>
          </div>
          <TextareaField control={form.control} name="content" label={t("content.texts.content")} required rows={18} hint={t("content.texts.hint")} />
        </CardContent>
      </Card>
    </form>
  );
}
