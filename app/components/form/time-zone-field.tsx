import { useEffect, useState } from "react";
import type { FieldPath, FieldValues } from "react-hook-form";
import { TextField, type TextFieldProps } from "./fields";

/** Every IANA zone the browser knows, UTC first (not every engine lists it). */
function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((zone) => zone !== "UTC")];
}

/**
 * A time zone typed with suggestions (docs/rules/console.md "Forms"): the field searches the IANA
 * zones as one types ("wars" offers Europe/Warsaw), by the browser's own list so it stays
 * keyboard operable; the server still checks the zone. The list is added after hydration, as
 * the server's and the browser's lists may differ.
 */
export function TimeZoneField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>, TTransformed = TFieldValues>(
  props: TextFieldProps<TFieldValues, TName, TTransformed>,
) {
  const listId = `time-zones-${String(props.name).replace(/\W/g, "-")}`;
  const [zones, setZones] = useState<string[]>([]);
  useEffect(() => setZones(timeZones()), []);
  return (
    <>
      <TextField {...props} list={listId} autoComplete="off" spellCheck={false} />
      <datalist id={listId}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </>
  );
}
