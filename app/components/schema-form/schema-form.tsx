import { Plus, X } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormField, errorId } from "~/components/form/form-field";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/cn";
import { initialDraft, pathOf, type Draft, type FieldModel, type FieldPath, type NamedField } from "./field-model";
import { ErrorText } from "~/components/form/error-text";

/**
 * The controls of a form read from a JSON schema (field-model.ts): objects as fieldsets, arrays
 * with add and remove, enums as selects, date-times as date-time inputs, numbers, booleans, and
 * any JSON as text. Field names are the schema's own (an OCPP payload's names); optional fields
 * say so. `errors` are shown at their field, already translated.
 */
export interface SchemaFieldsProps {
  /** The root object of the form. */
  model: Extract<FieldModel, { kind: "object" }>;
  draft: Draft;
  onChange: (draft: Draft) => void;
  errors: Record<FieldPath, string>;
  /** Prefixes every control's id, so that two forms on a page never share one. */
  idPrefix: string;
  disabled?: boolean;
}

export function SchemaFields({ model, draft, onChange, errors, idPrefix, disabled }: SchemaFieldsProps) {
  return <ObjectFields fields={model.fields} value={asRecord(draft)} onChange={onChange} path="" errors={errors} idPrefix={idPrefix} disabled={disabled} />;
}

interface ControlProps {
  path: FieldPath;
  errors: Record<FieldPath, string>;
  idPrefix: string;
  disabled?: boolean;
}

const asRecord = (draft: Draft): Record<string, Draft> => (draft && typeof draft === "object" && !Array.isArray(draft) ? (draft as Record<string, Draft>) : {});
const idOf = (prefix: string, path: FieldPath) => `${prefix}-${path.replace(/\./g, "-") || "root"}`;
/** Fields that take a whole row: nested objects, lists and JSON text. */
const isWide = (model: FieldModel) => model.kind === "object" || model.kind === "array" || model.kind === "json";

function ObjectFields({ fields, value, onChange, path, errors, idPrefix, disabled }: ControlProps & { fields: NamedField[]; value: Record<string, Draft>; onChange: (next: Draft) => void }) {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {fields.map((field) => (
        <div key={field.name} className={cn(isWide(field.model) && "md:col-span-2")}>
          <FieldControl
            field={field}
            value={value[field.name]}
            onChange={(next) => onChange({ ...value, [field.name]: next })}
            path={pathOf(path, field.name)}
            errors={errors}
            idPrefix={idPrefix}
            disabled={disabled}
          />
        </div>
      ))}
    </div>
  );
}

/** The label of a field: its schema name, and "optional" where it may be left out. */
function FieldLabel({ name, required }: { name: string; required: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="font-mono text-[13px]">
      {name}
      {!required && <span className="ml-1.5 font-sans text-xs font-normal text-muted-foreground">({t("schemaForm.optional")})</span>}
    </span>
  );
}

function FieldControl({ field, value, onChange, ...control }: ControlProps & { field: NamedField; value: Draft; onChange: (next: Draft) => void }) {
  const { model, name, required } = field;
  if (model.kind === "object") return <ObjectFieldset name={name} required={required} model={model} value={value} onChange={onChange} {...control} />;
  if (model.kind === "array") return <ArrayFieldset name={name} required={required} model={model} value={value} onChange={onChange} {...control} />;
  const { path, errors, idPrefix, disabled } = control;
  const id = idOf(idPrefix, path);
  return (
    <FormField id={id} label={<FieldLabel name={name} required={required} />} required={required} error={errors[path]} hint={<ScalarHint model={model} />}>
      <ScalarControl id={id} model={model} required={required} value={value} onChange={onChange} invalid={Boolean(errors[path])} disabled={disabled} />
    </FormField>
  );
}

