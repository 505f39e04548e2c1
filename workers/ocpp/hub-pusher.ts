import type { LiveEvent } from "../live/events";
import type { TenantHub } from "../live/tenant-hub";
import { reportError } from "../http/report-error";

/**
 * A charger's live events on their way to its operator's TenantHub: in the order they were
 * published, and in batches, one RPC carrying every event that queued up while the previous one
 * was under way, so a burst costs the hub a few requests instead of one per event
 * (docs/performance.md "Levers").
 */
export class HubPusher {
  private queue: LiveEvent[] = [];
  private sending = false;

  constructor(
    private readonly hub: () => DurableObjectStub<TenantHub> | undefined,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
  ) {}

  push(event: LiveEvent) {
    this.queue.push(event);
    if (!this.sending) this.waitUntil(this.send());
  }

  private async send() {
    this.sending = true;
    try {
      while (this.queue.length) {
        const events = this.queue;
        this.queue = [];
        const hub = this.hub();
        if (!hub) return;
        try {
          await hub.publishMany(events);
        } catch (e) {
          reportError("live publish", e);
        }
      }
    } finally {
      this.sending = false;
    }
  }
}
