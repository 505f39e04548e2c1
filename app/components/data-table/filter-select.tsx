import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { NativeSelect } from "~/components/ui/native-select";

/**
 * A list filter that picks one value (docs/rules/lists.md): named `name` in the URL, its first
 * option "all" (empty, or `allValue` where the list's default is narrower than all; none where
 * a value is always chosen), then `options` as `[value, label]` (or `<option>` children where the
 * options are grouped or computed); it starts from the URL's value, else `fallback`.
 */
export function FilterSelect({
  name,
  label,
  all,
  options = [],
  allValue = "",
  fallback = "",
  children,
}: {
  name: string;
  label: string;
  all?: string;
  options?: readonly (readonly [string | number, string])[];
  allValue?: string;
  fallback?: string;
  children?: ReactNode;
}) {
  const [params] = useSearchParams();
  return (
    <NativeSelect name={name} aria-label={label} defaultValue={params.get(name) ?? fallback}>
      {all !== undefined && <option value={allValue}>{all}</option>}
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
      {children}
    </NativeSelect>
  );
}
