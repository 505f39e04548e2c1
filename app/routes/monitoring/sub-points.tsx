import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { SerialNumberPicker } from "~/components/form/serial-number-picker";
import { FilterSelect } from "~/components/data-table/filter-select";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { LiveIndicator } from "~/components/live/live-indicator";
import { PageHeader } from "~/components/shell/page-header";
import { loadSubPoints } from "./sub-operator.server";
import { SubPointTable } from "./sub-point-table";

/** Sub-operator › Charging points: the points assigned to it, live (docs/rules/monitoring.md "Sub-operator views"). */
export function loader(args: LoaderFunctionArgs) {
  return loadSubPoints(args);
}

export default function SubPoints() {
  const { page, stations } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const [params] = useSearchParams();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.sub.equipment.point")} description={t("monitoring.sub.pointsDescription")} actions={<LiveIndicator />} />
      <DataTableToolbar>
        <FilterSelect name="stationId" label={t("monitoring.common.station")} all={t("monitoring.common.allStations")} options={stations.map((s) => [s.id, s.name] as const)} />
        <SerialNumberPicker name="serialNumber" placeholder={t("monitoring.common.serialOrName")} aria-label={t("monitoring.common.serialOrName")} defaultValue={params.get("serialNumber") ?? ""} />
      </DataTableToolbar>
      <SubPointTable page={page} onPageChange={onPageChange} emptyHint={t("monitoring.sub.pointsEmpty")} />
    </div>
  );
}
