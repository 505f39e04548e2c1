import type { ColumnDef } from "@tanstack/react-table";
import { CalendarPlus, XCircle } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { RESERVATION_STATUSES } from "../../../domain/schemas/driver-services";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/row-actions";
import { DateRangePicker } from "~/components/data-table/date-range-picker";
import { FilterError } from "~/components/data-table/time-range-filter";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { orDash, useFormat } from "~/components/format";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { toast } from "~/components/ui/toast";
import { instantOf } from "~/lib/datetime-local";
import { CustomerSelect } from "../drivers/pickers";
import { loadReservations, reservationAction } from "./reservations.server";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/**
 * Operation and maintenance › Reservations (docs/rules/driver-services.md "Reservations"): reserve a
 * connector (ReserveNow; the charger decides) and cancel a reservation after a confirmation. No start
 * is offered here: a reserved connector is neither Available nor Preparing (docs/rules/monitoring.md).
 * The sub-operator's `/suboperators/reservation` is this screen to watch: no reserving, cancelling or customers.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadReservations(args);
}

export function action(args: ActionFunctionArgs) {
  return reservationAction(args);
}

type Data = Awaited<ReturnType<typeof loader>>;
type Reservation = Data["records"][number];

const VARIANT = { reserved: "success", finished: "muted", canceling: "warning", canceled: "secondary" } as const;

export default function Reservations() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const { onPageChange } = useUrlPaging();
  const fetcher = useFetcher<typeof action>();
  const [adding, setAdding] = useState(false);
  useActionOutcome(fetcher, () => toast.success(t("driverServices.reservations.canceled")));

  const columns: ColumnDef<Reservation>[] = [
    { accessorKey: "id", header: t("driverServices.reservations.id"), meta: { width: 120 } },
    { accessorKey: "serialNumber", header: t("driverServices.reservations.point") },
    { accessorKey: "connectorId", header: t("driverServices.reservations.connector"), meta: { priority: 2, width: 120 } },
    { accessorKey: "idTag", header: t("driverServices.reservations.idTag"), meta: { priority: 2 }, cell: ({ row }) => <span className="font-mono text-xs">{row.original.idTag}</span> },
    ...(page.mayReserve
      ? [{ accessorKey: "customerName", header: t("driverServices.reservations.customer"), meta: { priority: 3 }, cell: ({ row }) => row.original.customerName ?? (row.original.roamingPartner ? t("ocpiCpoSessions.roamingReservation", { partner: row.original.roamingPartner }) : "—") } satisfies ColumnDef<Reservation>]
      : []),
    { accessorKey: "startDate", header: t("driverServices.reservations.start"), meta: { priority: 3 }, cell: ({ row }) => dateTime(row.original.startDate) },
    { accessorKey: "expiryDate", header: t("driverServices.reservations.expiry"), cell: ({ row }) => dateTime(row.original.expiryDate) },
    {
      accessorKey: "status",
      header: t("common.status"),
      // A finished reservation says why it ended: used by a session, expired, or removed by the charger (docs/rules/driver-services.md "Reservations").
      cell: ({ row }) => (
        <span className="flex flex-col items-start gap-0.5">
          <Badge variant={VARIANT[row.original.status]}>{t(`driverServices.reservations.statuses.${row.original.status}`)}</Badge>
          {row.original.endReason && <span className="text-xs text-muted-foreground">{t(`driverServices.reservations.endReasons.${row.original.endReason}`)}</span>}
        </span>
      ),
    },
    { accessorKey: "transactionId", header: t("driverServices.reservations.transaction"), meta: { priority: 3 }, cell: ({ row }) => orDash(row.original.transactionId, String) },
    actionsColumn<Reservation>(t("common.actions"), (r) => [
      page.mayReserve &&
        (r.status === "reserved" || r.status === "canceling") && {
          label: t("driverServices.reservations.cancel"),
          icon: XCircle,
          destructive: true,
          disabled: fetcher.state !== "idle",
          onSelect: () => fetcher.submit(JSON.stringify({ intent: "cancel", id: r.id }), { method: "post", encType: "application/json" }),
          confirm: { message: t("driverServices.reservations.confirmCancel") },
        },
    ]),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("driverServices.reservations.title")}
        actions={
          page.mayReserve ? (
            <Button onClick={() => setAdding(true)}>
              <CalendarPlus aria-hidden />
              {t("driverServices.reservations.add")}
            </Button>
          ) : undefined
        }
      />
      <DataTableToolbar>
        <FilterSelect name="pointId" label={t("driverServices.reservations.point")} all={t("driverServices.reservations.point")}>
          {page.points.map((p) => (
            <option key={p.id} value={p.id}>
              {p.serialNumber}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect name="status" label={t("common.status")} all={t("common.status")} options={RESERVATION_STATUSES.map((s) => [s, t(`driverServices.reservations.statuses.${s}`)] as const)} />
        <DateRangePicker />
      </DataTableToolbar>
      <FilterError message={page.filterError} />
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("driverServices.reservations.empty")} label={t("driverServices.reservations.title")} />
      {adding && <ReserveDialog points={page.points} onClose={() => setAdding(false)} />}
    </div>
  );
}

/** Reserve a connector for a tag or a customer's card until an expiry time (typed in the browser's zone). */
function ReserveDialog({ points, onClose }: { points: Data["points"]; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const [values, setValues] = useState({ pointId: "", connectorId: "1", who: "idTag", idTag: "", customerId: "", expiry: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("driverServices.reservations.reserved"));
      onClose();
    },
    (name, message) => setErrors((e) => ({ ...e, [name]: message })),
  );
  const point = points.find((p) => String(p.id) === values.pointId);
  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    fetcher.submit(
      JSON.stringify({
        pointId: values.pointId,
        connectorId: values.connectorId,
        ...(values.who === "idTag" ? { idTag: values.idTag } : { customerId: values.customerId }),
        expiryDate: instantOf(values.expiry) ?? "",
      }),
      { method: "post", encType: "application/json" },
    );
  };
  const field = (id: string, name: string, label: string, control: React.ReactNode) => (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {control}
      {errors[name] && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {errors[name]}
        </p>
      )}
    </div>
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t("driverServices.reservations.add")}</DialogTitle>
            <DialogDescription>{t("driverServices.reservations.formHint")}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            {field(
              "reserve-point",
              "pointId",
              t("driverServices.reservations.point"),
              <NativeSelect id="reserve-point" value={values.pointId} onChange={set("pointId")} aria-invalid={Boolean(errors.pointId)}>
                <option value="">{t("ui.form.selectPlaceholder")}</option>
                {points.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.serialNumber}
                  </option>
                ))}
              </NativeSelect>,
            )}
            {field(
              "reserve-connector",
              "connectorId",
              t("driverServices.reservations.connector"),
              <NativeSelect id="reserve-connector" value={values.connectorId} onChange={set("connectorId")}>
                {Array.from({ length: point?.connectorCount ?? 1 }, (_, i) => (
                  <option key={i + 1} value={i + 1}>
                    {i + 1}
                  </option>
                ))}
              </NativeSelect>,
            )}
            {field(
              "reserve-who",
              "who",
              t("driverServices.reservations.for"),
              <NativeSelect id="reserve-who" value={values.who} onChange={set("who")}>
                <option value="idTag">{t("driverServices.reservations.idTag")}</option>
                <option value="customer">{t("driverServices.reservations.customer")}</option>
              </NativeSelect>,
            )}
            {values.who === "idTag"
              ? field("reserve-tag", "idTag", t("driverServices.reservations.idTag"), <Input id="reserve-tag" value={values.idTag} onChange={set("idTag")} aria-invalid={Boolean(errors.idTag)} />)
              : field(
                  "reserve-customer",
                  "customerId",
                  t("driverServices.reservations.customer"),
                  <CustomerSelect
                    path="/customer-service/vehicle/customers"
                    id="reserve-customer"
                    value={values.customerId ? Number(values.customerId) : null}
                    onChange={(id) => setValues((v) => ({ ...v, customerId: id === null ? "" : String(id) }))}
                    invalid={Boolean(errors.customerId)}
                    describedBy={errors.customerId ? "reserve-customer-error" : undefined}
                  />,
                )}
            {field(
              "reserve-expiry",
              "expiryDate",
              t("driverServices.reservations.expiry"),
              <Input id="reserve-expiry" type="datetime-local" value={values.expiry} onChange={set("expiry")} aria-invalid={Boolean(errors.expiryDate)} />,
            )}
          </div>
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} submitLabel={t("driverServices.reservations.reserve")} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
