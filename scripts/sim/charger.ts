import type {
  ChargePointStatus,
  ChargerAction,
  ChargingProfile,
  DiagnosticsStatus,
  FirmwareStatus,
  IdTagInfo,
  OcppRequest,
  OcppResponse,
  ReadingContext,
  StopReason,
} from "../../domain/ocpp";
import { Configuration, type ConfigChange } from "./config";
import { LocalList } from "./local-list";
import type { FaultCode } from "./faults";
import { Car, meterValue, registerValue, type Electrics } from "./meter";
import { ChargingProfiles } from "./profiles";
import { OcppClient } from "./rpc";
import type { SimulatedCharger } from "./simulated-charger";
import { SimStation } from "./station";

export interface ChargerSpec {
  serialNumber: string;
  /** The Basic-auth key, 40 hex characters. */
  key: string;
  connectors: number;
  /** Per connector, in W. */
  connectorPowerW: number;
  type: "AC" | "DC";
}

export interface ChargerOptions {
  /** `ws://host:port/ocpp`; the serial number is appended. */
  endpoint: string;
  meterIntervalS: number;
  log: (line: string) => void;
  /** The server set a new key: AuthorizationKey through ChangeConfiguration (1.6), SecurityCtrlr.BasicAuthPassword through SetVariables (2.0.1). */
  onKeyChange?: (key: string) => void;
  /** The server refused the key (HTTP 401): a new key to try, if one can be had. */
  renewKey?: () => Promise<string | undefined>;
}

interface Session {
  transactionId: number;
  idTag: string;
  meterStartWh: number;
  startedAt: number;
  lastTick: number;
  lastLogged: number;
  car: Car;
  timer?: NodeJS.Timeout;
}

/** A session that ended on the charger's side, as its StopTransaction reports it. */
interface Ended {
  transactionId: number;
  idTag: string;
  meterStartWh: number;
  meterStopWh: number;
  startedAt: number;
  stoppedAt: number;
}

interface Connector {
  id: number;
  status: ChargePointStatus;
  registerWh: number;
  operative: boolean;
  /** The error the connector is faulted with, until cleared. */
  fault?: FaultCode;
  /** A session a hard reset cut off, stopped once the charger is accepted again (OCPP 1.6 §5.14). */
  interrupted?: Ended;
  /** Availability to apply once the running session ends (ChangeAvailability answered Scheduled). */
  pendingOperative?: boolean;
  starting: boolean;
  session?: Session;
  reservation?: { id: number; idTag: string; parentIdTag?: string; timer: NodeJS.Timeout };
  finishTimer?: NodeJS.Timeout;
}

/** Id tags compare case-insensitively (OCPP 1.6 §7.28 IdToken). */
const sameTag = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toUpperCase() === b.toUpperCase();

/** Whether a tag may use a reservation: the reserved tag itself, or a tag of the reservation's parent (OCPP 1.6 §5.13). */
const mayUse = (reservation: { idTag: string; parentIdTag?: string }, idTag: string, parentIdTag: string | undefined) =>
  sameTag(reservation.idTag, idTag) || sameTag(reservation.parentIdTag, parentIdTag);

const FINISHING_MS = 2_000;
const REBOOT_MS = 2_000;
const PROGRESS_LOG_MS = 30_000;


/**
 * One simulated OCPP 1.6J charge point on ocpp-rpc's strict client: it boots, heartbeats at the
 * interval the server gives, reports its connectors, and answers every action the central system
 * may send as a charger would, running charging sessions with rising meter readings.
 */
export class SimCharger extends SimStation<OcppClient> implements SimulatedCharger {
  private readonly connectors: Connector[];
  private readonly config: Configuration;
  private readonly electrics: Electrics;
  private readonly profiles: ChargingProfiles;
  private readonly localList = new LocalList();
  private firmwareVersion = "1.0.0";
  private firmwareState: FirmwareStatus = "Idle";
  private diagnosticsState: DiagnosticsStatus = "Idle";
  protected readonly rebootMs = REBOOT_MS;

