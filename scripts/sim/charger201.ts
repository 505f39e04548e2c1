import { randomUUID } from "node:crypto";
import type { ChargerAction201, Ocpp201Request, Ocpp201Response, ServerAction201 } from "../../domain/ocpp/v201";
import type { ChargerOptions, ChargerSpec } from "./charger";
import { DeviceModel, type Component, type DeviceVariable, type Variable } from "./device-model";
import type { FaultCode } from "./faults";
import { LocalList201, type IdToken201, type IdTokenInfo201 } from "./local-list201";
import { Car, meterValue201, type Electrics, type MeterValue201, type ReadingContext201 } from "./meter";
import { ChargingProfiles201, type ChargingProfile201 } from "./profiles201";
import type { ValidationFailure } from "./rpc";
import { Ocpp201Client, type Handler201 } from "./rpc201";
import type { SimulatedCharger } from "./simulated-charger";
import { SimStation } from "./station";

type ConnectorStatus = Ocpp201Request<"StatusNotification">["connectorStatus"];
type TransactionEventRequest = Ocpp201Request<"TransactionEvent">;
type TransactionEventResponse = Ocpp201Response<"TransactionEvent">;
type TriggerReason = TransactionEventRequest["triggerReason"];
type StoppedReason = NonNullable<TransactionEventRequest["transactionInfo"]["stoppedReason"]>;
type ChargingState = NonNullable<TransactionEventRequest["transactionInfo"]["chargingState"]>;
type BootReason = Ocpp201Request<"BootNotification">["reason"];
type FirmwareStatus = Ocpp201Request<"FirmwareStatusNotification">["status"];
type LogStatus = Ocpp201Request<"LogStatusNotification">["status"];
type MessageTrigger = Ocpp201Request<"TriggerMessage">["requestedMessage"];

export interface Charger201Options extends ChargerOptions {
  /**
   * The pace of what takes a while on a real station, in ms: each firmware and log step, a reboot,
   * the driver unplugging after a session. 1500 unless told (tests go faster).
   */
  stepMs?: number;
}

interface Transaction {
  /** The station's own id: a UUID (E01, transactionInfo.transactionId). */
  id: string;
  /** The next seqNo; 0 for Started, one more for each event of this transaction. */
  seqNo: number;
  idToken: IdToken201;
  groupIdToken?: IdToken201;
  remoteStartId?: number;
  meterStartWh: number;
  startedAt: number;
  lastTick: number;
  lastLogged: number;
  chargingState: ChargingState;
  car: Car;
  timer?: NodeJS.Timeout;
}

/** An EVSE with its single connector (connectorId 1), as the console's connector number. */
interface Evse {
  id: number;
  status: ConnectorStatus;
  registerWh: number;
  powerW: number;
  operative: boolean;
  /** Availability to apply once the running transaction ends (ChangeAvailability answered Scheduled). */
  pendingOperative?: boolean;
  fault?: FaultCode;
  /** A car is plugged in: during a transaction and until the driver unplugs after it. */
  plugged: boolean;
  starting: boolean;
  transaction?: Transaction;
  reservation?: { id: number; idToken: IdToken201; groupIdToken?: IdToken201; timer: NodeJS.Timeout };
  unplugTimer?: NodeJS.Timeout;
}

const MEASURANDS = "Energy.Active.Import.Register,Power.Active.Import,Current.Import,Voltage,SoC";
const AVAILABILITY_STATES = "Available,Occupied,Reserved,Unavailable,Faulted";
/** NotifyReport rows per message (DeviceDataCtrlr.ItemsPerMessage[GetReport]). */
const REPORT_ROWS_PER_MESSAGE = 10;
const PROGRESS_LOG_MS = 30_000;

/** IdTokens compare case-insensitively, with their type (OCPP 2.0.1 Part 2, IdTokenType). */
const sameToken = (a: IdToken201 | undefined, b: IdToken201 | undefined) =>
  a !== undefined && b !== undefined && a.type === b.type && a.idToken.toUpperCase() === b.idToken.toUpperCase();

/** The stoppedReason of a transaction a fault ends (Part 2, ReasonEnumType). */
const faultReason = (code: FaultCode): StoppedReason =>
  code === "GroundFailure" ? "GroundFault" : code === "OverCurrentFailure" ? "OvercurrentFault" : code === "PowerSwitchFailure" ? "PowerQuality" : "Other";

const component = (name: string, evse?: { id: number; connectorId?: number }): Component => ({ name, ...(evse ? { evse } : {}) });
const variable = (name: string, instance?: string): Variable => ({ name, ...(instance ? { instance } : {}) });

const HEARTBEAT = [component("OCPPCommCtrlr"), variable("HeartbeatInterval")] as const;
const TX_UPDATED_INTERVAL = [component("SampledDataCtrlr"), variable("TxUpdatedInterval")] as const;
const TX_STARTED_MEASURANDS = [component("SampledDataCtrlr"), variable("TxStartedMeasurands")] as const;
const TX_UPDATED_MEASURANDS = [component("SampledDataCtrlr"), variable("TxUpdatedMeasurands")] as const;
const TX_ENDED_MEASURANDS = [component("SampledDataCtrlr"), variable("TxEndedMeasurands")] as const;
const AUTHORIZE_REMOTE_START = [component("AuthCtrlr"), variable("AuthorizeRemoteStart")] as const;
const LOCAL_AUTHORIZE_OFFLINE = [component("AuthCtrlr"), variable("LocalAuthorizeOffline")] as const;
const LOCAL_PRE_AUTHORIZE = [component("AuthCtrlr"), variable("LocalPreAuthorize")] as const;
const OFFLINE_UNKNOWN = [component("AuthCtrlr"), variable("OfflineTxForUnknownIdEnabled")] as const;
const LOCAL_LIST_ENABLED = [component("LocalAuthListCtrlr"), variable("Enabled")] as const;
const RESERVATIONS_ENABLED = [component("ReservationCtrlr"), variable("Enabled")] as const;

/**
 * One simulated OCPP 2.0.1 Charging Station on ocpp-rpc's strict client, with one connector per
 * EVSE: it boots (B01–B03), heartbeats and reports its connectors (G01, G02), runs transactions
 * with TransactionEvent (E01–E07), keeps a small device model (B05–B07), and answers every
 * message a CSMS sends as a station would (docs/rules/ocpp.md "Two protocols"). The 1.6J twin is SimCharger.
 */
