import type { ColumnDef } from "@tanstack/react-table";
import { Eye, Plus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLoaderData, useNavigate, useSearchParams, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { WORK_ORDER_STATUSES } from "../../../domain/schemas/maintenance";
import { OCPP_FAULT_CODES } from "../../../domain/schemas/operations";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterText } from "~/components/data-table/filter-text";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { instantOf } from "~/lib/datetime-local";
import { cn } from "~/lib/cn";
import { loadMaintain, maintainAction } from "./maintain.server";
import { WorkOrderStatusBadge } from "./parts";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/**
 * Operation and maintenance › Work orders and maintainers (docs/rules/maintenance.md): the orders
 * with their filters, opening one by hand, automatic orders from alarms, and the maintenance staff.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadMaintain(args);
}

export function action(args: ActionFunctionArgs) {
  return maintainAction(args);
}

type Data = Awaited<ReturnType<typeof loader>>;
type Order = NonNullable<Data["orders"]>["records"][number];
type Maintainer = NonNullable<Data["maintainers"]>["records"][number];

export default function MaintainScreen() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const title = t("menu.operation.maintain");
  const tabs = [
    ["orders", t("maintenance.ui.orders")],
    ...(data.maintainer ? [] : [["maintainers", t("maintenance.ui.maintainers")]]),
  ] as const;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} description={t("maintenance.ui.description")} />
      <nav aria-label={title} className="flex gap-1 border-b">
        {tabs.map(([tab, label]) => (
          <Link
            key={tab}
            to={tab === "orders" ? "?" : `?tab=${tab}`}
            aria-current={data.tab === tab ? "page" : undefined}
            className={cn("-mb-px border-b-2 px-3 py-2 text-sm", data.tab === tab ? "border-primary font-medium" : "border-transparent text-muted-foreground hover:text-foreground")}
          >
            {label}
          </Link>
        ))}
      </nav>
      {data.tab === "maintainers" && data.maintainers ? <Maintainers page={data.maintainers} /> : <Orders data={data} />}
    </div>
  );
}

function Orders({ data }: { data: Data }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const columns: ColumnDef<Order>[] = [
    { accessorKey: "id", header: t("maintenance.ui.number"), meta: { width: 90 } },
    { accessorKey: "faultCode", header: t("maintenance.ui.faultCode"), cell: ({ row }) => t(`monitoring.faultTypes.${row.original.faultCode}`, { defaultValue: row.original.faultCode }) },
    { accessorKey: "serialNumber", header: t("maintenance.ui.serialNumber"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.serialNumber}</span> },
    { accessorKey: "status", header: t("maintenance.ui.status"), meta: { width: 130 }, cell: ({ row }) => <WorkOrderStatusBadge status={row.original.status} /> },
    { accessorKey: "handler", header: t("maintenance.ui.handler"), meta: { priority: 2 }, cell: ({ row }) => row.original.handler ?? t("maintenance.ui.unassigned") },
    { accessorKey: "abnormalTime", header: t("maintenance.ui.abnormalTime"), meta: { priority: 2, width: 170 }, cell: ({ row }) => dateTime(row.original.abnormalTime) },
    { accessorKey: "source", header: t("maintenance.ui.source"), meta: { priority: 3 }, cell: ({ row }) => t(`maintenance.ui.sources.${row.original.source}`) },
    actionsColumn<Order>(t("common.actions"), (record) => [{ label: t("common.detail"), icon: Eye, to: `/operationMaintenance/maintain/workOrder/${record.id}` }], 120),
  ];
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        {data.settings && !data.maintainer ? <AutoOpen on={data.settings.autoOpen} /> : <span />}
        <Button onClick={() => setCreating(true)}>
          <Plus aria-hidden />
          {t("maintenance.ui.newOrder")}
        </Button>
      </div>
      <DataTableToolbar>
        <FilterSelect name="status" label={t("maintenance.ui.status")} all={t("maintenance.ui.allStatuses")} options={WORK_ORDER_STATUSES.map((s) => [s, t(`maintenance.ui.statuses.${s}`)] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("maintenance.ui.serialNumber")} aria-label={t("maintenance.ui.serialNumber")} defaultValue={params.get("serialNumber") ?? ""} />
        {data.handlers.length > 0 && (
          <FilterSelect name="maintainerId" label={t("maintenance.ui.handler")} all={t("maintenance.ui.allHandlers")}>
            {data.handlers.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name} ({h.username})
              </option>
            ))}
          </FilterSelect>
        )}
      </DataTableToolbar>
      <FilterError message={data.filterError} />
      {data.orders && (
        <DataTable columns={columns} page={data.orders} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.ui.emptyOrders")} label={t("maintenance.ui.orders")} />
      )}
      <NewOrderDialog open={creating} onClose={() => setCreating(false)} handlers={data.handlers} />
    </>
  );
}

/** Whether alarms open work orders by themselves, switched after a confirmation. */
function AutoOpen({ on }: { on: boolean }) {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  useActionOutcome(fetcher, () => toast.success(t("maintenance.ui.saved")));
  const pending = fetcher.formData ? fetcher.formData.get("autoOpen") === "true" : on;
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id="auto-open"
        checked={pending}
        onCheckedChange={async (checked) => {
          if (await confirm({ message: t(checked ? "maintenance.ui.autoOpenOnConfirm" : "maintenance.ui.autoOpenOffConfirm") })) {
            fetcher.submit({ intent: "autoOpen", autoOpen: String(checked === true) }, { method: "post" });
          }
        }}
      />
      <Label htmlFor="auto-open">{t("maintenance.ui.autoOpen")}</Label>
    </div>
  );
}