  constructor(spec: ChargerSpec, options: ChargerOptions) {
    super(spec, options);
    this.electrics = { type: spec.type, maxPowerW: spec.connectorPowerW };
    this.profiles = new ChargingProfiles(this.electrics, spec.connectors);
    this.config = new Configuration({ connectors: spec.connectors, heartbeatIntervalS: 300, meterIntervalS: options.meterIntervalS, key: spec.key });
    this.connectors = Array.from({ length: spec.connectors }, (_, i) => ({
      id: i + 1,
      status: "Available" as const,
      // Chargers out in the field have delivered energy before: the register does not start at zero.
      registerWh: 1_000_000 + Math.floor(Math.random() * 500_000),
      operative: true,
      starting: false,
    }));
  }

  /** Running sessions end with StopTransaction (reason Local) when the simulator stops. */
  protected async endSessions() {
    for (const c of this.connectors) if (c.session && this.online) await this.finishSession(c, "Local", { quick: true });
  }

  /**
   * A fault on a connector (OCPP 1.6 §4.9): a running session stops (reason Other) and the
   * connector reports Faulted with the error code until the fault is cleared. Answers false for a
   * connector this charger does not have.
   */
  async raiseFault(connectorId: number, errorCode: FaultCode): Promise<boolean> {
    const c = this.connectors[connectorId - 1];
    if (!c) return false;
    c.fault = errorCode;
    this.log(`connector ${c.id}: fault ${errorCode}`);
    if (c.session) await this.finishSession(c, "Other", { quick: true });
    await this.setStatus(c, "Faulted", { always: true });
    return true;
  }

  /** The fault is gone: the connector reports NoError and its idle status again. */
  async clearFault(connectorId: number): Promise<boolean> {
    const c = this.connectors[connectorId - 1];
    if (!c?.fault) return false;
    this.log(`connector ${c.id}: fault ${c.fault} cleared`);
    c.fault = undefined;
    await this.setStatus(c, this.idleStatus(c), { always: true });
    return true;
  }

  /**
   * Whether a tag may charge, as a driver presenting it finds out (OCPP 1.6 §3.5): the local list
   * answers when the charger is offline, or at once for a listed Accepted tag with
   * LocalPreAuthorize; otherwise the central system answers Authorize. Undefined: no answer.
   */
  async authorize(idTag: string): Promise<{ idTagInfo: IdTagInfo; local: boolean } | undefined> {
    const setting = (key: string) => this.config.value(key)?.toLowerCase() === "true";
    const local = this.localList.decide(
      idTag,
      this.online,
      {
        enabled: setting("LocalAuthListEnabled"),
        preAuthorize: setting("LocalPreAuthorize"),
        authorizeOffline: setting("LocalAuthorizeOffline"),
        allowUnknownOffline: setting("AllowOfflineTxForUnknownId"),
      },
      Date.now(),
    );
    if (local) {
      this.log(`${idTag}: ${local.status} by the local list`);
      return { idTagInfo: local, local: true };
    }
    const answer = await this.send("Authorize", { idTag });
    return answer && { idTagInfo: answer.idTagInfo, local: false };
  }

  /** One line per connector, for the terminal. */
  describe(): string[] {
    return this.connectors.map((c) => {
      const session = c.session ? `, transaction ${c.session.transactionId}` : "";
      return `${this.serialNumber}:${c.id} ${c.status}${c.fault ? ` (${c.fault})` : ""}${session}`;
    });
  }

  get connectorCount() {
    return this.connectors.length;
  }

  // ── connection ────────────────────────────────────────────────────────────────────────────

  protected override keyRenewed(key: string) {
    super.keyRenewed(key);
    this.config.set("AuthorizationKey", key);
  }

  protected clearAllConnectorTimers() {
    for (const c of this.connectors) this.clearConnectorTimers(c);
  }

  protected async open() {
    const client = new OcppClient({
      endpoint: this.options.endpoint,
      identity: this.spec.serialNumber,
      password: this.spec.key,
      pingIntervalMs: 30_000,
    });
    this.answerServerCalls(client);
    client.onValidationFailure((f) => this.logValidationFailure(f));
    await this.adopt(client);
  }