export class SimCharger201 extends SimStation<Ocpp201Client> implements SimulatedCharger {
  private readonly evses: Evse[];
  private readonly electrics: Electrics;
  private readonly profiles: ChargingProfiles201;
  private readonly localList = new LocalList201();
  private readonly model: DeviceModel;
  private readonly stepMs: number;
  private bootReason: BootReason = "PowerUp";
  /** Work waiting for every transaction to end: a Reset OnIdle, a firmware installation. */
  private whenIdle: (() => Promise<void>)[] = [];
  private firmwareVersion = "1.0.0";
  private firmware: { status: FirmwareStatus; requestId?: number; timers: NodeJS.Timeout[] } = { status: "Idle", timers: [] };
  /** Sent after the next Accepted boot: the firmware a reboot has installed (L01). */
  private installedAfterBoot?: number;
  private upload: { status: LogStatus; requestId?: number; timers: NodeJS.Timeout[] } = { status: "Idle", timers: [] };
  private eventId = 0;
  private readonly displayMessages = new Map<number, string>();

  constructor(spec: ChargerSpec, options: Charger201Options) {
    super(spec, options);
    this.stepMs = options.stepMs ?? 1_500;
    this.electrics = { type: spec.type, maxPowerW: spec.connectorPowerW };
    this.profiles = new ChargingProfiles201(this.electrics, spec.connectors);
    this.evses = Array.from({ length: spec.connectors }, (_, i) => ({
      id: i + 1,
      status: "Available" as const,
      // Stations out in the field have delivered energy before: the register does not start at zero.
      registerWh: 1_000_000 + Math.floor(Math.random() * 500_000),
      powerW: 0,
      operative: true,
      plugged: false,
      starting: false,
    }));
    this.model = new DeviceModel(this.deviceVariables(options), (entry, value) => this.variableSet(entry, value));
  }

  get connectorCount() {
    return this.evses.length;
  }

  /** Every strict-mode violation seen on any of its connections, either direction. */
  readonly validationFailures: ValidationFailure[] = [];
  /** Every CostUpdated the CSMS sent (I02–I03), oldest first: what a driver's display would have shown. */
  readonly costUpdates: { transactionId: string; totalCost: number }[] = [];

  /**
   * Running transactions end (TransactionEvent Ended, Local) when the simulator stops. The
   * firmware and log steps are `afterReply` timers, which stopping clears.
   */
  protected async endSessions() {
    for (const e of this.evses) if (e.transaction && this.online) await this.endTransaction(e, "StopAuthorized", "Local", { unplug: false });
  }

  /**
   * A fault on a connector (N07 NotifyEvent, G01): the station reports the connector's Problem
   * variable true with the error code as techCode, ends a running transaction
   * (AbnormalCondition) and reports the connector Faulted until the fault is cleared.
   */
  async raiseFault(connectorId: number, errorCode: FaultCode): Promise<boolean> {
    const e = this.evses[connectorId - 1];
    if (!e) return false;
    e.fault = errorCode;
    this.log(`EVSE ${e.id}: fault ${errorCode}`);
    await this.notifyProblem(e, true);
    if (e.transaction) await this.endTransaction(e, "AbnormalCondition", faultReason(errorCode), { unplug: false });
    await this.refreshStatus(e, { always: true });
    return true;
  }

  /** The fault is gone: Problem false (cleared) and the connector's idle status again. */
  async clearFault(connectorId: number): Promise<boolean> {
    const e = this.evses[connectorId - 1];
    if (!e?.fault) return false;
    this.log(`EVSE ${e.id}: fault ${e.fault} cleared`);
    await this.notifyProblem(e, false);
    e.fault = undefined;
    await this.refreshStatus(e, { always: true });
    return true;
  }

  /**
   * A driver presents a token at an EVSE (C01, E03, E07): the token of the running transaction
   * (or one of its group) stops it (StopAuthorized); otherwise a free EVSE starts a transaction
   * for it once authorized (Authorized). Answers whether the station acted on it.
   */
  async presentToken(evseId: number, idToken: IdToken201): Promise<boolean> {
    const e = this.evses[evseId - 1];
    if (!e) return false;
    const tx = e.transaction;
    if (tx) {
      const auth = sameToken(tx.idToken, idToken) ? undefined : await this.authorize(idToken);
      const sameGroup = auth?.idTokenInfo.groupIdToken !== undefined && sameToken(auth.idTokenInfo.groupIdToken, tx.groupIdToken);
      if (!sameToken(tx.idToken, idToken) && !sameGroup) return false;
      await this.endTransaction(e, "StopAuthorized", "Local", { idToken });
      return true;
    }
    if (!this.free(e, idToken)) return false;
    e.starting = true;
    await this.startTransaction(e, idToken, { trigger: "Authorized" });
    return e.transaction !== undefined;
  }

  /**
   * Whether a token may charge (C01, C13): the local list answers when the station is offline,
   * or at once for a listed Accepted token with LocalPreAuthorize; otherwise the CSMS answers
   * Authorize. Undefined: no answer.
   */
  async authorize(idToken: IdToken201): Promise<{ idTokenInfo: IdTokenInfo201; local: boolean } | undefined> {
    const local = this.localList.decide(
      idToken,
      this.online,
      {
        enabled: this.model.flag(...LOCAL_LIST_ENABLED),
        preAuthorize: this.model.flag(...LOCAL_PRE_AUTHORIZE),
        authorizeOffline: this.model.flag(...LOCAL_AUTHORIZE_OFFLINE),
        allowUnknownOffline: this.model.flag(...OFFLINE_UNKNOWN),
      },
      Date.now(),
    );
    if (local) {
      this.log(`${idToken.idToken}: ${local.status} by the local list`);
      return { idTokenInfo: local, local: true };
    }
    const answer = await this.send("Authorize", { idToken });
    if (answer?.idTokenInfo.personalMessage) this.log(`${idToken.idToken}: "${answer.idTokenInfo.personalMessage.content}"`);
    return answer && { idTokenInfo: answer.idTokenInfo, local: false };
  }

