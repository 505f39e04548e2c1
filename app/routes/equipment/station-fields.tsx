import { ImageUp, Trash2 } from "lucide-react";
import { useRef } from "react";
import { useController, type FieldPath, type FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { BoundFieldProps } from "~/components/form/form-field";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { ErrorText } from "~/components/form/error-text";

/**
 * Yes or no as two segments, for a required choice; the form preselects its usual answer (free
 * parking on a new station), so the choice never blocks saving unseen (docs/rules/console.md "Forms").
 */
export function ChoiceField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>({
  control,
  name,
  label,
  required,
  disabled,
  className,
  options,
}: BoundFieldProps<TFieldValues, TName, TTransformed> & { options: { value: boolean; label: string }[] }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name, disabled });
  const error = fieldState.error?.message ? t(fieldState.error.message) : undefined;
  return (
    <div className={cn("grid gap-2", className)}>
      <span id={`${field.name}-label`} className={cn("flex items-center gap-1 text-sm leading-none font-medium", error && "text-destructive")}>
        {label}
        {required && (
          <span className="text-destructive" aria-hidden>
            *
          </span>
        )}
      </span>
      <div
        role="radiogroup"
        aria-labelledby={`${field.name}-label`}
        aria-invalid={error ? true : undefined}
        className="inline-flex h-9 w-fit rounded-md border bg-muted/40 p-0.5"
      >
        {options.map((option) => {
          const checked = field.value === option.value;
          return (
            <button
              key={String(option.value)}
              type="button"
              role="radio"
              aria-checked={checked}
              disabled={field.disabled}
              onClick={() => field.onChange(option.value)}
              onBlur={field.onBlur}
              className={cn(
                "rounded px-4 text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/30 disabled:opacity-50",
                checked ? "bg-background text-foreground shadow-xs" : "text-muted-foreground hover:text-foreground",
              )}
            >
              {option.label}
            </button>
          );
        })}
      </div>
      <ErrorText message={error} field />
    </div>
  );
}

/** The logo: a preview, and buttons to upload (checked on the server, docs/rules/input.md "Uploads") or remove it. */
export function LogoField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>({
  control,
  name,
  url,
  uploading,
  onFile,
  onRemove,
  texts = "stations.logo",
  label = "stations.fields.logo",
}: {
  control: BoundFieldProps<TFieldValues, TName, TTransformed>["control"];
  name: TName;
  url: string | null;
  uploading: boolean;
  onFile: (file: File) => void;
  onRemove: () => void;
  /** The catalogue keys of its buttons and hint (`<texts>.upload`, `.replace`, `.remove`, `.hint`) and of its label: another image than a logo names its own. */
  texts?: string;
  label?: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const { fieldState } = useController({ control, name });
  const error = fieldState.error?.message ? t(fieldState.error.message) : undefined;
  return (
    <div className="grid gap-2">
      <span className="text-sm leading-none font-medium">{t(label)}</span>
      <div className="flex items-center gap-4">
        <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-muted/40">
          {url ? (
            <img src={url} alt={t(label)} className="size-16 object-contain" />
          ) : (
            <ImageUp className="size-6 text-muted-foreground" aria-hidden />
          )}
        </div>
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" size="sm" disabled={uploading} onClick={() => input.current?.click()}>
              <ImageUp aria-hidden />
              {t(url ? `${texts}.replace` : `${texts}.upload`)}
            </Button>
            {url && (
              <Button type="button" variant="ghost" size="sm" className="text-destructive" onClick={onRemove}>
                <Trash2 aria-hidden />
                {t(`${texts}.remove`)}
              </Button>
            )}
          </div>
          <p className="text-xs text-muted-foreground">{t(`${texts}.hint`)}</p>
        </div>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg"
          className="sr-only"
          aria-label={t(`${texts}.upload`)}
          tabIndex={-1}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onFile(file);
            event.target.value = "";
          }}
        />
      </div>
      <ErrorText message={error} field />
    </div>
  );
}