  private async send<A extends ChargerAction>(action: A, payload: OcppRequest<A>): Promise<OcppResponse<A> | undefined> {
    return this.callSafely(action, (client) => client.call(action, payload));
  }

  // ── boot, heartbeat, status ───────────────────────────────────────────────────────────────

  protected async boot(): Promise<void> {
    const answer = await this.send("BootNotification", {
      chargePointVendor: "Plugdesk",
      chargePointModel: "Simulator",
      chargePointSerialNumber: this.spec.serialNumber.slice(0, 25),
      firmwareVersion: this.firmwareVersion,
      meterType: this.spec.type === "DC" ? "DC meter" : "AC meter",
    });
    if (!answer) return;
    const interval = answer.interval > 0 ? answer.interval : 300;
    if (answer.status !== "Accepted") {
      // Pending or Rejected: only BootNotification again, after the interval the server asked for.
      const retry = Math.min(interval, 60);
      this.log(`boot ${answer.status}; trying again in ${retry} s`);
      this.booted = false;
      this.afterReply(() => this.boot(), retry * 1000);
      return;
    }
    const first = !this.booted;
    this.booted = true;
    this.config.set("HeartbeatInterval", interval);
    this.startHeartbeat();
    if (first) {
      this.log(`booted, heartbeat every ${interval} s`);
      for (const c of this.connectors) await this.stopInterrupted(c);
      await this.reportAllStatuses();
    }
  }

  protected startHeartbeat() {
    this.stopHeartbeat();
    const seconds = this.config.number("HeartbeatInterval") || 300;
    this.heartbeat = setInterval(() => void this.send("Heartbeat", {}), seconds * 1000);
  }

  private pointStatus(): ChargePointStatus {
    return this.connectors.some((c) => c.operative) ? "Available" : "Unavailable";
  }

  private async reportStatus(connectorId: number) {
    // Until its boot is Accepted a charger sends nothing but BootNotification (OCPP 1.6 §4.2); the boot reports every status.
    if (!this.booted) return;
    const c = connectorId === 0 ? undefined : this.connectors[connectorId - 1];
    const status = c ? c.status : this.pointStatus();
    await this.send("StatusNotification", { connectorId, errorCode: c?.fault ?? "NoError", status, timestamp: new Date().toISOString() });
  }

  protected async reportAllStatuses() {
    for (let id = 0; id <= this.connectors.length; id++) await this.reportStatus(id);
  }

  /** Reports a new status; `always` reports it even when only the error code changed. */
  private async setStatus(c: Connector, status: ChargePointStatus, { always = false } = {}) {
    if (c.status === status && !always) return;
    c.status = status;
    this.log(`connector ${c.id}: ${status}`);
    await this.reportStatus(c.id);
  }

  /** What a connector shows when nothing happens on it. */
  private idleStatus(c: Connector): ChargePointStatus {
    if (c.fault) return "Faulted";
    if (!c.operative) return "Unavailable";
    return c.reservation ? "Reserved" : "Available";
  }

  // ── sessions ──────────────────────────────────────────────────────────────────────────────

  /** Brings a connector's register up to now at the power the car takes; answers that power. */
  private tick(c: Connector): number {
    const s = c.session;
    if (!s) return 0;
    const now = Date.now();
    const offered = c.status === "SuspendedEVSE" ? 0 : this.profiles.limitW(c.id);
    // A little noise, as a real meter shows.
    const powerW = s.car.accepts(offered) * (0.985 + Math.random() * 0.015);
    const wh = (powerW * (now - s.lastTick)) / 3_600_000;
    s.lastTick = now;
    c.registerWh += wh;
    s.car.charge(wh);
    return powerW;
  }

