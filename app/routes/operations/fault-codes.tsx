import type { ColumnDef } from "@tanstack/react-table";
import { Plus, RotateCcw } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { faultCodeInput, faultCodeUpdate } from "../../../domain/schemas/operations";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { FormField } from "~/components/form/form-field";
import { AlarmLevelBadge } from "~/components/live/status-badges";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { faultCodeAction, faultCodeList } from "./faults.server";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/**
 * Operation and maintenance › Fault codes: OCPP's 14 codes with the operator's settings, and its
 * vendor codes; each with a name, a level and the count that makes a failure repeated
 * (docs/rules/operations.md "Fault codes").
 */
export function loader(args: LoaderFunctionArgs) {
  return faultCodeList(args);
}

export function action(args: ActionFunctionArgs) {
  return faultCodeAction(args);
}

type FaultCode = Awaited<ReturnType<typeof loader>>["records"][number];
interface Draft {
  isNew: boolean;
  code: string;
  name: string;
  level: "ERROR" | "WARN";
  count: string;
  description: string;
}

export default function FaultCodes() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const { edit, remove } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useActionOutcome(
    fetcher,
    (data: { intent: string }) => {
      toast.success(t(data.intent === "delete" ? "operations.fc.deleted" : "operations.fc.saved"));
      setDraft(null);
    },
    (name, message) => setErrors((e) => ({ ...e, [name]: message })),
  );

  const editCode = (f: FaultCode) => {
    setErrors({});
    setDraft({ isNew: false, code: f.code, name: f.name, level: f.level, count: String(f.count), description: f.description ?? "" });
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const body = { code: draft.code, name: draft.name, level: draft.level, count: draft.count, description: draft.description || undefined };
    // The verb's own schemas, so the dialog shows its messages before sending.
    const checked = draft.isNew ? faultCodeInput.safeParse(body) : faultCodeUpdate.safeParse(body);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), t(issue.message)])));
      return;
    }
    setErrors({});
    fetcher.submit(JSON.stringify({ intent: "save", isNew: draft.isNew, ...body }), { method: "post", encType: "application/json" });
  };

  const columns: ColumnDef<FaultCode>[] = [
    { accessorKey: "code", header: t("operations.fc.code"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.code}</span> },
    { accessorKey: "name", header: t("operations.fc.name"), meta: { priority: 2 } },
    {
      accessorKey: "source",
      header: t("operations.fc.source"),
      meta: { width: 120 },
      cell: ({ row }) => <Badge variant={row.original.source === "OCPP" ? "secondary" : "info"}>{t(`operations.fc.sources.${row.original.source}`)}</Badge>,
    },
    { accessorKey: "level", header: t("operations.fc.level"), meta: { width: 110 }, cell: ({ row }) => <AlarmLevelBadge level={row.original.level} /> },
    { accessorKey: "count", header: t("operations.fc.count"), meta: { width: 100 } },
    { accessorKey: "description", header: t("operations.fc.description"), meta: { priority: 3 }, cell: ({ row }) => row.original.description ?? "—" },
    actionsColumn<FaultCode>(t("common.actions"), (f) => {
      const ocpp = f.source === "OCPP";
      const run = () => fetcher.submit(JSON.stringify({ intent: "delete", code: f.code }), { method: "post", encType: "application/json" });
      return [
        edit(() => editCode(f)),
        // A vendor's code is deleted; a customised OCPP code goes back to the standard's text.
        (f.source === "VENDOR" || f.customised) &&
          (ocpp ? { label: t("operations.fc.reset"), icon: RotateCcw, destructive: true, onSelect: run, confirm: { message: t("operations.fc.confirmReset", { code: f.code }) } } : remove(run)),
      ];
    }),
  ];

  const field = (name: keyof Draft, label: string, input: React.ReactNode, required = true) => (
    <FormField id={`fc-${name}`} label={label} required={required} error={errors[name]}>
      {input}
    </FormField>
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("menu.operation.faultCode")}
        actions={
          <Button
            onClick={() => {
              setErrors({});
              setDraft({ isNew: true, code: "", name: "", level: "WARN", count: "3", description: "" });
            }}
          >
            <Plus aria-hidden />
            {t("operations.fc.add")}
          </Button>
        }
      />
      <DataTableToolbar>
        <FilterText name="keyword" label={t("operations.fc.keyword")} />
        <FilterSelect name="source" label={t("operations.fc.source")} all={t("operations.fc.source")}>
          <option value="OCPP">{t("operations.fc.sources.OCPP")}</option>
          <option value="VENDOR">{t("operations.fc.sources.VENDOR")}</option>
        </FilterSelect>
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => r.code} emptyHint={t("operations.fc.empty")} label={t("menu.operation.faultCode")} />
      <Dialog open={draft !== null} onOpenChange={(open) => !open && setDraft(null)}>
        <DialogContent>
          {draft && (
            <form onSubmit={save} noValidate className="flex flex-col gap-4">
              <DialogHeader>
                <DialogTitle>{draft.isNew ? t("operations.fc.add") : t("operations.fc.edit")}</DialogTitle>
                <DialogDescription>{t("operations.fc.countHint")}</DialogDescription>
              </DialogHeader>
              {field("code", t("operations.fc.code"), <Input id="fc-code" value={draft.code} disabled={!draft.isNew} onChange={(e) => setDraft({ ...draft, code: e.target.value })} />)}
              {field("name", t("operations.fc.name"), <Input id="fc-name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />)}
              {field(
                "level",
                t("operations.fc.level"),
                <NativeSelect id="fc-level" value={draft.level} onChange={(e) => setDraft({ ...draft, level: e.target.value as Draft["level"] })}>
                  <option value="ERROR">ERROR</option>
                  <option value="WARN">WARN</option>
                </NativeSelect>,
              )}
              {field("count", t("operations.fc.count"), <Input id="fc-count" inputMode="numeric" value={draft.count} onChange={(e) => setDraft({ ...draft, count: e.target.value })} />)}
              {field("description", t("operations.fc.description"), <Input id="fc-description" value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />, false)}
              <FormDialogFooter onCancel={() => setDraft(null)} busy={fetcher.state !== "idle"} />
            </form>
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
