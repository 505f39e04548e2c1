import { MessageSquare } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { ApiError, usePublicApi } from "~/lib/api";
import { ErrorText } from "~/components/form/error-text";

/**
 * The driver's feedback form of a public page: a receipt (by its token) or a charger's page (by
 * its serial number), sent to POST /public-service/feedback without login or captcha
 * (docs/rules/content.md "Feedback"). The server's message, in the page's language, says what is
 * wrong: a field, or too many messages just now.
 */
export function FeedbackForm({ about }: { about: { serialNumber: string } | { receiptToken: string } }) {
  const { t } = useTranslation();
  const api = usePublicApi();
  const id = useId();
  const [content, setContent] = useState("");
  const [contact, setContact] = useState("");
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.post("/public-service/feedback", { body: { ...about, content, ...(contact.trim() && { contact }) } });
      setSent(true);
      setContent("");
    } catch (refused) {
      setError(refused instanceof ApiError && refused.status !== 0 ? refused.message : t("errors.busy"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3 rounded-2xl border bg-card p-5 shadow-sm print:hidden">
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-base font-semibold">
        <MessageSquare className="size-4" aria-hidden />
        {t("content.publicFeedback.title")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("content.publicFeedback.description")}</p>
      {sent ? (
        <p role="status" className="text-sm font-medium text-success">
          {t("content.publicFeedback.sent")}
        </p>
      ) : (
        <form onSubmit={send} className="flex flex-col gap-3" noValidate>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-content`}>{t("content.publicFeedback.content")}</Label>
            <Textarea id={`${id}-content`} value={content} onChange={(e) => setContent(e.target.value)} maxLength={1000} rows={4} required />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-contact`}>{t("content.publicFeedback.contact")}</Label>
            <Input id={`${id}-contact`} value={contact} onChange={(e) => setContact(e.target.value)} maxLength={100} aria-describedby={`${id}-contact-hint`} autoComplete="email" />
            <p id={`${id}-contact-hint`} className="text-xs text-muted-foreground">
              {t("content.publicFeedback.contactHint")}
            </p>
          </div>
          <ErrorText message={error} />
          <Button type="submit" disabled={busy} className="self-start">
            {t("content.publicFeedback.send")}
          </Button>
        </form>
      )}
    </section>
  );
}
