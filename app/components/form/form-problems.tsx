import { CircleAlert } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** The name a field is shown under: its label's text, without the required mark or screen-reader extras. */
function labelOf(control: HTMLElement): string {
  const byId = control.getAttribute("aria-labelledby");
  const label = (byId && control.ownerDocument.getElementById(byId)) || (control as HTMLInputElement).labels?.[0] || null;
  if (!label) return control.getAttribute("aria-label") ?? "";
  const copy = label.cloneNode(true) as HTMLElement;
  for (const extra of copy.querySelectorAll("[aria-hidden], .sr-only")) extra.remove();
  return copy.textContent?.trim() ?? "";
}

/** Where the keyboard goes for a problem: the control itself, or the first choice of a group. */
function focusTarget(control: HTMLElement): HTMLElement {
  if (control.matches("input, select, textarea, button, [tabindex]")) return control;
  return control.querySelector<HTMLElement>("[aria-checked=true], input, select, textarea, button") ?? control;
}

/**
 * A form that cannot be saved says why (docs/rules/console.md "Forms"): the fields in trouble
 * are named above the form, and the first of them, in the page's order, is scrolled into view
 * and focused. It reads the problems from the page (`aria-invalid`, which every bound field
 * sets), so it works for any form, whatever its fields, for the browser's checks and for the
 * server's field messages alike. Pass `onInvalid` to `handleSubmit`, call `show` after the
 * server's field errors are set, and render `summary` at the top of the form.
 */
export function useFormProblems() {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  const [names, setNames] = useState<string[]>([]);

  const show = useCallback(() => {
    // The fields render their messages on the next frame: read the page after it.
    requestAnimationFrame(() => {
      const form = ref.current;
      if (!form) return;
      const invalid = [...form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
      setNames([...new Set(invalid.map(labelOf).filter(Boolean))]);
      const first = invalid[0];
      if (!first) return;
      first.scrollIntoView({ block: "center" });
      focusTarget(first).focus({ preventScroll: true });
    });
  }, []);
  const clear = useCallback(() => setNames([]), []);

  const summary =
    names.length > 0 ? (
      <div role="alert" data-testid="form-problems" className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive">
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{t("formProblems.cannotSave", { fields: names.join(", ") })}</span>
      </div>
    ) : null;

  return { ref, onInvalid: show, show, clear, summary };
}
