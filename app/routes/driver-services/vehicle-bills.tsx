import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { FactsCard } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { RecordStatusBadge } from "~/components/records/record-status";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { RecentRowsCard } from "~/components/recent-rows-card";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import { HeaderLink } from "~/components/page-actions";
import { BillStatusBadge } from "../wallets/bill-parts";
import { loadVehicleBills } from "./vehicles.server";

/**
 * A vehicle's sessions and bills (docs/rules/driver-services.md "Vehicles"). A session is paid by
 * the driver behind its tag, not by a car, so the page shows the owner's latest charge records and
 * bills (each only to a user whose menus hold that list), and links to the whole lists filtered on
 * the server by the customer.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadVehicleBills(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.vehicle.plate };

type Data = Awaited<ReturnType<typeof loader>>;

export default function VehicleBills() {
  const { vehicle, records, bills } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`${vehicle.name} · ${vehicle.plate}`}
        description={t("driverServices.vehicles.billsTitle")}
        actions={
          <HeaderLink to="/vehicleManage/list" label={t("common.back")} variant="outline" />
        }
      />
      <FactsCard
        items={[
          [t("driverServices.vehicles.customer"), vehicle.customerName ?? "—"],
          [t("driverServices.vehicles.brandModel"), [vehicle.brand, vehicle.model].filter(Boolean).join(" ") || "—"],
          [t("driverServices.vehicles.default"), vehicle.default ? t("driverServices.common.yes") : t("driverServices.common.no")],
          [t("driverServices.vehicles.remark"), vehicle.remark ?? "—"],
        ]}
      />
      <p className="text-sm text-muted-foreground">{t("driverServices.vehicles.billsOfOwner")}</p>
      {records && <OwnerRecords records={records.records} customerId={vehicle.customerId} />}
      {bills && <OwnerBills bills={bills.records} customerId={vehicle.customerId} />}
    </div>
  );
}

/** One of the owner's lists, with a link to the whole list filtered by the customer. */
function OwnerSection({ title, allTo, allLabel, empty, heads, rows }: { title: string; allTo: string; allLabel: string; empty: string; heads: string[]; rows: ReactNode[] }) {
  return (
    <RecentRowsCard
      title={title}
      action={
        <Button asChild variant="outline" size="sm">
          <Link to={allTo}>{allLabel}</Link>
        </Button>
      }
      empty={empty}
      head={heads.map((head) => (
        <TableHead key={head}>{head}</TableHead>
      ))}
      rows={rows}
    />
  );
}

function OwnerRecords({ records, customerId }: { records: NonNullable<Data["records"]>["records"]; customerId: number }) {
  const { t } = useTranslation();
  const { dateTime, energy, money } = useFormat();
  return (
    <OwnerSection
      title={t("driverServices.vehicles.ownerRecords")}
      allTo={`/financialManagement/chargeRecord?customerId=${customerId}`}
      allLabel={t("driverServices.vehicles.allRecords")}
      empty={t("driverServices.vehicles.noRecords")}
      heads={[t("records.fields.transactionId"), t("records.fields.point"), t("records.fields.startAt"), t("records.fields.energy"), t("records.fields.totalCost"), t("records.fields.status")]}
      rows={records.map((r) => (
        <TableRow key={r.id}>
          <TableCell className="font-mono">{r.transactionId}</TableCell>
          <TableCell>{r.serialNumber ?? r.stationName ?? "—"}</TableCell>
          <TableCell>{dateTime(r.startAt)}</TableCell>
          <TableCell className="tabular-nums">{r.energyWh === null ? "—" : energy(r.energyWh)}</TableCell>
          <TableCell className="tabular-nums">{r.totalCost === null ? t("records.fields.notPriced") : money(r.totalCost)}</TableCell>
          <TableCell>
            <RecordStatusBadge status={r.status} />
          </TableCell>
        </TableRow>
      ))}
    />
  );
}

function OwnerBills({ bills, customerId }: { bills: NonNullable<Data["bills"]>["records"]; customerId: number }) {
  const { t } = useTranslation();
  const { dateTime, money } = useFormat();
  return (
    <OwnerSection
      title={t("driverServices.vehicles.ownerBills")}
      allTo={`/financialManagement/billManagement?customerId=${customerId}`}
      allLabel={t("driverServices.vehicles.allBills")}
      empty={t("driverServices.vehicles.noBills")}
      heads={[t("wallets.bills.fields.id"), t("wallets.bills.fields.createdAt"), t("wallets.bills.fields.type"), t("wallets.bills.fields.cost"), t("wallets.bills.fields.status")]}
      rows={bills.map((b) => (
        <TableRow key={b.id}>
          <TableCell className="font-mono">{b.id}</TableCell>
          <TableCell>{dateTime(b.createdAt)}</TableCell>
          <TableCell>{t(`wallets.bills.types.${b.type}`)}</TableCell>
          <TableCell className="tabular-nums">{money(b.cost)}</TableCell>
          <TableCell>
            <BillStatusBadge status={b.status} />
          </TableCell>
        </TableRow>
      ))}
    />
  );
}