  private async startSession(c: Connector, idTag: string, txProfile?: ChargingProfile) {
    try {
      await this.setStatus(c, "Preparing");
      const auth = await this.authorize(idTag);
      if (!auth || auth.idTagInfo.status !== "Accepted") {
        this.log(`connector ${c.id}: ${idTag} not authorised (${auth?.idTagInfo.status ?? "no answer"})`);
        await this.setStatus(c, this.idleStatus(c));
        return;
      }
      // A reserved connector takes only the reserved tag or a tag of the same parent (OCPP 1.6 §5.13).
      if (c.reservation && !mayUse(c.reservation, idTag, auth.idTagInfo.parentIdTag)) {
        this.log(`connector ${c.id}: reserved for ${c.reservation.idTag}, ${idTag} refused`);
        await this.setStatus(c, this.idleStatus(c));
        return;
      }
      const reservationId = c.reservation?.id;
      const meterStart = Math.round(c.registerWh);
      const timestamp = new Date().toISOString();
      const started = await this.send("StartTransaction", {
        connectorId: c.id,
        idTag,
        meterStart,
        timestamp,
        ...(reservationId === undefined ? {} : { reservationId }),
      });
      if (!started) {
        await this.setStatus(c, this.idleStatus(c));
        return;
      }
      this.clearReservation(c);
      const now = Date.now();
      c.session = { transactionId: started.transactionId, idTag, meterStartWh: meterStart, startedAt: now, lastTick: now, lastLogged: now, car: new Car(this.spec.type) };
      if (txProfile) this.profiles.set(c.id, { ...txProfile, transactionId: started.transactionId }, started.transactionId);
      if (started.idTagInfo.status !== "Accepted") {
        // StopTransactionOnInvalidId: the server did not accept the tag for this transaction.
        this.log(`connector ${c.id}: transaction ${started.transactionId} refused (${started.idTagInfo.status})`);
        await this.finishSession(c, "DeAuthorized");
        return;
      }
      await this.setStatus(c, "Charging");
      this.log(`connector ${c.id}: transaction ${started.transactionId} started for ${idTag} at ${(this.profiles.limitW(c.id) / 1000).toFixed(1)} kW`);
      c.session.timer = setInterval(() => void this.sendMeterValues(c, "Sample.Periodic"), this.meterIntervalMs());
    } finally {
      c.starting = false;
    }
  }

  private meterIntervalMs() {
    return Math.max(1, this.config.number("MeterValueSampleInterval") || this.options.meterIntervalS) * 1000;
  }

  private async sendMeterValues(c: Connector, context: ReadingContext) {
    const powerW = this.tick(c);
    const s = c.session;
    await this.send("MeterValues", {
      connectorId: c.id,
      ...(s ? { transactionId: s.transactionId } : {}),
      meterValue: [meterValue(this.electrics, { registerWh: c.registerWh, powerW, soc: s?.car.soc }, context)],
    });
    if (s && Date.now() - s.lastLogged >= PROGRESS_LOG_MS) {
      s.lastLogged = Date.now();
      const kWh = (c.registerWh - s.meterStartWh) / 1000;
      this.log(`connector ${c.id}: ${kWh.toFixed(2)} kWh at ${(powerW / 1000).toFixed(1)} kW, SoC ${Math.floor(s.car.soc)} %`);
    }
    if (s?.car.full && c.status === "Charging") {
      this.log(`connector ${c.id}: the car is full`);
      await this.setStatus(c, "SuspendedEV");
    }
  }

  /** Ends the running session on the charger's side: the meter stops where it is. */
  private endSession(c: Connector): Ended | undefined {
    const s = c.session;
    if (!s) return undefined;
    if (s.timer) clearInterval(s.timer);
    this.tick(c);
    c.session = undefined;
    this.profiles.endTransaction(c.id);
    if (c.pendingOperative !== undefined) {
      c.operative = c.pendingOperative;
      c.pendingOperative = undefined;
    }
    return { transactionId: s.transactionId, idTag: s.idTag, meterStartWh: s.meterStartWh, meterStopWh: Math.round(c.registerWh), startedAt: s.startedAt, stoppedAt: Date.now() };
  }

