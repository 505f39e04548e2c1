import type { ComponentProps } from "react";
import { useSearchParams } from "react-router";
import { Input } from "~/components/ui/input";

/**
 * A list filter typed as text (docs/rules/lists.md): named `name` in the URL, labelled and
 * hinted by `label`, starting from the URL's value. It sits in `DataTableToolbar`, whose Search
 * writes it to the URL.
 */
export function FilterText({ name, label, ...props }: { name: string; label: string } & Pick<ComponentProps<"input">, "inputMode" | "className" | "title">) {
  const [params] = useSearchParams();
  return <Input name={name} placeholder={label} aria-label={label} defaultValue={params.get(name) ?? ""} {...props} />;
}
