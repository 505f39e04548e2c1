import type { OcppVersion } from "../../workers/ocpp/protocol";
import { OfflineQueue } from "../sim/offline-queue";
import { OcppClient, type RpcConnection } from "../sim/rpc";
import { Ocpp201Client } from "../sim/rpc201";

/**
 * The chargers `npm run chaos` drives (docs/testing.md "Chaos"): strict ocpp-rpc clients of either
 * version with an offline queue of their transaction-related messages (scripts/sim/offline-queue.ts),
 * that reconnect by themselves when the server goes away and resend what was not answered. Each
 * keeps what it was told, so that the harness can compare it with what the server kept: its
 * transaction, the readings the server answered, the stop it reported and the last status of
 * each connector it sent.
 */

/** The operator's remote-start tag of the demo (db/seed.ts): accepted for any number of sessions at once. */
export const CHAOS_ID_TAG = "PLREMOTE";
const RECONNECT_EVERY_MS = 500;

export interface ChaosReading {
  at: string;
  registerWh: number;
  answered: boolean;
}

export interface ChaosTransaction {
  /** 1.6: the server's transaction id; 2.0.1: the charger's own (a UUID). */
  id: string;
  /** The start and stop the charger reported (its clock): what the session is priced between. */
  startedAt: string;
  stoppedAt?: string;
  meterStartWh: number;
  meterStopWh?: number;
  readings: ChaosReading[];
  /** The stop was answered by the server (at least once). */
  stopAnswered: boolean;
}

export type ChaosStatus = "Available" | "Unavailable" | "Faulted";

export class ChaosCharger {
  private client: RpcConnection | undefined;
  private registerWh = 1_000_000;
  private seqNo = 0;
  private reconnecting = false;
  private closed = false;
  readonly queue: OfflineQueue;
  transaction: ChaosTransaction | undefined;
  /** Connector → the last status sent (and answered). */
  readonly lastStatus = new Map<number, ChaosStatus>();
  /** Strict-mode violations and failures the harness reports. */
  readonly failures: string[] = [];
  bootStatus: string | undefined;

  constructor(
    readonly version: OcppVersion,
    readonly serial: string,
    private readonly key: string,
    /** `ws://…/ocpp`; asked again at each reconnect (a restarted server listens on a new port). */
    private readonly endpoint: () => string,
    /** The tag its sessions start with: a driver's RFID card, or the operator's remote-start tag. */
    private readonly idTag = CHAOS_ID_TAG,
  ) {
    this.queue = new OfflineQueue(
      (action, payload) => this.callNow(action, payload),
      () => this.client?.isOpen ?? false,
    );
  }

  get online() {
    return this.client?.isOpen ?? false;
  }

  /** Opens the socket; once open, a lost connection is reopened until `close`, and the queue sent again. */
  async connect(): Promise<void> {
    const options = { endpoint: this.endpoint(), identity: this.serial, password: this.key, callTimeoutMs: 60_000 };
    const client = this.version === "1.6" ? new OcppClient(options) : new Ocpp201Client(options);
    client.onValidationFailure((f) => this.failures.push(`${this.serial}: strict ${f.outbound ? "sent" : "received"} ${f.method}: ${f.error.message}`));
    await client.connect();
    this.client = client;
    client.onClose(() => {
      if (client === this.client && !this.closed) void this.reconnect();
    });
  }

