import { useSearchParams } from "react-router";
import { NativeSelect } from "~/components/ui/native-select";

/**
 * A list filter that picks one value (docs/rules/lists.md): named `name` in the URL, its first
 * option "all" (empty), then `options` as `[value, label]`; it starts from the URL's value.
 */
export function FilterSelect({ name, label, all, options }: { name: string; label: string; all: string; options: readonly (readonly [string | number, string])[] }) {
  const [params] = useSearchParams();
  return (
    <NativeSelect name={name} aria-label={label} defaultValue={params.get(name) ?? ""}>
      <option value="">{all}</option>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </NativeSelect>
  );
}
