import type { ColumnDef } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Ban, CheckCircle2, Send } from "lucide-react";
import { useFetcher, useLoaderData, useLocation, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { SESSION_STATUSES } from "../../../domain/schemas/ocpi/sessions";
import { TARIFF_TYPES, type OcpiTariff } from "../../../domain/schemas/ocpi/tariffs";
import type { OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import { ROLES } from "../../../domain/schemas/ocpi/credentials";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, type RowAction } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { StationMap, type MapStation } from "~/components/live/station-map";
import { Badge } from "~/components/ui/badge";
import { CDR_BILLING_STATUSES, type CdrBillingStatus } from "../../../domain/ocpi/cdr-price";
import { CdrBilling } from "../records/roaming";
import { useActionOutcome } from "~/components/page-actions";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { toast } from "~/components/ui/toast";
import type { ListPath } from "~/lib/api";
import { WalletExport } from "../wallets/wallet-filters";
import type { TokenPushStatus } from "../../../workers/services/ocpi/token-push";
import { cdrReviewAction, loadRoamingList, tokenPushAction, type RoamingListKind } from "./emsp.server";
import { actionForm } from "../../lib/input.server";

/**
 * What partners sent, and our tokens as they see them (docs/rules/ocpi.md "Console"): one screen
 * per menu entry, each paged and filtered on the server by partner, text, status and time.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRoamingList(args);
}

export type Row = Record<string, unknown>;

/**
 * The tokens screen's force push (docs/rules/ocpi.md "Token pushes"), and the CDR screen's review
 * of a held CDR (docs/rules/ocpi.md "What a CDR may bill"), told apart by `intent`.
 */
export async function action(args: ActionFunctionArgs) {
  const intent = (await actionForm(args.request.clone())).get("intent");
  return intent === "release" || intent === "reject" ? cdrReviewAction(args) : tokenPushAction(args);
}
const str = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));

const MENU: Record<RoamingListKind, string> = {
  location: "menu.emsp.location",
  session: "menu.emsp.session",
  cdr: "menu.emsp.cdr",
  tariff: "menu.emsp.tariff",
  token: "menu.emsp.token",
  party: "menu.emsp.party",
};

/** The API list each screen reads, for its export. */
const LIST_PATH = {
  location: "/ocpi-service/location",
  session: "/ocpi-service/session",
  cdr: "/ocpi-service/cdr",
  tariff: "/ocpi-service/tariff",
  token: "/ocpi-service/token",
  party: "/ocpi-service/party",
} as const satisfies Record<RoamingListKind, ListPath>;

/** Statuses a list filters by: the session's status, the tariff's type, the party's role. */
const STATUS_FILTER: Partial<Record<RoamingListKind, readonly string[]>> = { session: SESSION_STATUSES, cdr: CDR_BILLING_STATUSES, tariff: TARIFF_TYPES, party: ROLES };

/** A tariff's price components in one line each: `ENERGY 0.45 / 1 Wh step (VAT 19 %)`. */
function priceComponents(data: OcpiTariff, t: (key: string, o?: Record<string, unknown>) => string) {
  return data.elements.flatMap((element) =>
    element.price_components.map((c) => t(`ocpi.list.component.${c.type}`, { price: c.price, currency: data.currency, step: c.step_size, vat: c.vat ?? "—" })),
  );
}

/**
 * What an export writes per list (docs/rules/ocpi.md "Console"): the API's fields, as filtered on
 * the screen; instants in UTC ISO 8601 as the API answers them.
 */
