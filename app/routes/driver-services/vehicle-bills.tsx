import { ReceiptText } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DetailList } from "~/components/detail-list";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { PageHeader } from "~/components/shell/page-header";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { loadVehicle } from "./vehicles.server";

/**
 * A vehicle's sessions and bills (docs/rules/driver-services.md "Vehicles"). A session is paid by
 * the driver behind its tag, not by a car, so the page leads to the owner's charge records and
 * bills, each list filtered on the server by the customer.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadVehicle(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (vehicle) => vehicle.plate };

export default function VehicleBills() {
  const vehicle = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`${vehicle.name} · ${vehicle.plate}`}
        description={t("driverServices.vehicles.billsTitle")}
        actions={
          <Button asChild variant="outline">
            <Link to="/vehicleManage/list">{t("common.back")}</Link>
          </Button>
        }
      />
      <Card>
        <CardContent className="pt-6">
          <DetailList
            items={[
              [t("driverServices.vehicles.customer"), vehicle.customerName ?? "—"],
              [t("driverServices.vehicles.brandModel"), [vehicle.brand, vehicle.model].filter(Boolean).join(" ") || "—"],
              [t("driverServices.vehicles.default"), vehicle.default ? t("driverServices.common.yes") : t("driverServices.common.no")],
              [t("driverServices.vehicles.remark"), vehicle.remark ?? "—"],
            ]}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("driverServices.vehicles.billsTitle")}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col items-center gap-3 py-8 text-center">
          <ReceiptText aria-hidden className="size-8 text-muted-foreground" />
          <p className="text-muted-foreground">{t("driverServices.vehicles.billsOfOwner")}</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild variant="outline">
              <Link to={`/financialManagement/chargeRecord?customerId=${vehicle.customerId}`}>{t("driverServices.vehicles.ownerRecords")}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={`/financialManagement/billManagement?customerId=${vehicle.customerId}`}>{t("driverServices.vehicles.ownerBills")}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
