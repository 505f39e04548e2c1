import { useId, type ReactNode } from "react";
import { useController, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/cn";
import { ErrorText } from "./error-text";

/** What every bound field takes besides its own control props. */
export interface BoundFieldProps<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed> {
  // `any`: the form's context type plays no part in a field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control: Control<TFieldValues, any, TTransformed>;
  name: TName;
  label?: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  className?: string;
  /** Placeholder values for the translated error message, e.g. `{ min: 5, max: 20 }`. */
  messageParams?: Record<string, unknown>;
}

export interface FormFieldProps {
  id: string;
  label?: ReactNode;
  hint?: ReactNode;
  required?: boolean;
  /** Already translated. */
  error?: string;
  className?: string;
  children: ReactNode;
}

export const hintId = (id: string) => `${id}-hint`;
export const errorId = (id: string) => `${id}-error`;

/** Label, control, hint and error message in the console's one field layout. */
export function FormField({ id, label, hint, required, error, className, children }: FormFieldProps) {
  const { t } = useTranslation();
  return (
    <div data-slot="form-field" className={cn("grid gap-2", className)}>
      {label && (
        <Label htmlFor={id} className={cn(error && "text-destructive")}>
          {label}
          {required && (
            <span className="text-destructive" aria-hidden>
              *
            </span>
          )}
          {required && <span className="sr-only">{t("ui.form.required")}</span>}
        </Label>
      )}
      {children}
      {hint && !error && (
        <p id={hintId(id)} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <ErrorText message={error} id={errorId(id)} field />
    </div>
  );
}

/**
 * Binds a field to react-hook-form. Our zod schemas give i18n keys as messages
 * (`validation.required`), so the message shown is `t(message, messageParams)`.
 */
export function useBoundField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed>({
  control,
  name,
  disabled,
  required,
  hint,
  messageParams,
}: BoundFieldProps<TFieldValues, TName, TTransformed>) {
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController({ control, name, disabled });
  const key = fieldState.error?.message;
  const error = key ? t(key, messageParams ?? {}) : undefined;
  const describedBy = error ? errorId(id) : hint ? hintId(id) : undefined;
  return {
    id,
    field,
    error,
    /** ARIA wiring for the control element. */
    aria: {
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy,
      "aria-required": required ? true : undefined,
    },
  } as const;
}

/** Form values arrive as strings from inputs; a missing value shows as an empty field. */
export function asInputValue(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/**
 * Everything a bound field shares: it binds the field (`useBoundField`), hands back the props that
 * are the control's own (`own`, what the field's props hold besides the binding), the wiring of an
 * input-like control (`input`: id, ARIA, name, value and handlers) and `frame`, which lays the
 * control out with its label, hint and error. A field only chooses its control.
 */
export function useFieldFrame<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed, Own extends object>({
  control,
  name,
  label,
  hint,
  required,
  disabled,
  className,
  messageParams,
  ...own
}: BoundFieldProps<TFieldValues, TName, TTransformed> & Own) {
  const { id, field, error, aria } = useBoundField({ control, name, disabled, required, hint, messageParams });
  const input = {
    ...aria,
    id,
    name: field.name,
    ref: field.ref,
    value: asInputValue(field.value),
    onChange: field.onChange,
    onBlur: field.onBlur,
    disabled: field.disabled,
  };
  const frame = (child: ReactNode) => (
    <FormField id={id} label={label} hint={hint} required={required} error={error} className={className}>
      {child}
    </FormField>
  );
  return { own, id, field, aria, input, frame };
}
