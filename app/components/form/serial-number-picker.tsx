import { useEffect, useId, useRef, useState, type ComponentProps, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { PointOption } from "../../../domain/schemas/point-options";
import { Input } from "~/components/ui/input";
import { Popover, PopoverAnchor, PopoverContent } from "~/components/ui/popover";
import { useApi } from "~/lib/api";
import { cn } from "~/lib/cn";
import { movedTo } from "./option-keys";

/** How long typing pauses before the points are searched. */
export const SEARCH_DELAY_MS = 250;
const MATCHES = 20;

/**
 * The operator's points matching what was typed, searched on the server once typing pauses. A
 * search that fails says so (`failed`) rather than searching forever; typing again searches again.
 */
function usePointMatches(keyword: string, enabled: boolean) {
  const api = useApi();
  const [state, setState] = useState<{ keyword: string; matches: PointOption[]; failed?: true } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const timer = setTimeout(() => {
      api
        .get("/station-service/point/options", { query: { keyword: keyword.trim() || undefined, limit: MATCHES } })
        .then((matches) => live && setState({ keyword, matches }))
        .catch(() => live && setState({ keyword, matches: [], failed: true }));
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, keyword, enabled]);
  const current = state?.keyword === keyword ? state : null;
  return { matches: state?.matches ?? [], searching: enabled && !current, failed: current?.failed === true };
}

export type SerialNumberPickerProps = Omit<ComponentProps<"input">, "value" | "defaultValue" | "onChange" | "type" | "role"> & {
  /** The form field's name; the serial number chosen or typed is its value. */
  name: string;
  defaultValue?: string;
  /** Told each time the text changes, whether typed or chosen. */
  onValueChange?: (serialNumber: string) => void;
};

/**
 * A serial number, typed or chosen from the operator's points as one types (docs/rules/lists.md
 * "Pickers"): a combobox whose list searches `/station-service/point/options` by serial number and
 * name. Arrow keys move through the matches, Enter or a click takes one, Escape closes the list;
 * what is typed stays the field's value, so a filter still searches by any part of a serial.
 */
export function SerialNumberPicker({ name, defaultValue = "", onValueChange, className, placeholder, ...inputProps }: SerialNumberPickerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(defaultValue);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { matches, searching, failed } = usePointMatches(text, open);
  const anchor = useRef<HTMLDivElement>(null);
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;

  const change = (value: string) => {
    setText(value);
    setActive(-1);
    onValueChange?.(value);
  };
  const choose = (option: PointOption) => {
    change(option.serialNumber);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      return;
    }
    if (event.key === "Enter" && open && active >= 0 && matches[active]) {
      event.preventDefault();
      choose(matches[active]);
      return;
    }
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return setOpen(true);
    }
    if ((event.key === "Home" || event.key === "End") && (!open || active < 0)) return;
    const next = movedTo(event.key, active, matches.length);
    if (next !== undefined && open) {
      event.preventDefault();
      setActive(next);
    }
  };

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverAnchor asChild>
        <div ref={anchor} className={className}>
          <Input
            {...inputProps}
            name={name}
            value={text}
            placeholder={placeholder}
            autoComplete="off"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={open && matches.length > 0 ? listId : undefined}
            aria-activedescendant={open && active >= 0 && matches[active] ? optionId(active) : undefined}
            onChange={(event) => {
              change(event.target.value);
              setOpen(true);
            }}
            onClick={() => setOpen(true)}
            onKeyDown={onKeyDown}
          />
        </div>
      </PopoverAnchor>
      <PopoverContent
        className="w-(--radix-popover-trigger-width) min-w-72 p-1"
        aria-label={t("pickers.serial.matches")}
        // The text field keeps the focus while the list is open (WAI-ARIA combobox pattern).
        onOpenAutoFocus={(event) => event.preventDefault()}
        onInteractOutside={(event) => {
          if (anchor.current?.contains(event.target as Node)) event.preventDefault();
        }}
      >
        {matches.length > 0 && (
          <ul id={listId} role="listbox" tabIndex={-1} aria-label={t("pickers.serial.matches")} className="max-h-64 overflow-y-auto">
            {matches.map((option, index) => (
              <li
                key={option.id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={cn("flex cursor-pointer flex-col rounded-sm px-2 py-1.5 text-sm", index === active ? "bg-accent text-accent-foreground" : "hover:bg-muted")}
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(option)}
              >
                <span className="font-mono">{option.serialNumber}</span>
                <span className="text-xs text-muted-foreground">{[option.name, option.stationName].filter(Boolean).join(" · ")}</span>
              </li>
            ))}
          </ul>
        )}
        <p className="px-2 py-1.5 text-xs text-muted-foreground" role="status">
          {searching
            ? t("pickers.serial.searching")
            : failed
              ? t("pickers.serial.failed")
              : matches.length === 0
                ? t("pickers.serial.none")
                : t("pickers.serial.count", { count: matches.length })}
        </p>
      </PopoverContent>
    </Popover>
  );
}
