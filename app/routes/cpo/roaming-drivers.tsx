import type { ColumnDef } from "@tanstack/react-table";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Download } from "lucide-react";
import { Form, Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { CPO_DELIVERY_STATES } from "../../../domain/schemas/ocpi/cpo-sessions";
import { DataTable } from "~/components/data-table/data-table";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toast";
import { saveSheet } from "~/lib/excel";
import { loadRoamingDrivers } from "./roaming-drivers.server";

/**
 * Partners' drivers at our chargers (docs/rules/ocpi.md "Partners' drivers at our chargers"): the
 * roaming sessions and CDRs with their delivery to the eMSP (sent and taken, refused with the
 * partner's reason and retried, waiting), the tokens partners pushed, and the month's settlement
 * per partner (on screen and as xlsx).
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRoamingDrivers(args);
}

type Row = Record<string, unknown>;
type Settlement = NonNullable<Awaited<ReturnType<typeof loadRoamingDrivers>>["settlement"]>;

function PushState({ row }: { row: Row }) {
  const { t } = useTranslation();
  const state = String(row.pushState);
  return (
    <div className="flex flex-col gap-0.5 text-xs">
      <Badge variant={state === "ACCEPTED" ? "success" : state === "PENDING" ? "outline" : "destructive"}>{t(`ocpiCpoSessions.push.${state}`)}</Badge>
      {row.pushError ? <span className="break-words text-destructive">{t("ocpiCpoSessions.push.reason", { attempts: row.pushAttempts, reason: String(row.pushError) })}</span> : null}
    </div>
  );
}

/** The month's settlement per partner and currency, and its xlsx. */
function SettlementPanel({ settlement }: { settlement: Settlement }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const amount = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;
  const save = async () => {
    setSaving(true);
    const rows = settlement.partners.map((p) => [p.platformName, p.currency, p.sessions, p.energyWh / 1000, p.owedExcl / 100, p.owed / 100]);
    await saveSheet(
      [["partner", "currency", "sessions", "energy", "owedExcl", "owed"].map((key) => t(`ocpiCpoSessions.settlement.columns.${key}`)), ...rows],
      `${t("ocpiCpoSessions.settlement.file")}-${settlement.month}.xlsx`,
      [28, 10, 10, 12, 14, 14],
    );
    setSaving(false);
    toast.success(t("ocpiCpoSessions.settlement.exported", { count: rows.length }));
  };
  return (
    <section aria-labelledby="settlement" className="flex flex-col gap-2 rounded-md border p-3">
      <div className="flex flex-wrap items-end gap-2">
        <h2 id="settlement" className="text-sm font-semibold">
          {t("ocpiCpoSessions.settlement.title", { month: settlement.month })}
        </h2>
        <Form method="get" className="flex items-end gap-2">
          <Input type="month" name="month" aria-label={t("ocpiCpoSessions.settlement.month")} defaultValue={settlement.month} className="w-40" />
          <Button type="submit" variant="outline" size="sm">
            {t("ocpiCpoSessions.settlement.show")}
          </Button>
        </Form>
        <Button variant="outline" size="sm" onClick={save} disabled={saving || settlement.partners.length === 0}>
          <Download aria-hidden />
          {t("ocpiCpoSessions.settlement.export")}
        </Button>
      </div>
      {settlement.partners.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("ocpiCpoSessions.settlement.empty")}</p>
      ) : (
        <table className="text-sm">
          <thead>
            <tr className="text-left text-muted-foreground">
              {["partner", "currency", "sessions", "energy", "owedExcl", "owed"].map((key) => (
                <th key={key} className="pr-4 font-normal">
                  {t(`ocpiCpoSessions.settlement.columns.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {settlement.partners.map((p) => (
              <tr key={`${p.platformId}-${p.currency}`}>
                <td className="pr-4">{p.platformName}</td>
                <td className="pr-4">{p.currency}</td>
                <td className="pr-4">{p.sessions}</td>
                <td className="pr-4">{(p.energyWh / 1000).toFixed(3)}</td>
                <td className="pr-4">{amount(p.owedExcl, p.currency)}</td>
                <td className="pr-4">{amount(p.owed, p.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function RoamingDriversScreen() {
  const { kind, settlement, page, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const money = (minor: unknown, currency: unknown) => (typeof minor === "number" ? `${(minor / 100).toFixed(2)} ${String(currency)}` : "—");
  const c = (key: string) => t(`ocpiCpoSessions.columns.${key}`);

  const columns: ColumnDef<Row>[] =
    kind === "session"
      ? [
          { id: "id", header: c("sessionId"), meta: { width: 80 }, cell: ({ row }) => String(row.original.id) },
          { id: "platform", header: c("partner"), cell: ({ row }) => String(row.original.platformName) },
          { id: "token", header: c("token"), cell: ({ row }) => `${String(row.original.tokenUid)} (${String(row.original.party)})` },
          { id: "evse", header: c("evse"), meta: { priority: 2 }, cell: ({ row }) => `${String(row.original.locationId)} / ${String(row.original.evseUid)}` },
          { id: "status", header: c("status"), cell: ({ row }) => <Badge variant="outline">{String(row.original.status)}</Badge> },
          { id: "energy", header: c("energy"), cell: ({ row }) => `${((row.original.energyWh as number) / 1000).toFixed(3)} kWh` },
          { id: "cost", header: c("cost"), cell: ({ row }) => money(row.original.costIncl, row.original.currency) },
          { id: "start", header: c("start"), meta: { priority: 3, width: 170 }, cell: ({ row }) => dateTime(String(row.original.startAt)) },
          { id: "push", header: c("push"), cell: ({ row }) => <PushState row={row.original} /> },
        ]
      : kind === "cdr"
        ? [
            { id: "id", header: c("cdrId"), meta: { width: 80 }, cell: ({ row }) => String(row.original.cdrId) },
            { id: "platform", header: c("partner"), cell: ({ row }) => String(row.original.platformName) },
            { id: "energy", header: c("energy"), cell: ({ row }) => `${((row.original.energyWh as number) / 1000).toFixed(3)} kWh` },
            { id: "excl", header: c("totalExcl"), cell: ({ row }) => money(row.original.totalExcl, row.original.currency) },
            { id: "incl", header: c("totalIncl"), cell: ({ row }) => money(row.original.totalIncl, row.original.currency) },
            { id: "start", header: c("start"), meta: { priority: 3, width: 170 }, cell: ({ row }) => dateTime(String(row.original.startAt)) },
            { id: "push", header: c("push"), cell: ({ row }) => <PushState row={row.original} /> },
          ]
        : [
            { id: "uid", header: c("token"), cell: ({ row }) => String(row.original.uid) },
            { id: "platform", header: c("partner"), cell: ({ row }) => `${String(row.original.platformName)} (${String(row.original.countryCode)}*${String(row.original.partyId)})` },
            { id: "contract", header: c("contract"), meta: { priority: 2 }, cell: ({ row }) => String(row.original.contractId) },
            { id: "whitelist", header: c("whitelist"), cell: ({ row }) => <Badge variant="outline">{String(row.original.whitelist)}</Badge> },
            { id: "valid", header: c("valid"), cell: ({ row }) => (row.original.valid ? t("ocpiCpoSessions.valid") : t("ocpiCpoSessions.invalid")) },
            { id: "updated", header: c("lastUpdated"), meta: { priority: 3, width: 170 }, cell: ({ row }) => dateTime(String(row.original.lastUpdated)) },
          ];
  const title = t(`menu.cpo.${kind}`);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t(`ocpiCpoSessions.${kind}.description`)} />
      {settlement && <SettlementPanel settlement={settlement} />}
      {kind === "session" && (
        <Link to="/cpo/cpoSession/commands" className="self-start text-sm underline-offset-4 hover:underline">
          {t("ocpiCpoSessions.commands.link")}
        </Link>
      )}
      <DataTableToolbar>
        <FilterText name="text" label={t("ocpiCpoSessions.search")} />
        {kind !== "token" && (
          <FilterSelect name="pushState" label={c("push")} all={t("ocpiCpoSessions.allStates")} options={CPO_DELIVERY_STATES.map((s) => [s, t(`ocpiCpoSessions.push.${s}`)] as const)} />
        )}
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t(`ocpiCpoSessions.${kind}.empty`)} label={title} />
    </div>
  );
}
