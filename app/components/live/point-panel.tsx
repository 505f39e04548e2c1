import { ChevronDown, LoaderCircle, LockOpen, Play, RefreshCw, RotateCcw, Square, Tag, Wrench, type LucideIcon } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { canStart, canStop, deviceState } from "../../../domain/connector-status";
import { commandProtocol } from "../../../domain/schemas/remote-control";
import { PointOperations, useMenuOpens, type CommandAction } from "~/components/operations/point-operations";
import { orDash, useFormat } from "~/components/format";
import { ProtocolBadge, type PointProtocol } from "~/components/protocol-badge";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { useConfirm } from "~/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toast";
import { ApiError, useApi } from "~/lib/api";
import { cn } from "~/lib/cn";
import { useLivePoint } from "~/lib/live";
import { liveOnline, liveReadings, liveStatus } from "./live-state";
import { useChargePageUrl } from "~/lib/charge-page-url";
import { QrCode } from "./qr-code";
import { IdTagField, remoteStartBody } from "./remote-start";
import { ConnectorStatusBadge, DeviceStateBadge } from "./status-badges";

/** A point as the station panel's loader answers it. */
export interface PanelPoint extends PointProtocol {
  id: number;
  serialNumber: string;
  name: string;
  type: string;
  ratedPower: number;
  status: "VALID" | "INVALID";
  online: boolean;
  firmwareVersion: string | null;
  connectors: {
    connectorId: number;
    name: string | null;
    standard: string;
    power: number;
    status: string | null;
    transactionId: number | null;
  }[];
}

/** Power is a number with at most two decimals (docs/rules/monitoring.md "Remote-control panel"). */
const POWER = /^\d+(\.\d{1,2})?$/;

/**
 * The panel of one point (docs/rules/monitoring.md "Remote-control panel"): serial number, online
 * state, live and rated power, QR code; reset (soft and force), refresh status and refresh
 * version, each blocked with a prompt while the point is offline; and a row per connector with
 * its status, power, current and voltage and the unlock, stop (only while Charging) and start
 * (only from Available or Preparing) commands. A success message on success; on failure the mask
 * closes and the error shows (docs/rules/console.md "API client").
 */
