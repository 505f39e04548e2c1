/**
 * A charger's queue of transaction-related messages (OCPP 1.6 §4.7 and §3.1.2 "transaction-related
 * messages", OCPP 2.0.1 Part 2 E04 and E12): they are delivered in the order they were made, one
 * at a time, and a message leaves the queue only once the central system has answered it. One
 * that was sent when the connection broke stays at the head and goes again after the reconnect,
 * so the server may see it twice (its answer may have been lost); one made while offline waits
 * for the connection. `offline` tells the maker of a message whether it is made while offline
 * (2.0.1 TransactionEvent carries `offline: true` then).
 */
export interface QueuedMessage {
  action: string;
  payload: unknown;
  /** Called with the server's answer once it came. */
  answered?: (answer: unknown) => void;
}

export class OfflineQueue {
  private readonly items: QueuedMessage[] = [];
  private draining: Promise<void> | undefined;

  constructor(
    /** Sends one CALL on the connection there is now; rejects when it breaks or is refused. */
    private readonly call: (action: string, payload: unknown) => Promise<unknown>,
    private readonly isOpen: () => boolean,
  ) {}

  /** Messages not answered yet, the oldest first. */
  get waiting(): readonly QueuedMessage[] {
    return this.items;
  }

  /** Whether a message made now is made while offline. */
  get offline(): boolean {
    return !this.isOpen();
  }

  /** Queues a message and sends the queue if the connection is open. */
  add(message: QueuedMessage): Promise<void> {
    this.items.push(message);
    return this.drain();
  }

  /** Sends what waits, in order; resolves once the queue is empty or the connection broke. */
  drain(): Promise<void> {
    this.draining ??= this.sendAll().finally(() => (this.draining = undefined));
    return this.draining;
  }

  private async sendAll() {
    while (this.items.length > 0 && this.isOpen()) {
      const head = this.items[0];
      let answer: unknown;
      try {
        answer = await this.call(head.action, head.payload);
      } catch {
        // Broken connection, timeout or CALLERROR: it stays at the head for the next drain.
        return;
      }
      this.items.shift();
      head.answered?.(answer);
    }
  }
}
