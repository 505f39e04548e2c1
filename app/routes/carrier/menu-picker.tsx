import { useTranslation } from "react-i18next";
import type { MenuEntry } from "../../../tenants/menu-catalogue";
import { Checkbox } from "~/components/ui/checkbox";

/**
 * The menu selection of a role (SPEC.md §6): a group's box grants every page in it; a page's
 * box grants that page alone. Read-only when `onChange` is absent.
 */
export function MenuPicker({
  catalogue,
  value,
  onChange,
}: {
  catalogue: MenuEntry[];
  value: string[];
  onChange?: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const selected = new Set(value);
  const toggle = (entry: MenuEntry, on: boolean) => {
    if (!onChange) return;
    const next = new Set(selected);
    const children = entry.children?.map((c) => c.code) ?? [];
    if (on) {
      next.add(entry.code);
      children.forEach((c) => next.delete(c));
    } else {
      next.delete(entry.code);
    }
    onChange([...next]);
  };

  return (
    <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {catalogue.map((entry) => {
        const groupOn = selected.has(entry.code);
        return (
          <fieldset key={entry.code} className="rounded-lg border p-3">
            <legend className="px-1">
              <label className="flex items-center gap-2 text-sm font-medium">
                <Checkbox checked={groupOn} disabled={!onChange} onCheckedChange={(on) => toggle(entry, on === true)} />
                {t(entry.titleKey)}
              </label>
            </legend>
            {entry.children && (
              <div className="mt-1 flex flex-col gap-1.5 pl-6">
                {entry.children.map((child) => (
                  <label key={child.code} className="flex items-center gap-2 text-sm text-muted-foreground">
                    <Checkbox
                      checked={groupOn || selected.has(child.code)}
                      disabled={!onChange || groupOn}
                      onCheckedChange={(on) => toggle(child, on === true)}
                    />
                    {t(child.titleKey)}
                  </label>
                ))}
              </div>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}