  /** One line per EVSE, for the terminal. */
  describe(): string[] {
    return this.evses.map((e) => {
      const tx = e.transaction ? `, transaction ${e.transaction.id}` : "";
      return `${this.serialNumber}:${e.id} ${e.status}${e.fault ? ` (${e.fault})` : ""}${tx}`;
    });
  }

  // ── the device model ──────────────────────────────────────────────────────────────────────

  /**
   * The variables this station keeps (the standardized components of Part 2's appendices): the
   * controllers the simulator acts on, and the availability of the station, each EVSE and each
   * connector, read from its state.
   */
  private deviceVariables(options: Charger201Options): DeviceVariable[] {
    const rw = (c: Component, v: Variable, dataType: DeviceVariable["dataType"], value: string, extra: Partial<DeviceVariable> = {}): DeviceVariable => ({
      component: c,
      variable: v,
      mutability: "ReadWrite",
      dataType,
      value,
      ...extra,
    });
    const ro = (c: Component, v: Variable, dataType: DeviceVariable["dataType"], read: () => string, extra: Partial<DeviceVariable> = {}): DeviceVariable => ({
      component: c,
      variable: v,
      mutability: "ReadOnly",
      dataType,
      read,
      ...extra,
    });
    const measurands = { valuesList: MEASURANDS };
    const list: DeviceVariable[] = [
      rw(...HEARTBEAT, "integer", "300", { unit: "s", minLimit: 1 }),
      // Whole seconds (the variable is an integer): a fractional --meter-interval rounds, to 1 s at least.
      rw(...TX_UPDATED_INTERVAL, "integer", String(Math.max(1, Math.round(options.meterIntervalS))), { unit: "s", minLimit: 0 }),
      rw(...TX_STARTED_MEASURANDS, "MemberList", "Energy.Active.Import.Register", measurands),
      rw(...TX_UPDATED_MEASURANDS, "MemberList", "Energy.Active.Import.Register,Power.Active.Import,SoC", measurands),
      rw(...TX_ENDED_MEASURANDS, "MemberList", "Energy.Active.Import.Register", measurands),
      rw(...AUTHORIZE_REMOTE_START, "boolean", "false"),
      rw(...LOCAL_AUTHORIZE_OFFLINE, "boolean", "true"),
      rw(...LOCAL_PRE_AUTHORIZE, "boolean", "false"),
      rw(...OFFLINE_UNKNOWN, "boolean", "false"),
      rw(...LOCAL_LIST_ENABLED, "boolean", "true"),
      ro(component("LocalAuthListCtrlr"), variable("Entries"), "integer", () => String(this.localList.size)),
      ro(...RESERVATIONS_ENABLED, "boolean", () => "true"),
      ro(component("SmartChargingCtrlr"), variable("Enabled"), "boolean", () => "true"),
      // The password the station connects with (A01): set, never read back.
      { component: component("SecurityCtrlr"), variable: variable("BasicAuthPassword"), mutability: "WriteOnly", dataType: "string", value: this.spec.key, minLimit: 16, maxLimit: 40 },
      // Profile 1 is Basic auth over ws://, 2 the same over TLS (A00); TLS ends at the edge.
      ro(component("SecurityCtrlr"), variable("SecurityProfile"), "integer", () => (options.endpoint.startsWith("wss:") ? "2" : "1")),
      ro(component("SecurityCtrlr"), variable("Identity"), "string", () => this.spec.serialNumber),
      ro(component("DeviceDataCtrlr"), variable("ItemsPerMessage", "GetReport"), "integer", () => String(REPORT_ROWS_PER_MESSAGE)),
      ro(component("DeviceDataCtrlr"), variable("ItemsPerMessage", "GetVariables"), "integer", () => "50"),
      ro(component("DeviceDataCtrlr"), variable("ItemsPerMessage", "SetVariables"), "integer", () => "50"),
      ro(component("ChargingStation"), variable("AvailabilityState"), "OptionList", () => (this.evses.some((e) => e.operative) ? "Available" : "Unavailable"), {
        valuesList: AVAILABILITY_STATES,
      }),
      ro(component("ChargingStation"), variable("Model"), "string", () => "Simulator"),
      ro(component("ChargingStation"), variable("VendorName"), "string", () => "Plugdesk"),
    ];
    for (const e of this.evses) {
      list.push(
        ro(component("EVSE", { id: e.id }), variable("AvailabilityState"), "OptionList", () => e.status, { valuesList: AVAILABILITY_STATES }),
        ro(component("EVSE", { id: e.id }), variable("Power"), "decimal", () => String(Math.round(e.powerW)), { unit: "W", maxLimit: this.spec.connectorPowerW }),
        ro(component("Connector", { id: e.id, connectorId: 1 }), variable("AvailabilityState"), "OptionList", () => e.status, { valuesList: AVAILABILITY_STATES }),
        ro(component("Connector", { id: e.id, connectorId: 1 }), variable("ConnectorType"), "string", () => (this.spec.type === "DC" ? "cCCS2" : "sType2")),
      );
    }
    return list;
  }

  private variableSet(entry: DeviceVariable, value: string) {
    const name = `${entry.component.name}.${entry.variable.name}`;
    if (name === "OCPPCommCtrlr.HeartbeatInterval") this.startHeartbeat();
    if (name === "SampledDataCtrlr.TxUpdatedInterval") for (const e of this.evses) this.scheduleUpdates(e);
    if (name === "SecurityCtrlr.BasicAuthPassword") {
      // Used from the next connection on (A01); the CSMS switches over when it stores the key.
      this.spec.key = value;
      this.log("BasicAuthPassword changed");
      this.options.onKeyChange?.(value);
    }
  }

  // ── connection ────────────────────────────────────────────────────────────────────────────

  protected get rebootMs() {
    return this.stepMs;
  }

  protected clearAllConnectorTimers() {
    for (const e of this.evses) this.clearEvseTimers(e);
  }

  protected async open() {
    const client = new Ocpp201Client({ endpoint: this.options.endpoint, identity: this.spec.serialNumber, password: this.spec.key, pingIntervalMs: 30_000 });
    this.answerCsmsCalls(client);
    client.onValidationFailure((f) => {
      this.validationFailures.push(f);
      this.logValidationFailure(f);
    });
    await this.adopt(client);
  }

