import type { ColumnDef } from "@tanstack/react-table";
import { Ban, CircleCheck, Download, FileSpreadsheet, Link2, Link2Off, Pencil, Plus, SearchX, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { BIND_STATUSES, CARD_STATUSES } from "../../../domain/schemas/drivers";
import { DataTable } from "~/components/data-table/data-table";
import { RowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { ExcelImportDialog } from "~/components/import-dialog";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import { BindDialog, CardFormDialog, LostDialog, type CardRecord } from "./card-dialogs";
import { CARD_IMPORT_COLUMNS, downloadCardTemplate, readCardRows } from "./card-excel";
import { cardAction, loadCards } from "./cards.server";
import { BindBadge, CardStatusBadge } from "./badges";

/** User management › RFID cards (docs/rules/drivers.md "RFID cards"). */
export function loader(args: LoaderFunctionArgs) {
  return loadCards(args);
}

export function action(args: ActionFunctionArgs) {
  return cardAction(args);
}

type Editing = { card: CardRecord | null } | null;

const recordsOf = (idTag: string) => `/financialManagement/chargeRecord?idTag=${encodeURIComponent(idTag)}`;

/**
 * A card's tag, with the lost card it replaced (whose sessions stay under the old tag, linked when
 * the user may open the charge records) or the card that replaced it (docs/rules/drivers.md "Lost cards").
 */
function TagCell({ card, recordsOpen }: { card: CardRecord; recordsOpen: boolean }) {
  const { t } = useTranslation();
  const replaces = card.replacesIdTag && t("drivers.cards.replaces", { idTag: card.replacesIdTag });
  return (
    <div className="flex flex-col gap-0.5">
      <span className="font-mono font-medium">{card.idTag}</span>
      {card.replacesIdTag &&
        (recordsOpen ? (
          <Link className="text-xs text-primary hover:underline" to={recordsOf(card.replacesIdTag)}>
            {replaces}
          </Link>
        ) : (
          <span className="text-xs text-muted-foreground">{replaces}</span>
        ))}
      {card.replacedByIdTag && <span className="text-xs text-muted-foreground">{t("drivers.cards.replacedBy", { idTag: card.replacedByIdTag })}</span>}
    </div>
  );
}

export default function Cards() {
  const { page, recordsOpen } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  const [editing, setEditing] = useState<Editing>(null);
  const [binding, setBinding] = useState<CardRecord | null>(null);
  const [losing, setLosing] = useState<CardRecord | null>(null);
  const [importing, setImporting] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const saving = fetcher.state !== "idle";

  const send = (body: Record<string, unknown>) => {
    setFieldErrors({});
    fetcher.submit(JSON.stringify(body), { method: "post", encType: "application/json" });
  };

  useActionOutcome<{ intent: string }>(
    fetcher,
    (data) => {
      toast.success(t(`drivers.cards.done.${data.intent}`));
      setEditing(null);
      setBinding(null);
      setLosing(null);
    },
    (name, message) => setFieldErrors((errors) => ({ ...errors, [name]: message })),
  );

  const ask = async (message: string, body: Record<string, unknown>, destructive = false, confirmLabel?: string) => {
    if (await confirm({ message, destructive, confirmLabel })) send(body);
  };

  const columns: ColumnDef<CardRecord>[] = [
    { accessorKey: "idTag", header: t("drivers.cards.fields.idTag"), cell: ({ row }) => <TagCell card={row.original} recordsOpen={recordsOpen} /> },
    { accessorKey: "cardName", header: t("drivers.cards.fields.cardName"), meta: { priority: 2 }, cell: ({ row }) => row.original.cardName ?? "—" },
    {
      accessorKey: "customerName",
      header: t("drivers.cards.fields.owner"),
      cell: ({ row }) =>
        row.original.customerId ? (
          <Link className="text-primary hover:underline" to={`/userManagement/userProfileManagement/customerDetail/${row.original.customerId}`}>
            {row.original.customerName}
          </Link>
        ) : (
          "—"
        ),
    },
    { accessorKey: "status", header: t("common.status"), cell: ({ row }) => <CardStatusBadge status={row.original.status} /> },
    { accessorKey: "bindStatus", header: t("drivers.cards.fields.bindStatus"), meta: { priority: 2 }, cell: ({ row }) => <BindBadge status={row.original.bindStatus} /> },
    { accessorKey: "expiryDate", header: t("drivers.cards.fields.expiryDate"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.expiryDate) || "—" },
    { accessorKey: "deliveryType", header: t("drivers.cards.fields.deliveryType"), meta: { priority: 3 }, cell: ({ row }) => t(`drivers.cards.delivery.${row.original.deliveryType}`) },
    {
      id: "actions",
      header: t("common.actions"),
      meta: { width: 260 },
      cell: ({ row }) => {
        const card = row.original;
        const remove = {
          label: t("common.delete"),
          icon: Trash2,
          destructive: true,
          onSelect: () => void ask(t("drivers.cards.confirmDelete", { idTag: card.idTag }), { intent: "delete", id: card.id }, true, t("common.delete")),
        };
        if (card.status === "LOST") return <RowActions actions={[remove]} />;
        const blocked = card.status === "BLOCKED";
        return (
          <RowActions
            actions={[
              { label: t("common.edit"), icon: Pencil, onSelect: () => setEditing({ card }) },
              {
                label: t(blocked ? "drivers.cards.unblock" : "drivers.cards.block"),
                icon: blocked ? CircleCheck : Ban,
                onSelect: () =>
                  void ask(
                    t(blocked ? "drivers.cards.confirmUnblock" : "drivers.cards.confirmBlock", { idTag: card.idTag }),
                    { intent: "status", id: card.id, status: blocked ? "VALID" : "BLOCKED" },
                    !blocked,
                    t(blocked ? "drivers.cards.unblock" : "drivers.cards.block"),
                  ),
              },
              card.bindStatus === "BIND"
                ? {
                    label: t("drivers.cards.unbind"),
                    icon: Link2Off,
                    onSelect: () =>
                      void ask(t("drivers.cards.confirmUnbind", { idTag: card.idTag, owner: card.customerName }), { intent: "unbind", id: card.id }, true, t("drivers.cards.unbind")),
                  }
                : { label: t("drivers.cards.bind"), icon: Link2, onSelect: () => setBinding(card) },
              { label: t("drivers.cards.lost"), icon: SearchX, onSelect: () => setLosing(card) },
              remove,
            ]}
          />
        );
      },
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("drivers.cards.title")}
        actions={
          <>
            <Button variant="outline" onClick={() => void downloadCardTemplate(t)}>
              <Download aria-hidden />
              {t("drivers.import.template")}
            </Button>
            <Button variant="outline" onClick={() => setImporting(true)}>
              <FileSpreadsheet aria-hidden />
              {t("drivers.import.open")}
            </Button>
            <Button onClick={() => setEditing({ card: null })}>
              <Plus aria-hidden />
              {t("drivers.cards.add")}
            </Button>
          </>
        }
      />
      <DataTableToolbar>
        <FilterText name="idTag" label={t("drivers.cards.fields.idTag")} />
        <FilterText name="cardName" label={t("drivers.cards.fields.cardName")} />
        <FilterText name="owner" label={t("drivers.cards.fields.owner")} />
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")} options={CARD_STATUSES.map((s) => [s, t(`drivers.cards.statuses.${s}`)] as const)} />
        <FilterSelect name="bindStatus" label={t("drivers.cards.fields.bindStatus")} all={t("drivers.cards.fields.bindStatus")} options={BIND_STATUSES.map((s) => [s, t(`drivers.cards.bindStatuses.${s}`)] as const)} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(c) => String(c.id)} emptyHint={t("drivers.cards.empty")} label={t("drivers.cards.title")} />
      <CardFormDialog
        open={editing !== null}
        card={editing?.card ?? null}
        saving={saving}
        errors={fieldErrors}
        onClose={() => setEditing(null)}
        onSubmit={(values) => send({ ...values, intent: editing?.card ? "update" : "create", id: editing?.card?.id })}
      />
      <BindDialog card={binding} saving={saving} onClose={() => setBinding(null)} onSubmit={(customerId) => send({ intent: "bind", id: binding?.id, customerId })} />
      <LostDialog card={losing} saving={saving} errors={fieldErrors} onClose={() => setLosing(null)} onSubmit={(newIdTag) => send({ intent: "lost", id: losing?.id, newIdTag })} />
      <ExcelImportDialog open={importing} onOpenChange={setImporting} prefix="drivers.import" columns={CARD_IMPORT_COLUMNS} read={readCardRows} path="/customer-service/rf-card/import" />
    </div>
  );
}