const EXPORTS: Partial<Record<RoamingListKind, [field: string, header: string, width: number][]>> = {
  location: [["locationId", "ocpi.list.locationId", 18], ["name", "ocpi.list.name", 24], ["city", "ocpi.list.city", 16], ["platformName", "ocpi.list.platform", 20], ["countryCode", "ocpi.export.countryCode", 8], ["partyId", "ocpi.export.partyId", 8], ["lastUpdated", "ocpi.list.lastUpdated", 22]],
  session: [["sessionId", "ocpi.list.sessionId", 20], ["uid", "ocpi.list.uid", 16], ["status", "ocpi.list.status", 12], ["startTime", "ocpi.list.startTime", 22], ["stopTime", "ocpi.list.stopTime", 22], ["kwh", "ocpi.list.kwh", 10], ["totalCost", "ocpi.list.totalCost", 12], ["currency", "ocpi.list.currency", 8], ["cdrId", "ocpi.list.cdrId", 20], ["platformName", "ocpi.list.platform", 20]],
  cdr: [["cdrId", "ocpi.list.cdrId", 20], ["sessionId", "ocpi.list.sessionId", 20], ["uid", "ocpi.list.uid", 16], ["locationId", "ocpi.list.locationId", 18], ["startTime", "ocpi.list.startTime", 22], ["stopTime", "ocpi.list.stopTime", 22], ["kwh", "ocpi.list.kwh", 10], ["totalCost", "ocpi.list.totalCost", 12], ["currency", "ocpi.list.currency", 8], ["platformName", "ocpi.list.platform", 20]],
  tariff: [["tariffId", "ocpi.list.tariffId", 18], ["type", "ocpi.list.type", 16], ["currency", "ocpi.list.currency", 8], ["platformName", "ocpi.list.platform", 20], ["lastUpdated", "ocpi.list.lastUpdated", 22]],
  token: [["uid", "ocpi.list.uid", 18], ["type", "ocpi.list.type", 10], ["contractId", "ocpi.list.contractId", 24], ["valid", "ocpi.list.valid", 8], ["whitelist", "ocpi.list.whitelist", 10], ["lastUpdated", "ocpi.list.lastUpdated", 22]],
};