  private async send<A extends ChargerAction201>(action: A, payload: Ocpp201Request<A>): Promise<Ocpp201Response<A> | undefined> {
    return this.callSafely(action, (client) => client.call(action, payload));
  }

  // ── boot, heartbeat, status ───────────────────────────────────────────────────────────────

  /**
   * B01–B03: Accepted starts the heartbeat at the interval given and reports every connector;
   * Pending or Rejected means BootNotification again after the interval, and nothing else
   * meanwhile but answers to the CSMS.
   */
  protected async boot(reason: BootReason = this.bootReason): Promise<void> {
    const answer = await this.send("BootNotification", {
      reason,
      chargingStation: {
        model: "Simulator",
        vendorName: "Plugdesk",
        serialNumber: this.spec.serialNumber.slice(0, 25),
        firmwareVersion: this.firmwareVersion,
      },
    });
    if (!answer) return;
    const interval = answer.interval > 0 ? answer.interval : 300;
    if (answer.status !== "Accepted") {
      const retry = Math.min(interval, 60);
      this.log(`boot ${answer.status}${answer.statusInfo ? ` (${answer.statusInfo.reasonCode})` : ""}; trying again in ${retry} s`);
      this.booted = false;
      this.afterReply(() => this.boot(reason), retry * 1000);
      return;
    }
    const first = !this.booted;
    this.booted = true;
    this.bootReason = "PowerUp";
    this.model.set([{ component: HEARTBEAT[0], variable: HEARTBEAT[1], attributeValue: String(interval) }]);
    if (!first) return;
    this.log(`booted (${reason}), heartbeat every ${interval} s`);
    await this.reportAllStatuses();
    if (this.installedAfterBoot !== undefined) {
      const requestId = this.installedAfterBoot;
      this.installedAfterBoot = undefined;
      await this.firmwareStatus("Installed", requestId);
      this.firmware = { status: "Idle", timers: [] };
    }
  }

  protected startHeartbeat() {
    this.stopHeartbeat();
    const seconds = this.model.number(...HEARTBEAT) || 300;
    this.heartbeat = setInterval(() => void this.send("Heartbeat", {}), seconds * 1000);
  }

  /** What a connector shows (G01): a fault first, then a car plugged in, then its availability and reservation. */
  private statusOf(e: Evse): ConnectorStatus {
    if (e.fault) return "Faulted";
    if (e.transaction || e.starting || e.plugged) return "Occupied";
    if (!e.operative) return "Unavailable";
    return e.reservation ? "Reserved" : "Available";
  }

  private async reportStatus(e: Evse) {
    // Until its boot is Accepted a station sends nothing but BootNotification (B02, B03).
    if (!this.booted) return;
    await this.send("StatusNotification", { timestamp: new Date().toISOString(), connectorStatus: e.status, evseId: e.id, connectorId: 1 });
  }

  /** Every connector as it is now: after a boot, a reconnection or a trigger. */
  protected async reportAllStatuses() {
    for (const e of this.evses) {
      e.status = this.statusOf(e);
      await this.reportStatus(e);
    }
  }

  /** Reports the connector's status when it changed; `always` reports it anyway. */
  private async refreshStatus(e: Evse, { always = false } = {}) {
    const status = this.statusOf(e);
    if (status === e.status && !always) return;
    e.status = status;
    this.log(`EVSE ${e.id}: ${status}`);
    await this.reportStatus(e);
  }

  private async notifyProblem(e: Evse, problem: boolean) {
    await this.send("NotifyEvent", {
      generatedAt: new Date().toISOString(),
      seqNo: 0,
      eventData: [
        {
          eventId: ++this.eventId,
          timestamp: new Date().toISOString(),
          trigger: "Delta",
          actualValue: String(problem),
          ...(e.fault ? { techCode: e.fault } : {}),
          ...(problem ? {} : { cleared: true }),
          ...(e.transaction ? { transactionId: e.transaction.id } : {}),
          eventNotificationType: "HardWiredNotification",
          component: component("Connector", { id: e.id, connectorId: 1 }),
          variable: variable("Problem"),
        },
      ],
    });
  }

  // ── transactions ──────────────────────────────────────────────────────────────────────────

  /** Brings an EVSE's register up to now at the power the car takes; answers that power. */
  private tick(e: Evse): number {
    const tx = e.transaction;
    if (!tx) return (e.powerW = 0);
    const now = Date.now();
    const offered = tx.chargingState === "Charging" || tx.chargingState === "SuspendedEV" ? this.profiles.limitW(e.id) : 0;
    // A little noise, as a real meter shows.
    const powerW = tx.car.accepts(offered) * (0.985 + Math.random() * 0.015);
    const wh = (powerW * (now - tx.lastTick)) / 3_600_000;
    tx.lastTick = now;
    e.registerWh += wh;
    tx.car.charge(wh);
    return (e.powerW = powerW);
  }

  private reading(e: Evse, context: ReadingContext201, measurands: readonly [Component, Variable]): MeterValue201[] {
    const list = (this.model.value(...measurands) ?? "").split(",").map((m) => m.trim());
    const value = meterValue201(this.electrics, { registerWh: e.registerWh, powerW: e.powerW, soc: e.transaction?.car.soc }, context, list);
    return value ? [value] : [];
  }

  /** One TransactionEvent of a transaction, with the next seqNo; the answer's cost and token status go to the log. */
  private async transactionEvent(
    e: Evse,
    tx: Transaction,
    eventType: TransactionEventRequest["eventType"],
    triggerReason: TriggerReason,
    extra: Partial<Pick<TransactionEventRequest, "meterValue" | "idToken" | "reservationId">> & { stoppedReason?: StoppedReason } = {},
  ): Promise<TransactionEventResponse | undefined> {
    const { stoppedReason, ...rest } = extra;
    const request: TransactionEventRequest = {
      eventType,
      timestamp: new Date().toISOString(),
      triggerReason,
      seqNo: tx.seqNo++,
      transactionInfo: {
        transactionId: tx.id,
        chargingState: tx.chargingState,
        timeSpentCharging: Math.round((Date.now() - tx.startedAt) / 1000),
        ...(stoppedReason ? { stoppedReason } : {}),
        // The remoteStartId ties the transaction to the RequestStartTransaction once, in the first event (F01).
        ...(eventType === "Started" && tx.remoteStartId !== undefined ? { remoteStartId: tx.remoteStartId } : {}),
      },
      evse: { id: e.id, connectorId: 1 },
      ...rest,
    };
    if (request.meterValue?.length === 0) delete request.meterValue;
    return this.send("TransactionEvent", request);
  }

