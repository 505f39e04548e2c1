import type { LucideIcon } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher } from "react-router";
import { useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toast";

/** One required text of the dialog: its form name, label and limits. */
export interface DialogText {
  name: string;
  label: string;
  requiredMessage: string;
  maxLength: number;
  rows?: number;
  placeholder?: string;
  /** The text the field starts with (an edit). */
  initial?: string;
}

/**
 * A dialog that asks for one or more required texts and posts them with `values` to the route's
 * action (docs/rules/console.md "Forms"): replying to feedback, disposing of an alarm, processing
 * or auditing a work order. Blank texts are refused before sending; the server's message for a
 * field comes back under it, any other under the last text.
 */
export function TextDialog({
  open,
  onClose,
  title,
  description,
  children,
  texts,
  values,
  submitLabel,
  icon: Icon,
  successMessage,
  idPrefix,
  consent,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  /** Shown above the texts: the text replied to, a choice the action also needs. */
  children?: ReactNode;
  texts: DialogText[];
  /** Posted with the texts (the record's id, a chosen result). */
  values: Record<string, string | number>;
  submitLabel: string;
  icon: LucideIcon;
  successMessage: string;
  idPrefix: string;
  /** A statement the user must tick before sending (completing an unverified deletion request); not posted. */
  consent?: { label: string; requiredMessage: string };
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ ok: boolean; message?: string; fields?: Record<string, string> }>();
  const initial = () => Object.fromEntries(texts.map((x) => [x.name, x.initial ?? ""]));
  const [typed, setTyped] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [consented, setConsented] = useState(false);
  const close = () => {
    setTyped(initial());
    setErrors({});
    setConsented(false);
    onClose();
  };
  const last = texts[texts.length - 1]?.name;
  useActionOutcome(
    fetcher,
    () => {
      toast.success(successMessage);
      close();
    },
    (name, message) => setErrors({ [name && texts.some((x) => x.name === name) ? name : last]: message }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = Object.fromEntries(texts.filter((x) => (typed[x.name] ?? "").trim() === "").map((x) => [x.name, x.requiredMessage]));
    if (consent && !consented) missing.consent = consent.requiredMessage;
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    fetcher.submit({ ...values, ...typed }, { method: "post" });
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description && <DialogDescription>{description}</DialogDescription>}
          </DialogHeader>
          {children}
          {consent && (
            <div className="flex flex-col gap-1">
              <div className="flex items-start gap-2">
                <Checkbox
                  id={`${idPrefix}-consent`}
                  checked={consented}
                  onCheckedChange={(value) => setConsented(value === true)}
                  aria-invalid={errors.consent !== undefined}
                  aria-describedby={errors.consent ? `${idPrefix}-consent-error` : undefined}
                />
                <Label htmlFor={`${idPrefix}-consent`} className="leading-snug">
                  {consent.label}
                </Label>
              </div>
              {errors.consent && (
                <p id={`${idPrefix}-consent-error`} className="text-xs text-destructive">
                  {errors.consent}
                </p>
              )}
            </div>
          )}
          {texts.map((x) => {
            const id = `${idPrefix}-${x.name}`;
            const error = errors[x.name];
            return (
              <div key={x.name} className="flex flex-col gap-2">
                <Label htmlFor={id}>{x.label}</Label>
                <Textarea
                  id={id}
                  value={typed[x.name] ?? ""}
                  onChange={(e) => setTyped((prev) => ({ ...prev, [x.name]: e.target.value }))}
                  placeholder={x.placeholder}
                  maxLength={x.maxLength}
                  rows={x.rows ?? 4}
                  aria-invalid={error !== undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
                {error && (
                  <p id={`${id}-error`} className="text-xs text-destructive">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <DialogFooter>
            <Button variant="outline" onClick={close}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" disabled={fetcher.state !== "idle"}>
              <Icon aria-hidden />
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
