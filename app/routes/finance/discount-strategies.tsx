import { zodResolver } from "@hookform/resolvers/zod";
import type { ColumnDef } from "@tanstack/react-table";
import { Download, Plus, Ticket } from "lucide-react";
import { useState } from "react";
import { useForm, useWatch, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import {
  DISCOUNT_TYPES,
  DISCOUNT_UNITS,
  KWH_DECIMALS,
  discountStrategyForm,
  quotaText,
  toStrategyInput,
  type DiscountStrategyForm,
} from "../../../domain/schemas/discounts";
import type { DiscountCard } from "../../../workers/services/discounts/cards";
import type { DiscountStrategy } from "../../../workers/services/discounts/strategies";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { NumberField, SelectField, TextField } from "~/components/form/fields";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toast";
import { useApi } from "~/lib/api";
import { saveSheet } from "~/lib/excel";
import { discountStrategyAction, loadDiscountStrategies } from "./discount-strategies.server";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/**
 * Finance › Discount strategies: vouchers and discounts, their cards and activation codes
 * (docs/rules/discounts.md "Strategies", "Cards").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadDiscountStrategies(args);
}

export function action(args: ActionFunctionArgs) {
  return discountStrategyAction(args);
}

const post = (body: unknown) => [JSON.stringify(body), { method: "post" as const, encType: "application/json" as const }] as const;

/** Writes cards as an Excel file: one row per activation code. */
function useCardSheet() {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  return (strategy: Pick<DiscountStrategy, "name">, cards: DiscountCard[]) =>
    saveSheet(
      [
        [t("discounts.fields.code"), t("discounts.fields.strategy"), t("discounts.fields.status"), t("discounts.fields.remaining"), t("discounts.fields.expiresAt")],
        ...cards.map((c) => [c.activationCode, strategy.name, t(`discounts.status.${c.status}`), c.remaining, c.expiresAt ? dateTime(c.expiresAt) : null]),
      ],
      `${strategy.name.replace(/[^\p{L}\p{N}_-]+/gu, "_")}-cards.xlsx`,
      [22, 28, 16, 14, 22],
    );
}

export default function DiscountStrategies() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, energy } = useFormat();
  const { onPageChange } = useUrlPaging();
  const { edit, remove } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();
  const api = useApi();
  const writeCards = useCardSheet();
  const [editing, setEditing] = useState<DiscountStrategy | "new" | null>(null);
  const [generating, setGenerating] = useState<DiscountStrategy | null>(null);

  useActionOutcome(fetcher, () => toast.success(t("discounts.toasts.deleted")));

  /** Every card of a strategy, page by page (the list API answers at most 100 at a time). */
  const exportCards = async (strategy: DiscountStrategy) => {
    const cards: DiscountCard[] = [];
    for (let current = 1; ; current++) {
      const got = await api.get("/finance-service/discount-strategy/{id}/card", { params: { id: strategy.id }, query: { size: 100, current } });
      cards.push(...got.records);
      if (got.records.length === 0 || cards.length >= got.total) break;
    }
    await writeCards(strategy, cards);
    toast.success(t("discounts.toasts.exported"));
  };

  const columns: ColumnDef<DiscountStrategy>[] = [
    { accessorKey: "name", header: t("discounts.fields.name") },
    { accessorKey: "type", header: t("discounts.fields.type"), cell: ({ row }) => <Badge variant="outline">{t(`discounts.type.${row.original.type}`)}</Badge> },
    {
      id: "quota",
      header: t("discounts.fields.quota"),
      cell: ({ row }) => (row.original.unit === "MONEY" ? money(row.original.quota) : energy(row.original.quota)),
    },
    { accessorKey: "discount", header: t("discounts.fields.discount"), meta: { priority: 2 }, cell: ({ row }) => (row.original.discount === null ? "—" : `${row.original.discount} %`) },
    {
      id: "validity",
      header: t("discounts.fields.validity"),
      meta: { priority: 2 },
      cell: ({ row }) =>
        row.original.months !== null ? t("discounts.fields.monthsValue", { count: row.original.months }) : `${row.original.startDate} – ${row.original.endDate}`,
    },
    { accessorKey: "activationCode", header: t("discounts.fields.activationCode"), meta: { priority: 3 }, cell: ({ row }) => row.original.activationCode ?? "—" },
    { accessorKey: "generateNumber", header: t("discounts.fields.generateNumber"), meta: { priority: 2 } },
    actionsColumn<DiscountStrategy>(
      t("common.actions"),
      (strategy) => [
        { label: t("discounts.actions.generate"), icon: Ticket, onSelect: () => setGenerating(strategy) },
        { label: t("discounts.actions.export"), icon: Download, disabled: strategy.generateNumber === 0, onSelect: () => exportCards(strategy) },
        edit(() => setEditing(strategy)),
        remove(() => fetcher.submit(...post({ intent: "delete", id: strategy.id })), {
          confirm: { title: t("discounts.dialogs.deleteTitle"), message: t("discounts.dialogs.deleteBody", { name: strategy.name }) },
        }),
      ],
      260,
    ),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("discounts.titles.list")}
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden />
            {t("discounts.actions.add")}
          </Button>
        }
      />
      <DataTableToolbar>
        <FilterText name="name" label={t("discounts.fields.name")} />
        <FilterSelect name="type" label={t("discounts.fields.type")} all={t("discounts.fields.type")} options={DISCOUNT_TYPES.map((type) => [type, t(`discounts.type.${type}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("discounts.empty")} label={t("discounts.titles.list")} />
      {editing && <StrategyDialog strategy={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {generating && <GenerateDialog strategy={generating} onClose={() => setGenerating(null)} onDone={writeCards} />}
    </div>
  );
}

/** Add or edit a strategy; the form's quota is in the currency or in kWh. */
function StrategyDialog({ strategy, onClose }: { strategy: DiscountStrategy | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { currency } = useFormat();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<DiscountStrategyForm>({
    resolver: zodResolver(discountStrategyForm) as Resolver<DiscountStrategyForm>,
    defaultValues: strategy
      ? {
          name: strategy.name,
          type: strategy.type,
          unit: strategy.unit,
          quota: quotaText(strategy.quota, strategy.unit, currency.decimals),
          discount: strategy.discount === null ? "" : String(strategy.discount),
          validity: strategy.months !== null ? "MONTHS" : "DATES",
          months: strategy.months === null ? "" : String(strategy.months),
          startDate: strategy.startDate ?? "",
          endDate: strategy.endDate ?? "",
          activationCode: strategy.activationCode ?? "",
          generateNumber: "",
        }
      : { name: "", type: "VOUCHER", unit: "MONEY", quota: "", discount: "", validity: "MONTHS", months: "12", startDate: "", endDate: "", activationCode: "", generateNumber: "" },
  });
  const [type, unit, validity] = useWatch({ control: form.control, name: ["type", "unit", "validity"] });
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t(strategy ? "discounts.toasts.updated" : "discounts.toasts.created"));
      onClose();
    },
    (name, message) => form.setError(name as keyof DiscountStrategyForm, { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(...post({ ...toStrategyInput(values, currency.decimals), id: strategy?.id })));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto">
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{strategy ? t("discounts.titles.edit") : t("discounts.titles.add")}</DialogTitle>
            <DialogDescription>{t("discounts.quotaHint")}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField control={form.control} name="name" label={t("discounts.fields.name")} required className="sm:col-span-2" />
            <SelectField control={form.control} name="type" label={t("discounts.fields.type")} required options={DISCOUNT_TYPES.map((v) => ({ value: v, label: t(`discounts.type.${v}`) }))} />
            <SelectField control={form.control} name="unit" label={t("discounts.fields.unit")} required options={DISCOUNT_UNITS.map((v) => ({ value: v, label: t(`discounts.unit.${v}`) }))} />
            <NumberField
              control={form.control}
              name="quota"
              label={unit === "MONEY" ? t("discounts.fields.quotaMoney", { currency: currency.code }) : t("discounts.fields.quotaEnergy")}
              decimals={unit === "MONEY" ? currency.decimals : KWH_DECIMALS}
              required
            />
            {type === "DISCOUNT" && <NumberField control={form.control} name="discount" label={t("discounts.fields.discount")} required suffix="%" />}
            <SelectField
              control={form.control}
              name="validity"
              label={t("discounts.fields.validityKind")}
              required
              options={[
                { value: "MONTHS", label: t("discounts.fields.months") },
                { value: "DATES", label: t("discounts.fields.dates") },
              ]}
            />
            {validity === "MONTHS" ? (
              <NumberField control={form.control} name="months" label={t("discounts.fields.months")} required />
            ) : (
              <>
                <TextField control={form.control} name="startDate" type="date" label={t("discounts.fields.startDate")} required />
                <TextField control={form.control} name="endDate" type="date" label={t("discounts.fields.endDate")} required />
              </>
            )}
            <TextField control={form.control} name="activationCode" label={t("discounts.fields.activationCode")} maxLength={8} />
            {!strategy && <NumberField control={form.control} name="generateNumber" label={t("discounts.fields.generateCount")} />}
          </div>
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Generates cards and downloads their activation codes. */
function GenerateDialog({
  strategy,
  onClose,
  onDone,
}: {
  strategy: DiscountStrategy;
  onClose: () => void;
  onDone: (strategy: DiscountStrategy, cards: DiscountCard[]) => Promise<void>;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<{ count: string }>({ defaultValues: { count: "10" } });
  useActionOutcome<{ records?: DiscountCard[]; count?: number }>(
    fetcher,
    (data) => {
      toast.success(t("discounts.toasts.generated", { count: data.count ?? 0 }));
      void onDone(strategy, data.records ?? []);
      onClose();
    },
    (name, message) => form.setError(name as "count", { message }),
  );
  const submit = form.handleSubmit((values) => fetcher.submit(...post({ intent: "generate", id: strategy.id, count: values.count })));
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t("discounts.titles.generate")}</DialogTitle>
            <DialogDescription>{t("discounts.dialogs.generateBody")}</DialogDescription>
          </DialogHeader>
          <p className="text-sm font-medium">{strategy.name}</p>
          <NumberField control={form.control} name="count" label={t("discounts.fields.generateCount")} required />
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} submitLabel={t("discounts.actions.generate")} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