  private async sendStop(c: Connector, ended: Ended, reason: StopReason) {
    await this.send("StopTransaction", {
      transactionId: ended.transactionId,
      idTag: ended.idTag,
      meterStop: ended.meterStopWh,
      timestamp: new Date(ended.stoppedAt).toISOString(),
      reason,
      transactionData: [
        registerValue(ended.meterStartWh, "Transaction.Begin", new Date(ended.startedAt)),
        registerValue(ended.meterStopWh, "Transaction.End", new Date(ended.stoppedAt)),
      ],
    });
    this.log(`connector ${c.id}: transaction ${ended.transactionId} stopped (${reason}), ${((ended.meterStopWh - ended.meterStartWh) / 1000).toFixed(2)} kWh`);
  }

  private async finishSession(c: Connector, reason: StopReason, { quick = false } = {}) {
    const ended = this.endSession(c);
    if (!ended) return;
    await this.sendStop(c, ended, reason);
    if (quick) return;
    await this.setStatus(c, "Finishing");
    this.unplugLater(c);
  }

  /** The driver unplugs a moment after the session ended; the connector is then free again. */
  private unplugLater(c: Connector) {
    if (c.finishTimer) clearTimeout(c.finishTimer);
    c.finishTimer = setTimeout(() => {
      c.finishTimer = undefined;
      if (!c.session && !c.starting) void this.setStatus(c, this.idleStatus(c));
    }, FINISHING_MS);
  }

  /**
   * A hard reset cuts the session off without a StopTransaction: the meter stops where it was, and
   * the car stays plugged in (Finishing) while the charger restarts.
   */
  private interrupt(c: Connector) {
    const ended = this.endSession(c);
    if (!ended) return;
    c.interrupted = ended;
    c.status = "Finishing";
    this.log(`connector ${c.id}: transaction ${ended.transactionId} cut off by the reset`);
  }

  /** After a hard reset and an Accepted boot, the transaction that was cut off is stopped (OCPP 1.6 §5.14). */
  private async stopInterrupted(c: Connector) {
    const cut = c.interrupted;
    if (!cut) return;
    c.interrupted = undefined;
    await this.sendStop(c, cut, "HardReset");
    this.unplugLater(c);
  }

  private clearReservation(c: Connector) {
    if (c.reservation) clearTimeout(c.reservation.timer);
    c.reservation = undefined;
  }

  private clearConnectorTimers(c: Connector) {
    if (c.session?.timer) clearInterval(c.session.timer);
    if (c.finishTimer) clearTimeout(c.finishTimer);
    this.clearReservation(c);
  }

  /** Whether a connector could start a session for this tag now. */
  private free(c: Connector, idTag: string) {
    // With a parent on the reservation, the tag's parent is known only after Authorize (see startSession).
    const reservedFor = !c.reservation || sameTag(c.reservation.idTag, idTag) || c.reservation.parentIdTag !== undefined;
    return c.operative && !c.session && !c.starting && reservedFor && c.status !== "Faulted";
  }

  // ── what the central system asks ──────────────────────────────────────────────────────────

