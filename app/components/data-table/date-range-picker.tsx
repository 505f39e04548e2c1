import { useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { CalendarRange } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { useFormat } from "~/components/format";
import { presetOf, presetRange, RANGE_PRESETS, type RangePreset } from "../../../domain/date-range";

export interface DateRangePickerProps {
  /** Initial bounds when the page gives them (else the URL's `from`/`to`). */
  defaultFrom?: string;
  defaultTo?: string;
  /** Days only (statements take whole days); otherwise a time of day may be added to each bound. */
  daysOnly?: boolean;
  /** Both bounds are always sent (the page has a default period): no "any time". */
  required?: boolean;
}

/** `yyyy-MM-dd[THH:mm]` → its day and time parts. */
function split(value: string): { day: string; time: string } {
  const [day = "", time = ""] = value.split("T");
  return { day, time: time.slice(0, 5) };
}

const join = (day: string, time: string) => (day === "" ? "" : time === "" ? day : `${day}T${time}`);

/**
 * The period filter of a list's toolbar (docs/rules/console.md "Date ranges"): presets computed in
 * the operator's time zone and a custom range typed in that zone, as `yyyy-MM-dd[THH:mm]` with `to`
 * included (docs/rules/lists.md "Filters and sorting"). It sits inside `DataTableToolbar`'s form: the
 * bounds travel as hidden `from`/`to` fields and choosing a range submits the search.
 */
export function DateRangePicker({ defaultFrom, defaultTo, daysOnly = false, required = false }: DateRangePickerProps) {
  const { t } = useTranslation();
  const { timeZone } = useFormat();
  const [params] = useSearchParams();
  const initial = { from: defaultFrom ?? params.get("from") ?? "", to: defaultTo ?? params.get("to") ?? "" };
  const [range, setRange] = useState(initial);
  const [draft, setDraft] = useState({ from: split(initial.from), to: split(initial.to) });
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLInputElement>(null);
  const id = useId();

  const submit = (next: { from: string; to: string }) => {
    flushSync(() => {
      setRange(next);
      setDraft({ from: split(next.from), to: split(next.to) });
      setOpen(false);
    });
    anchor.current?.form?.requestSubmit();
  };

  const preset = presetOf(range, Date.now(), timeZone);
  const summary = preset
    ? t(`formsHelp.range.presets.${preset}`)
    : range.from || range.to
      ? t("formsHelp.range.between", { from: range.from.replace("T", " ") || "…", to: range.to.replace("T", " ") || "…" })
      : t("formsHelp.range.any");
  const custom = { from: join(draft.from.day, draft.from.time), to: join(draft.to.day, draft.to.time) };
  const setPart = (edge: "from" | "to", part: "day" | "time", value: string) =>
    setDraft((d) => ({ ...d, [edge]: { ...d[edge], [part]: value } }));

  return (
    <>
      <input ref={anchor} type="hidden" name="from" value={range.from} />
      <input type="hidden" name="to" value={range.to} />
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button variant="outline" className="justify-start font-normal" aria-label={`${t("formsHelp.range.label")}: ${summary}`}>
            <CalendarRange aria-hidden />
            <span className="truncate">{summary}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-80" aria-label={t("formsHelp.range.label")}>
          <div role="group" aria-label={t("formsHelp.range.presetsLabel")} className="grid grid-cols-2 gap-1">
            {RANGE_PRESETS.map((p: RangePreset) => (
              <Button key={p} type="button" size="sm" variant={preset === p ? "secondary" : "ghost"} className="justify-start" aria-pressed={preset === p} onClick={() => submit(presetRange(p, Date.now(), timeZone))}>
                {t(`formsHelp.range.presets.${p}`)}
              </Button>
            ))}
          </div>
          <form
            className="mt-3 flex flex-col gap-2 border-t pt-3"
            onSubmit={(event) => {
              event.preventDefault();
              event.stopPropagation();
              submit(custom);
            }}
          >
            {(["from", "to"] as const).map((edge) => (
              <fieldset key={edge} className="flex flex-col gap-1">
                <legend className="mb-1 text-xs text-muted-foreground">{t(edge === "from" ? "formsHelp.range.from" : "formsHelp.range.to")}</legend>
                <div className="flex gap-2">
                  <Input id={`${id}-${edge}-day`} type="date" aria-label={t(edge === "from" ? "formsHelp.range.fromDay" : "formsHelp.range.toDay")} value={draft[edge].day} onChange={(e) => setPart(edge, "day", e.target.value)} required={required} />
                  {!daysOnly && (
                    <Input type="time" className="w-28" aria-label={t(edge === "from" ? "formsHelp.range.fromTime" : "formsHelp.range.toTime")} value={draft[edge].time} onChange={(e) => setPart(edge, "time", e.target.value)} disabled={draft[edge].day === ""} />
                  )}
                </div>
              </fieldset>
            ))}
            <p className="text-xs text-muted-foreground">{t("formsHelp.range.hint", { timeZone })}</p>
            <div className="flex justify-end gap-2">
              {!required && (
                <Button type="button" variant="ghost" size="sm" onClick={() => submit({ from: "", to: "" })}>
                  {t("formsHelp.range.clear")}
                </Button>
              )}
              <Button type="submit" size="sm">
                {t("formsHelp.range.apply")}
              </Button>
            </div>
          </form>
        </PopoverContent>
      </Popover>
    </>
  );
}
