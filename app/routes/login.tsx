import { zodResolver } from "@hookform/resolvers/zod";
import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { z } from "zod";
import { loginInput } from "../../domain/schemas/account-service";
import { DocumentTitle } from "~/components/shell/document-title";
import { LanguageSwitcher } from "~/components/shell/language-switcher";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { showHandedMessage, toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";
import { loginAction, loginPage } from "./login.server";

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loginPage(request, context, params.operatorCode ?? "");
}

export function action({ request, context, params }: ActionFunctionArgs) {
  return loginAction(request, context, params.operatorCode ?? "");
}

const formSchema = loginInput.omit({ operatorCode: true, captchaId: true });
type FormValues = z.infer<typeof formSchema>;

export default function LoginPage() {
  const { operator, captcha: firstCaptcha, lang } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const { t } = useTranslation();
  const [captcha, setCaptcha] = useState(firstCaptcha);
  const [params] = useSearchParams();
  const api = useApi();
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: { username: "", password: "", captcha: "" } });
  const busy = navigation.state !== "idle";

  async function refreshCaptcha() {
    setCaptcha(await api.get("/user-service/auth/captcha"));
    form.setValue("captcha", "");
  }

  // Messages that other pages hand to the login page (after a password change, from the guard, why a session ended).
  useEffect(() => {
    const msg = params.get("msg");
    if (msg === "login.passwordChanged") toast.success(t(msg));
    else showHandedMessage(t, msg);
  }, [params, t]);

  // A failed login used the captcha up: show the message and draw a new one.
  useEffect(() => {
    if (result && !result.ok) {
      toast.error(result.message);
      void refreshCaptcha();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const onSubmit = form.handleSubmit((values) => submit({ ...values, captchaId: captcha.captchaId }, { method: "post" }));
  const error = (name: keyof FormValues) => {
    const message = form.formState.errors[name]?.message ?? (result && !result.ok ? result.fields[name] : undefined);
    return message ? <p className="text-sm text-destructive">{t(message)}</p> : null;
  };

  return (
    <main className="relative flex min-h-screen items-center justify-center bg-gradient-to-br from-primary/10 via-background to-background p-4">
      <DocumentTitle screen={t("login.title")} owner={operator.name} />
      <div className="absolute top-3 right-3">
        <LanguageSwitcher lang={lang} />
      </div>
      <div className="w-full max-w-sm rounded-2xl border bg-card p-8 shadow-lg">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          {operator.logoUrl ? (
            <img src={operator.logoUrl} alt="" className="h-14 w-14 rounded-xl object-contain" />
          ) : (
            <div className="flex h-14 w-14 items-center justify-center rounded-xl bg-primary text-2xl font-semibold text-primary-foreground">
              {operator.name.slice(0, 1)}
            </div>
          )}
          <div>
            <h1 className="text-xl font-semibold">{operator.name}</h1>
            <p className="text-sm text-muted-foreground">{t("login.subtitle")}</p>
          </div>
        </div>
        <form method="post" onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
          {/* A form sent before the page's scripts have run (a slow connection) posts itself: it needs the captcha it was drawn with. */}
          <input type="hidden" name="captchaId" value={captcha.captchaId} />
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="username">{t("login.username")}</Label>
            <Input id="username" autoComplete="username" autoFocus {...form.register("username")} />
            {error("username")}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="password">{t("login.password")}</Label>
            <Input id="password" type="password" autoComplete="current-password" {...form.register("password")} />
            {error("password")}
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="captcha">{t("login.captcha")}</Label>
            <div className="flex items-center gap-2">
              <Input id="captcha" autoComplete="off" inputMode="text" maxLength={8} {...form.register("captcha")} />
              <button
                type="button"
                onClick={refreshCaptcha}
                className="flex shrink-0 items-center rounded-md border bg-white"
                title={t("login.newCaptcha")}
                aria-label={t("login.newCaptcha")}
              >
                <img src={`data:image/svg+xml;utf8,${encodeURIComponent(captcha.image)}`} alt={t("login.captchaImage")} width={120} height={40} />
                <RefreshCw className="mx-1 h-4 w-4 text-muted-foreground" />
              </button>
            </div>
            {error("captcha")}
          </div>
          <Button type="submit" disabled={busy} className="mt-2 w-full">
            {busy ? t("login.signingIn") : t("login.submit")}
          </Button>
        </form>
      </div>
    </main>
  );
}
