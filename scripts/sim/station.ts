import type { ChargerOptions, ChargerSpec } from "./charger";
import { httpStatus, pause, refusalStatus, REPLACED } from "./connection";
import type { CloseInfo, RpcConnection, ValidationFailure } from "./rpc";

/**
 * The connection life both simulated chargers share, whichever protocol they speak (SimCharger,
 * OCPP 1.6J; SimCharger201, OCPP 2.0.1): connecting with back-off until stopped, a refused key
 * renewed once from the API, an unknown charger given up; after a close, reconnecting (after a
 * reboot's pause when it rebooted); standing down when a newer connection of the same identity
 * replaced this one; and work run once the answer to the current CALL has gone out. What each
 * protocol says on the socket (boot, statuses, the CALLs it answers) is in its subclass.
 */
export abstract class SimStation<Client extends RpcConnection> {
  protected client?: Client;
  protected readonly timers = new Set<NodeJS.Timeout>();
  protected readonly stopSignal = new AbortController();
  protected heartbeat?: NodeJS.Timeout;
  protected booted = false;
  protected rebooting = false;
  protected stopped = false;
  protected firstAttemptDone = () => {};
  private readonly firstAttempt = new Promise<void>((resolve) => (this.firstAttemptDone = resolve));

  constructor(
    readonly spec: ChargerSpec,
    protected readonly options: ChargerOptions,
  ) {}

  get serialNumber() {
    return this.spec.serialNumber;
  }

  get online() {
    return this.client?.isOpen ?? false;
  }

  /**
   * Connects and boots. Resolves after the first attempt, so that one unreachable charger does
   * not hold up the others; a failed attempt is retried with back-off until stopped.
   */
  async start(): Promise<void> {
    void this.connectUntilOpen();
    await this.firstAttempt;
  }

  /** Ends running sessions as the protocol says, then closes the socket. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopSignal.abort();
    this.firstAttemptDone();
    this.stopHeartbeat();
    await this.endSessions();
    for (const timer of this.timers) clearTimeout(timer);
    this.clearAllConnectorTimers();
    await this.client?.close(1000, "Simulator stopped").catch(() => undefined);
  }

  /** A new socket that answers the server's CALLs; `adopt` it to connect. */
  protected abstract open(): Promise<void>;

  /** BootNotification until Accepted; then the heartbeat and every connector's status. */
  protected abstract boot(): Promise<void>;

  protected abstract startHeartbeat(): void;

  protected abstract reportAllStatuses(): Promise<void>;

  /** The charger is being stopped while online: its running sessions end as the protocol says. */
  protected abstract endSessions(): Promise<void>;

  /** How long a reboot keeps the charger off the network, in ms. */
  protected abstract readonly rebootMs: number;

  /** Another connection took over the identity: the connectors' own timers end. */
  protected abstract clearAllConnectorTimers(): void;

  /** The API gave a new key after a 401: the protocol's own record of it follows. */
  protected keyRenewed(key: string) {
    this.spec.key = key;
  }

  protected log(line: string) {
    this.options.log(line);
  }

  protected async connectUntilOpen() {
    let attempt = 0;
    let renewed = false;
    while (!this.stopped) {
      try {
        await this.open();
        this.firstAttemptDone();
        return;
      } catch (error) {
        const status = httpStatus(error) ?? (await refusalStatus(error, this.options.endpoint, this.spec.serialNumber, this.spec.key));
        if (status === 401 && this.options.renewKey && !renewed) {
          renewed = true;
          const key = await this.options.renewKey().catch(() => undefined);
          if (key) {
            this.keyRenewed(key);
            this.log("key refused; retrying with a new key from the API");
            continue;
          }
        }
        this.firstAttemptDone();
        if (status === 404) {
          this.log("the server does not know this charger; giving up");
          return;
        }
        const delay = Math.min(30_000, 1000 * 2 ** attempt++);
        this.log(`cannot connect (${status ? `HTTP ${status}` : (error as Error).message}); retrying in ${delay / 1000} s`);
        if (!(await this.pause(delay))) return;
      }
    }
  }

  /** Waits unless the charger is stopped meanwhile (then answers false). */
  protected async pause(ms: number): Promise<boolean> {
    return pause(ms, this.stopSignal.signal);
  }

  /**
   * Connects a socket and makes it the charger's: it boots after a reboot or the first time; a
   * network blip is not a reboot, so then there is no BootNotification and the sessions carry on.
   */
  protected async adopt(client: Client) {
    await client.connect();
    this.client = client;
    client.onClose((info) => void this.closed(client, info));
    if (!this.booted || this.rebooting) {
      this.rebooting = false;
      this.booted = false;
      await this.boot();
    } else {
      this.log("reconnected");
      this.startHeartbeat();
      await this.reportAllStatuses();
    }
  }

  protected logValidationFailure(f: ValidationFailure) {
    this.log(`strict validation failed: ${f.outbound ? "sent" : "received"} ${f.method} ${f.isCall ? "CALL" : "answer"}: ${f.error.message}`);
  }

  /** A CALL to the server that must not bring the simulator down when the socket goes away: undefined then. */
  protected async callSafely<R>(action: string, call: (client: Client) => Promise<R>): Promise<R | undefined> {
    const client = this.client;
    if (!client?.isOpen) return undefined;
    try {
      return await call(client);
    } catch (error) {
      if (client.isOpen) this.log(`${action} failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  protected async closed(client: Client, info: CloseInfo) {
    if (client !== this.client) return;
    this.stopHeartbeat();
    if (this.stopped) return;
    if (info.reason === REPLACED) {
      this.log("replaced by another connection with the same identity; standing down");
      this.stopped = true;
      this.stopSignal.abort();
      this.clearAllConnectorTimers();
      return;
    }
    if (this.rebooting) this.log("rebooting");
    else this.log(`connection closed (${info.code}${info.reason ? ` ${info.reason}` : ""}); reconnecting`);
    if (!(await this.pause(this.rebooting ? this.rebootMs : 1000))) return;
    await this.connectUntilOpen();
  }

  /** Runs `work` after the answer to the current CALL has gone out. */
  protected afterReply(work: () => Promise<unknown>, delayMs = 0): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work().catch((error: unknown) => this.log(`error: ${(error as Error).message}`));
    }, delayMs);
    this.timers.add(timer);
    return timer;
  }

  protected stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