  /** What the CSMS said about a transaction (I02, C01): the running cost, the priority and the token's status. */
  private answerText(answer: TransactionEventResponse | undefined): string {
    if (!answer) return "";
    const parts = [
      answer.totalCost !== undefined ? `totalCost ${answer.totalCost}` : "",
      answer.chargingPriority !== undefined ? `chargingPriority ${answer.chargingPriority}` : "",
      answer.idTokenInfo ? `idToken ${answer.idTokenInfo.status}` : "",
      answer.updatedPersonalMessage ? `"${answer.updatedPersonalMessage.content}"` : "",
    ].filter(Boolean);
    return parts.length > 0 ? ` (${parts.join(", ")})` : "";
  }

  private txUpdatedIntervalMs() {
    return this.model.number(...TX_UPDATED_INTERVAL) * 1000;
  }

  /** TransactionEvent Updated every TxUpdatedInterval while the transaction runs (E02, J02); 0 sends none. */
  private scheduleUpdates(e: Evse) {
    const tx = e.transaction;
    if (!tx) return;
    if (tx.timer) clearInterval(tx.timer);
    tx.timer = undefined;
    const ms = this.txUpdatedIntervalMs();
    if (ms > 0) tx.timer = setInterval(() => void this.sendUpdated(e), ms);
  }

  /**
   * E01–E03, F01: the connector is Occupied, the transaction Started with the meter at its
   * beginning; a token the CSMS does not accept in its answer ends it again (Deauthorized, E05).
   * A remote start is authorized first only when AuthCtrlr.AuthorizeRemoteStart says so.
   */
  private async startTransaction(
    e: Evse,
    idToken: IdToken201,
    { trigger, remoteStartId, groupIdToken, chargingProfile }: { trigger: TriggerReason; remoteStartId?: number; groupIdToken?: IdToken201; chargingProfile?: ChargingProfile201 },
  ) {
    try {
      if (e.unplugTimer) clearTimeout(e.unplugTimer);
      let group = groupIdToken;
      if (remoteStartId === undefined || this.model.flag(...AUTHORIZE_REMOTE_START)) {
        const auth = await this.authorize(idToken);
        if (!auth || auth.idTokenInfo.status !== "Accepted") {
          this.log(`EVSE ${e.id}: ${idToken.idToken} not authorized (${auth?.idTokenInfo.status ?? "no answer"})`);
          return;
        }
        group = auth.idTokenInfo.groupIdToken ?? group;
      }
      // A reserved EVSE takes only the reserved token or a token of the reservation's group (H01).
      if (e.reservation && !sameToken(e.reservation.idToken, idToken) && !sameToken(e.reservation.groupIdToken, group)) {
        this.log(`EVSE ${e.id}: reserved for ${e.reservation.idToken.idToken}, ${idToken.idToken} refused`);
        return;
      }
      const reservationId = e.reservation?.id;
      this.clearReservation(e);
      e.plugged = true;
      const now = Date.now();
      const tx: Transaction = {
        id: randomUUID(),
        seqNo: 0,
        idToken,
        ...(group ? { groupIdToken: group } : {}),
        ...(remoteStartId !== undefined ? { remoteStartId } : {}),
        meterStartWh: Math.round(e.registerWh),
        startedAt: now,
        lastTick: now,
        lastLogged: now,
        chargingState: "Charging",
        car: new Car(this.spec.type),
      };
      e.transaction = tx;
      e.starting = false;
      await this.refreshStatus(e);
      if (chargingProfile) this.profiles.set(e.id, { ...chargingProfile, transactionId: tx.id }, tx.id);
      this.tick(e);
      const answer = await this.transactionEvent(e, tx, "Started", trigger, {
        idToken,
        meterValue: this.reading(e, "Transaction.Begin", TX_STARTED_MEASURANDS),
        ...(reservationId !== undefined ? { reservationId } : {}),
      });
      this.log(`EVSE ${e.id}: transaction ${tx.id} started for ${idToken.idToken} at ${(this.profiles.limitW(e.id) / 1000).toFixed(1)} kW${this.answerText(answer)}`);
      if (answer?.idTokenInfo && answer.idTokenInfo.status !== "Accepted") {
        await this.endTransaction(e, "Deauthorized", "DeAuthorized");
        return;
      }
      this.scheduleUpdates(e);
    } finally {
      e.starting = false;
      if (!e.transaction) await this.refreshStatus(e);
    }
  }

  private async sendUpdated(e: Evse, trigger: TriggerReason = "MeterValuePeriodic") {
    const tx = e.transaction;
    if (!tx) return;
    const powerW = this.tick(e);
    const context: ReadingContext201 = trigger === "Trigger" ? "Trigger" : "Sample.Periodic";
    const answer = await this.transactionEvent(e, tx, "Updated", trigger, { meterValue: this.reading(e, context, TX_UPDATED_MEASURANDS) });
    if (Date.now() - tx.lastLogged >= PROGRESS_LOG_MS || (answer?.totalCost !== undefined && trigger === "MeterValuePeriodic")) {
      tx.lastLogged = Date.now();
      const kWh = (e.registerWh - tx.meterStartWh) / 1000;
      this.log(`EVSE ${e.id}: ${kWh.toFixed(2)} kWh at ${(powerW / 1000).toFixed(1)} kW, SoC ${Math.floor(tx.car.soc)} %${this.answerText(answer)}`);
    }
    if (tx.car.full && tx.chargingState === "Charging" && e.transaction === tx) {
      tx.chargingState = "SuspendedEV";
      this.log(`EVSE ${e.id}: the car is full`);
      await this.transactionEvent(e, tx, "Updated", "ChargingStateChanged");
    }
  }

