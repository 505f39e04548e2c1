import { ArrowLeft, Pencil, Power, PowerOff, Settings2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import {
  Link,
  useFetcher,
  useLoaderData,
  useSearchParams,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { useFormat } from "~/components/format";
import { HeaderLink, useActionOutcome } from "~/components/page-actions";
import { ProtocolBadge } from "~/components/protocol-badge";
import { PageHeader } from "~/components/shell/page-header";
import { StatusBadge } from "~/components/status-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { toast } from "~/components/ui/toast";
import type { RecordCrumb } from "~/components/shell/breadcrumbs";
import { useLivePoint } from "~/lib/live";
import { speaks201 } from "../../../domain/schemas/equipment";
import { commandProtocol } from "../../../domain/schemas/remote-control";
import { OnlineBadge } from "./point-parts";
import { loadPointDetail, setPointStatusAction } from "./point-detail.server";
import { CertificatesTab } from "./point-detail/certificates-tab";
import { ChargerKeyDialog } from "./point-detail/charger-key-dialog";
import { ConnectionCard } from "./point-detail/connection-card";
import { ConfigurationTab, LocalListTab } from "./point-detail/configuration-tab";
import { DeviceModelTab } from "./point-detail/device-model-tab";
import { DisplayMessageDialog } from "./point-detail/display-message-dialog";
import { DiagnosticsTab } from "./point-detail/diagnostics-tab";
import { GeneralTab } from "./point-detail/general-tab";
import { QuarantineCard } from "./point-detail/quarantine-card";
import { OcppLogTab } from "./point-detail/ocpp-log-tab";
import { OperationsTab } from "./point-detail/operations-tab";
import { RecordsTab } from "./point-detail/records-tab";

/**
 * Equipment › Charging point detail: general, charge record, OCPP log, configuration, local list,
 * diagnostics, certificates, operations (docs/rules/equipment.md "Point pages").
 */
export function loader(args: LoaderFunctionArgs) {
  return loadPointDetail(args);
}

export const handle: RecordCrumb<typeof loader> = { record: (data) => data.point.serialNumber };

export function action(args: ActionFunctionArgs) {
  return setPointStatusAction(args);
}

/**
 * Switching tabs changes only `?tab=`: the point need not be read again for that. A revalidation
 * on the same URL (after the key dialog, say) reads it again.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.href === nextUrl.href || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const withoutTab = (url: URL) => {
    const search = new URLSearchParams(url.search);
    search.delete("tab");
    return search.toString();
  };
  return withoutTab(currentUrl) === withoutTab(nextUrl) ? false : defaultShouldRevalidate;
}

const TABS = ["general", "records", "log", "configuration", "localList", "diagnostics", "certificates", "operations"] as const;
type Tab = (typeof TABS)[number];

export default function PointDetail() {
  const { point, report, setup, origin } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { power } = useFormat();
  const [params, setParams] = useSearchParams();
  const confirm = useConfirm();
  const fetcher = useFetcher<typeof action>();
  const live = useLivePoint(point.id);
  const online = live?.online ?? point.online;
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "") ? (params.get("tab") as Tab) : "general";

  useActionOutcome<{ status: string }>(fetcher, (data) => toast.success(t(data.status === "VALID" ? "points.enabled" : "points.disabled")));

  const toggle = async () => {
    const enabling = point.status !== "VALID";
    const ok = await confirm({
      message: t(enabling ? "points.confirmEnable" : "points.confirmDisable", { name: point.name }),
      destructive: !enabling,
      confirmLabel: t(enabling ? "common.enable" : "common.disable"),
    });
    if (ok) fetcher.submit({ status: enabling ? "VALID" : "INVALID" }, { method: "post" });
  };

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            {point.name}
            <StatusBadge status={point.status} />
            <OnlineBadge online={online} />
            <ProtocolBadge point={point} online={online} />
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-mono">{point.serialNumber}</span>
            <span aria-hidden>·</span>
            <span>{point.stationName}</span>
            <Badge variant={point.type === "AC" ? "info" : "success"}>{t(`points.types.${point.type}`)}</Badge>
            <span className="tabular-nums">{power(point.ratedPower)}</span>
          </span>
        }
        actions={
          <>
            <HeaderLink to="/equipmentManagement/point" icon={ArrowLeft} label={t("common.back")} variant="outline" />
            {/* Display messages are 2.0.1's (O01): a 1.6 point has none. */}
            {commandProtocol(point.ocppVersion, online ? point.connectedVersion : null) === "2.0.1" && (
              <DisplayMessageDialog pointId={point.id} evseCount={point.connectorCount} online={online} />
            )}
            <ChargerKeyDialog pointId={point.id} serialNumber={point.serialNumber} setup={setup} hasKey={point.hasKey} online={online} />
            <HeaderLink to={`/equipmentManagement/point/pointConfig/${point.id}`} icon={Settings2} label={t("points.configPage")} variant="outline" />
            <Button variant="outline" onClick={() => void toggle()} disabled={fetcher.state !== "idle"}>
              {point.status === "VALID" ? <PowerOff aria-hidden /> : <Power aria-hidden />}
              {t(point.status === "VALID" ? "common.disable" : "common.enable")}
            </Button>
            <Button asChild>
              <Link to={`/equipmentManagement/point/pointEdit/${point.id}`}>
                <Pencil aria-hidden />
                {t("common.edit")}
              </Link>
            </Button>
          </>
        }
      />
      <Tabs
        value={tab}
        onValueChange={(next) =>
          setParams(
            (previous) => {
              const search = new URLSearchParams(previous);
              if (next === "general") search.delete("tab");
              else search.set("tab", next);
              return search;
            },
            { replace: true, preventScrollReset: true },
          )
        }
      >
        <TabsList aria-label={t("points.tabs.label")}>
          {TABS.map((name) => (
            <TabsTrigger key={name} value={name}>
              {t(`points.tabs.${name}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="general" className="flex flex-col gap-4">
          <QuarantineCard point={point} />
          <ConnectionCard point={point} operatorCode={setup.operatorCode} origin={origin} />
          <GeneralTab point={point} online={online} connectorsLive={live?.connectors} report={report} />
        </TabsContent>
        <TabsContent value="records">
          <RecordsTab pointId={point.id} />
        </TabsContent>
        <TabsContent value="log">
          <OcppLogTab serialNumber={point.serialNumber} protocol={{ ocppVersion: point.ocppVersion, connectedVersion: online ? point.connectedVersion : null }} />
        </TabsContent>
        <TabsContent value="configuration">
          {speaks201({ ocppVersion: point.ocppVersion, connectedVersion: online ? point.connectedVersion : null }) ? (
            <DeviceModelTab pointId={point.id} online={online} />
          ) : (
            <ConfigurationTab pointId={point.id} online={online} />
          )}
        </TabsContent>
        <TabsContent value="localList">
          <LocalListTab pointId={point.id} online={online} />
        </TabsContent>
        <TabsContent value="diagnostics">
          <DiagnosticsTab pointId={point.id} online={online} />
        </TabsContent>
        <TabsContent value="certificates">
          <CertificatesTab pointId={point.id} online={online} />
        </TabsContent>
        <TabsContent value="operations">
          <OperationsTab point={point} online={online} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
