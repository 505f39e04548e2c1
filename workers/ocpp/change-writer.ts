import { DurableObject } from "cloudflare:workers";
import { systemCtx } from "../services/context";
import { applyChargersChanges, type ChargerChange, type RaisedAlarm, type StatusChange } from "../services/ocpp/charger-changes";
import { reportError } from "../http/report-error";
import { connectorStatusesChanged } from "../services/ocpi/cpo-push";
import { tenantHubName, type LiveEvent } from "../live/events";
import { HubPusher } from "../live/hub-pusher";
import { chargerCtx, type ChargerIdentity } from "./identity";

/** How many chargers' changes go to D1 in one batch at most (a D1 batch counts every statement). */
export const CHARGERS_PER_BATCH = 50;

/**
 * How long a batch that is not full waits for company when the writer landed one within
 * BUSY_WITHIN_MS: under a burst, lone batches otherwise alternated with full ones, and each paid
 * D1 a read and a write batch of its own (docs/performance.md "Statuses heard from the writer").
 * A writer that was idle sends at once.
 */
export const LINGER_MS = 20;
const BUSY_WITHIN_MS = 100;

/** A landed status as the live view shows it. */
const statusEvent = ({ pointId, serialNumber }: ChargerIdentity, { connectorId, status, errorCode, at }: StatusChange): LiveEvent => ({
  type: "connector",
  pointId,
  serialNumber,
  connectorId,
  status,
  errorCode,
  at,
});

/** The ChangeWriter of an operator's chargers. */
export const changeWriterName = (operatorId: number) => `writer:${operatorId}`;

interface Waiting {
  identity: ChargerIdentity;
  changes: ChargerChange[];
  resolve: (raised: RaisedAlarm[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Hands the changes of one operator's chargers to D1 together (docs/performance.md "Changes of
 * many chargers in one batch"). Each charger's outbox sends its batch here and waits until D1 has
 * it, one batch at a time, so each charger's changes still land in its order. While one D1 batch
 * is under way, the batches that arrive wait and then go together in the next one: under a boot
 * storm or a burst of statuses a few D1 batches carry thousands of chargers' changes, and alone
 * a charger's batch goes at once. It keeps nothing: a batch it loses (an eviction, a failure) is
 * still in its charger's outbox, which sends it again.
 */
export class ChangeWriter extends DurableObject<Env> {
  private queue: Waiting[] = [];
  private writing = false;
  /** When the last D1 batch landed (0: not in this object's life). */
  private lastLanded = 0;
  /** Landed statuses on their way to the live view, in the order they landed (made at the first). */
  private live: HubPusher | undefined;

  /** Resolves with the alarms the changes raised, once D1 has them. */
  async apply(identity: ChargerIdentity, changes: ChargerChange[]): Promise<RaisedAlarm[]> {
    return new Promise<RaisedAlarm[]>((resolve, reject) => {
      this.queue.push({ identity, changes, resolve, reject });
      if (!this.writing) this.ctx.waitUntil(this.write());
    });
  }

  private async write() {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        if (this.queue.length < CHARGERS_PER_BATCH && Date.now() - this.lastLanded < BUSY_WITHIN_MS) await new Promise((r) => setTimeout(r, LINGER_MS));
        await this.land(this.queue.splice(0, CHARGERS_PER_BATCH));
        this.lastLanded = Date.now();
      }
    } finally {
      this.writing = false;
    }
  }

  /** One D1 batch for these chargers; when it fails, each charger alone, so one bad change holds up no other charger. */
  private async land(batch: Waiting[]) {
    try {
      const raised = await this.applyAll(batch);
      batch.forEach((w, i) => w.resolve(raised[i]));
      this.statusesLanded(batch);
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      reportError("ocpp changes to D1, retried per charger", error, { chargers: batch.length });
      for (const w of batch) {
        try {
          w.resolve((await this.applyAll([w]))[0]);
          this.statusesLanded([w]);
        } catch (alone) {
          w.reject(alone);
        }
      }
    }
  }

  /**
   * Connector states now in D1 go to the operator's live view and to roaming partners, batched
   * (docs/rules/monitoring.md "Live values", docs/rules/ocpi.md "Pushes of what we publish"):
   * after the chargers have their answer, never on their path. The live view hears them here, in
   * one request per D1 batch, not from each charger: a burst of statuses costs the hub a few
   * requests and the chargers none (decision 0111).
   */
  private statusesLanded(batch: Waiting[]) {
    const landed = batch.flatMap(({ identity, changes }) => changes.flatMap((c) => (c.kind === "status" ? [{ identity, status: c.status }] : [])));
    if (landed.length === 0) return;
    const { operatorId, operatorCode } = batch[0].identity;
    this.liveView(operatorId).push(...landed.map(({ identity, status }) => statusEvent(identity, status)));
    const ctx = systemCtx(this.env, { operatorId, operatorCode }, "ocpi location push");
    const changed = landed.map(({ identity, status }) => ({ pointId: identity.pointId, connectorNo: status.connectorId }));
    this.ctx.waitUntil(connectorStatusesChanged(ctx, changed).catch((error: unknown) => reportError("ocpi location push", error)));
  }

  /** The operator's own hub, the one browsers listen to: one request per batch needs no relay (workers/live/shards.ts). */
  private liveView(operatorId: number) {
    this.live ??= new HubPusher(
      () => {
        const hub = this.env.TENANT_HUB.getByName(tenantHubName(operatorId));
        return (events) => hub.publishMany(events);
      },
      (promise) => this.ctx.waitUntil(promise),
    );
    return this.live;
  }

  private applyAll(batch: Waiting[]) {
    const { operatorId, operatorCode } = batch[0].identity;
    const ctx = systemCtx(this.env, { operatorId, operatorCode }, "ocpp change writer");
    return applyChargersChanges(
      ctx,
      batch.map((w) => ({ ctx: chargerCtx(this.env, w.identity), pointId: w.identity.pointId, changes: w.changes })),
    );
  }
}
