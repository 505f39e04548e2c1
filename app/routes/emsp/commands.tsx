import type { ColumnDef } from "@tanstack/react-table";
import { ArrowLeft, CalendarX, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useRevalidator, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { COMMAND_TYPES, RESULT_FILTERS } from "../../../domain/schemas/ocpi/commands";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { HeaderLink } from "~/components/page-actions";
import { answerVariant, useCommandOutcome } from "./command-dialog";
import { commandAction, loadCommands } from "./commands.server";

/**
 * The commands sent to partners (docs/rules/ocpi.md "Commands"): each with the CPO's
 * CommandResponse and the charger's CommandResult, refreshed while a result is awaited; an
 * accepted reservation can be cancelled after a confirmation.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadCommands(args);
}

export function action(args: ActionFunctionArgs) {
  return commandAction(args);
}

type Command = Awaited<ReturnType<typeof loader>>["page"]["records"][number];
type Message = { language: string; text: string };

/** How often the list reads again while a result is awaited. */
const REFRESH_MS = 3000;

export default function CommandsScreen() {
  const { page, platforms, filterError, mayCommand } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  const revalidator = useRevalidator();
  useCommandOutcome(fetcher);
  const title = t("page.emspCommands");

  // Live enough: the list reads again while an accepted command waits for its result.
  const waiting = page.records.some((r) => r.responseResult === "ACCEPTED" && r.result === null);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => revalidator.revalidate(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [waiting, page, revalidator]);

  /** The message in the console's language if the partner gave one, else its first. */
  const text = (messages: Message[]) => (messages.find((m) => i18n.language.startsWith(m.language)) ?? messages[0])?.text;

  const cancel = async (c: Command) => {
    const ok = await confirm({
      title: t("ocpiCommands.confirm.CANCEL_RESERVATION.title"),
      message: t("ocpiCommands.confirm.CANCEL_RESERVATION.message", { reservation: c.reservationId, platform: c.platformName }),
      confirmLabel: t("ocpiCommands.action.CANCEL_RESERVATION"),
      destructive: true,
    });
    if (ok) fetcher.submit({ platformId: String(c.platformId), command: "CANCEL_RESERVATION", reservationId: c.reservationId ?? "" }, { method: "post" });
  };
  const cancellable = (c: Command) => mayCommand && c.command === "RESERVE_NOW" && c.responseResult === "ACCEPTED" && (c.result === null || c.result === "ACCEPTED");

  const columns: ColumnDef<Command>[] = [
    { id: "createdAt", header: t("ocpiCommands.list.sentAt"), meta: { width: 170 }, cell: ({ row }) => dateTime(row.original.createdAt) },
    { id: "command", header: t("ocpiCommands.list.command"), cell: ({ row }) => t(`ocpiCommands.command.${row.original.command}`) },
    {
      id: "target",
      header: t("ocpiCommands.list.target"),
      cell: ({ row }) => {
        const c = row.original;
        const place = [c.locationId, c.evseUid, c.connectorId].filter(Boolean).join(" · ");
        return (
          <ul className="flex flex-col gap-0.5 text-xs break-all">
            {place && <li>{t("ocpiCommands.list.location", { place })}</li>}
            {c.sessionId && <li>{t("ocpiCommands.list.session", { id: c.sessionId })}</li>}
            {c.reservationId && <li>{t("ocpiCommands.list.reservation", { id: c.reservationId })}</li>}
            {c.tokenUid && <li>{t("ocpiCommands.list.token", { uid: c.tokenUid })}</li>}
          </ul>
        );
      },
    },
    { id: "platform", header: t("ocpi.list.platform"), meta: { priority: 2 }, cell: ({ row }) => row.original.platformName },
    {
      id: "response",
      header: t("ocpiCommands.list.response"),
      cell: ({ row }) => {
        const c = row.original;
        if (c.sendError) return <span className="text-xs break-words text-destructive">{t("ocpiCommands.list.sendError", { reason: c.sendError })}</span>;
        return (
          <div className="flex flex-col items-start gap-1">
            <Badge variant={answerVariant(c.responseResult)}>{t(`ocpiCommands.response.${c.responseResult ?? "WAITING"}`)}</Badge>
            {c.responseTimeout !== null && <span className="text-[11px] text-muted-foreground">{t("ocpiCommands.list.timeout", { seconds: c.responseTimeout })}</span>}
            {text(c.responseMessage) && <span className="text-xs">{text(c.responseMessage)}</span>}
          </div>
        );
      },
    },
    {
      id: "result",
      header: t("ocpiCommands.list.result"),
      cell: ({ row }) => {
        const c = row.original;
        if (c.result === null && c.responseResult !== "ACCEPTED") return "—";
        return (
          <div className="flex flex-col items-start gap-1">
            <Badge variant={c.result === null ? "info" : answerVariant(c.result)}>{t(`ocpiCommands.result.${c.result ?? "PENDING"}`)}</Badge>
            {text(c.resultMessage) && <span className="text-xs">{text(c.resultMessage)}</span>}
            {c.resultAt && <span className="text-[11px] text-muted-foreground">{dateTime(c.resultAt)}</span>}
          </div>
        );
      },
    },
    { id: "createdBy", header: t("ocpiCommands.list.sentBy"), meta: { priority: 3 }, cell: ({ row }) => row.original.createdBy },
    actionsColumn<Command>(t("common.actions"), (c) => [cancellable(c) && { label: t("ocpiCommands.action.CANCEL_RESERVATION"), icon: CalendarX, onSelect: () => cancel(c) }]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={title}
        description={t("ocpiCommands.list.description")}
        actions={
          <>
            <HeaderLink to="/emsp/emspSession" icon={ArrowLeft} label={t("menu.emsp.session")} variant="outline" />
            <Button variant="outline" onClick={() => revalidator.revalidate()} disabled={revalidator.state !== "idle"}>
              <RefreshCw aria-hidden />
              {t("ocpiCommands.list.refresh")}
            </Button>
          </>
        }
      />
      <DataTableToolbar>
        <FilterSelect name="platformId" label={t("ocpi.list.platform")} all={t("ocpi.list.allPlatforms")} options={platforms.map((p) => [p.id, p.name] as const)} />
        <FilterSelect name="command" label={t("ocpiCommands.list.command")} all={t("ocpiCommands.list.allCommands")} options={COMMAND_TYPES.map((c) => [c, t(`ocpiCommands.command.${c}`)] as const)} />
        <FilterSelect name="result" label={t("ocpiCommands.list.result")} all={t("ocpiCommands.list.allResults")} options={RESULT_FILTERS.map((r) => [r, t(`ocpiCommands.result.${r}`)] as const)} />
        <FilterText name="q" label={t("ocpiCommands.list.search")} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("ocpiCommands.list.empty")} label={title} />
    </div>
  );
}
