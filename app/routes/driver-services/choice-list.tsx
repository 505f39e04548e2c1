import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";

/**
 * A checkable list narrowed by typing, for the locations and points a push names. The options are
 * capped on the server (docs/rules/lists.md "Pickers"); customers and groups, of which an operator
 * has many more, are searched on the server instead (`app/routes/drivers/pickers.tsx`).
 */
export function ChoiceList({
  id,
  label,
  options,
  value,
  onChange,
}: {
  id: string;
  label: string;
  options: readonly { id: number; label: string }[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const shown = options.filter((o) => o.label.toLowerCase().includes(filter.trim().toLowerCase()));
  const toggle = (optionId: number, on: boolean) => onChange(on ? [...value, optionId] : value.filter((v) => v !== optionId));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">
        {label} <span className="text-muted-foreground">({t("driverServices.common.selected", { n: value.length })})</span>
      </legend>
      <Input placeholder={t("driverServices.common.filter")} aria-label={`${label}: ${t("driverServices.common.filter")}`} value={filter} onChange={(e) => setFilter(e.target.value)} />
      <div className="max-h-56 overflow-y-auto rounded-md border p-2" tabIndex={0} role="group" aria-label={label}>
        {shown.length === 0 && <p className="p-2 text-sm text-muted-foreground">{t("driverServices.common.nothingToChoose")}</p>}
        {shown.map((o) => (
          <div key={o.id} className="flex items-center gap-2 py-1">
            <Checkbox id={`${id}-${o.id}`} checked={value.includes(o.id)} onCheckedChange={(checked) => toggle(o.id, checked === true)} />
            <label htmlFor={`${id}-${o.id}`} className="text-sm">
              {o.label}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
