import { MessageSquareText, Send } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { intlLocale, LANGUAGE_NAMES, LANGUAGES, parseLanguage, DEFAULT_LANGUAGE } from "../../../../domain/languages";
import {
  DISPLAY_MESSAGE_PRIORITIES,
  displayMessageInput,
  displayMessageRequest,
  type DisplayMessageInput,
} from "../../../../domain/schemas/remote-control";
import { FormField } from "~/components/form/form-field";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi } from "~/lib/api";
import { instantOf } from "~/lib/datetime-local";

/**
 * A fresh display-message id. The charger replaces a message whose id it already shows (O01), so two
 * sends must not share one, whoever sends them: 31 random bits (the id is a JSON integer the
 * charger may hold in an int32) make two of a charger's few messages meet about once in a billion
 * pairs, where a clock would give every send in the same millisecond, or from two consoles at once,
 * the same id.
 */
function freshMessageId() {
  const [bits] = crypto.getRandomValues(new Uint32Array(1));
  return (bits >>> 1) || 1;
}

type Draft = { content: string; language: string; priority: DisplayMessageInput["priority"]; start: string; end: string; evse: string };

/**
 * O01 SetDisplayMessage from the point page of a 2.0.1 point (docs/rules/ocpp.md "Remote commands"):
 * the text in a language, its priority, an optional window and EVSE, sent through `/command` under a
 * fresh id; the charger's status shows as the outcome (a refusal names it). GetDisplayMessages and
 * ClearDisplayMessage go through `/command` as they are.
 */
export function DisplayMessageDialog({ pointId, evseCount, online }: { pointId: number; evseCount: number; online: boolean }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const blank = (): Draft => ({
    content: "",
    language: intlLocale(parseLanguage(i18n.language) ?? DEFAULT_LANGUAGE),
    priority: "NormalCycle",
    start: "",
    end: "",
    evse: "",
  });
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ id: number; status: string }>();

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setDraft(blank());
      setErrors({});
      setAnswer(undefined);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = displayMessageInput.safeParse({
      content: draft.content,
      language: draft.language || undefined,
      priority: draft.priority,
      startDateTime: instantOf(draft.start),
      endDateTime: instantOf(draft.end),
      evseId: draft.evse ? Number(draft.evse) : undefined,
    });
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), t(issue.message)])));
      return;
    }
    setErrors({});
    setBusy(true);
    const id = freshMessageId();
    try {
      const reply = await api.post("/station-service/point/{id}/command", {
        params: { id: pointId },
        body: { action: "SetDisplayMessage", payload: displayMessageRequest(checked.data, id) },
      });
      const status = "status" in reply ? reply.status : "";
      setAnswer({ id, status });
      toast.success(t("points.displayMessage.sent", { status }));
    } catch (error) {
      // The API client has shown why: a refusal names the charger's status (NotSupportedPriority, …).
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <Button variant="outline" onClick={() => setOpen(true)} disabled={!online} title={online ? undefined : t("errors.pointOffline")}>
        <MessageSquareText aria-hidden />
        {t("points.displayMessage.open")}
      </Button>
      <DialogContent>
        <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{t("points.displayMessage.title")}</DialogTitle>
            <DialogDescription>{t("points.displayMessage.description")}</DialogDescription>
          </DialogHeader>
          <FormField id="display-message-text" label={t("points.displayMessage.text")} required error={errors.content}>
            <Textarea
              id="display-message-text"
              value={draft.content}
              maxLength={512}
              onChange={(e) => setDraft({ ...draft, content: e.target.value })}
              aria-invalid={errors.content ? true : undefined}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="display-message-language" label={t("points.displayMessage.language")} error={errors.language}>
              <NativeSelect id="display-message-language" value={draft.language} onChange={(e) => setDraft({ ...draft, language: e.target.value })}>
                {LANGUAGES.map((language) => (
                  <option key={language} value={intlLocale(language)}>
                    {LANGUAGE_NAMES[language]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField id="display-message-priority" label={t("points.displayMessage.priority")} error={errors.priority}>
              <NativeSelect
                id="display-message-priority"
                value={draft.priority}
                onChange={(e) => setDraft({ ...draft, priority: e.target.value as Draft["priority"] })}
              >
                {DISPLAY_MESSAGE_PRIORITIES.map((priority) => (
                  <option key={priority} value={priority}>
                    {t(`points.displayMessage.priorities.${priority}`)}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField id="display-message-start" label={t("points.displayMessage.start")} hint={t("points.displayMessage.startHint")} error={errors.startDateTime}>
              <Input id="display-message-start" type="datetime-local" value={draft.start} onChange={(e) => setDraft({ ...draft, start: e.target.value })} />
            </FormField>
            <FormField id="display-message-end" label={t("points.displayMessage.end")} hint={t("points.displayMessage.endHint")} error={errors.endDateTime}>
              <Input
                id="display-message-end"
                type="datetime-local"
                value={draft.end}
                onChange={(e) => setDraft({ ...draft, end: e.target.value })}
                aria-invalid={errors.endDateTime ? true : undefined}
              />
            </FormField>
          </div>
          <FormField id="display-message-evse" label={t("points.displayMessage.evse")} error={errors.evseId}>
            <NativeSelect id="display-message-evse" value={draft.evse} onChange={(e) => setDraft({ ...draft, evse: e.target.value })}>
              <option value="">{t("points.displayMessage.wholeStation")}</option>
              {Array.from({ length: evseCount }, (_, i) => i + 1).map((evseId) => (
                <option key={evseId} value={evseId}>
                  {t("points.displayMessage.evseNo", { no: evseId })}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          {answer && (
            <p role="status" data-testid="display-message-status" className="rounded-md border bg-muted/30 px-3 py-2 text-sm">
              {t("points.displayMessage.answer", { id: answer.id, status: answer.status })}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" disabled={busy || !online}>
              <Send aria-hidden />
              {t("points.displayMessage.send")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
