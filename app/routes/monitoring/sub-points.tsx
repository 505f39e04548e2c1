import { useTranslation } from "react-i18next";
import { useLoaderData, useSearchParams, type LoaderFunctionArgs } from "react-router";
import { DataTableToolbar } from "~/components/data-table/toolbar";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { LiveIndicator } from "~/components/live/live-indicator";
import { PageHeader } from "~/components/shell/page-header";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
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
        <NativeSelect name="stationId" aria-label={t("monitoring.common.station")} defaultValue={params.get("stationId") ?? ""}>
          <option value="">{t("monitoring.common.allStations")}</option>
          {stations.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </NativeSelect>
        <Input name="serialNumber" placeholder={t("monitoring.common.serialOrName")} aria-label={t("monitoring.common.serialOrName")} defaultValue={params.get("serialNumber") ?? ""} />
      </DataTableToolbar>
      <SubPointTable page={page} onPageChange={onPageChange} emptyHint={t("monitoring.sub.pointsEmpty")} />
    </div>
  );
}