  /**
   * E06–E07, F03: the meter stops where it is and the transaction Ended with why; the car stays
   * plugged in (Occupied) until the driver unplugs a moment later. Work waiting for the station
   * to be idle runs when the last transaction has ended.
   */
  private async endTransaction(e: Evse, trigger: TriggerReason, stoppedReason: StoppedReason, { unplug = true, idToken }: { unplug?: boolean; idToken?: IdToken201 } = {}) {
    const tx = e.transaction;
    if (!tx) return;
    if (tx.timer) clearInterval(tx.timer);
    this.tick(e);
    e.transaction = undefined;
    e.powerW = 0;
    tx.chargingState = "EVConnected";
    this.profiles.endTransaction(e.id);
    if (e.pendingOperative !== undefined) {
      e.operative = e.pendingOperative;
      e.pendingOperative = undefined;
    }
    const answer = await this.transactionEvent(e, tx, "Ended", trigger, {
      stoppedReason,
      ...(idToken ? { idToken } : {}),
      meterValue: this.reading(e, "Transaction.End", TX_ENDED_MEASURANDS),
    });
    const kWh = (Math.round(e.registerWh) - tx.meterStartWh) / 1000;
    this.log(`EVSE ${e.id}: transaction ${tx.id} ended (${trigger}, ${stoppedReason}), ${kWh.toFixed(2)} kWh${this.answerText(answer)}`);
    if (unplug) this.unplugLater(e);
    if (this.evses.every((x) => !x.transaction) && this.whenIdle.length > 0) {
      const waiting = this.whenIdle;
      this.whenIdle = [];
      for (const work of waiting) this.afterReply(work);
    }
  }

  /** The driver unplugs a moment after the transaction ended; the connector is then free again. */
  private unplugLater(e: Evse) {
    if (e.unplugTimer) clearTimeout(e.unplugTimer);
    e.unplugTimer = setTimeout(() => {
      e.unplugTimer = undefined;
      if (e.transaction || e.starting) return;
      e.plugged = false;
      void this.refreshStatus(e);
    }, this.stepMs);
  }

  private clearReservation(e: Evse) {
    if (e.reservation) clearTimeout(e.reservation.timer);
    e.reservation = undefined;
  }

  private clearEvseTimers(e: Evse) {
    if (e.transaction?.timer) clearInterval(e.transaction.timer);
    if (e.unplugTimer) clearTimeout(e.unplugTimer);
    this.clearReservation(e);
  }

  /** Whether an EVSE could start a transaction for this token now. */
  private free(e: Evse, idToken: IdToken201) {
    // With a group on the reservation, the token's group is known only after Authorize (see startTransaction).
    const reservedFor = !e.reservation || sameToken(e.reservation.idToken, idToken) || e.reservation.groupIdToken !== undefined;
    return e.operative && !e.fault && !e.transaction && !e.starting && reservedFor;
  }

  /** Runs `work` now when no transaction runs, else once the last one has ended. */
  private onIdle(work: () => Promise<void>): boolean {
    if (this.evses.every((e) => !e.transaction && !e.starting)) {
      this.afterReply(work);
      return true;
    }
    this.whenIdle.push(work);
    return false;
  }

  // ── what the CSMS asks ────────────────────────────────────────────────────────────────────