/** A work order by hand: fault code, point, abnormal time, cause, remarks, and a handler or the rule. */
function NewOrderDialog({ open, onClose, handlers }: { open: boolean; onClose: () => void; handlers: { id: number; name: string; username: string }[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fetcher = useFetcher<typeof action>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  useActionOutcome(
    fetcher,
    (result: { id?: number }) => {
      toast.success(t("maintenance.ui.created"));
      onClose();
      if (result.id) navigate(`/operationMaintenance/maintain/workOrder/${result.id}`);
    },
    (name, message) => setErrors((prev) => ({ ...prev, [name]: message })),
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const missing: Record<string, string> = {};
    if (!form.serialNumber.trim()) missing.serialNumber = t("maintenance.validation.serialNumberRequired");
    if (!form.abnormalTime) missing.abnormalTime = t("maintenance.validation.dateTime");
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    fetcher.submit({ ...form, abnormalTime: instantOf(form.abnormalTime) ?? "" }, { method: "post" });
  };
  const field = (name: string, label: string, input: React.ReactNode) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={`wo-${name}`}>{label}</Label>
      {input}
      {errors[name] && (
        <p id={`wo-${name}-error`} className="text-xs text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );
  const described = (name: string) => ({ id: `wo-${name}`, name, "aria-invalid": errors[name] !== undefined, "aria-describedby": errors[name] ? `wo-${name}-error` : undefined });
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
          <DialogHeader>
            <DialogTitle>{t("maintenance.ui.newOrder")}</DialogTitle>
            <DialogDescription>{t("maintenance.ui.newOrderText")}</DialogDescription>
          </DialogHeader>
          {field(
            "faultCode",
            t("maintenance.ui.faultCode"),
            <NativeSelect {...described("faultCode")} defaultValue="GroundFailure">
              {OCPP_FAULT_CODES.map((c) => (
                <option key={c} value={c}>
                  {t(`monitoring.faultTypes.${c}`, { defaultValue: c })}
                </option>
              ))}
            </NativeSelect>,
          )}
          {field("serialNumber", t("maintenance.ui.serialNumber"), <SerialNumberPicker {...described("serialNumber")} required />)}
          {field("abnormalTime", t("maintenance.ui.abnormalTime"), <Input {...described("abnormalTime")} type="datetime-local" required />)}
          {field("cause", t("maintenance.ui.cause"), <Input {...described("cause")} maxLength={500} />)}
          {field("remarks", t("maintenance.ui.remarks"), <Input {...described("remarks")} maxLength={500} />)}
          {handlers.length > 0 &&
            field(
              "maintainerId",
              t("maintenance.ui.handler"),
              <NativeSelect {...described("maintainerId")} defaultValue="">
                <option value="">{t("maintenance.ui.byRule")}</option>
                {handlers.map((h) => (
                  <option key={h.id} value={h.id}>
                    {h.name} ({h.username})
                  </option>
                ))}
              </NativeSelect>,
            )}
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Maintainers({ page }: { page: NonNullable<Data["maintainers"]> }) {
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const fetcher = useFetcher<typeof action>();
  const { edit, remove } = useCommonRowActions();
  useActionOutcome(fetcher, () => toast.success(t("maintenance.ui.deleted")));
  const columns: ColumnDef<Maintainer>[] = [
    { accessorKey: "name", header: t("maintenance.ui.maintainer"), cell: ({ row }) => `${row.original.name} (${row.original.username})` },
    { accessorKey: "manufacturer", header: t("maintenance.ui.manufacturer"), meta: { priority: 3 }, cell: ({ row }) => row.original.manufacturer ?? "—" },
    { accessorKey: "wardenAccount", header: t("maintenance.ui.wardenAccount"), meta: { priority: 3 }, cell: ({ row }) => row.original.wardenAccount ?? "—" },
    { id: "faultCodes", header: t("maintenance.ui.faultCodes"), meta: { priority: 2 }, cell: ({ row }) => row.original.faultCodes.join(", ") || "—" },
    {
      id: "devices",
      header: t("maintenance.ui.devices"),
      meta: { priority: 2 },
      cell: ({ row }) => [...row.original.stations.map((s) => s.name ?? ""), ...row.original.points.map((p) => p.serialNumber ?? "")].join(", ") || "—",
    },
    { accessorKey: "openOrders", header: t("maintenance.ui.openOrders"), meta: { width: 120 } },
    actionsColumn<Maintainer>(t("common.actions"), (maintainer) => [
      edit(`/operationMaintenance/maintain/maintainerEdit/${maintainer.id}`),
      remove(() => fetcher.submit({ intent: "deleteMaintainer", id: maintainer.id }, { method: "post" })),
    ]),
  ];
  return (
    <>
      <div className="flex justify-end">
        <Button asChild>
          <Link to="/operationMaintenance/maintain/maintainerAdd">
            <Plus aria-hidden />
            {t("maintenance.ui.addMaintainer")}
          </Link>
        </Button>
      </div>
      <DataTableToolbar>
        <FilterText name="keyword" label={t("maintenance.ui.keyword")} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("maintenance.ui.emptyMaintainers")} label={t("maintenance.ui.maintainers")} />
    </>
  );
}
