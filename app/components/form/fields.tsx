import { useState, type ComponentProps, type ReactNode } from "react";
import type { FieldPath, FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Eye, EyeOff } from "lucide-react";
import { filterNumeric } from "../../../domain/amounts";
import { useFormat } from "~/components/format";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "~/components/ui/select";
import { cn } from "~/lib/cn";
import { useFieldFrame, type BoundFieldProps } from "./form-field";

type NativeInputProps = Omit<
  ComponentProps<"input">,
  "name" | "value" | "defaultValue" | "onChange" | "onBlur" | "disabled" | "required" | "className" | "id" | "ref"
>;

export type TextFieldProps<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues> =
  BoundFieldProps<TFieldValues, TName, TTransformed> & NativeInputProps;

export function TextField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>(
  props: TextFieldProps<TFieldValues, TName, TTransformed>,
) {
  const { own, input, frame } = useFieldFrame(props);
  return frame(<Input {...own} {...input} />);
}

export function PasswordField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>(
  props: TextFieldProps<TFieldValues, TName, TTransformed>,
) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const { own: { autoComplete = "current-password", ...own }, id, field, input, frame } = useFieldFrame(props);
  return frame(
    <div className="relative">
      <Input {...own} {...input} type={visible ? "text" : "password"} autoComplete={autoComplete} className="pr-10" />
      <button
        type="button"
        onClick={() => setVisible((shown) => !shown)}
        aria-label={t(visible ? "ui.form.hidePassword" : "ui.form.showPassword")}
        aria-pressed={visible}
        aria-controls={id}
        disabled={field.disabled}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/30 focus-visible:outline-none disabled:opacity-50"
      >
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>,
  );
}

export interface SelectOption {
  value: string;
  label: ReactNode;
  disabled?: boolean;
}

export type SelectFieldProps<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues> =
  BoundFieldProps<TFieldValues, TName, TTransformed> & {
    options: readonly SelectOption[];
    placeholder?: string;
  };

export function SelectField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>(
  props: SelectFieldProps<TFieldValues, TName, TTransformed>,
) {
  const { t } = useTranslation();
  const { own: { options, placeholder }, id, field, aria, input, frame } = useFieldFrame(props);
  return frame(
    // An empty string shows the placeholder, which is how Radix clears a select.
    <Select value={input.value} onValueChange={field.onChange} disabled={field.disabled}>
      <SelectTrigger {...aria} id={id} ref={field.ref} onBlur={field.onBlur}>
        <SelectValue placeholder={placeholder ?? t("ui.form.selectPlaceholder")} />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>,
  );
}

export type NumberFieldProps<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues> =
  TextFieldProps<TFieldValues, TName, TTransformed> & {
    /** Digits allowed after the dot; 0 keeps integers only (docs/rules/console.md "Forms"). */
    decimals?: number;
    /** Lets a leading minus through, for deductions (docs/rules/console.md "Forms"). */
    allowNegative?: boolean;
    /** Shown inside the field on the right, e.g. a unit or currency. */
    suffix?: ReactNode;
  };

/** The numeric-only and max-decimals filters, applied as the user types (docs/rules/console.md "Forms"). */
function filterSigned(raw: string, decimals: number, allowNegative: boolean) {
  const negative = allowNegative && raw.trimStart().startsWith("-");
  return (negative ? "-" : "") + filterNumeric(raw, decimals);
}

export function NumberField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>(
  props: NumberFieldProps<TFieldValues, TName, TTransformed>,
) {
  const { own: { decimals = 0, allowNegative = false, suffix, ...own }, field, input, frame } = useFieldFrame(props);
  return frame(
    <div className="relative">
      <Input
        {...own}
        {...input}
        inputMode={decimals > 0 ? "decimal" : "numeric"}
        autoComplete="off"
        onChange={(event) => field.onChange(filterSigned(event.target.value, decimals, allowNegative))}
        className={cn("tabular-nums", suffix !== undefined && "pr-14")}
      />
      {suffix !== undefined && (
        <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-muted-foreground">
          {suffix}
        </span>
      )}
    </div>,
  );
}

export type AmountFieldProps<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues> =
  Omit<NumberFieldProps<TFieldValues, TName, TTransformed>, "decimals" | "suffix"> & {
    /** The operator's currency decimals; defaults to those of the surrounding FormatProvider. */
    decimals?: number;
  };

/**
 * A money input in display units with the currency code beside it. Its error messages get
 * `{ decimals }`, for `validation.decimals` ('decimals cannot exceed {{decimals}}',
 * docs/rules/console.md "Forms").
 */
export function AmountField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>({
  decimals,
  messageParams,
  ...props
}: AmountFieldProps<TFieldValues, TName, TTransformed>) {
  const { currency } = useFormat();
  const places = decimals ?? currency.decimals;
  return (
    <NumberField
      {...props}
      decimals={places}
      suffix={currency.code}
      messageParams={{ decimals: places, ...messageParams }}
    />
  );
}

/** A multi-line text field in the console's field layout (descriptions, remarks). */
export function TextareaField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>(
  props: BoundFieldProps<TFieldValues, TName, TTransformed> & { rows?: number },
) {
  const { own: { rows = 4 }, input, frame } = useFieldFrame(props);
  return frame(<Textarea {...input} rows={rows} />);
}