  private answerCsmsCalls(client: Ocpp201Client) {
    const evse = (id: number | undefined) => (id !== undefined && id >= 1 ? this.evses[id - 1] : undefined);
    const logged = <A extends ServerAction201>(action: A, handler: (p: Ocpp201Request<A>) => Ocpp201Response<A>) =>
      client.handle(action, ((payload: Ocpp201Request<A>) => {
        const answer = handler(payload);
        const status = (answer as { status?: string }).status;
        this.log(`${action}${status ? ` → ${status}` : ""}`);
        return answer;
      }) as Handler201<A>);

    logged("RequestStartTransaction", ({ evseId, idToken, groupIdToken, remoteStartId, chargingProfile }) => {
      if (chargingProfile && chargingProfile.chargingProfilePurpose !== "TxProfile") return { status: "Rejected", statusInfo: { reasonCode: "InvalidProfile" } };
      const e = evseId === undefined ? this.evses.find((x) => this.free(x, idToken)) : evse(evseId);
      if (!e || !this.free(e, idToken)) return { status: "Rejected" };
      e.starting = true;
      this.afterReply(() => this.startTransaction(e, idToken, { trigger: "RemoteStart", remoteStartId, groupIdToken, chargingProfile }));
      return { status: "Accepted" };
    });

    logged("RequestStopTransaction", ({ transactionId }) => {
      const e = this.evses.find((x) => x.transaction?.id === transactionId);
      if (!e) return { status: "Rejected" };
      this.afterReply(() => this.endTransaction(e, "RemoteStop", "Remote"));
      return { status: "Accepted" };
    });

    logged("UnlockConnector", ({ evseId, connectorId }) => {
      const e = evse(evseId);
      if (!e || connectorId !== 1) return { status: "UnknownConnector" };
      // F05: a connector of a running, authorized transaction stays locked; the CSMS stops the transaction first.
      if (e.transaction) return { status: "OngoingAuthorizedTransaction" };
      if (e.plugged) {
        e.plugged = false;
        this.afterReply(() => this.refreshStatus(e));
      }
      return { status: "Unlocked" };
    });

    logged("TriggerMessage", ({ requestedMessage, evse: target }) => {
      const e = target ? evse(target.id) : undefined;
      if (target && (!e || (target.connectorId !== undefined && target.connectorId !== 1))) return { status: "Rejected" };
      return this.trigger(requestedMessage, e);
    });

    logged("GetVariables", ({ getVariableData }) => ({ getVariableResult: this.model.get(getVariableData) }));
    logged("SetVariables", ({ setVariableData }) => ({ setVariableResult: this.model.set(setVariableData) }));

    logged("GetBaseReport", ({ requestId, reportBase }) => {
      const rows = this.model.report(reportBase);
      if (rows.length === 0) return { status: "EmptyResultSet" };
      this.afterReply(async () => {
        const generatedAt = new Date().toISOString();
        const parts = Math.ceil(rows.length / REPORT_ROWS_PER_MESSAGE);
        for (let seqNo = 0; seqNo < parts; seqNo++) {
          const reportData = rows.slice(seqNo * REPORT_ROWS_PER_MESSAGE, (seqNo + 1) * REPORT_ROWS_PER_MESSAGE);
          await this.send("NotifyReport", { requestId, generatedAt, seqNo, tbc: seqNo < parts - 1, reportData });
        }
      });
      return { status: "Accepted" };
    });

    logged("Reset", ({ type, evseId }) => {
      if (evseId !== undefined && evseId !== 0) {
        const e = evse(evseId);
        if (!e) return { status: "Rejected", statusInfo: { reasonCode: "UnknownEvse" } };
        if (type === "OnIdle" && e.transaction) {
          this.whenIdle.push(() => this.resetEvse(e));
          return { status: "Scheduled" };
        }
        this.afterReply(async () => {
          await this.endTransaction(e, "ResetCommand", "ImmediateReset");
          await this.resetEvse(e);
        });
        return { status: "Accepted" };
      }
      if (type === "Immediate") {
        this.afterReply(() => this.reboot("RemoteReset", "ImmediateReset"));
        return { status: "Accepted" };
      }
      return { status: this.onIdle(() => this.reboot("RemoteReset", "ImmediateReset")) ? "Accepted" : "Scheduled" };
    });

    logged("ChangeAvailability", ({ evse: target, operationalStatus }) => {
      const operative = operationalStatus === "Operative";
      let targets = this.evses;
      if (target && target.id !== 0) {
        const e = evse(target.id);
        if (!e || (target.connectorId !== undefined && target.connectorId !== 1)) return { status: "Rejected" };
        targets = [e];
      }
      let scheduled = false;
      for (const e of targets) {
        if (e.transaction || e.starting) {
          e.pendingOperative = operative;
          scheduled = true;
        } else {
          e.operative = operative;
          this.afterReply(() => this.refreshStatus(e));
        }
      }
      return { status: scheduled ? "Scheduled" : "Accepted" };
    });

    logged("ReserveNow", ({ id, expiryDateTime, idToken, groupIdToken, evseId, connectorType }) => {
      if (!this.model.flag(...RESERVATIONS_ENABLED)) return { status: "Rejected" };
      if (connectorType && connectorType !== (this.spec.type === "DC" ? "cCCS2" : "sType2")) return { status: "Rejected", statusInfo: { reasonCode: "InvalidConnectorType" } };
      if (evseId !== undefined && !evse(evseId)) return { status: "Rejected", statusInfo: { reasonCode: "UnknownEvse" } };
      // The same id replaces the reservation it names (H01).
      const existing = this.evses.find((x) => x.reservation?.id === id);
      if (existing) this.clearReservation(existing);
      const candidates = evseId !== undefined ? [this.evses[evseId - 1]] : this.evses;
      const e = candidates.find((x) => x.operative && !x.fault && !x.transaction && !x.starting && !x.plugged && !x.reservation);
      if (!e) {
        if (existing) this.afterReply(() => this.refreshStatus(existing));
        if (candidates.every((x) => x.fault)) return { status: "Faulted" };
        if (candidates.every((x) => !x.operative)) return { status: "Unavailable" };
        return { status: "Occupied" };
      }
      if (existing && existing !== e) this.afterReply(() => this.refreshStatus(existing));
      // H01 with no EVSE: this station sets one EVSE aside, so that the reservation can always be honoured.
      const timer = setTimeout(
        () => {
          if (e.reservation?.id !== id) return;
          e.reservation = undefined;
          this.log(`EVSE ${e.id}: reservation ${id} expired`);
          void this.send("ReservationStatusUpdate", { reservationId: id, reservationUpdateStatus: "Expired" }).then(() => this.refreshStatus(e));
        },
        Math.max(0, Math.min(Date.parse(expiryDateTime) - Date.now(), 2 ** 31 - 1)),
      );
      e.reservation = { id, idToken, ...(groupIdToken ? { groupIdToken } : {}), timer };
      this.afterReply(() => this.refreshStatus(e));
      return { status: "Accepted" };
    });

    logged("CancelReservation", ({ reservationId }) => {
      const e = this.evses.find((x) => x.reservation?.id === reservationId);
      if (!e) return { status: "Rejected" };
      this.clearReservation(e);
      this.afterReply(() => this.refreshStatus(e));
      return { status: "Accepted" };
    });

    logged("GetLocalListVersion", () => ({ versionNumber: this.localList.version }));
    logged("SendLocalList", (request) => {
      if (!this.model.flag(...LOCAL_LIST_ENABLED)) return { status: "Failed", statusInfo: { reasonCode: "Disabled" } };
      return this.localList.apply(request);
    });

    logged("SetChargingProfile", ({ evseId, chargingProfile }) => this.profiles.set(evseId, chargingProfile, evse(evseId)?.transaction?.id));
    logged("ClearChargingProfile", (request) => this.profiles.clear(request));
    logged("GetCompositeSchedule", (request) => this.profiles.composite(request));
    logged("GetChargingProfiles", ({ requestId, evseId, chargingProfile }) => {
      const found = this.profiles.find(evseId, chargingProfile);
      if (found.length === 0) return { status: "NoProfiles" };
      this.afterReply(async () => {
        for (const [i, { evseId: id, profiles }] of found.entries()) {
          await this.send("ReportChargingProfiles", { requestId, chargingLimitSource: "CSO", evseId: id, chargingProfile: profiles, tbc: i < found.length - 1 });
        }
      });
      return { status: "Accepted" };
    });

    logged("UpdateFirmware", ({ requestId, firmware }) => this.updateFirmware(requestId, firmware));
    logged("GetLog", ({ requestId, logType }) => this.getLog(requestId, logType));

    logged("SetDisplayMessage", ({ message }) => {
      if (message.transactionId !== undefined && !this.evses.some((e) => e.transaction?.id === message.transactionId)) return { status: "UnknownTransaction" };
      this.displayMessages.set(message.id, message.message.content);
      this.log(`display message ${message.id}: "${message.message.content}"`);
      return { status: "Accepted" };
    });

    logged("CostUpdated", ({ totalCost, transactionId }) => {
      this.costUpdates.push({ transactionId, totalCost });
      this.log(`transaction ${transactionId}: cost so far ${totalCost}`);
      return {};
    });

    logged("ClearCache", () => ({ status: "Accepted" }));
    logged("DataTransfer", () => ({ status: "UnknownVendorId" }));
  }

