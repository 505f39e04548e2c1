import { RPCClient } from "ocpp-rpc";
import type { ChargerAction, OcppRequest, OcppResponse, ServerAction } from "../../domain/ocpp";

/**
 * A typed face for ocpp-rpc's `RPCClient` speaking OCPP 1.6J (rpc201.ts: 2.0.1). ocpp-rpc's own declarations make
 * every constructor option required and type payloads as `any`; this wrapper takes only the
 * options a charger needs and types each action's payloads with the version's message types. Strict
 * mode is on unless asked otherwise: every CALL and answer in both directions is checked against
 * the official JSON schemas, and every violation is kept in `validationFailures`.
 */
export const OCPP16 = "ocpp1.6";

export interface ClientOptions {
  /** `ws://host:port/ocpp` or `ws://host:port/ocpp/<operatorCode>`; the identity is appended. */
  endpoint: string;
  identity: string;
  /** The Basic-auth password (the charger key, 40 hex characters). */
  password?: string;
  /** Subprotocols offered; the client's own version (`["ocpp1.6"]` or `["ocpp2.0.1"]`) unless told. */
  protocols?: string[];
  strictMode?: boolean;
  callTimeoutMs?: number;
  /** WebSocket pings; 0 turns them off. */
  pingIntervalMs?: number;
}

/** What ocpp-rpc reports in its `strictValidationFailure` event. */
export interface ValidationFailure {
  error: Error;
  messageId: string;
  method: string;
  params: unknown;
  result: unknown;
  outbound: boolean;
  isCall: boolean;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

type RawOptions = ConstructorParameters<typeof RPCClient>[0];

export type Handler<A extends ServerAction> = (payload: OcppRequest<A>) => OcppResponse<A> | Promise<OcppResponse<A>>;

/**
 * The socket, strict-mode bookkeeping and lifecycle both protocol versions share; the typed
 * `call` and `handle` of each version are in its subclass (OcppClient here, Ocpp201Client in
 * rpc201.ts).
 */
export class RpcConnection {
  protected readonly rpc: RPCClient;
  /** Every strict-mode violation seen, in either direction. */
  readonly validationFailures: ValidationFailure[] = [];
  /** Frames that were not well-formed OCPP-J at all. */
  readonly badMessages: string[] = [];

  constructor(options: ClientOptions, defaultProtocol: string) {
    const raw: Partial<RawOptions> = {
      protocols: [defaultProtocol],
      strictMode: true,
      reconnect: false,
      callTimeoutMs: 30_000,
      pingIntervalMs: 0,
      ...options,
    };
    this.rpc = new RPCClient(raw as RawOptions);
    this.rpc.on("strictValidationFailure", (failure: ValidationFailure) => this.validationFailures.push(failure));
    this.rpc.on("badMessage", (event: { buffer: Buffer }) => this.badMessages.push(event.buffer.toString("utf8")));
  }

  get identity(): string {
    return this.rpc.identity ?? "";
  }

  /** The subprotocol the server agreed to. */
  get protocol(): string | undefined {
    return this.rpc.protocol;
  }

  get isOpen(): boolean {
    return this.rpc.state === RPCClient.OPEN;
  }

  async connect(): Promise<void> {
    await this.rpc.connect();
  }

  /** Sends a CALL and resolves with the answer; strict mode has checked both against the schemas. */
  protected async callRaw(action: string, payload: unknown, options: { timeoutMs?: number }): Promise<unknown> {
    const callOptions = options.timeoutMs === undefined ? {} : { callTimeoutMs: options.timeoutMs };
    return this.rpc.call(action, payload, callOptions);
  }

  /** Answers a CALL of one action; strict mode has checked the request against its schema first. */
  protected handleRaw(action: string, handler: (params: unknown) => Record<string, unknown> | Promise<Record<string, unknown>>): void {
    this.rpc.handle(action, async ({ params }) => handler(params));
  }

  /** Once the socket is gone for good (this client does not reconnect by itself). */
  onClose(listener: (info: CloseInfo) => void): void {
    this.rpc.on("close", (info: { code?: number; reason?: string | Buffer }) =>
      listener({ code: info.code ?? 1006, reason: String(info.reason ?? "") }),
    );
  }

  /** A strict-mode violation, as it happens. */
  onValidationFailure(listener: (failure: ValidationFailure) => void): void {
    this.rpc.on("strictValidationFailure", listener);
  }

  /** Every CALL the server sends, before it is handled. */
  onServerCall(listener: (action: string, payload: unknown) => void): void {
    this.rpc.on("call", (event: { outbound: boolean; payload: unknown[] }) => {
      if (!event.outbound) listener(String(event.payload[2]), event.payload[3]);
    });
  }

  async close(code = 1000, reason = ""): Promise<CloseInfo | undefined> {
    const result = await this.rpc.close({ code, reason });
    return result ? { code: result.code ?? code, reason: result.reason ?? reason } : undefined;
  }
}

/** An OCPP 1.6J charge point's side of the connection. */
export class OcppClient extends RpcConnection {
  constructor(options: ClientOptions) {
    super(options, OCPP16);
  }

  /** Sends a CALL a charge point may send and resolves with the server's answer. */
  async call<A extends ChargerAction>(action: A, payload: OcppRequest<A>, options: { timeoutMs?: number } = {}): Promise<OcppResponse<A>> {
    // Strict mode has validated the answer against this action's response schema.
    return (await this.callRaw(action, payload, options)) as OcppResponse<A>;
  }

  /** Answers a CALL the central system sends. */
  handle<A extends ServerAction>(action: A, handler: Handler<A>): void {
    this.handleRaw(action, (params) => handler(params as OcppRequest<A>));
  }
}