/** A fieldset's frame: legend, its own error, and what may be done with it (add, remove). */
function Frame({ legend, error, id, actions, children }: { legend: ReactNode; error?: string; id: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border p-3" aria-describedby={error ? errorId(id) : undefined} data-field={id}>
      <legend className="flex items-center gap-2 px-1 text-sm font-medium">{legend}</legend>
      {actions && <div className="-mt-1 flex flex-wrap gap-2">{actions}</div>}
      <ErrorText message={error} id={errorId(id)} field />
      {children}
    </fieldset>
  );
}

/** What the fieldset of an object or a list is given: its field, its draft, and its place in the form. */
type FieldsetProps<Kind extends "object" | "array"> = ControlProps & {
  name: string;
  required: boolean;
  model: Extract<FieldModel, { kind: Kind }>;
  value: Draft;
  onChange: (next: Draft) => void;
};

function ObjectFieldset({ name, required, model, value, onChange, ...control }: FieldsetProps<"object">) {
  const { t } = useTranslation();
  const { path, errors, idPrefix, disabled } = control;
  const id = idOf(idPrefix, path);
  const included = value !== undefined;
  // An optional object is left out until added: most of them (customData, say) are rarely sent.
  const actions = required ? undefined : included ? (
    <Button type="button" variant="ghost" size="sm" onClick={() => onChange(undefined)} disabled={disabled}>
      <X aria-hidden />
      {t("schemaForm.leaveOut", { name })}
    </Button>
  ) : (
    <Button type="button" variant="outline" size="sm" onClick={() => onChange(initialDraft(model))} disabled={disabled}>
      <Plus aria-hidden />
      {t("schemaForm.add", { name })}
    </Button>
  );
  return (
    <Frame legend={<FieldLabel name={name} required={required} />} error={errors[path]} id={id} actions={actions}>
      {included && <ObjectFields fields={model.fields} value={asRecord(value)} onChange={onChange} {...control} />}
    </Frame>
  );
}

function ArrayFieldset({ name, required, model, value, onChange, ...control }: FieldsetProps<"array">) {
  const { t } = useTranslation();
  const { path, errors, idPrefix, disabled } = control;
  const items = Array.isArray(value) ? value : [];
  const id = idOf(idPrefix, path);
  const full = model.maxItems !== undefined && items.length >= model.maxItems;
  // A required list keeps the items it needs; an optional one may be emptied, which leaves it out.
  const atMinimum = required && items.length <= (model.minItems ?? 0);
  const bounds =
    model.maxItems !== undefined
      ? t("schemaForm.itemsBetween", { min: model.minItems ?? 0, max: model.maxItems })
      : model.minItems
        ? t("schemaForm.itemsAtLeast", { min: model.minItems })
        : null;
  const set = (index: number, next: Draft) => onChange(items.map((item, i) => (i === index ? next : item)));
  const remove = (index: number) => onChange(items.filter((_, i) => i !== index));
  return (
    <Frame
      legend={
        <>
          <FieldLabel name={name} required={required} />
          {bounds && <span className="text-xs font-normal text-muted-foreground">{bounds}</span>}
        </>
      }
      error={errors[path]}
      id={id}
    >
      {items.map((item, index) => {
        const itemPath = pathOf(path, index);
        const removeButton = (
          <Button type="button" variant="ghost" size="sm" onClick={() => remove(index)} disabled={disabled || atMinimum} aria-label={t("schemaForm.removeItem", { name, no: index + 1 })}>
            <X aria-hidden />
            {t("schemaForm.remove")}
          </Button>
        );
        if (model.item.kind === "object") {
          return (
            <Frame key={index} legend={<span className="font-mono text-[13px]">{`${name}[${index}]`}</span>} error={errors[itemPath]} id={idOf(idPrefix, itemPath)} actions={removeButton}>
              <ObjectFields fields={model.item.fields} value={asRecord(item)} onChange={(next) => set(index, next)} path={itemPath} errors={errors} idPrefix={idPrefix} disabled={disabled} />
            </Frame>
          );
        }
        const itemId = idOf(idPrefix, itemPath);
        return (
          <div key={index} className="flex items-start gap-2">
            <FormField id={itemId} label={<span className="font-mono text-[13px]">{`${name}[${index}]`}</span>} error={errors[itemPath]} className="flex-1">
              <ScalarControl id={itemId} model={model.item} required value={item} onChange={(next) => set(index, next)} invalid={Boolean(errors[itemPath])} disabled={disabled} />
            </FormField>
            <div className="pt-6">{removeButton}</div>
          </div>
        );
      })}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...items, initialDraft(model.item)])} disabled={disabled || full}>
          <Plus aria-hidden />
          {t("schemaForm.addItem", { name })}
        </Button>
      </div>
    </Frame>
  );
}

