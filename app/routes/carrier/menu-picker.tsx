import { useTranslation } from "react-i18next";
import type { MenuAccess, MenuEntry } from "../../../tenants/menu-catalogue";
import { Badge } from "~/components/ui/badge";
import { Checkbox } from "~/components/ui/checkbox";

const ACCESS_BADGE: Record<MenuAccess, "secondary" | "outline" | "default"> = { watch: "secondary", manage: "outline", operate: "default" };

/** Whether a screen only shows, edits records, or also commands chargers. */
function AccessBadge({ access }: { access: MenuAccess }) {
  const { t } = useTranslation();
  return (
    <Badge variant={ACCESS_BADGE[access]} className="ml-auto shrink-0 text-[11px] font-normal" title={t(`roles.accessHint.${access}`)}>
      {t(`roles.access.${access}`)}
    </Badge>
  );
}

/**
 * The menu selection of a role: a group's box grants every page in it; a page's box grants
 * that page alone. Each page says what it allows: watching, editing records, or commanding
 * chargers (docs/rules/access.md). Read-only when `onChange` is absent.
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
    <div className="flex flex-col gap-3">
      <p className="text-xs text-muted-foreground">{t("roles.accessLegend")}</p>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {catalogue.map((entry) => {
          const groupOn = selected.has(entry.code);
          return (
            <fieldset key={entry.code} className="rounded-lg border p-3">
              <legend className="px-1">
                <label className="flex items-center gap-2 text-sm font-medium">
                  <Checkbox checked={groupOn} disabled={!onChange} onCheckedChange={(on) => toggle(entry, on === true)} />
                  {t(entry.titleKey)}
                {!entry.children && <AccessBadge access={entry.access} />}
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
                      <AccessBadge access={child.access} />
                    </label>
                  ))}
                </div>
              )}
            </fieldset>
          );
        })}
      </div>
    </div>
  );
}
