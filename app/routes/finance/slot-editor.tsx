import { Merge, Split } from "lucide-react";
import { useTranslation } from "react-i18next";
import { HALF_HOURS, minuteOfText, SLOT_TIMES, textOfMinute } from "../../../domain/pricing/slots";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { cn } from "~/lib/cn";
import { ErrorText } from "~/components/form/error-text";

/**
 * The slots of one day (docs/rules/pricing.md "The editor"): a bar of the 48 half-hours coloured by
 * price, and one row per slot. Rows always follow one another from 00:00 to 24:00: a row's end is
 * the next row's start, a half-hour of the bar splits the slot it falls in there, and a row merges
 * with the next one. The shared schema still checks everything before saving.
 */
export interface DraftSlot {
  start: string;
  end: string;
  price: string;
}

/** Colours by price rank, lowest first; the bar's cells are named by their aria-labels. */
const SHADES = ["bg-emerald-300", "bg-lime-300", "bg-amber-300", "bg-orange-400", "bg-rose-400", "bg-fuchsia-400", "bg-sky-400", "bg-slate-400"];

const minute = (text: string) => minuteOfText(text) ?? 0;

/** Cuts the slot that holds `at` (a half-hour boundary) in two there, both at its price. */
export function splitAt(slots: readonly DraftSlot[], at: number): DraftSlot[] {
  const index = slots.findIndex((s) => minute(s.start) < at && at < minute(s.end));
  if (index < 0) return [...slots];
  const slot = slots[index];
  const time = textOfMinute(at);
  return [...slots.slice(0, index), { ...slot, end: time }, { ...slot, start: time }, ...slots.slice(index + 1)];
}

/** Joins a slot with the next one, keeping the first one's price. */
export function mergeWithNext(slots: readonly DraftSlot[], index: number): DraftSlot[] {
  if (index >= slots.length - 1) return [...slots];
  return [...slots.slice(0, index), { ...slots[index], end: slots[index + 1].end }, ...slots.slice(index + 2)];
}

/** Moves the boundary after slot `index`, keeping both neighbours at least half an hour long. */
export function moveEnd(slots: readonly DraftSlot[], index: number, end: string): DraftSlot[] {
  const next = slots[index + 1];
  if (!next || minute(end) <= minute(slots[index].start) || minute(end) >= minute(next.end)) return [...slots];
  return slots.map((s, i) => (i === index ? { ...s, end } : i === index + 1 ? { ...s, start: end } : s));
}

function shadeOf(slots: readonly DraftSlot[]) {
  const prices = [...new Set(slots.map((s) => Number(s.price) || 0))].sort((a, b) => a - b);
  return (slot: DraftSlot) => SHADES[Math.min(prices.indexOf(Number(slot.price) || 0), SHADES.length - 1)];
}

export function SlotEditor({
  id,
  title,
  slots,
  onChange,
  error,
  unitLabel,
}: {
  id: string;
  title: string;
  slots: DraftSlot[];
  onChange: (slots: DraftSlot[]) => void;
  error?: string;
  unitLabel: string;
}) {
  const { t } = useTranslation();
  const shade = shadeOf(slots);
  const slotAtHalf = (half: number) => slots.find((s) => minute(s.start) <= half * 30 && half * 30 < minute(s.end));

  return (
    <div className="flex flex-col gap-3" data-testid={`${id}-slots`}>
      <div role="group" aria-label={t("pricing.slots.dayBar", { title })}>
        <div className="grid grid-cols-[repeat(48,minmax(0,1fr))] overflow-hidden rounded-md border">
          {Array.from({ length: HALF_HOURS }, (_, half) => {
            const slot = slotAtHalf(half);
            const boundary = half > 0 && slot !== undefined && minute(slot.start) === half * 30;
            const label = slot
              ? t("pricing.slots.cell", { start: textOfMinute(half * 30), end: textOfMinute(half * 30 + 30), price: slot.price || "—" })
              : textOfMinute(half * 30);
            return (
              <button
                key={half}
                type="button"
                title={label}
                aria-label={half > 0 && !boundary ? `${label}. ${t("pricing.slots.splitAt", { time: textOfMinute(half * 30) })}` : label}
                onClick={() => half > 0 && !boundary && onChange(splitAt(slots, half * 30))}
                className={cn("h-8 min-w-0 outline-none focus-visible:ring-2 focus-visible:ring-ring", slot ? shade(slot) : "bg-muted", boundary && "border-l-2 border-foreground")}
              />
            );
          })}
        </div>
        <div className="mt-1 flex justify-between text-xs text-muted-foreground tabular-nums" aria-hidden>
          {["00:00", "06:00", "12:00", "18:00", "24:00"].map((h) => (
            <span key={h}>{h}</span>
          ))}
        </div>
      </div>
      <ol className="flex flex-col gap-2">
        {slots.map((slot, index) => {
          const last = index === slots.length - 1;
          const ends = SLOT_TIMES.filter((time) => minute(time) > minute(slot.start) && (last ? time === "24:00" : minute(time) < minute(slots[index + 1].end)));
          return (
            <li key={`${slot.start}-${index}`} className="flex flex-wrap items-end gap-2 rounded-md border p-2">
              <span className={cn("mb-2 size-3 shrink-0 rounded-full", shade(slot))} aria-hidden />
              <div className="flex flex-col gap-1">
                <span className="text-xs text-muted-foreground">{t("pricing.slots.start")}</span>
                <span className="h-9 px-1 py-2 text-sm tabular-nums">{slot.start}</span>
              </div>
              <label className="flex flex-col gap-1 text-xs text-muted-foreground">
                {t("pricing.slots.end")}
                <NativeSelect
                  value={slot.end}
                  disabled={last}
                  aria-label={t("pricing.slots.endOf", { title, start: slot.start })}
                  onChange={(e) => onChange(moveEnd(slots, index, e.target.value))}
                >
                  {ends.map((time) => (
                    <option key={time} value={time}>
                      {time}
                    </option>
                  ))}
                </NativeSelect>
              </label>
              <label className="flex min-w-32 flex-1 flex-col gap-1 text-xs text-muted-foreground">
                {t("pricing.slots.price", { unit: unitLabel })}
                <Input
                  inputMode="decimal"
                  value={slot.price}
                  aria-label={t("pricing.slots.priceOf", { title, start: slot.start })}
                  aria-invalid={Boolean(error) || undefined}
                  onChange={(e) => onChange(slots.map((s, i) => (i === index ? { ...s, price: e.target.value.replace(",", ".") } : s)))}
                />
              </label>
              <div className="flex gap-1">
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  disabled={minute(slot.end) - minute(slot.start) < 60}
                  onClick={() => onChange(splitAt(slots, minute(slot.start) + Math.floor((minute(slot.end) - minute(slot.start)) / 60) * 30))}
                >
                  <Split aria-hidden />
                  {t("pricing.slots.split")}
                </Button>
                <Button type="button" variant="ghost" size="sm" disabled={last} onClick={() => onChange(mergeWithNext(slots, index))}>
                  <Merge aria-hidden />
                  {t("pricing.slots.merge")}
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <ErrorText message={error} />
    </div>
  );
}
