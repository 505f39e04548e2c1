import type { ColumnDef } from "@tanstack/react-table";
import { useTranslation } from "react-i18next";
import { EyeOff } from "lucide-react";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import type { OcpiLocation } from "../../../domain/schemas/ocpi/locations";
import type { OcpiTariff } from "../../../domain/schemas/ocpi/tariffs";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { toast } from "~/components/ui/toast";
import { loadPublished, withdrawAction } from "./published.server";

/**
 * What the operator publishes to roaming partners as a CPO (docs/rules/ocpi.md "Locations we
 * publish", "Tariffs we publish"): each object as partners read it, and its delivery to each
 * partner (sent, refused with the partner's reason and retried, waiting).
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPublished(args);
}

export function action(args: ActionFunctionArgs) {
  return withdrawAction(args);
}

type Row = Record<string, unknown>;
interface PushState {
  platformId: number;
  platformName: string;
  state: "PENDING" | "SENT" | "FAILED";
  attempts: number;
  lastError: string | null;
  pushedAt: string | null;
}

function Pushes({ pushes }: { pushes: PushState[] }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  if (pushes.length === 0) return <span className="text-muted-foreground">{t("ocpi.cpo.push.none")}</span>;
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {pushes.map((p) => (
        <li key={p.platformId}>
          {p.platformName}: <Badge variant={p.state === "SENT" ? "success" : p.state === "FAILED" ? "destructive" : "outline"}>{t(`ocpi.cpo.push.states.${p.state}`)}</Badge>
          {p.state === "SENT" && p.pushedAt ? ` ${dateTime(p.pushedAt)}` : ""}
          {p.state === "FAILED" && <span className="block break-words text-destructive">{t("ocpi.cpo.push.failed", { attempts: p.attempts, reason: p.lastError ?? "" })}</span>}
        </li>
      ))}
    </ul>
  );
}

/** The OCPI object itself, folded; a region that takes focus, so a keyboard can scroll it (docs/rules/console.md "Accessibility"). */
function Json({ value }: { value: unknown }) {
  const { t } = useTranslation();
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted-foreground">{t("ocpi.cpo.json")}</summary>
      <pre className="max-h-80 max-w-xl overflow-auto rounded bg-muted p-2" role="region" tabIndex={0} aria-label={t("ocpi.cpo.json")}>{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** A tariff's elements in words: `08:00–22:00 · ENERGY 0.85 · PARKING_TIME 6 / h`. */
function TariffElements({ tariff }: { tariff: OcpiTariff }) {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {tariff.elements.map((e, i) => (
        <li key={i}>
          {e.restrictions?.start_time ? `${e.restrictions.start_time}–${e.restrictions.end_time ?? "00:00"}` : t("ocpi.cpo.tariff.allDay")}
          {" · "}
          {e.price_components.map((c) => t(`ocpi.cpo.tariff.component.${c.type}`, { price: c.price, currency: tariff.currency, step: c.step_size })).join(" · ")}
        </li>
      ))}
    </ul>
  );
}

export default function PublishedScreen() {
  const { kind, roamsAsCpo, mayWithdraw, page, filterError } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const withdraw = useFetcher();
  useActionOutcome(withdraw, () => toast.success(t("ocpi.cpo.location.withdrawn")));
  const columns: ColumnDef<Row>[] =
    kind === "location"
      ? [
          { id: "id", header: t("ocpi.cpo.location.id"), meta: { width: 80 }, cell: ({ row }) => String(row.original.stationId) },
          { id: "name", header: t("ocpi.cpo.location.name"), cell: ({ row }) => String(row.original.name) },
          {
            id: "address",
            header: t("ocpi.cpo.location.address"),
            meta: { priority: 2 },
            cell: ({ row }) => {
              const l = row.original.location as OcpiLocation;
              return `${l.address}, ${l.postal_code ?? ""} ${l.city} (${l.country})`;
            },
          },
          {
            id: "evses",
            header: t("ocpi.cpo.location.evses"),
            cell: ({ row }) => (
              <ul className="flex flex-col gap-0.5 text-xs">
                {((row.original.location as OcpiLocation).evses ?? []).map((e) => (
                  <li key={e.uid}>
                    {e.evse_id} <Badge variant={e.status === "AVAILABLE" ? "success" : e.status === "CHARGING" ? "info" : "muted"}>{e.status}</Badge>
                  </li>
                ))}
              </ul>
            ),
          },
          { id: "lastUpdated", header: t("ocpi.cpo.lastUpdated"), meta: { priority: 3, width: 170 }, cell: ({ row }) => dateTime((row.original.location as OcpiLocation).last_updated) },
          { id: "pushes", header: t("ocpi.cpo.push.title"), cell: ({ row }) => <Pushes pushes={row.original.pushes as PushState[]} /> },
          { id: "json", header: t("ocpi.cpo.object"), meta: { priority: 3 }, cell: ({ row }) => <Json value={row.original.location} /> },
          ...(mayWithdraw
            ? [
                actionsColumn<Row>(t("common.actions"), (row) => [
                  {
                    label: t("ocpi.cpo.location.withdraw"),
                    icon: EyeOff,
                    destructive: true,
                    onSelect: () => withdraw.submit({ id: String(row.stationId) }, { method: "post" }),
                    confirm: { title: t("ocpi.cpo.location.withdrawTitle"), message: t("ocpi.cpo.location.withdrawMessage", { name: String(row.name) }) },
                  },
                ]),
              ]
            : []),
        ]
      : [
          { id: "id", header: t("ocpi.cpo.tariff.id"), meta: { width: 80 }, cell: ({ row }) => String(row.original.strategyId) },
          { id: "name", header: t("ocpi.cpo.tariff.name"), cell: ({ row }) => String(row.original.name) },
          { id: "currency", header: t("ocpi.cpo.tariff.currency"), meta: { width: 80 }, cell: ({ row }) => (row.original.tariff as OcpiTariff).currency },
          { id: "elements", header: t("ocpi.cpo.tariff.elements"), cell: ({ row }) => <TariffElements tariff={row.original.tariff as OcpiTariff} /> },
          {
            id: "untranslatable",
            header: t("ocpi.cpo.tariff.notPublished"),
            // What OCPI cannot say of a tariff is what an operator must see before publishing it: never folded away.
            cell: ({ row }) => {
              const notes = row.original.untranslatable as string[];
              return notes.length === 0 ? "—" : <ul className="text-xs">{notes.map((n) => <li key={n}>{t(`ocpi.cpo.tariff.untranslatable.${n}`)}</li>)}</ul>;
            },
          },
          { id: "lastUpdated", header: t("ocpi.cpo.lastUpdated"), meta: { priority: 3, width: 170 }, cell: ({ row }) => dateTime((row.original.tariff as OcpiTariff).last_updated) },
          { id: "pushes", header: t("ocpi.cpo.push.title"), cell: ({ row }) => <Pushes pushes={row.original.pushes as PushState[]} /> },
          { id: "json", header: t("ocpi.cpo.object"), meta: { priority: 3 }, cell: ({ row }) => <Json value={row.original.tariff} /> },
        ];
  const title = t(`menu.cpo.${kind}`);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t(`ocpi.cpo.${kind}.description`)} />
      {!roamsAsCpo && (
        <p role="status" className="rounded-md border border-warning/30 bg-warning/5 px-3 py-2 text-sm">
          {t("ocpi.cpo.notCpo")}
        </p>
      )}
      <DataTableToolbar>
        <FilterText name="q" label={t("ocpi.cpo.search")} />
      </DataTableToolbar>
      <FilterError message={filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.stationId ?? r.strategyId)} emptyHint={t(`ocpi.cpo.${kind}.empty`)} label={title} />
    </div>
  );
}