  /** F06 TriggerMessage: the message asked for goes out after the answer; what the station cannot send is Rejected or NotImplemented. */
  private trigger(message: MessageTrigger, e: Evse | undefined): Ocpp201Response<"TriggerMessage"> {
    const targets = e ? [e] : this.evses;
    switch (message) {
      case "BootNotification":
        // Once accepted, a station does not boot again on request (F06).
        if (this.booted) return { status: "Rejected" };
        this.afterReply(() => this.boot("Triggered"));
        break;
      case "Heartbeat":
        this.afterReply(() => this.send("Heartbeat", {}));
        break;
      case "StatusNotification":
        this.afterReply(async () => {
          for (const x of targets) await this.reportStatus(x);
        });
        break;
      case "MeterValues":
        this.afterReply(async () => {
          for (const x of targets) {
            this.tick(x);
            const reading = this.reading(x, "Trigger", TX_UPDATED_MEASURANDS);
            if (reading.length > 0) await this.send("MeterValues", { evseId: x.id, meterValue: reading });
          }
        });
        break;
      case "TransactionEvent": {
        const running = targets.filter((x) => x.transaction);
        if (running.length === 0) return { status: "Rejected", statusInfo: { reasonCode: "NoTransaction" } };
        this.afterReply(async () => {
          for (const x of running) await this.sendUpdated(x, "Trigger");
        });
        break;
      }
      case "FirmwareStatusNotification":
        this.afterReply(() => this.firmwareStatus(this.firmware.status, this.firmware.requestId));
        break;
      case "LogStatusNotification":
        this.afterReply(() => this.logStatus(this.upload.status, this.upload.requestId));
        break;
      default:
        return { status: "NotImplemented" };
    }
    return { status: "Accepted" };
  }

  /** B11 for one EVSE: it goes Unavailable for a moment and comes back as it was. */
  private async resetEvse(e: Evse) {
    const operative = e.operative;
    e.operative = false;
    await this.refreshStatus(e);
    this.afterReply(async () => {
      e.operative = operative;
      await this.refreshStatus(e);
    }, this.stepMs);
  }

  /**
   * B11–B12 and L01: running transactions end first (ResetCommand; Ended with the reason given),
   * then the station closes its socket and comes back with a BootNotification giving the reason.
   */
  private async reboot(reason: BootReason, stoppedReason: StoppedReason) {
    for (const e of this.evses) if (e.transaction) await this.endTransaction(e, "ResetCommand", stoppedReason, { unplug: false });
    for (const e of this.evses) e.plugged = false;
    this.rebooting = true;
    this.bootReason = reason;
    this.stopHeartbeat();
    await this.client?.close(1012, `${reason}`);
  }

  /**
   * L01 UpdateFirmware: download and, when signed, verify; install once no transaction runs; the
   * station reboots into the new firmware and reports Installed after its boot. A new request
   * cancels one in progress (AcceptedCanceled).
   */
  private updateFirmware(requestId: number, firmware: Ocpp201Request<"UpdateFirmware">["firmware"]): Ocpp201Response<"UpdateFirmware"> {
    const busy = this.firmware.status !== "Idle" && this.firmware.status !== "Installed";
    for (const timer of this.firmware.timers) clearTimeout(timer);
    this.firmware = { status: "DownloadScheduled", requestId, timers: [] };
    const capped = (at: string | undefined) => Math.max(0, Math.min((at ? Date.parse(at) : Date.now()) - Date.now(), 60 * 60_000));
    const startIn = capped(firmware.retrieveDateTime);
    const steps: FirmwareStatus[] = ["Downloading", "Downloaded", ...(firmware.signature ? (["SignatureVerified"] as const) : [])];
    const at = (ms: number, work: () => Promise<unknown>) => this.firmware.timers.push(this.afterReply(work, ms));
    steps.forEach((status, i) => at(startIn + i * this.stepMs, () => this.firmwareStatus(status, requestId)));
    const installIn = Math.max(startIn + steps.length * this.stepMs, capped(firmware.installDateTime));
    at(installIn, async () => {
      const idle = this.onIdle(async () => {
        await this.firmwareStatus("Installing", requestId);
        this.firmware.timers.push(
          this.afterReply(async () => {
            await this.firmwareStatus("InstallRebooting", requestId);
            this.firmwareVersion = firmware.location.split("/").pop()?.replace(/\.[a-z0-9]+$/i, "").slice(0, 50) || "updated";
            this.installedAfterBoot = requestId;
            await this.reboot("FirmwareUpdate", "Reboot");
          }, this.stepMs),
        );
      });
      if (!idle) await this.firmwareStatus("InstallScheduled", requestId);
    });
    return { status: busy ? "AcceptedCanceled" : "Accepted" };
  }

  private async firmwareStatus(status: FirmwareStatus, requestId: number | undefined) {
    this.firmware.status = status;
    this.log(`firmware ${status}`);
    // Idle is the state without a request: no requestId then (L01).
    await this.send("FirmwareStatusNotification", { status, ...(requestId !== undefined && status !== "Idle" ? { requestId } : {}) });
  }

  /** N01 GetLog: the file is uploaded to the location given, Uploading then Uploaded; a new request cancels one in progress. */
  private getLog(requestId: number, logType: Ocpp201Request<"GetLog">["logType"]): Ocpp201Response<"GetLog"> {
    const busy = this.upload.status === "Uploading";
    for (const timer of this.upload.timers) clearTimeout(timer);
    const stamp = new Date().toISOString().replace(/[-:]/g, "").slice(0, 15);
    this.upload = { status: "Idle", requestId, timers: [] };
    this.upload.timers.push(
      this.afterReply(() => this.logStatus("Uploading", requestId)),
      this.afterReply(async () => {
        await this.logStatus("Uploaded", requestId);
        this.upload = { status: "Idle", timers: [] };
      }, this.stepMs),
    );
    return { status: busy ? "AcceptedCanceled" : "Accepted", filename: `${this.spec.serialNumber}-${logType}-${stamp}.log` };
  }

  private async logStatus(status: LogStatus, requestId: number | undefined) {
    this.upload.status = status;
    this.log(`log upload ${status}`);
    await this.send("LogStatusNotification", { status, ...(requestId !== undefined && status !== "Idle" ? { requestId } : {}) });
  }
}
