import { useTranslation } from "react-i18next";
import { useLoaderData, useRevalidator, type LoaderFunctionArgs } from "react-router";
import { DataTablePagination } from "~/components/data-table/pagination";
import { useUrlPaging } from "~/components/data-table/use-url-paging";
import { LiveIndicator } from "~/components/live/live-indicator";
import { PointPanel } from "~/components/live/point-panel";
import { PageHeader } from "~/components/shell/page-header";
import { loadRemoteControl } from "./remote-control.server";
import { StationBar } from "./station-bar";

/**
 * Equipment › Remote control (docs/rules/monitoring.md "Remote-control panel"): a panel per
 * charging point of the chosen location, live through `/live`, with the charger commands.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadRemoteControl(args);
}

export default function RemoteControl() {
  const { stations, panel, remoteIdTag } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { onPageChange } = useUrlPaging();
  const { revalidate } = useRevalidator();

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={t("menu.equipment.remoteControl")} description={t("monitoring.remote.description")} actions={<LiveIndicator />} />
      {stations.length === 0 || !panel ? (
        // The panel needs a base, a location, to manage from (docs/rules/monitoring.md "Remote-control panel").
        <p className="rounded-lg border border-dashed p-10 text-center text-sm text-muted-foreground">{t("errors.noBase")}</p>
      ) : (
        <>
          <StationBar id="remote-station" label={t("monitoring.remote.pickStation")} stations={stations} stationId={panel.station.id}>
            {panel.station.address && <span className="truncate text-sm text-muted-foreground">{panel.station.address}</span>}
          </StationBar>
          {panel.records.length === 0 ? (
            <p className="rounded-lg border border-dashed p-10 text-center text-sm text-muted-foreground">{t("monitoring.remote.noPoints")}</p>
          ) : (
            <div className="grid gap-4 xl:grid-cols-2">
              {panel.records.map((point) => (
                <PointPanel key={point.id} point={point} remoteIdTag={remoteIdTag} onChanged={() => void revalidate()} />
              ))}
            </div>
          )}
          {panel.total > panel.size && <DataTablePagination total={panel.total} current={panel.current} size={panel.size} onPageChange={onPageChange} />}
        </>
      )}
    </div>
  );
}
