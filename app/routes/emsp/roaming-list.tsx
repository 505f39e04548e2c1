import type { ColumnDef } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { SESSION_STATUSES } from "../../../domain/schemas/ocpi/sessions";
import { TARIFF_TYPES, type OcpiTariff } from "../../../domain/schemas/ocpi/tariffs";
import type { OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import { ROLES } from "../../../domain/schemas/ocpi/credentials";
import { DataTable } from "~/components/data-table/data-table";
import { FilterError, TimeRangeFilter } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { CDR_BILLING_STATUSES, type CdrBillingStatus } from "../../../domain/ocpi/cdr-price";
import { CdrBilling } from "../records/roaming";
import { loadRoamingList, type RoamingList } from "./emsp.server";

/**
 * What partners sent, and our tokens as they see them (docs/rules/ocpi.md "Console"): one screen
 * per menu entry, each paged and filtered on the server by partner, text, status and time.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRoamingList(args);
}

export type Row = Record<string, unknown>;
const str = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));

const MENU: Record<RoamingList, string> = {
  location: "menu.emsp.location",
  session: "menu.emsp.session",
  cdr: "menu.emsp.cdr",
  tariff: "menu.emsp.tariff",
  token: "menu.emsp.token",
  party: "menu.emsp.party",
};

/** Statuses a list filters by: the session's status, the tariff's type, the party's role. */
const STATUS_FILTER: Partial<Record<RoamingList, readonly string[]>> = { session: SESSION_STATUSES, cdr: CDR_BILLING_STATUSES, tariff: TARIFF_TYPES, party: ROLES };

/** A tariff's price components in one line each: `ENERGY 0.45 / 1 Wh step (VAT 19 %)`. */
function priceComponents(data: OcpiTariff, t: (key: string, o?: Record<string, unknown>) => string) {
  return data.elements.flatMap((element) =>
    element.price_components.map((c) => t(`ocpi.list.component.${c.type}`, { price: c.price, currency: data.currency, step: c.step_size, vat: c.vat ?? "—" })),
  );
}

export default function RoamingListScreen() {
  return <RoamingList />;
}

/**
 * The list itself; `rowActions` and `headerActions` are what a screen built on it adds (the
 * commands, docs/rules/ocpi.md "Commands"). A route module's default export gets no props of ours.
 */
export function RoamingList({ rowActions, headerActions }: { rowActions?: (row: Row) => ReactNode; headerActions?: ReactNode }) {
  const { kind, page, platforms, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const title = t(MENU[kind]);
  const party = (r: Row) => `${str(r.countryCode)}*${str(r.partyId)}`;
  const time = (key: string, header: string, priority?: number): ColumnDef<Row> => ({
    id: key,
    header: t(header),
    meta: { priority, width: 170 },
    cell: ({ row }) => dateTime(row.original[key] as string | null) || "—",
  });
  const text = (key: string, header: string, priority?: number): ColumnDef<Row> => ({
    id: key,
    header: t(header),
    meta: { priority },
    cell: ({ row }) => <span className="break-all">{str(row.original[key])}</span>,
  });
  const platform: ColumnDef<Row> = { id: "platform", header: t("ocpi.list.platform"), meta: { priority: 2 }, cell: ({ row }) => `${str(row.original.platformName)} · ${party(row.original)}` };
  const status = (key = "status"): ColumnDef<Row> => ({ id: key, header: t("ocpi.list.status"), cell: ({ row }) => <Badge variant="outline">{str(row.original[key])}</Badge> });
  const money = (r: Row) => (r.totalCost === null ? "—" : `${str(r.totalCost)} ${str(r.currency)}`);

  const columns: Record<RoamingList, ColumnDef<Row>[]> = {
    location: [
      text("locationId", "ocpi.list.locationId"),
      text("name", "ocpi.list.name"),
      text("city", "ocpi.list.city", 2),
      {
        id: "evses",
        header: t("ocpi.list.evses"),
        cell: ({ row }) => (
          <ul className="flex flex-col gap-0.5 text-xs">
            {((row.original.data as OcpiLocation).evses ?? []).map((e) => (
              <li key={e.uid}>
                {e.evse_id ?? e.uid}: <Badge variant="outline">{e.status}</Badge> {e.connectors.map((c) => `${c.standard} ${c.max_electric_power ? `${c.max_electric_power / 1000} kW` : `${c.max_voltage} V/${c.max_amperage} A`}`).join(", ")}
              </li>
            ))}
          </ul>
        ),
      },
      {
        id: "coordinates",
        header: t("ocpi.list.coordinates"),
        meta: { priority: 3 },
        cell: ({ row }) => {
          const { latitude, longitude } = (row.original.data as OcpiLocation).coordinates;
          return (
            <a className="underline" href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`} target="_blank" rel="noreferrer">
              {latitude}, {longitude}
            </a>
          );
        },
      },
      platform,
      time("lastUpdated", "ocpi.list.lastUpdated", 3),
    ],
    session: [
      text("sessionId", "ocpi.list.sessionId"),
      text("uid", "ocpi.list.uid"),
      status(),
      time("startTime", "ocpi.list.startTime"),
      time("stopTime", "ocpi.list.stopTime", 2),
      text("kwh", "ocpi.list.kwh"),
      { id: "totalCost", header: t("ocpi.list.totalCost"), cell: ({ row }) => money(row.original) },
      text("cdrId", "ocpi.list.cdrId", 3),
      platform,
    ],
    cdr: [
      text("cdrId", "ocpi.list.cdrId"),
      text("sessionId", "ocpi.list.sessionId", 2),
      text("uid", "ocpi.list.uid"),
      text("locationId", "ocpi.list.locationId", 3),
      time("startTime", "ocpi.list.startTime"),
      time("stopTime", "ocpi.list.stopTime", 2),
      text("kwh", "ocpi.list.kwh"),
      { id: "totalCost", header: t("ocpi.list.totalCost"), cell: ({ row }) => money(row.original) },
      {
        id: "billing",
        header: t("roaming.billing.label"),
        cell: ({ row }) => <CdrBilling status={row.original.billingStatus as CdrBillingStatus} recordId={(row.original.chargeRecordId as number | null) ?? null} />,
      },
      platform,
    ],
    tariff: [
      text("tariffId", "ocpi.list.tariffId"),
      status("type"),
      text("currency", "ocpi.list.currency", 2),
      {
        id: "components",
        header: t("ocpi.list.components"),
        cell: ({ row }) => (
          <ul className="flex flex-col gap-0.5 text-xs">
            {priceComponents(row.original.data as OcpiTariff, t).map((line: string, i: number) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        ),
      },
      platform,
      time("lastUpdated", "ocpi.list.lastUpdated", 3),
    ],
    token: [
      text("uid", "ocpi.list.uid"),
      text("type", "ocpi.list.type"),
      text("contractId", "ocpi.list.contractId", 2),
      { id: "valid", header: t("ocpi.list.valid"), cell: ({ row }) => <Badge variant={row.original.valid ? "success" : "muted"}>{t(row.original.valid ? "ocpi.list.yes" : "ocpi.list.no")}</Badge> },
      text("whitelist", "ocpi.list.whitelist", 3),
      time("lastUpdated", "ocpi.list.lastUpdated", 2),
    ],
    party: [
      { id: "party", header: t("ocpi.list.party"), cell: ({ row }) => party(row.original) },
      text("role", "ocpi.list.role"),
      text("businessName", "ocpi.list.name"),
      status(),
      { id: "platform", header: t("ocpi.list.platform"), cell: ({ row }) => str(row.original.platformName) },
      time("lastUpdated", "ocpi.list.lastUpdated", 3),
    ],
  };
  const statuses = STATUS_FILTER[kind];
  const shown = rowActions ? [...columns[kind], { id: "actions", header: t("common.actions"), cell: ({ row }) => rowActions?.(row.original) } satisfies ColumnDef<Row>] : columns[kind];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t(`ocpi.list.description.${kind}`)} actions={headerActions} />
      {kind !== "token" && (
        <DataTableToolbar>
          <FilterSelect name="platformId" label={t("ocpi.list.platform")} all={t("ocpi.list.allPlatforms")} options={platforms.map((p) => [p.id, p.name] as const)} />
          <Input name="q" placeholder={t("ocpi.list.search")} aria-label={t("ocpi.list.search")} defaultValue={params.get("q") ?? ""} />
          {statuses && (
            <NativeSelect name="status" aria-label={t("ocpi.list.status")} defaultValue={params.get("status") ?? ""}>
              <option value="">{t("ocpi.list.allStatuses")}</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </NativeSelect>
          )}
          {kind !== "party" && <TimeRangeFilter />}
        </DataTableToolbar>
      )}
      <FilterError message={filterError} />
      <DataTable columns={shown} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id ?? r.uid)} emptyHint={t(`ocpi.list.empty.${kind}`)} label={title} />
    </div>
  );
}
