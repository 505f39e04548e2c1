import { ImageOff, Pencil, PlugZap } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLoaderData, useNavigate, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { ConnectorStatusBadge } from "~/components/live/status-badges";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { RowsCard } from "~/components/rows-table";
import { TableCell, TableHead, TableRow } from "~/components/ui/table";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { HeaderLink } from "~/components/page-actions";
import { MapPicker } from "./map-picker";
import { PublishToggle } from "../cpo/publish-toggle";
import { StatusToggle, useStationActions } from "./station-actions";
import { loadStationDetail, stationAction } from "./stations.server";

/** A location with all its fields, where it is, and its charging points (docs/rules/equipment.md "Stations"). */
export function loader(args: LoaderFunctionArgs) {
  return loadStationDetail(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.station.name };

export function action(args: ActionFunctionArgs) {
  return stationAction(args);
}

const BASE = "/equipmentManagement/station";

export default function StationDetail() {
  const { station, points, others } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { money, dateTime, power } = useFormat();
  const navigate = useNavigate();
  const { toggle, busy } = useStationActions(() => navigate(BASE));
  const dash = "—";

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            {station.name}
            <StatusBadge status={station.status} />
          </span>
        }
        description={station.address}
        actions={
          <>
            <HeaderLink to={BASE} label={t("common.back")} variant="outline" />
            <HeaderLink to={`${BASE}/startPoint?stationId=${station.id}`} icon={PlugZap} label={t("stations.startCharging")} variant="outline" />
            <StatusToggle station={station} onChangeStatus={toggle} busy={busy} variant={station.status === "VALID" ? "outline" : "default"} />
            <HeaderLink to={`${BASE}/stationAdd?id=${station.id}`} icon={Pencil} label={t("common.edit")} variant="outline" />
          </>
        }
      />

      <div className="grid gap-4 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <CardTitle>{t("stations.sections.general")}</CardTitle>
          </CardHeader>
          <CardContent>
            <DetailList
              items={[
                [t("stations.fields.rank"), <span className="tabular-nums">{station.rank}</span>],
                [t("stations.fields.servicePhone"), station.servicePhone ?? dash],
                [t("stations.fields.maintainer"), station.maintainer ?? dash],
                [t("stations.fields.businessHours"), station.businessHours ?? dash],
                [
                  t("stations.fields.parkingFee"),
                  station.parkingFee && station.parkingFeeAmount !== null
                    ? `${t("stations.parking.paid")} · ${money(station.parkingFeeAmount)}`
                    : t("stations.parking.free"),
                ],
                [t("stations.fields.price"), station.price ?? dash],
                [t("stations.fields.powerLimit"), station.powerLimit === null ? dash : power(station.powerLimit)],
                [t("stations.fields.timeZone"), station.timeZone ?? dash],
                [
                  t("stations.fields.connectors"),
                  <span className="tabular-nums">
                    AC {station.connectors.ac} · DC {station.connectors.dc}
                  </span>,
                ],
                [t("ocpi.cpo.location.toggle"), <PublishToggle station={station} />],
                [t("common.createdAt"), dateTime(station.createdAt)],
                [t("stations.fields.updatedAt"), dateTime(station.updatedAt)],
              ]}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t("stations.sections.location")}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <MapPicker lat={station.lat ?? undefined} lng={station.lng ?? undefined} others={others} />
            <p className="font-mono text-xs text-muted-foreground tabular-nums">
              {station.lat && station.lng ? `${station.lat}, ${station.lng}` : t("stations.map.none")}
            </p>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{t("stations.sections.about")}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 sm:flex-row">
          <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-muted/40">
            {station.logoUrl ? (
              <img src={station.logoUrl} alt={t("stations.fields.logo")} className="size-16 object-contain" />
            ) : (
              <ImageOff className="size-6 text-muted-foreground" aria-label={t("stations.logo.none")} />
            )}
          </div>
          {station.mapIconUrl && (
            <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-muted/40">
              <img src={station.mapIconUrl} alt={t("stations.fields.mapIcon")} className="size-12 object-contain" />
            </div>
          )}
          <p className="text-sm whitespace-pre-line">{station.description ?? dash}</p>
        </CardContent>
      </Card>

      <RowsCard
        title={t("stations.points.title")}
        empty={<p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">{t("stations.points.empty")}</p>}
        head={
          <>
            <TableHead>{t("stations.points.serialNumber")}</TableHead>
            <TableHead>{t("stations.points.name")}</TableHead>
            <TableHead>{t("stations.points.type")}</TableHead>
            <TableHead>{t("stations.points.status")}</TableHead>
            <TableHead>{t("stations.points.online")}</TableHead>
            <TableHead>{t("stations.points.connectors")}</TableHead>
          </>
        }
        rows={points.map((point) => (
          <TableRow key={point.id}>
            <TableCell>
              <Link to={`/equipmentManagement/point/pointDetail/${point.id}`} className="font-mono text-xs font-medium hover:underline">
                {point.serialNumber}
              </Link>
            </TableCell>
            <TableCell>{point.name}</TableCell>
            <TableCell>{point.type}</TableCell>
            <TableCell>
              <StatusBadge status={point.status} />
            </TableCell>
            <TableCell className={point.online ? "text-success" : "text-muted-foreground"}>{t(`stations.online.${point.online}`)}</TableCell>
            <TableCell>
              <div className="flex flex-wrap gap-1">
                {point.connectors.map((c) => (
                  <ConnectorStatusBadge key={c.id} no={c.connectorId} status={c.status} />
                ))}
              </div>
            </TableCell>
          </TableRow>
        ))}
      />
    </div>
  );
}
