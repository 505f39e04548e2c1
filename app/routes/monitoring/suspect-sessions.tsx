import type { ColumnDef } from "@tanstack/react-table";
import { CircleStop } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { SUSPECT_REASONS } from "../../../domain/schemas/resilience";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { useIdempotentSubmit } from "~/lib/idempotency";
import { closeSuspectAction, loadSuspectSessions } from "./suspect-sessions.server";

/**
 * Real-time monitoring › Charging › Suspect sessions: transactions without a stop that look stuck,
 * oldest first, and the close form with the charger's last reading offered
 * (docs/rules/monitoring.md "Suspect sessions").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadSuspectSessions(args);
}

export function action(args: ActionFunctionArgs) {
  return closeSuspectAction(args);
}

type Suspect = Awaited<ReturnType<typeof loader>>["page"]["records"][number];

export default function SuspectSessions() {
  const { page, filterError, mayClose, closing } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime, energy } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params, setParams] = useSearchParams();
  const closeLink = (id: number) => {
    const next = new URLSearchParams(params);
    next.set("close", String(id));
    return `?${next.toString()}`;
  };
  const dismiss = () => {
    const next = new URLSearchParams(params);
    next.delete("close");
    setParams(next, { preventScrollReset: true });
  };
  // The close's fetcher lives here, not in the form: the revalidation after a close answers the
  // session stopped, which removes the form in the same render as the fetcher turns idle, so an
  // outcome watched from inside it would never be reported.
  const fetcher = useFetcher<typeof action>();
  const submitClose = useIdempotentSubmit(fetcher);
  useActionOutcome<{ transactionId: number }>(fetcher, (done) => {
    toast.success(t("resilience.suspect.closed", { id: done.transactionId }));
    dismiss();
  });

  const columns: ColumnDef<Suspect>[] = [
    { accessorKey: "transactionId", header: t("monitoring.common.transaction"), meta: { width: 110 }, cell: ({ row }) => <span className="font-mono text-xs">#{row.original.transactionId}</span> },
    {
      accessorKey: "serialNumber",
      header: t("monitoring.common.point"),
      cell: ({ row }) => (
        <div className="flex flex-col">
          <span className="font-mono text-xs font-medium">
            {row.original.serialNumber} · {row.original.connectorId}
          </span>
          <span className="text-xs text-muted-foreground">{row.original.stationName ?? "—"}</span>
        </div>
      ),
    },
    { accessorKey: "idTag", header: t("monitoring.common.idTag"), meta: { priority: 3 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.idTag}</span> },
    { accessorKey: "startedAt", header: t("resilience.suspect.startedAt"), cell: ({ row }) => dateTime(row.original.startedAt) },
    { accessorKey: "meterStartWh", header: t("resilience.suspect.meterStart"), meta: { priority: 4, align: "right" }, cell: ({ row }) => energy(row.original.meterStartWh) },
    {
      accessorKey: "reason",
      header: t("resilience.suspect.reason"),
      cell: ({ row }) => (
        <Badge variant="outline" title={t(`resilience.suspect.reasonHints.${row.original.reason}`)} data-testid="suspect-reason">
          {t(`resilience.suspect.reasons.${row.original.reason}`)}
        </Badge>
      ),
    },
    actionsColumn<Suspect>(t("monitoring.common.actions"), (s) => [mayClose && { label: t("resilience.suspect.close"), icon: CircleStop, to: closeLink(s.transactionId), keepScroll: true }], 120),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("page.suspectSessions")} description={t("resilience.suspect.description")} />
      {closing && !closing.stopped && <CloseForm key={closing.transactionId} closing={closing} fetcher={fetcher} submit={submitClose} dismiss={dismiss} />}
      <DataTableToolbar>
        <FilterSelect name="reason" label={t("resilience.suspect.reason")} all={t("resilience.suspect.allReasons")} options={SUSPECT_REASONS.map((reason) => [reason, t(`resilience.suspect.reasons.${reason}`)] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("monitoring.common.serialNumber")} aria-label={t("monitoring.common.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.transactionId)} emptyHint={t("resilience.suspect.empty")} label={t("page.suspectSessions")} />
    </div>
  );
}

/**
 * The close form: the charger's last reading offered, the start's when none came; billed once on
 * submit through the page's fetcher, which reports the outcome.
 */
function CloseForm({
  closing,
  fetcher,
  submit,
  dismiss,
}: {
  closing: NonNullable<Awaited<ReturnType<typeof loader>>["closing"]>;
  fetcher: ReturnType<typeof useFetcher<typeof action>>;
  submit: ReturnType<typeof useIdempotentSubmit>;
  dismiss: () => void;
}) {
  const { t } = useTranslation();
  const { energy } = useFormat();
  const offered = closing.lastMeterWh ?? closing.meterStartWh;
  return (
    <Card data-testid="suspect-close">
      <CardHeader>
        <CardTitle>{t("resilience.suspect.closeTitle", { id: closing.transactionId })}</CardTitle>
        <CardDescription>
          {closing.lastMeterWh === null
            ? t("resilience.suspect.noSample", { start: energy(closing.meterStartWh) })
            : t("resilience.suspect.lastSample", { last: energy(closing.lastMeterWh), start: energy(closing.meterStartWh) })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <fetcher.Form
          method="post"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit(new FormData(event.currentTarget), { method: "post" });
          }}
        >
          <input type="hidden" name="transactionId" value={closing.transactionId} />
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="meterStop">{t("resilience.suspect.meterStop")}</Label>
            <Input id="meterStop" name="meterStop" inputMode="numeric" required defaultValue={String(offered)} className="w-44" />
          </div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            {t("resilience.suspect.closeSubmit")}
          </Button>
          <Button type="button" variant="ghost" onClick={dismiss}>
            {t("resilience.suspect.cancel")}
          </Button>
        </fetcher.Form>
        <p className="mt-2 text-xs text-muted-foreground">{t("resilience.suspect.closeHint")}</p>
      </CardContent>
    </Card>
  );
}
