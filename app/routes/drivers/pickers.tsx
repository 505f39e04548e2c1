import { X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "~/components/ui/badge";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { useApi, type ApiPathTo } from "~/lib/api";

/** The capped picker endpoints: a keyword in, at most a few records with their id out. */
export type PickerPath = ApiPathTo<"get", readonly { id: number }[]>;

export interface Option {
  id: number;
  label: string;
}

/** Matches of a keyword from a capped picker endpoint (docs/rules/lists.md "Pickers"), fetched as the user types. */
function useMatches(path: PickerPath, keyword: string, label: (row: Record<string, unknown>) => string) {
  const api = useApi();
  const [matches, setMatches] = useState<Option[]>([]);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api
        .call("get", path, { query: { keyword } })
        .then((rows) => live && setMatches(rows.map((row) => ({ id: row.id, label: label({ ...row }) }))))
        .catch(() => undefined);
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `label` is a pure mapping chosen by the caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, path, keyword]);
  return matches;
}

export const customerLabel = (row: Record<string, unknown>) => `${String(row.name)} · ${String(row.email)}`;
export const pointLabel = (row: Record<string, unknown>) => `${String(row.serialNumber)} · ${String(row.name)}`;

/**
 * One customer: type to search, then choose among the matches (the current choice stays listed).
 * `path` is the picker endpoint the screen's menu may read (the customer options by default).
 */
export function CustomerSelect({ path = "/customer-service/customer/options", ...props }: SelectProps & { path?: PickerPath }) {
  const { t } = useTranslation();
  return <SearchSelect {...props} path={path} label={customerLabel} searchLabel={t("drivers.pickers.searchCustomer")} noneLabel={t("drivers.pickers.noCustomer")} />;
}

/** Several records: type to search, tick matches; the chosen ones stay listed as removable badges. */
export function MultiPicker({
  path,
  label,
  chosen,
  onChange,
  searchLabel,
}: {
  path: PickerPath;
  label: (row: Record<string, unknown>) => string;
  chosen: Option[];
  onChange: (chosen: Option[]) => void;
  searchLabel: string;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState("");
  const matches = useMatches(path, keyword, label);
  const listId = useId();
  const isChosen = (id: number) => chosen.some((c) => c.id === id);
  const toggle = (option: Option) => onChange(isChosen(option.id) ? chosen.filter((c) => c.id !== option.id) : [...chosen, option]);
  return (
    <div className="flex flex-col gap-2">
      {chosen.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={t("drivers.pickers.chosen")}>
          {chosen.map((c) => (
            <li key={c.id}>
              <Badge variant="secondary" className="gap-1">
                {c.label}
                <button type="button" onClick={() => toggle(c)} aria-label={t("drivers.pickers.remove", { name: c.label })} className="rounded-sm hover:text-destructive">
                  <X className="size-3" aria-hidden />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <Input type="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder={searchLabel} aria-label={searchLabel} aria-controls={listId} />
      <ul id={listId} className="max-h-48 overflow-auto rounded-md border p-1" aria-label={t("drivers.pickers.matches")}>
        {matches.length === 0 && <li className="px-2 py-1 text-sm text-muted-foreground">{t("drivers.pickers.none")}</li>}
        {matches.map((m) => (
          <li key={m.id}>
            <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-muted">
              <Checkbox checked={isChosen(m.id)} onCheckedChange={() => toggle(m)} />
              <span className="break-all">{m.label}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What a one-record picker takes from its form. */
interface SelectProps {
  id: string;
  value: number | null;
  onChange: (id: number | null) => void;
  current?: Option | null;
  invalid?: boolean;
  describedBy?: string;
}

/** One record of a capped picker endpoint: type to search, then choose among the matches (the current choice stays listed). */
function SearchSelect({
  id,
  value,
  onChange,
  current,
  invalid,
  describedBy,
  path,
  label,
  searchLabel,
  noneLabel,
}: SelectProps & { path: PickerPath; label: (row: Record<string, unknown>) => string; searchLabel: string; noneLabel: string }) {
  const [keyword, setKeyword] = useState("");
  const matches = useMatches(path, keyword, label);
  const options = current && !matches.some((m) => m.id === current.id) ? [current, ...matches] : matches;
  return (
    <div className="flex flex-col gap-2">
      <Input type="search" value={keyword} onChange={(e) => setKeyword(e.target.value)} placeholder={searchLabel} aria-label={searchLabel} />
      <NativeSelect
        id={id}
        value={value === null ? "" : String(value)}
        onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
      >
        <option value="">{noneLabel}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

export const groupLabel = (row: Record<string, unknown>) => `${String(row.name)} (${String(row.code)})`;

/**
 * One customer group, searched on the server by name or code (docs/rules/lists.md "Pickers"), so
 * that any group can be chosen however many there are. `noneLabel` names the empty choice.
 */
export function GroupSelect(props: SelectProps & { noneLabel: string }) {
  const { t } = useTranslation();
  return <SearchSelect {...props} path="/customer-service/group/options" label={groupLabel} searchLabel={t("drivers.pickers.searchGroup")} />;
}

/** The group a list is filtered by: searched on the server as the user types, sent as `groupId` with the toolbar's search. */
export function GroupFilter({ current, label, noneLabel }: { current: Option | null; label: string; noneLabel: string }) {
  const id = useId();
  const [value, setValue] = useState<number | null>(current?.id ?? null);
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <GroupSelect id={id} value={value} onChange={setValue} current={current} noneLabel={noneLabel} />
      <input type="hidden" name="groupId" value={value ?? ""} />
    </div>
  );
}
