import { ArrowLeft, KeyRound, Send } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLoaderData, type LoaderFunctionArgs } from "react-router";
import { DetailList } from "~/components/detail-list";
import { useFormat } from "~/components/format";
import { PageHeader } from "~/components/shell/page-header";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { HeaderLink } from "~/components/page-actions";
import { useLivePoint } from "~/lib/live";
import { OnlineBadge, PushStatusBadge } from "./point-parts";
import { loadPointConfig } from "./point-detail.server";
import { ChargerKeyDialog } from "./point-detail/charger-key-dialog";
import { ConfigurationTab, LocalListTab } from "./point-detail/configuration-tab";

/**
 * Equipment › Charging point configuration (`pointConfig`): what the platform has set on the
 * charger — its key, what has been pushed to it (docs/rules/equipment.md "Point pages") — and
 * the charger's own OCPP configuration keys and local list.
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPointConfig(args);
}

export default function PointConfig() {
  const { point, setup } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const live = useLivePoint(point.id);
  const online = live?.online ?? point.online;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={t("points.configTitle", { name: point.name })}
        description={
          <span className="flex items-center gap-2">
            <span className="font-mono">{point.serialNumber}</span>
            <OnlineBadge online={online} />
          </span>
        }
        actions={
          <HeaderLink to={`/equipmentManagement/point/pointDetail/${point.id}`} icon={ArrowLeft} label={t("common.back")} variant="outline" />
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <KeyRound className="size-4 text-primary" aria-hidden />
              {t("points.key.title")}
            </CardTitle>
            <CardDescription>{t("points.key.description")}</CardDescription>
            <CardAction>
              <ChargerKeyDialog pointId={point.id} serialNumber={point.serialNumber} setup={setup} hasKey={point.hasKey} online={online} />
            </CardAction>
          </CardHeader>
          <CardContent>
            <DetailList
              items={[
                [t("points.fields.key"), point.hasKey ? t("points.key.set") : t("points.key.none")],
                [t("points.key.setAtLabel"), dateTime(point.keySetAt) || "—"],
              ]}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Send className="size-4 text-primary" aria-hidden />
              {t("points.push.title")}
            </CardTitle>
            <CardDescription>{t("points.push.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <DetailList
              items={[
                [t("points.fields.pricePushStatus"), <PushStatusBadge status={point.pricePushStatus} />],
                [t("points.fields.currencyPushStatus"), <PushStatusBadge status={point.currencyPushStatus} />],
                [t("points.fields.preAuthPushStatus"), <PushStatusBadge status={point.preAuthPushStatus} />],
                [t("points.fields.pushedAt"), dateTime(point.pushedAt) || "—"],
              ]}
            />
          </CardContent>
        </Card>
      </div>
      <ConfigurationTab pointId={point.id} online={online} />
      <LocalListTab pointId={point.id} online={online} />
    </div>
  );
}
