import type { ColumnDef } from "@tanstack/react-table";
import { ArrowDownLeft, ArrowUpRight } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { OCPP_ACTIONS } from "../../../../domain/ocpp/actions";
import { OCPP201_ACTIONS } from "../../../../domain/ocpp/v201/actions";
import { speaks201 } from "../../../../domain/schemas/equipment";
import type { PointProtocol } from "~/components/protocol-badge";
import { useFormat } from "~/components/format";
import { Badge } from "~/components/ui/badge";
import { NativeSelect } from "~/components/ui/native-select";
import type { RowOf } from "~/lib/api";
import { RefreshButton, TabTable } from "./tab-table";
import { useApiPage } from "./use-api-page";

/** One frame of the log as the API answers it. */
type LogFrame = RowOf<"/station-service/point/{serialNumber}/ocpp/operationLog">;

/** A frame's JSON laid out for reading; a frame that is not JSON is shown as it came. */
function pretty(message: string) {
  try {
    return JSON.stringify(JSON.parse(message), null, 2);
  } catch {
    return message;
  }
}

/** The log stores a frame's type as text: one it does not know is shown plainly. */
const TYPE_VARIANT: Partial<Record<string, "info" | "success" | "destructive">> = { CALL: "info", CALLRESULT: "success", CALLERROR: "destructive" };

/**
 * The OCPP log tab: action, type, message, sender, newest first (docs/rules/ocpp.md "Message log").
 * The action filter lists the actions of the point's protocol (docs/rules/ocpp.md "Two protocols").
 */
export function OcppLogTab({ serialNumber, protocol }: { serialNumber: string; protocol: PointProtocol }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const [action, setAction] = useState("");
  const list = useApiPage("/station-service/point/{serialNumber}/ocpp/operationLog", {
    params: { serialNumber },
    query: { action },
  });

  const columns: ColumnDef<LogFrame>[] = [
    { accessorKey: "time", header: t("points.log.time"), meta: { width: 180 }, cell: ({ row }) => <span className="tabular-nums">{dateTime(row.original.time)}</span> },
    {
      accessorKey: "sender",
      header: t("points.log.sender"),
      meta: { priority: 2, width: 150 },
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-1.5">
          {row.original.sender === "CHARGER" ? <ArrowDownLeft className="size-4 text-info" aria-hidden /> : <ArrowUpRight className="size-4 text-primary" aria-hidden />}
          {t(`points.log.senders.${row.original.sender}`)}
        </span>
      ),
    },
    { accessorKey: "type", header: t("points.log.type"), meta: { priority: 2, width: 140 }, cell: ({ row }) => <Badge variant={TYPE_VARIANT[row.original.type] ?? "outline"}>{row.original.type}</Badge> },
    { accessorKey: "action", header: t("points.log.action"), cell: ({ row }) => <span className="font-medium">{row.original.action ?? "—"}</span> },
    {
      accessorKey: "message",
      meta: { priority: 3 },
      header: t("points.log.message"),
      cell: ({ row }) => <code className="block max-w-[28rem] truncate font-mono text-xs text-muted-foreground">{row.original.message}</code>,
    },
  ];

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <NativeSelect
          aria-label={t("points.log.action")}
          value={action}
          onChange={(event) => {
            setAction(event.target.value);
            list.firstPage();
          }}
          className="w-64"
        >
          <option value="">{t("points.log.allActions")}</option>
          {(speaks201(protocol) ? OCPP201_ACTIONS : OCPP_ACTIONS).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </NativeSelect>
        <RefreshButton list={list} />
      </div>
      <TabTable
        list={list}
        columns={columns}
        renderExpanded={(frame) => (
          <pre className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap">{pretty(frame.message)}</pre>
        )}
        emptyHint={t("points.log.empty")}
        label={t("points.tabs.log")}
        heightOffset={420}
      />
    </div>
  );
}