/** Each partner's copy of a token: its state, attempts, and the partner's last refusal. */
function PushStatus({ pushes }: { pushes: TokenPushStatus[] }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  if (pushes.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {pushes.map((p) => (
        <li key={p.platformId}>
          {p.platformName}: <Badge variant={p.state === "SENT" ? "success" : p.state === "FAILED" ? "destructive" : "outline"}>{t(`ocpi.push.states.${p.state}`)}</Badge>
          {p.state === "SENT" && p.pushedAt ? ` ${dateTime(p.pushedAt)}` : ""}
          {p.state === "FAILED" && <span className="block break-words text-destructive">{t("ocpi.push.failed", { attempts: p.attempts, reason: p.lastError ?? "" })}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Release or reject a held CDR, each after a confirmation naming the CDR and its total. */
function CdrReview({ cdr }: { cdr: Row }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const reviewer = useFetcher();
  useActionOutcome<{ intent: string }>(reviewer, (data) => toast.success(t(data.intent === "reject" ? "roaming.review.rejected" : "roaming.review.released")));
  if (cdr.billingStatus !== "HELD") return null;
  const named = { cdr: str(cdr.cdrId), amount: `${str(cdr.totalCost)} ${str(cdr.currency)}` };
  const review = async (intent: "release" | "reject") => {
    const ok = await confirm({ title: t(`roaming.review.${intent}Title`), message: t(`roaming.review.${intent}Message`, named) });
    if (ok) reviewer.submit({ intent, id: String(cdr.id) }, { method: "post" });
  };
  const busy = reviewer.state !== "idle";
  return (
    <div className="flex gap-1">
      <Button variant="outline" size="sm" disabled={busy} onClick={() => review("release")}>
        <CheckCircle2 aria-hidden />
        {t("roaming.review.release")}
      </Button>
      <Button variant="ghost" size="sm" disabled={busy} onClick={() => review("reject")}>
        <Ban aria-hidden />
        {t("roaming.review.reject")}
      </Button>
    </div>
  );
}

/** EVSE states in which a partner's EVSE answers (OCPI 2.2.1 §8.4.22 Status). */
const EVSE_UP = new Set(["AVAILABLE", "BLOCKED", "CHARGING", "RESERVED"]);
const EVSE_FAULT = new Set(["INOPERATIVE", "OUTOFORDER"]);

/** The listed partner locations on the console's map, coloured by their EVSEs' states. */
function locationsOnMap(records: readonly Row[]): MapStation[] {
  return records.flatMap((r) => {
    const data = r.data as OcpiLocation;
    const lat = Number(data.coordinates.latitude);
    const lng = Number(data.coordinates.longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return [];
    const evses = data.evses ?? [];
    const up = evses.filter((e) => EVSE_UP.has(e.status)).length;
    const health = up === 0 ? "offline" : up === evses.length ? "online" : evses.some((e) => EVSE_FAULT.has(e.status)) ? "fault" : "partial";
    return [{ id: Number(r.id), name: data.name ?? data.id, address: `${data.address}, ${data.city}`, lat, lng, health, pointsTotal: evses.length, pointsOnline: up, charging: evses.filter((e) => e.status === "CHARGING").length }];
  });
}

export default function RoamingListScreen() {
  return <RoamingList />;
}

/**
 * The list itself; `rowActions` and `headerActions` are what a screen built on it adds (the
 * commands, docs/rules/ocpi.md "Commands"). A route module's default export gets no props of ours.
 */
export function RoamingList({ rowActions, headerActions }: { rowActions?: (row: Row) => RowAction[]; headerActions?: ReactNode }) {
  const { kind, page, platforms, filterError, mayReview } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const location = useLocation();
  const confirm = useConfirm();
  const pusher = useFetcher<typeof action>();
  useActionOutcome<{ queued: number }>(pusher, (data) => toast.success(t("ocpi.push.queued", { count: data.queued })));
  const forcePush = async (uid?: string) => {
    const ok = await confirm({ title: t("ocpi.push.confirmTitle"), message: uid ? t("ocpi.push.confirmOne", { uid }) : t("ocpi.push.confirmAll") });
    if (ok) pusher.submit(uid ? { uid } : {}, { method: "post" });
  };
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

  const columns: Record<RoamingListKind, ColumnDef<Row>[]> = {
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
      {
        id: "holdReason",
        header: t("roaming.hold.label"),
        meta: { priority: 2 },
        cell: ({ row }) => (row.original.holdReason ? t(`roaming.hold.${String(row.original.holdReason)}`) : "—"),
      },
      platform,
      ...(mayReview ? [{ id: "review", header: t("common.actions"), cell: ({ row }) => <CdrReview cdr={row.original} /> } satisfies ColumnDef<Row>] : []),
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
      { id: "pushes", header: t("ocpi.push.title"), cell: ({ row }) => <PushStatus pushes={(row.original.pushes as TokenPushStatus[] | undefined) ?? []} /> },
      {
        id: "push",
        header: t("common.actions"),
        cell: ({ row }) => (
          <Button variant="ghost" size="sm" onClick={() => forcePush(String(row.original.uid))} aria-label={t("ocpi.push.one", { uid: String(row.original.uid) })} title={t("ocpi.push.one", { uid: String(row.original.uid) })}>
            <Send aria-hidden />
          </Button>
        ),
      },
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
  const shown = rowActions ? [...columns[kind], actionsColumn<Row>(t("common.actions"), rowActions)] : columns[kind];
  const exported = EXPORTS[kind];
  const exportButton = exported && (
    <WalletExport
      path={LIST_PATH[kind]}
      query={location.search}
      file={`roaming-${kind}`}
      headers={exported.map(([, header]) => t(header))}
      cells={(record) => {
        const r: Row = { ...record };
        return exported.map(([field]) => (typeof r[field] === "boolean" ? t(r[field] ? "ocpi.list.yes" : "ocpi.list.no") : ((r[field] as string | number | null | undefined) ?? null)));
      }}
      widths={exported.map(([, , width]) => width)}
    />
  );

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t(`ocpi.list.description.${kind}`)} actions={headerActions} />
      {kind === "token" && (
        <div className="flex flex-wrap justify-end gap-2">
          {exportButton}
          <Button onClick={() => forcePush()}>
            <Send aria-hidden />
            {t("ocpi.push.all")}
          </Button>
        </div>
      )}
      {kind !== "token" && (
        <DataTableToolbar actions={exportButton}>
          <FilterSelect name="platformId" label={t("ocpi.list.platform")} all={t("ocpi.list.allPlatforms")} options={platforms.map((p) => [p.id, p.name] as const)} />
          <FilterText name="q" label={t("ocpi.list.search")} />
          {statuses && (
            <FilterSelect name="status" label={t("ocpi.list.status")} all={t("ocpi.list.allStatuses")} options={statuses.map((s) => [s, s] as const)} />
          )}
          {kind !== "party" && <DateRangePicker />}
        </DataTableToolbar>
      )}
      <FilterError message={filterError} />
      {kind === "location" && page.records.length > 0 && <StationMap stations={locationsOnMap(page.records)} />}
      <DataTable columns={shown} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id ?? r.uid)} emptyHint={t(`ocpi.list.empty.${kind}`)} label={title} />
    </div>
  );
}
