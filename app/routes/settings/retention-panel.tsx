import type { ColumnDef } from "@tanstack/react-table";
import { Download } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ARCHIVE_KINDS, RETENTION_LIMITS, type ArchiveKind, type Retention } from "../../../domain/retention";
import type { Page } from "../../../domain/paging";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { NumberField } from "~/components/form/fields";
import { useFormat } from "~/components/format";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toast";
import { useApi, useBusyCall } from "~/lib/api";
import { Section, useIntent } from "./settings-kit";

/**
 * Retention on the parameter-settings screen (docs/rules/settings.md "Retention"): how long history
 * stays, and the archives housekeeping wrote to R2, paged by the API and downloaded as they were
 * written (gzip-compressed NDJSON).
 */
interface Archive {
  id: number;
  kind: ArchiveKind;
  month: string;
  source: string | null;
  rows: number;
  bytes: number;
  firstAt: string;
  lastAt: string;
  fileName: string;
  downloadUrl: string;
}

export function RetentionPanel({ retention }: { retention: Retention }) {
  return (
    <div className="flex flex-col gap-4">
      <RetentionForm retention={retention} />
      <ArchiveList />
    </div>
  );
}

function RetentionForm({ retention }: { retention: Retention }) {
  const { t } = useTranslation();
  const form = useForm<Retention>({ defaultValues: retention });
  const { submit, busy } = useIntent(
    () => toast.success(t("retention.saved")),
    (name, message) => form.setError(name as keyof Retention, { type: "server", message }),
  );
  const save = form.handleSubmit((v) => submit("retention", { recordsMonths: Number(v.recordsMonths), framesDays: Number(v.framesDays) }));
  return (
    <form onSubmit={save} noValidate>
      <Section title={t("retention.title")} description={t("retention.hint")}>
        <NumberField
          control={form.control}
          name="recordsMonths"
          label={t("retention.fields.recordsMonths")}
          required
          decimals={0}
          suffix={t("retention.units.months")}
          hint={t("retention.fields.recordsMonthsHint", RETENTION_LIMITS.recordsMonths)}
        />
        <NumberField
          control={form.control}
          name="framesDays"
          label={t("retention.fields.framesDays")}
          required
          decimals={0}
          suffix={t("retention.units.days")}
          hint={t("retention.fields.framesDaysHint", RETENTION_LIMITS.framesDays)}
        />
        <div className="flex justify-end sm:col-span-2 lg:col-span-3">
          <Button type="submit" disabled={busy}>
            {t("retention.save")}
          </Button>
        </div>
      </Section>
    </form>
  );
}

function ArchiveList() {
  const { t } = useTranslation();
  const { dateTime, fileSize, number } = useFormat();
  const api = useApi();
  const [query, setQuery] = useState<{ current: number; size: number; kind: ArchiveKind | "" }>({ current: 1, size: 10, kind: "" });
  const [page, setPage] = useState<Page<Archive>>();
  const [loading, whileLoading] = useBusyCall();
  const load = useCallback(
    () => whileLoading(async () => setPage(await api.get("/system-service/retention/archive", { query: { current: query.current, size: query.size, kind: query.kind || undefined } }))),
    [api, query, whileLoading],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const columns: ColumnDef<Archive>[] = [
    { accessorKey: "month", header: t("retention.archives.month"), meta: { width: 110 } },
    { accessorKey: "kind", header: t("retention.archives.kind"), meta: { width: 170 }, cell: ({ row }) => t(`retention.kinds.${row.original.kind}`) },
    { accessorKey: "source", header: t("retention.archives.source"), meta: { priority: 2 }, cell: ({ row }) => row.original.source ?? t("retention.archives.database") },
    { accessorKey: "rows", header: t("retention.archives.rows"), meta: { width: 110, priority: 2 }, cell: ({ row }) => number(row.original.rows, 0) },
    { accessorKey: "bytes", header: t("retention.archives.size"), meta: { width: 110, priority: 3 }, cell: ({ row }) => fileSize(row.original.bytes) },
    {
      accessorKey: "firstAt",
      header: t("retention.archives.span"),
      meta: { width: 300, priority: 3 },
      cell: ({ row }) => `${dateTime(row.original.firstAt)} – ${dateTime(row.original.lastAt)}`,
    },
    actionsColumn<Archive>(t("common.actions"), (archive) => [{ label: t("retention.archives.download"), icon: Download, to: archive.downloadUrl, download: archive.fileName }], 150),
  ];
  return (
    <Section title={t("retention.archives.title")} description={t("retention.archives.hint")}>
      <div className="flex flex-col gap-2 sm:col-span-2 lg:col-span-3">
        <DataTableToolbar>
          <label className="flex items-center gap-2 text-sm">
            {t("retention.archives.kind")}
            <select
              className="h-9 rounded-md border bg-background px-2 text-sm"
              value={query.kind}
              onChange={(e) => setQuery((q) => ({ ...q, current: 1, kind: e.target.value as ArchiveKind | "" }))}
            >
              <option value="">{t("retention.archives.allKinds")}</option>
              {ARCHIVE_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`retention.kinds.${kind}`)}
                </option>
              ))}
            </select>
          </label>
        </DataTableToolbar>
        <DataTable
          columns={columns}
          page={page}
          loading={loading}
          onPageChange={(current, size) => setQuery((q) => ({ ...q, current, size }))}
          getRowId={(row) => String(row.id)}
          emptyHint={t("retention.archives.empty")}
          label={t("retention.archives.title")}
        />
      </div>
    </Section>
  );
}