  private answerServerCalls(client: OcppClient) {
    const connector = (id: number | undefined) => (id !== undefined && id >= 1 ? this.connectors[id - 1] : undefined);
    const logged = <A extends Parameters<OcppClient["handle"]>[0]>(action: A, handler: (p: OcppRequest<A>) => OcppResponse<A>) =>
      client.handle(action, (payload) => {
        const answer = handler(payload);
        const status = (answer as { status?: string }).status;
        this.log(`${action}${status ? ` → ${status}` : ""}`);
        return answer;
      });

    logged("RemoteStartTransaction", ({ connectorId, idTag, chargingProfile }) => {
      const c = connectorId === undefined ? this.connectors.find((x) => this.free(x, idTag)) : connector(connectorId);
      if (!c || !this.free(c, idTag)) return { status: "Rejected" };
      if (chargingProfile && chargingProfile.chargingProfilePurpose !== "TxProfile") return { status: "Rejected" };
      c.starting = true;
      if (c.finishTimer) clearTimeout(c.finishTimer);
      this.afterReply(() => this.startSession(c, idTag, chargingProfile));
      return { status: "Accepted" };
    });

    logged("RemoteStopTransaction", ({ transactionId }) => {
      const c = this.connectors.find((x) => x.session?.transactionId === transactionId);
      if (!c) return { status: "Rejected" };
      this.afterReply(() => this.finishSession(c, "Remote"));
      return { status: "Accepted" };
    });

    logged("Reset", ({ type }) => {
      this.afterReply(() => this.reboot(type));
      return { status: "Accepted" };
    });

    logged("UnlockConnector", ({ connectorId }) => {
      const c = connector(connectorId);
      if (!c) return { status: "UnlockFailed" };
      // Unlocking ends a running session first (OCPP 1.6 §5.18).
      if (c.session) this.afterReply(() => this.finishSession(c, "UnlockCommand"));
      return { status: "Unlocked" };
    });

    logged("TriggerMessage", ({ requestedMessage, connectorId }) => {
      if (connectorId !== undefined && connectorId > this.connectors.length) return { status: "Rejected" };
      this.afterReply(() => this.trigger(requestedMessage, connectorId));
      return { status: "Accepted" };
    });

    logged("GetConfiguration", (request) => this.config.get(request));
    logged("ChangeConfiguration", (request) => this.config.change(request, (change) => this.configChanged(change)));

    logged("ChangeAvailability", ({ connectorId, type }) => {
      if (connectorId > this.connectors.length) return { status: "Rejected" };
      const operative = type === "Operative";
      const targets = connectorId === 0 ? this.connectors : [this.connectors[connectorId - 1]];
      let scheduled = false;
      for (const c of targets) {
        if (c.session || c.starting) {
          c.pendingOperative = operative;
          scheduled = true;
        } else {
          c.operative = operative;
          if (c.status !== "Finishing") this.afterReply(() => this.setStatus(c, this.idleStatus(c)));
        }
      }
      if (connectorId === 0) this.afterReply(() => this.reportStatus(0));
      return { status: scheduled ? "Scheduled" : "Accepted" };
    });

    logged("GetLocalListVersion", () => ({ listVersion: this.localList.version }));
    logged("SendLocalList", (request) => this.localList.apply(request));

    logged("ClearCache", () => ({ status: "Accepted" }));
    logged("DataTransfer", () => ({ status: "UnknownVendorId" }));

    logged("GetDiagnostics", () => {
      const stamp = new Date().toISOString().replace(/[-:]/g, "").slice(0, 15);
      this.afterReply(() => this.diagnostics("Uploading"));
      this.afterReply(() => this.diagnostics("Uploaded"), 2_000);
      return { fileName: `${this.spec.serialNumber}-diagnostics-${stamp}.log` };
    });

    logged("UpdateFirmware", ({ location, retrieveDate }) => {
      const startIn = Math.max(0, Math.min(Date.parse(retrieveDate) - Date.now(), 60 * 60_000));
      const steps: FirmwareStatus[] = ["Downloading", "Downloaded", "Installing", "Installed"];
      steps.forEach((status, i) => this.afterReply(() => this.firmwareStatus(status), startIn + i * 1_500));
      // Installed firmware runs after a reboot; the next BootNotification reports its version.
      this.afterReply(async () => {
        this.firmwareVersion = location.split("/").pop()?.replace(/\.[a-z0-9]+$/i, "").slice(0, 50) || "updated";
        await this.reboot("Hard");
      }, startIn + steps.length * 1_500);
      return {};
    });

    logged("ReserveNow", ({ connectorId, expiryDate, idTag, parentIdTag, reservationId }) => {
      if (connectorId === 0) return { status: "Rejected" }; // ReserveConnectorZeroSupported = false
      const c = connector(connectorId);
      if (!c) return { status: "Rejected" };
      if (c.status === "Faulted") return { status: "Faulted" };
      if (!c.operative) return { status: "Unavailable" };
      if (c.session || c.starting || (c.reservation && c.reservation.id !== reservationId)) return { status: "Occupied" };
      this.clearReservation(c);
      const timer = setTimeout(() => {
        if (c.reservation?.id !== reservationId) return;
        c.reservation = undefined;
        this.log(`connector ${c.id}: reservation ${reservationId} expired`);
        if (!c.session && !c.starting) void this.setStatus(c, this.idleStatus(c));
      }, Math.max(0, Math.min(Date.parse(expiryDate) - Date.now(), 2 ** 31 - 1)));
      c.reservation = { id: reservationId, idTag, parentIdTag, timer };
      this.afterReply(() => this.setStatus(c, "Reserved"));
      return { status: "Accepted" };
    });

    logged("CancelReservation", ({ reservationId }) => {
      const c = this.connectors.find((x) => x.reservation?.id === reservationId);
      if (!c) return { status: "Rejected" };
      this.clearReservation(c);
      if (!c.session && !c.starting) this.afterReply(() => this.setStatus(c, this.idleStatus(c)));
      return { status: "Accepted" };
    });

    logged("SetChargingProfile", ({ connectorId, csChargingProfiles }) =>
      this.profiles.set(connectorId, csChargingProfiles, connector(connectorId)?.session?.transactionId),
    );
    logged("ClearChargingProfile", (request) => this.profiles.clear(request));
    logged("GetCompositeSchedule", (request) => this.profiles.composite(request));
  }

