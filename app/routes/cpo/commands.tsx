import type { ColumnDef } from "@tanstack/react-table";
import { ArrowLeft } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { COMMAND_TYPES } from "../../../domain/schemas/ocpi/commands";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterError } from "~/components/data-table/time-range-filter";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { loadCpoCommands } from "./commands.server";

/**
 * The commands partners sent us (docs/rules/ocpi.md "Commands we take"): what each eMSP asked,
 * our CommandResponse, and the charger's CommandResult with its delivery to the partner.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadCpoCommands(args);
}

type Command = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

const variantOf = (result: string | null) => (result === null ? "outline" : result === "ACCEPTED" ? "success" : "destructive");

export default function CpoCommandsScreen() {
  const { page, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const c = (key: string) => t(`ocpiCpoSessions.commands.columns.${key}`);
  const title = t("page.cpoCommands");
  const targetOf = (r: Command) =>
    r.sessionId ? `${t("ocpiCpoSessions.columns.sessionId")} ${r.sessionId}` : [r.locationId, r.evseUid].filter(Boolean).join(" / ") + (r.reservationId ? ` (${r.reservationId})` : "");

  const columns: ColumnDef<Command>[] = [
    { id: "at", header: c("at"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { id: "platform", header: t("ocpiCpoSessions.columns.partner"), cell: ({ row }) => row.original.platformName },
    { id: "command", header: c("command"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.command}</span> },
    { id: "token", header: t("ocpiCpoSessions.columns.token"), meta: { priority: 2 }, cell: ({ row }) => row.original.tokenUid ?? "—" },
    { id: "target", header: c("target"), meta: { priority: 2 }, cell: ({ row }) => targetOf(row.original) || "—" },
    { id: "response", header: c("response"), cell: ({ row }) => <Badge variant={variantOf(row.original.response)}>{row.original.response}</Badge> },
    {
      id: "result",
      header: c("result"),
      cell: ({ row }) => (
        <div className="flex flex-col gap-0.5 text-xs">
          {row.original.result ? <Badge variant={variantOf(row.original.result)}>{row.original.result}</Badge> : row.original.response === "ACCEPTED" ? <Badge variant="outline">{t("ocpiCpoSessions.commands.waiting")}</Badge> : "—"}
          {row.original.resultError ? <span className="break-words text-destructive">{row.original.resultError}</span> : null}
        </div>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("ocpiCpoSessions.commands.description")} />
      <Link to="/cpo/cpoSession" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:underline">
        <ArrowLeft aria-hidden className="size-4" />
        {t("menu.cpo.session")}
      </Link>
      <DataTableToolbar>
        <FilterSelect name="command" label={c("command")} all={t("ocpiCpoSessions.commands.all")} options={COMMAND_TYPES.map((s) => [s, s] as const)} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("ocpiCpoSessions.commands.empty")} label={title} />
    </div>
  );
}
