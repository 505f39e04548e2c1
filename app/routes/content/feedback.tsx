import type { ColumnDef } from "@tanstack/react-table";
import { Reply } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useLocation, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { FEEDBACK_STATUSES } from "../../../domain/schemas/content";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { TextDialog } from "~/components/text-dialog";
import { Badge } from "~/components/ui/badge";
import { loadFeedback, replyFeedbackAction } from "./feedback.server";

/** Drivers' feedback: UNPROCESSED → PROCESSED by a reply (docs/rules/content.md "Feedback"). */
export function loader(args: LoaderFunctionArgs) {
  return loadFeedback(args);
}

export function action(args: ActionFunctionArgs) {
  return replyFeedbackAction(args);
}

type Feedback = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function FeedbackScreen() {
  const { page, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [replying, setReplying] = useState<Feedback | null>(null);
  const title = t(useLocation().pathname.startsWith("/suboperators/") ? "menu.sub.system.feedback" : "menu.carrier.feedback");

  const columns: ColumnDef<Feedback>[] = [
    { accessorKey: "createdAt", header: t("content.feedback.time"), meta: { priority: 2, width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { accessorKey: "creator", header: t("content.feedback.creator") },
    {
      accessorKey: "content",
      header: t("content.feedback.content"),
      cell: ({ row }) => <span className="block max-w-80 whitespace-pre-wrap break-words">{row.original.content}</span>,
    },
    {
      accessorKey: "status",
      header: t("content.feedback.status"),
      cell: ({ row }) => (
        <div className="flex flex-col items-start gap-1">
          <Badge variant={row.original.status === "PROCESSED" ? "secondary" : "outline"}>{t(`content.feedback.statuses.${row.original.status}`)}</Badge>
          {row.original.processedAt && (
            <span className="text-[11px] text-muted-foreground">
              {t("content.feedback.processedBy", { account: row.original.processedBy ?? "—", time: dateTime(row.original.processedAt) })}
            </span>
          )}
        </div>
      ),
    },
    {
      accessorKey: "reply",
      header: t("content.feedback.reply"),
      meta: { priority: 3 },
      cell: ({ row }) => <span className="block max-w-64 whitespace-pre-wrap break-words">{row.original.reply ?? "—"}</span>,
    },
    actionsColumn<Feedback>(t("common.actions"), (f) => [f.status === "UNPROCESSED" && { label: t("content.feedback.reply"), icon: Reply, onSelect: () => setReplying(f) }], 120),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("content.feedback.description")} />
      <DataTableToolbar>
        <FilterSelect name="status" label={t("content.feedback.status")} all={t("content.feedback.allStatuses")} options={FEEDBACK_STATUSES.map((s) => [s, t(`content.feedback.statuses.${s}`)] as const)} />
        <FilterText name="creator" label={t("content.feedback.creator")} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("content.feedback.empty")} label={title} />
      <ReplyDialog feedback={replying} onClose={() => setReplying(null)} />
    </div>
  );
}

/** The reply that marks a feedback processed. */
function ReplyDialog({ feedback, onClose }: { feedback: Feedback | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <TextDialog
      open={feedback !== null}
      onClose={onClose}
      title={t("content.feedback.replyTitle")}
      description={feedback && t("content.feedback.replyText", { creator: feedback.creator })}
      texts={[{ name: "reply", label: t("content.feedback.reply"), requiredMessage: t("content.validation.replyRequired"), maxLength: 2000, rows: 5 }]}
      values={{ id: feedback?.id ?? 0 }}
      submitLabel={t("content.feedback.replySubmit")}
      icon={Reply}
      successMessage={t("content.feedback.replied")}
      idPrefix="feedback"
    >
      {feedback && <p className="rounded-md bg-muted p-3 text-sm whitespace-pre-wrap break-words">{feedback.content}</p>}
    </TextDialog>
  );
}
