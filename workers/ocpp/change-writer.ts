import { DurableObject } from "cloudflare:workers";
import { systemCtx } from "../services/context";
import { applyChargersChanges, type ChargerChange, type RaisedAlarm } from "../services/ocpp/charger-changes";
import { reportError } from "../http/report-error";
import { connectorStatusesChanged } from "../services/ocpi/cpo-push";
import { chargerCtx, type ChargerIdentity } from "./identity";

/** How many chargers' changes go to D1 in one batch at most (a D1 batch counts every statement). */
export const CHARGERS_PER_BATCH = 50;

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
      while (this.queue.length > 0) await this.land(this.queue.splice(0, CHARGERS_PER_BATCH));
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
   * Connector states now in D1 go to roaming partners, batched (docs/rules/ocpi.md "Pushes of what
   * we publish"): after the chargers have their answer, never on their path.
   */
  private statusesLanded(batch: Waiting[]) {
    const changed = batch.flatMap((w) => w.changes.flatMap((c) => (c.kind === "status" ? [{ pointId: w.identity.pointId, connectorNo: c.status.connectorId }] : [])));
    if (changed.length === 0) return;
    const { operatorId, operatorCode } = batch[0].identity;
    const ctx = systemCtx(this.env, { operatorId, operatorCode }, "ocpi location push");
    this.ctx.waitUntil(connectorStatusesChanged(ctx, changed).catch((error: unknown) => reportError("ocpi location push", error)));
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