/** What a scalar field takes, under it: its length, range, step or format. */
function ScalarHint({ model }: { model: FieldModel }) {
  const { t } = useTranslation();
  const parts: string[] = [];
  if (model.kind === "string" && model.maxLength !== undefined) parts.push(t("schemaForm.hint.maxLength", { max: model.maxLength }));
  if (model.kind === "string" && model.format === "uri") parts.push(t("schemaForm.hint.uri"));
  if (model.kind === "integer") parts.push(t("schemaForm.hint.integer"));
  if ((model.kind === "integer" || model.kind === "number") && model.minimum !== undefined) parts.push(t("schemaForm.hint.minimum", { min: model.minimum }));
  if ((model.kind === "integer" || model.kind === "number") && model.maximum !== undefined) parts.push(t("schemaForm.hint.maximum", { max: model.maximum }));
  if (model.kind === "number" && model.multipleOf !== undefined) parts.push(t("schemaForm.hint.multipleOf", { step: model.multipleOf }));
  if (model.kind === "json") parts.push(t("schemaForm.hint.json"));
  return parts.length ? <>{parts.join(" · ")}</> : null;
}

function ScalarControl({
  id,
  model,
  required,
  value,
  onChange,
  invalid,
  disabled,
}: {
  id: string;
  model: FieldModel;
  required: boolean;
  value: Draft;
  onChange: (next: Draft) => void;
  invalid: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const text = typeof value === "string" ? value : "";
  const aria = { "aria-invalid": invalid || undefined, "aria-describedby": invalid ? errorId(id) : undefined, "aria-required": required || undefined };
  switch (model.kind) {
    case "enum":
      return (
        <NativeSelect id={id} value={text} onChange={(e) => onChange(e.target.value)} disabled={disabled} {...aria}>
          <option value="">{required ? t("schemaForm.choose") : t("schemaForm.notSent")}</option>
          {model.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </NativeSelect>
      );
    case "boolean":
      if (required) {
        return (
          <div className="flex h-9 items-center">
            <Checkbox id={id} checked={value === true} onCheckedChange={(on) => onChange(on === true)} disabled={disabled} {...aria} />
          </div>
        );
      }
      return (
        <NativeSelect id={id} value={text} onChange={(e) => onChange(e.target.value)} disabled={disabled} {...aria}>
          <option value="">{t("schemaForm.notSent")}</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </NativeSelect>
      );
    case "integer":
    case "number":
      return (
        <Input
          id={id}
          type="number"
          inputMode={model.kind === "integer" ? "numeric" : "decimal"}
          step={model.kind === "integer" ? 1 : (model.multipleOf ?? "any")}
          min={model.minimum}
          max={model.maximum}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
          {...aria}
        />
      );
    case "json":
      return <Textarea id={id} value={text} onChange={(e) => onChange(e.target.value)} disabled={disabled} className="font-mono text-xs" rows={3} {...aria} />;
    case "string":
      if (model.format === "date-time") {
        return <Input id={id} type="datetime-local" step={1} value={text} onChange={(e) => onChange(e.target.value)} disabled={disabled} {...aria} />;
      }
      return <Input id={id} type={model.format === "uri" ? "url" : "text"} value={text} onChange={(e) => onChange(e.target.value)} disabled={disabled} {...aria} />;
    default:
      return null;
  }
}
