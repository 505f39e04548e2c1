import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { SubRecordActions } from "./sub-record-actions";
import { loadSubStation } from "./sub-operator.server";
import { SubPointTable } from "./sub-point-table";

/** Sub-operator › one location with the charging points of it that are assigned to the sub-operator. */
export function loader(args: LoaderFunctionArgs) {
  return loadSubStation(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.station.name };

export default function SubStationDetail() {
  const { station, points } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { power } = useFormat();
  const { onPageChange } = useUrlPaging();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={station.name} description={station.address} actions={<SubRecordActions backTo="/suboperators/station" />} />
      <Card>
        <CardContent>
          <DetailList
            items={[
              [t("monitoring.common.address"), station.address || "—"],
              [t("monitoring.common.status"), <StatusBadge status={station.status} />],
              [t("monitoring.sub.servicePhone"), station.servicePhone || "—"],
              [t("monitoring.sub.businessHours"), station.businessHours || "—"],
              [t("monitoring.load.limit"), station.powerLimit === null ? t("monitoring.load.noLimit") : power(station.powerLimit)],
              [t("monitoring.common.coordinates"), station.lat && station.lng ? `${station.lat}, ${station.lng}` : "—"],
            ]}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("monitoring.sub.pointsOfStation")}</CardTitle>
        </CardHeader>
        <CardContent>
          <SubPointTable page={points} onPageChange={onPageChange} emptyHint={t("monitoring.sub.pointsEmpty")} />
        </CardContent>
      </Card>
    </div>
  );
}