  /**
   * Reset (OCPP 1.6 §5.14): a soft reset stops running sessions first (StopTransaction SoftReset,
   * the connector Finishing); a hard reset cuts them off and stops them after the next Accepted
   * boot (HardReset). Either way the charger closes its socket, comes back with a BootNotification
   * and reports every connector as it is: the car still plugged in (Finishing) until it leaves.
   */
  private async reboot(type: "Hard" | "Soft") {
    for (const c of this.connectors) {
      if (!c.session) continue;
      if (type === "Soft") await this.finishSession(c, "SoftReset");
      else this.interrupt(c);
    }
    this.rebooting = true;
    this.stopHeartbeat();
    await this.client?.close(1012, `${type} reset`);
  }

  private configChanged({ key, value }: ConfigChange) {
    if (key === "HeartbeatInterval") this.startHeartbeat();
    if (key === "MeterValueSampleInterval") {
      for (const c of this.connectors) {
        if (!c.session?.timer) continue;
        clearInterval(c.session.timer);
        c.session.timer = setInterval(() => void this.sendMeterValues(c, "Sample.Periodic"), this.meterIntervalMs());
      }
    }
    if (key === "AuthorizationKey") {
      // Used from the next connection on; the server switches over when it stores the key.
      this.spec.key = value;
      this.log("AuthorizationKey changed");
      this.options.onKeyChange?.(value);
    }
  }

  private async trigger(message: OcppRequest<"TriggerMessage">["requestedMessage"], connectorId: number | undefined) {
    switch (message) {
      case "BootNotification":
        return this.boot();
      case "Heartbeat":
        return this.send("Heartbeat", {});
      case "StatusNotification":
        return connectorId === undefined ? this.reportAllStatuses() : this.reportStatus(connectorId);
      case "MeterValues": {
        const targets = connectorId ? [this.connectors[connectorId - 1]] : this.connectors;
        for (const c of targets) await this.sendMeterValues(c, "Trigger");
        return;
      }
      case "DiagnosticsStatusNotification":
        return this.send("DiagnosticsStatusNotification", { status: this.diagnosticsState });
      case "FirmwareStatusNotification":
        return this.send("FirmwareStatusNotification", { status: this.firmwareState });
    }
  }

  private async diagnostics(status: DiagnosticsStatus) {
    this.diagnosticsState = status;
    this.log(`diagnostics ${status}`);
    await this.send("DiagnosticsStatusNotification", { status });
  }

  private async firmwareStatus(status: FirmwareStatus) {
    this.firmwareState = status;
    this.log(`firmware ${status}`);
    await this.send("FirmwareStatusNotification", { status });
  }
}
