import type { ColumnDef } from "@tanstack/react-table";
import { ChevronLeft, ChevronRight, MapPin, PlugZap, Search, Settings2, X } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLoaderData, useRevalidator, type LoaderFunctionArgs } from "react-router";
import type { Page } from "../../../domain/paging";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Skeleton } from "~/components/ui/skeleton";
import { Tabs, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi } from "~/lib/api";
import { loadOperatorDevices } from "./operator-devices.server";

/**
 * Sub-operators › Devices (`/SubOperator/operatorDevice`, docs/rules/tenancy.md "Sub-operators"):
 * which of the operator's locations and charging points each sub-operator sees. The picker pages
 * and searches on the server; the choice is saved at once, replacing the previous one.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadOperatorDevices(args);
}

type SubOperator = Awaited<ReturnType<typeof loader>>["records"][number];

export default function OperatorDevices() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const { revalidate } = useRevalidator();
  const [editing, setEditing] = useState<SubOperator | null>(null);

  const columns: ColumnDef<SubOperator>[] = [
    { accessorKey: "code", header: t("monitoring.subDevices.code"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.code}</span> },
    { accessorKey: "name", header: t("monitoring.subDevices.name") },
    { accessorKey: "status", header: t("monitoring.common.status"), cell: ({ row }) => <StatusBadge status={row.original.status} /> },
    { accessorKey: "stations", header: t("monitoring.subDevices.stations"), meta: { priority: 2, align: "right" } },
    { accessorKey: "points", header: t("monitoring.subDevices.points"), meta: { priority: 2, align: "right" } },
    actionsColumn<SubOperator>(t("monitoring.common.actions"), (sub) => [{ label: t("monitoring.subDevices.assign"), icon: Settings2, onSelect: () => setEditing(sub) }], 200),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.subOperator.device")} description={t("monitoring.subDevices.description")} />
      <DataTableToolbar>
        <FilterText name="name" label={t("monitoring.subDevices.name")} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("monitoring.subDevices.empty")} label={t("menu.subOperator.device")} />
      {editing && (
        <AssignDialog
          key={editing.id}
          subOperator={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void revalidate();
          }}
        />
      )}
    </div>
  );
}

type Kind = "station" | "point";
interface Candidate {
  id: number;
  name: string;
  serialNumber?: string;
  address?: string;
  stationName?: string | null;
  assigned: boolean;
}

const PICK_SIZE = 8;

function AssignDialog({ subOperator, onClose, onSaved }: { subOperator: SubOperator; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [kind, setKind] = useState<Kind>("station");
  const [selected, setSelected] = useState<Record<Kind, Map<number, string>> | null>(null);
  const [search, setSearch] = useState("");
  const [current, setCurrent] = useState(1);
  const [page, setPage] = useState<Page<Candidate> | null>(null);
  const [saving, setSaving] = useState(false);
  const params = useMemo(() => ({ subOperatorId: subOperator.id }), [subOperator.id]);

  // What is assigned now, read once when the dialog opens; the choice then lives here until saved.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    api
      .get("/user-service/sub-operator/{subOperatorId}/devices", { params })
      .then((assigned) =>
        setSelected({
          station: new Map(assigned.stations.map((s) => [s.id, s.name])),
          point: new Map(assigned.points.map((p) => [p.id, p.serialNumber])),
        }),
      )
      .catch(() => close.current());
  }, [api, params]);

  const load = useCallback(() => {
    api
      .get("/user-service/sub-operator/{subOperatorId}/devices/candidates", { params, query: { kind, current, size: PICK_SIZE, name: search || undefined } })
      .then(setPage)
      .catch(() => setPage({ records: [], total: 0, current: 1, size: PICK_SIZE }));
  }, [api, params, kind, current, search]);
  useEffect(load, [load]);

  const toggle = (candidate: Candidate, on: boolean) =>
    setSelected((sets) => {
      if (!sets) return sets;
      const next = new Map(sets[kind]);
      if (on) next.set(candidate.id, kind === "point" ? (candidate.serialNumber ?? candidate.name) : candidate.name);
      else next.delete(candidate.id);
      return { ...sets, [kind]: next };
    });
  const remove = (which: Kind, id: number) =>
    setSelected((sets) => {
      if (!sets) return sets;
      const next = new Map(sets[which]);
      next.delete(id);
      return { ...sets, [which]: next };
    });

  const save = async () => {
    if (!selected) return;
    setSaving(true);
    try {
      await api.put("/user-service/sub-operator/{subOperatorId}/devices", { params, body: { stationIds: [...selected.station.keys()], pointIds: [...selected.point.keys()] } });
      toast.success(t("monitoring.subDevices.saved"));
      onSaved();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      setSaving(false);
    }
  };

  const pages = page ? Math.max(1, Math.ceil(page.total / PICK_SIZE)) : 1;
  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setCurrent(1);
    setSearch(String(new FormData(event.currentTarget).get("q") ?? "").trim());
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t("monitoring.subDevices.assignTitle", { name: subOperator.name })}</DialogTitle>
          <DialogDescription>{t("monitoring.subDevices.assignHint")}</DialogDescription>
        </DialogHeader>
        {!selected ? (
          <Skeleton className="h-64 w-full" />
        ) : (
          <div className="flex min-w-0 flex-col gap-3">
            <div className="flex max-h-24 flex-wrap gap-1.5 overflow-y-auto" aria-live="polite">
              {[...selected.station].map(([id, name]) => (
                <Badge key={`s${id}`} variant="secondary" className="gap-1 pr-1">
                  <MapPin aria-hidden />
                  {name}
                  <button type="button" onClick={() => remove("station", id)} aria-label={`${t("common.delete")} ${name}`} className="rounded-sm p-0.5 hover:bg-background">
                    <X className="size-3" aria-hidden />
                  </button>
                </Badge>
              ))}
              {[...selected.point].map(([id, serial]) => (
                <Badge key={`p${id}`} variant="outline" className="gap-1 pr-1 font-mono">
                  <PlugZap aria-hidden />
                  {serial}
                  <button type="button" onClick={() => remove("point", id)} aria-label={`${t("common.delete")} ${serial}`} className="rounded-sm p-0.5 hover:bg-muted">
                    <X className="size-3" aria-hidden />
                  </button>
                </Badge>
              ))}
            </div>
            <Tabs
              value={kind}
              onValueChange={(value) => {
                setKind(value as Kind);
                setCurrent(1);
                setSearch("");
                setPage(null);
              }}
            >
              <TabsList>
                <TabsTrigger value="station">
                  {t("monitoring.subDevices.stations")} · {selected.station.size}
                </TabsTrigger>
                <TabsTrigger value="point">
                  {t("monitoring.subDevices.points")} · {selected.point.size}
                </TabsTrigger>
              </TabsList>
            </Tabs>
            <form key={kind} role="search" onSubmit={submitSearch} className="flex gap-2">
              <Input name="q" defaultValue={search} placeholder={kind === "station" ? t("monitoring.common.name") : t("monitoring.common.serialOrName")} aria-label={t("ui.action.search")} />
              <Button type="submit" variant="outline">
                <Search aria-hidden />
                {t("ui.action.search")}
              </Button>
            </form>
            <ul className="divide-y rounded-md border" aria-label={kind === "station" ? t("monitoring.subDevices.stations") : t("monitoring.subDevices.points")}>
              {!page
                ? Array.from({ length: 4 }, (_, i) => (
                    <li key={i} className="px-3 py-2.5">
                      <Skeleton className="h-4 w-2/3" />
                    </li>
                  ))
                : page.records.length === 0
                  ? [
                      <li key="none" className="px-3 py-6 text-center text-sm text-muted-foreground">
                        {t("monitoring.subDevices.noCandidates")}
                      </li>,
                    ]
                  : page.records.map((c) => {
                      const checked = selected[kind].has(c.id);
                      const id = `pick-${kind}-${c.id}`;
                      return (
                        <li key={c.id} className="flex items-center gap-3 px-3 py-2">
                          <Checkbox id={id} checked={checked} onCheckedChange={(value) => toggle(c, value === true)} />
                          <label htmlFor={id} className="flex min-w-0 flex-1 cursor-pointer flex-col">
                            <span className={kind === "point" ? "font-mono text-sm" : "text-sm font-medium"}>{kind === "point" ? c.serialNumber : c.name}</span>
                            <span className="truncate text-xs text-muted-foreground">{kind === "point" ? `${c.name} · ${c.stationName ?? ""}` : c.address}</span>
                          </label>
                          {c.assigned && <Badge variant="success">{t("monitoring.subDevices.assigned")}</Badge>}
                        </li>
                      );
                    })}
            </ul>
            <div className="flex items-center justify-between text-sm text-muted-foreground">
              <span>{t("ui.table.total", { total: page?.total ?? 0 })}</span>
              <div className="flex items-center gap-1">
                <Button variant="ghost" size="icon-sm" disabled={current <= 1} onClick={() => setCurrent(current - 1)} aria-label={t("ui.table.previous")}>
                  <ChevronLeft aria-hidden />
                </Button>
                <span className="tabular-nums">
                  {current} / {pages}
                </span>
                <Button variant="ghost" size="icon-sm" disabled={current >= pages} onClick={() => setCurrent(current + 1)} aria-label={t("ui.table.next")}>
                  <ChevronRight aria-hidden />
                </Button>
              </div>
            </div>
          </div>
        )}
        <DialogFooter className="items-center gap-2 sm:justify-between">
          <span className="text-sm text-muted-foreground">
            {selected && t("monitoring.subDevices.selected", { stations: selected.station.size, points: selected.point.size })}
          </span>
          <div className="flex gap-2">
            <Button variant="outline" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button onClick={() => void save()} disabled={!selected || saving}>
              {t("common.save")}
            </Button>
          </div>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