  private async reconnect() {
    if (this.reconnecting) return;
    this.reconnecting = true;
    try {
      while (!this.closed) {
        await new Promise((r) => setTimeout(r, RECONNECT_EVERY_MS));
        try {
          await this.connect();
          // A lost connection is not a reboot: no BootNotification, the transaction carries on (OCPP 1.6 §4.2).
          await this.queue.drain();
          return;
        } catch {
          // The server is not back yet.
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }

  /** Waits until the socket is open again (after a kill and restart). */
  async untilOnline(timeoutMs = 300_000): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; !this.online; ) {
      if (Date.now() > deadline) throw new Error(`${this.serial} did not reconnect`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private callNow(action: string, payload: unknown): Promise<unknown> {
    const client = this.client;
    if (!client?.isOpen) return Promise.reject(new Error("offline"));
    return this.version === "1.6"
      ? (client as OcppClient).call(action as "Heartbeat", payload as Record<string, never>)
      : (client as Ocpp201Client).call(action as "Heartbeat", payload as Record<string, never>);
  }

  async boot(): Promise<string> {
    const answer = (await this.callNow(
      "BootNotification",
      this.version === "1.6"
        ? { chargePointVendor: "Plugdesk", chargePointModel: "Chaos" }
        : { reason: "PowerUp", chargingStation: { vendorName: "Plugdesk", model: "Chaos" } },
    )) as { status: string };
    this.bootStatus = answer.status;
    return answer.status;
  }

  /** A connector's status (1.6 §4.9; 2.0.1 G01, connector 1 of EVSE `connector`). */
  async status(connector: number, status: ChaosStatus): Promise<void> {
    const timestamp = new Date().toISOString();
    await this.callNow(
      "StatusNotification",
      this.version === "1.6" ? { connectorId: connector, errorCode: "NoError", status, timestamp } : { timestamp, connectorStatus: status, evseId: connector, connectorId: 1 },
    );
    this.lastStatus.set(connector, status);
  }

  /** Starts a transaction on connector (EVSE) 1 with its tag; answered before it returns. */
  async start(): Promise<void> {
    const timestamp = new Date().toISOString();
    const meterStartWh = this.registerWh;
    if (this.version === "1.6") {
      const answer = (await this.callNow("StartTransaction", { connectorId: 1, idTag: this.idTag, meterStart: meterStartWh, timestamp })) as { transactionId: number };
      this.transaction = { id: String(answer.transactionId), startedAt: timestamp, meterStartWh, readings: [], stopAnswered: false };
      return;
    }
    const id = crypto.randomUUID();
    this.seqNo = 0;
    await this.callNow("TransactionEvent", {
      eventType: "Started",
      timestamp,
      triggerReason: "Authorized",
      seqNo: this.seqNo,
      transactionInfo: { transactionId: id, chargingState: "Charging" },
      idToken: { idToken: this.idTag, type: this.idTag === CHAOS_ID_TAG ? "Central" : "ISO14443" },
      evse: { id: 1, connectorId: 1 },
      meterValue: [register201(meterStartWh, timestamp, "Transaction.Begin")],
    });
    this.transaction = { id, startedAt: timestamp, meterStartWh, readings: [], stopAnswered: false };
  }

  /** One periodic reading of the running transaction, through the queue (1.6 MeterValues, 2.0.1 TransactionEvent Updated, E02). */
  reading(): Promise<void> {
    const tx = this.transaction;
    if (!tx || tx.meterStopWh !== undefined) return Promise.resolve();
    this.registerWh += 37;
    const at = new Date().toISOString();
    const reading: ChaosReading = { at, registerWh: this.registerWh, answered: false };
    tx.readings.push(reading);
    const payload =
      this.version === "1.6"
        ? {
            connectorId: 1,
            transactionId: Number(tx.id),
            meterValue: [{ timestamp: at, sampledValue: [{ value: String(this.registerWh), context: "Sample.Periodic", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }],
          }
        : {
            eventType: "Updated",
            timestamp: at,
            triggerReason: "MeterValuePeriodic",
            seqNo: ++this.seqNo,
            ...(this.queue.offline ? { offline: true } : {}),
            transactionInfo: { transactionId: tx.id },
            meterValue: [register201(this.registerWh, at, "Sample.Periodic")],
          };
    return this.queue.add({ action: this.version === "1.6" ? "MeterValues" : "TransactionEvent", payload, answered: () => (reading.answered = true) });
  }

  /**
   * Ends the transaction on the charger's side and queues its stop: 1.6 StopTransaction with
   * transactionData (§6.47), 2.0.1 TransactionEvent Ended (E06), `offline: true` when made offline.
   */
  stop(): Promise<void> {
    const tx = this.transaction;
    if (!tx || tx.meterStopWh !== undefined) return Promise.resolve();
    tx.meterStopWh = this.registerWh;
    const at = new Date().toISOString();
    tx.stoppedAt = at;
    const payload =
      this.version === "1.6"
        ? {
            transactionId: Number(tx.id),
            idTag: this.idTag,
            meterStop: tx.meterStopWh,
            timestamp: at,
            reason: "Local",
            transactionData: [
              { timestamp: at, sampledValue: [{ value: String(tx.meterStopWh), context: "Transaction.End", measurand: "Energy.Active.Import.Register", unit: "Wh" }] },
            ],
          }
        : {
            eventType: "Ended",
            timestamp: at,
            triggerReason: "StopAuthorized",
            seqNo: ++this.seqNo,
            ...(this.queue.offline ? { offline: true } : {}),
            transactionInfo: { transactionId: tx.id, chargingState: "Idle", stoppedReason: "Local" },
            meterValue: [register201(tx.meterStopWh, at, "Transaction.End")],
          };
    this.lastStop = { action: this.version === "1.6" ? "StopTransaction" : "TransactionEvent", payload };
    return this.queue.add({ ...this.lastStop, answered: () => (tx.stopAnswered = true) });
  }

  private lastStop: { action: string; payload: unknown } | undefined;

  /** The stop once more, as a charger whose answer was lost sends it (the server must change nothing). */
  repeatStop(): Promise<void> {
    return this.lastStop ? this.queue.add({ ...this.lastStop }) : Promise.resolve();
  }

  /** Drops the connection without a reconnect of its own (the storm reconnects by hand). */
  async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close(4000, "chaos drop").catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.close(1000).catch(() => undefined);
  }
}

function register201(registerWh: number, timestamp: string, context: "Transaction.Begin" | "Sample.Periodic" | "Transaction.End") {
  return { timestamp, sampledValue: [{ value: registerWh, context, measurand: "Energy.Active.Import.Register", unitOfMeasure: { unit: "Wh" } }] };
}
