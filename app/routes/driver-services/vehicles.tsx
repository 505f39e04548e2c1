import { zodResolver } from "@hookform/resolvers/zod";
import type { ColumnDef } from "@tanstack/react-table";
import { FileText, Plus } from "lucide-react";
import { useId, useState } from "react";
import { Controller, useForm, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useFetcher, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { vehicleInput, type VehicleFormValues } from "../../../domain/schemas/driver-services";
import { DataTable } from "~/components/data-table/data-table";
import { actionsColumn, useCommonRowActions } from "~/components/data-table/row-actions";
import { FilterText } from "~/components/data-table/filter-text";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { TextField } from "~/components/form/fields";
import { errorId, FormField } from "~/components/form/form-field";
import { useActionOutcome } from "~/components/page-actions";
import { PageHeader } from "~/components/shell/page-header";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { CustomerSelect } from "../drivers/pickers";
import { loadVehicles, vehicleAction } from "./vehicles.server";
import { FormDialogFooter } from "~/components/form/dialog-footer";

/** User management › Vehicles: customers' vehicles, one default per customer (docs/rules/driver-services.md "Vehicles"). */
export function loader(args: LoaderFunctionArgs) {
  return loadVehicles(args);
}

export function action(args: ActionFunctionArgs) {
  return vehicleAction(args);
}

type Data = Awaited<ReturnType<typeof loader>>;
type Vehicle = Data["records"][number];

export default function Vehicles() {
  const page = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const { edit, remove } = useCommonRowActions();
  const fetcher = useFetcher<typeof action>();
  const [editing, setEditing] = useState<Vehicle | "new" | null>(null);

  useActionOutcome(fetcher, () => toast.success(t("driverServices.vehicles.deleted")));

  const columns: ColumnDef<Vehicle>[] = [
    { accessorKey: "name", header: t("driverServices.vehicles.name") },
    { accessorKey: "plate", header: t("driverServices.vehicles.plate"), cell: ({ row }) => <span className="font-mono text-xs">{row.original.plate}</span> },
    { accessorKey: "customerName", header: t("driverServices.vehicles.customer") },
    { id: "car", header: t("driverServices.vehicles.brandModel"), meta: { priority: 2 }, cell: ({ row }) => [row.original.brand, row.original.model].filter(Boolean).join(" ") || "—" },
    {
      accessorKey: "default",
      header: t("driverServices.vehicles.default"),
      meta: { priority: 2 },
      cell: ({ row }) => (row.original.default ? <Badge>{t("driverServices.vehicles.default")}</Badge> : "—"),
    },
    { accessorKey: "remark", header: t("driverServices.vehicles.remark"), meta: { priority: 3 }, cell: ({ row }) => row.original.remark ?? "—" },
    actionsColumn<Vehicle>(
      t("common.actions"),
      (vehicle) => [
        { label: t("driverServices.vehicles.bills"), icon: FileText, to: `/vehicleManage/list/accountBill/${vehicle.id}` },
        edit(() => setEditing(vehicle)),
        remove(() => fetcher.submit(JSON.stringify({ intent: "delete", id: vehicle.id }), { method: "post", encType: "application/json" })),
      ],
      260,
    ),
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("driverServices.vehicles.title")}
        actions={
          <Button onClick={() => setEditing("new")}>
            <Plus aria-hidden />
            {t("driverServices.vehicles.add")}
          </Button>
        }
      />
      <DataTableToolbar>
        <FilterText name="name" label={t("driverServices.vehicles.name")} />
        <FilterText name="plate" label={t("driverServices.vehicles.plate")} />
        <FilterText name="customer" label={t("driverServices.vehicles.customer")} />
      </DataTableToolbar>
      <DataTable columns={columns} page={page} onPageChange={onPageChange} getRowId={(r) => String(r.id)} emptyHint={t("driverServices.vehicles.empty")} label={t("driverServices.vehicles.title")} />
      {editing && <VehicleDialog vehicle={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

/** Add or edit a vehicle; the form and the verb share `vehicleInput`. */
function VehicleDialog({ vehicle, onClose }: { vehicle: Vehicle | null; onClose: () => void }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof action>();
  const form = useForm<VehicleFormValues>({
    resolver: zodResolver(vehicleInput) as Resolver<VehicleFormValues>,
    defaultValues: vehicle
      ? { name: vehicle.name, customerId: String(vehicle.customerId), plate: vehicle.plate, brand: vehicle.brand ?? "", model: vehicle.model ?? "", default: vehicle.default, remark: vehicle.remark ?? "" }
      : { name: "", customerId: "", plate: "", brand: "", model: "", default: false, remark: "" },
  });
  useActionOutcome(
    fetcher,
    () => {
      toast.success(t("driverServices.vehicles.saved"));
      onClose();
    },
    (name, message) => form.setError(name as keyof VehicleFormValues, { message }),
  );
  // The owner picker searches the server (docs/rules/lists.md "Pickers"); the vehicle's owner stays listed.
  const ownerId = useId();
  const owner = vehicle ? { id: vehicle.customerId, label: vehicle.customerName ?? String(vehicle.customerId) } : null;
  const submit = form.handleSubmit((values) =>
    fetcher.submit(JSON.stringify({ ...values, id: vehicle?.id }), { method: "post", encType: "application/json" }),
  );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{vehicle ? t("driverServices.vehicles.edit") : t("driverServices.vehicles.add")}</DialogTitle>
            <DialogDescription>{t("driverServices.vehicles.formHint")}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField control={form.control} name="name" label={t("driverServices.vehicles.name")} required />
            <TextField control={form.control} name="plate" label={t("driverServices.vehicles.plate")} required />
            <Controller
              control={form.control}
              name="customerId"
              render={({ field, fieldState }) => (
                <FormField id={ownerId} label={t("driverServices.vehicles.customer")} required error={fieldState.error?.message && t(fieldState.error.message)} className="sm:col-span-2">
                  <CustomerSelect
                    path="/customer-service/vehicle/customers"
                    id={ownerId}
                    value={field.value ? Number(field.value) : null}
                    onChange={(id) => field.onChange(id === null ? "" : String(id))}
                    current={owner}
                    invalid={Boolean(fieldState.error)}
                    describedBy={fieldState.error ? errorId(ownerId) : undefined}
                  />
                </FormField>
              )}
            />
            <TextField control={form.control} name="brand" label={t("driverServices.vehicles.brand")} />
            <TextField control={form.control} name="model" label={t("driverServices.vehicles.model")} />
            <TextField control={form.control} name="remark" label={t("driverServices.vehicles.remark")} className="sm:col-span-2" />
            <Controller
              control={form.control}
              name="default"
              render={({ field }) => (
                <div className="flex items-center gap-2 sm:col-span-2">
                  <Checkbox id="vehicle-default" checked={Boolean(field.value)} onCheckedChange={(checked) => field.onChange(checked === true)} />
                  <Label htmlFor="vehicle-default">{t("driverServices.vehicles.makeDefault")}</Label>
                </div>
              )}
            />
          </div>
          <FormDialogFooter onCancel={onClose} busy={fetcher.state !== "idle"} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
