import type { LiveEvent } from "./events";
import { reportError } from "../http/report-error";

/** Where a pusher delivers: the operator's hub takes events, a relay takes them for an operator. */
export type LiveSink = (events: LiveEvent[]) => Promise<unknown>;

const sameConnectorMeter = (a: LiveEvent, b: LiveEvent) =>
  a.type === "meter" && b.type === "meter" && a.pointId === b.pointId && a.connectorId === b.connectorId;

/**
 * Live events on their way to a hub: in the order they were published, and in batches, one RPC
 * carrying every event that queued up while the previous one was under way, so a burst costs
 * the hub a few requests instead of one per event (docs/performance.md "What changed"). A meter
 * reading still waiting is replaced by a newer one of the same connector when nothing of that
 * point came between them: a page shows the present, and the order of a point's events holds.
 * With `intervalMs`, batches leave at most that often (a relay hub's pace, workers/live/shards.ts).
 */
export class HubPusher {
  private queue: LiveEvent[] = [];
  private sending = false;

  constructor(
    private readonly sink: () => LiveSink | undefined,
    private readonly waitUntil: (promise: Promise<unknown>) => void,
    private readonly intervalMs = 0,
  ) {}

  push(...events: LiveEvent[]) {
    for (const event of events) this.enqueue(event);
    if (!this.sending) this.waitUntil(this.send());
  }

  private enqueue(event: LiveEvent) {
    if (event.type === "meter") {
      for (let i = this.queue.length - 1; i >= 0; i--) {
        const queued = this.queue[i];
        if (queued.pointId !== event.pointId) continue;
        if (sameConnectorMeter(queued, event)) {
          this.queue.splice(i, 1);
          break;
        }
        // Something else of this point came after it: the reading stays, so the order holds.
        if (queued.type !== "meter") break;
      }
    }
    this.queue.push(event);
  }

  private async send() {
    this.sending = true;
    try {
      if (this.intervalMs) await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      while (this.queue.length) {
        const events = this.queue;
        this.queue = [];
        const sink = this.sink();
        if (!sink) return;
        try {
          await sink(events);
        } catch (e) {
          reportError("live publish", e);
        }
        if (this.intervalMs && this.queue.length) await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      }
    } finally {
      this.sending = false;
    }
  }
}