export function PointPanel({ point, remoteIdTag, onChanged }: { point: PanelPoint; remoteIdTag: string; onChanged?: () => void }) {
  const { t } = useTranslation();
  const qrValue = useChargePageUrl(point.serialNumber);
  const { number, power, livePower, current, voltage } = useFormat();
  const api = useApi();
  const confirm = useConfirm();
  const live = useLivePoint(point.id);
  const online = liveOnline(live, point.online);
  const [busy, setBusy] = useState(false);
  const [starting, setStarting] = useState<PanelPoint["connectors"][number] | null>(null);
  const [operation, setOperation] = useState<CommandAction | null>(null);

  const statuses = point.connectors.map((c) => liveStatus(live, point.online, c.connectorId, c.status));
  const state = deviceState(online, [...statuses, live?.connectors[0]?.status]);
  const powerW = online ? point.connectors.reduce((sum, c) => sum + (liveReadings(live, c.connectorId).powerW ?? 0), 0) : 0;
  const share = point.ratedPower > 0 ? Math.min(100, (powerW / 1000 / point.ratedPower) * 100) : 0;

  /** Runs a command with the loading mask; offline points get the offline prompt instead (docs/rules/console.md "API client"). */
  async function run(send: () => Promise<unknown>, success: string) {
    if (!online) {
      toast.warning(t("errors.pointOffline"));
      return false;
    }
    setBusy(true);
    try {
      await send();
      toast.success(success);
      onChanged?.();
      return true;
    } catch (error) {
      // The API client has shown the server's message; the mask just closes (docs/rules/console.md "API client").
      if (!(error instanceof ApiError)) throw error;
      return false;
    } finally {
      setBusy(false);
    }
  }

  const reset = async (type: "Soft" | "Hard") => {
    if (!online) return toast.warning(t("errors.pointOffline"));
    const message = t(type === "Soft" ? "monitoring.remote.confirmSoft" : "monitoring.remote.confirmHard", { serial: point.serialNumber });
    if (!(await confirm({ message, destructive: type === "Hard", confirmLabel: t(type === "Soft" ? "monitoring.remote.softReset" : "monitoring.remote.hardReset") }))) return;
    await run(() => api.put("/station-service/monitoring/reset/point/{serialNumber}", { params: { serialNumber: point.serialNumber }, body: { type } }), t("monitoring.remote.resetSent"));
  };
  const trigger = (requestedMessage: "StatusNotification" | "BootNotification") =>
    run(
      () => api.put("/station-service/monitoring/point/triggerMessage/{serialNumber}", { params: { serialNumber: point.serialNumber }, body: { requestedMessage } }),
      t(requestedMessage === "StatusNotification" ? "monitoring.remote.statusRefreshed" : "monitoring.remote.versionRefreshed"),
    );
  const unlock = async (connectorId: number) => {
    if (!online) return toast.warning(t("errors.pointOffline"));
    if (!(await confirm({ message: t("monitoring.remote.confirmUnlock", { no: connectorId, serial: point.serialNumber }), confirmLabel: t("monitoring.remote.unlock") }))) return;
    await run(() => api.put("/station-service/remoteControl/unlockConnector/{id}", { params: { id: point.id }, body: { connectorId } }), t("monitoring.remote.unlocked"));
  };
  const stop = async (connector: PanelPoint["connectors"][number]) => {
    const transactionId = liveReadings(live, connector.connectorId).transactionId ?? connector.transactionId;
    if (!transactionId) return toast.warning(t("monitoring.remote.noTransaction"));
    if (!(await confirm({ message: t("monitoring.remote.confirmStop", { no: connector.connectorId, serial: point.serialNumber }), destructive: true, confirmLabel: t("monitoring.remote.stop") }))) return;
    await run(() => api.put("/station-service/remoteControl/{id}/remoteStop/{transaction}", { params: { id: point.id, transaction: transactionId } }), t("monitoring.remote.stopped"));
  };

  return (
    <Card className="relative gap-0 overflow-hidden py-0" data-testid={`point-panel-${point.serialNumber}`} aria-busy={busy}>
      <div className="flex gap-4 border-b p-4">
        <QrCode value={qrValue} label={t("monitoring.remote.qr", { serial: point.serialNumber })} className="shrink-0 border p-0.5" />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-mono text-sm font-semibold">{point.serialNumber}</span>
            <DeviceStateBadge state={state} />
            <ProtocolBadge point={point} online={online} />
            {point.status === "INVALID" && <Badge variant="muted">{t("monitoring.remote.disabledPoint")}</Badge>}
          </div>
          <p className="truncate text-sm text-muted-foreground">
            {point.name} · {point.type}
            {point.firmwareVersion && <span className="ml-1">· {point.firmwareVersion}</span>}
          </p>
          <div className="mt-auto">
            <div className="flex items-baseline justify-between text-sm">
              <span className="text-muted-foreground">{t("monitoring.common.livePower")}</span>
              <span className="font-medium tabular-nums" data-testid="point-power">
                {number(powerW / 1000, 2)} / {power(point.ratedPower)}
              </span>
            </div>
            <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-muted" aria-hidden>
              <div className="h-full rounded-full bg-primary transition-[width] duration-700" style={{ width: `${share}%` }} />
            </div>
          </div>
        </div>
      </div>

      <div className="flex flex-wrap gap-2 border-b px-4 py-3">
        <MenuButton icon={RotateCcw} label={t("monitoring.remote.reset")}>
          <DropdownMenuItem onSelect={() => void reset("Soft")}>{t("monitoring.remote.softReset")}</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void reset("Hard")} className="text-destructive focus:text-destructive">
            {t("monitoring.remote.hardReset")}
          </DropdownMenuItem>
        </MenuButton>
        <Button variant="outline" size="sm" onClick={() => void trigger("StatusNotification")}>
          <RefreshCw aria-hidden />
          {t("monitoring.remote.refreshStatus")}
        </Button>
        <Button variant="outline" size="sm" onClick={() => void trigger("BootNotification")}>
          <Tag aria-hidden />
          {t("monitoring.remote.refreshVersion")}
        </Button>
        <MenuButton icon={Wrench} label={t("pointOperations.more")}>
          {PANEL_OPERATIONS.map((action) => (
            <DropdownMenuItem key={action} onSelect={() => setOperation(action)}>
              {action}
            </DropdownMenuItem>
          ))}
        </MenuButton>
      </div>

      {!online && <p className="border-b bg-muted/40 px-4 py-2 text-xs text-muted-foreground">{t("monitoring.remote.offlineNote")}</p>}

      <ul className="divide-y">
        {point.connectors.map((connector, index) => {
          const status = statuses[index];
          const readings = liveReadings(live, connector.connectorId);
          return (
            <li key={connector.connectorId} className="grid gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center" data-testid={`connector-${connector.connectorId}`}>
              <div className="flex min-w-0 flex-col gap-1.5">
                <div className="flex items-center gap-2">
                  <span className="text-sm font-medium">{t("monitoring.common.connectorNo", { no: connector.connectorId })}</span>
                  <span className="text-xs text-muted-foreground">
                    {connector.standard} · {power(connector.power)}
                  </span>
                  <ConnectorStatusBadge status={status} />
                </div>
                <dl className="flex gap-4 text-xs text-muted-foreground tabular-nums">
                  <div className="flex gap-1">
                    <dt>{t("monitoring.common.power")}</dt>
                    <dd className="font-medium text-foreground" data-testid="connector-power">
                      {status ? orDash(readings.powerW, livePower) : "—"}
                    </dd>
                  </div>
                  <div className="flex gap-1">
                    <dt>{t("monitoring.common.current")}</dt>
                    <dd className="font-medium text-foreground">{status ? orDash(readings.currentA, current) : "—"}</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt>{t("monitoring.common.voltage")}</dt>
                    <dd className="font-medium text-foreground">{status ? orDash(readings.voltageV, voltage) : "—"}</dd>
                  </div>
                </dl>
              </div>
              <div className="flex flex-wrap gap-1.5 sm:justify-end">
                <Button variant="ghost" size="sm" onClick={() => void unlock(connector.connectorId)}>
                  <LockOpen aria-hidden />
                  {t("monitoring.remote.unlock")}
                </Button>
                {canStop(status) && (
                  <Button variant="destructive" size="sm" onClick={() => void stop(connector)}>
                    <Square aria-hidden />
                    {t("monitoring.remote.stop")}
                  </Button>
                )}
                {canStart(status) && (
                  <Button size="sm" onClick={() => setStarting(connector)}>
                    <Play aria-hidden />
                    {t("monitoring.remote.start")}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>

      {busy && (
        <div role="status" className="absolute inset-0 z-10 flex flex-col items-center justify-center gap-2 bg-background/70 backdrop-blur-[1px]">
          <LoaderCircle className="size-6 animate-spin text-primary" aria-hidden />
          <span className="text-sm text-muted-foreground">{t("monitoring.remote.working")}</span>
        </div>
      )}

      <OperationDialog point={point} online={online} action={operation} onClose={() => setOperation(null)} />

      <StartDialog
        point={point}
        connector={starting}
        remoteIdTag={remoteIdTag}
        onClose={() => setStarting(null)}
        onStart={async (connectorId, options) => {
          setStarting(null);
          await run(() => api.put("/station-service/remoteControl/remoteStart/{id}", { params: { id: point.id }, body: remoteStartBody(connectorId, options) }), t("monitoring.remote.started"));
        }}
      />
    </Card>
  );
}

/**
 * Sent from the panel through the point's generic command, with their answers shown: these have no
 * button of their own (docs/rules/equipment.md "Point pages"). Both protocols name them alike.
 */
const PANEL_OPERATIONS = ["ClearChargingProfile", "DataTransfer", "GetCompositeSchedule"] as const satisfies readonly CommandAction[];

/** One of the panel's operations as the point page's Operations form, prefilled with the action chosen. */
/** A command button of the panel that opens a menu of its variants (the resets, the other operations). */
function MenuButton({ icon: Icon, label, children }: { icon: LucideIcon; label: string; children: ReactNode }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <Icon aria-hidden />
          {label}
          <ChevronDown className="opacity-60" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">{children}</DropdownMenuContent>
    </DropdownMenu>
  );
}

function OperationDialog({ point, online, action, onClose }: { point: PanelPoint; online: boolean; action: CommandAction | null; onClose: () => void }) {
  const { t } = useTranslation();
  const protocol = commandProtocol(point.ocppVersion, online ? point.connectedVersion : null);
  const pointPage = `/equipmentManagement/point/pointDetail/${point.id}`;
  // The call shows in the point page's OCPP log, for those whose menu opens that page.
  const logHref = useMenuOpens(pointPage) ? `${pointPage}?tab=log` : undefined;
  return (
    <Dialog open={action !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-5xl">
        <DialogHeader>
          <DialogTitle>{t("pointOperations.dialogTitle", { serial: point.serialNumber })}</DialogTitle>
          <DialogDescription>{t("pointOperations.dialogText")}</DialogDescription>
        </DialogHeader>
        {action && (
          <PointOperations
            pointId={point.id}
            protocol={protocol ?? "1.6"}
            assumed={!protocol}
            online={online}
            actions={PANEL_OPERATIONS}
            initialAction={action}
            logHref={logHref}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Asks for an optional power limit (kW, two decimals, at most the connector's power) and the id
 * tag, the operator's remote tag unless changed, before a remote start.
 */
function StartDialog({
  point,
  connector,
  remoteIdTag,
  onClose,
  onStart,
}: {
  point: PanelPoint;
  connector: PanelPoint["connectors"][number] | null;
  remoteIdTag: string;
  onClose: () => void;
  onStart: (connectorId: number, options: { power?: number; idTag: string }) => void;
}) {
  const { t } = useTranslation();
  const { power } = useFormat();
  const [limit, setLimit] = useState("");
  const [idTag, setIdTag] = useState(remoteIdTag);
  const [error, setError] = useState<string | null>(null);
  const max = connector?.power ?? point.ratedPower;

  const reset = () => {
    setLimit("");
    setIdTag(remoteIdTag);
    setError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!connector) return;
    const text = limit.trim();
    if (text !== "" && (!POWER.test(text) || Number(text) <= 0)) return setError(t("monitoring.remote.powerInvalid"));
    if (text !== "" && Number(text) > max) return setError(t("monitoring.remote.powerTooHigh", { max: power(max) }));
    reset();
    onStart(connector.connectorId, { power: text === "" ? undefined : Number(text), idTag });
  };

  return (
    <Dialog
      open={connector !== null}
      onOpenChange={(open) => {
        if (open) return;
        reset();
        onClose();
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <DialogHeader>
            <DialogTitle>{t("monitoring.remote.startTitle", { no: connector?.connectorId ?? "" })}</DialogTitle>
            <DialogDescription>{t("monitoring.remote.startText", { serial: point.serialNumber, no: connector?.connectorId ?? "", max: power(max) })}</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-2">
            <Label htmlFor="remote-start-power">{t("monitoring.remote.powerLabel")}</Label>
            <Input
              id="remote-start-power"
              inputMode="decimal"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              aria-invalid={error !== null}
              aria-describedby="remote-start-power-hint"
              placeholder={String(max)}
            />
            <p id="remote-start-power-hint" className={cn("text-xs", error ? "text-destructive" : "text-muted-foreground")}>
              {error ?? t("monitoring.remote.powerHint")}
            </p>
          </div>
          <IdTagField id="remote-start-id-tag" value={idTag} onChange={setIdTag} />
          <DialogFooter>
            <Button
              variant="outline"
              onClick={() => {
                reset();
                onClose();
              }}
            >
              {t("common.cancel")}
            </Button>
            <Button type="submit">
              <Play aria-hidden />
              {t("monitoring.remote.start")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
