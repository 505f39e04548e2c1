import type { ChargerAction201, Ocpp201Request, Ocpp201Response, ServerAction201 } from "../../domain/ocpp/v201";
import { RpcConnection, type ClientOptions } from "./rpc";

/** The subprotocol of OCPP 2.0.1 (OCPP 2.0.1 Part 4, the WebSocket subprotocol). */
export const OCPP201 = "ocpp2.0.1";

export type Handler201<A extends ServerAction201> = (payload: Ocpp201Request<A>) => Ocpp201Response<A> | Promise<Ocpp201Response<A>>;

/**
 * A Charging Station's side of an OCPP 2.0.1 connection on ocpp-rpc, strict mode on unless asked
 * otherwise: every CALL and answer both ways is checked against the official 2.0.1 JSON schemas,
 * and every violation is kept in `validationFailures`, as for 1.6 (rpc.ts).
 */
export class Ocpp201Client extends RpcConnection {
  constructor(options: ClientOptions) {
    super(options, OCPP201);
  }

  /** Sends a CALL a Charging Station may send and resolves with the CSMS's answer. */
  async call<A extends ChargerAction201>(action: A, payload: Ocpp201Request<A>, options: { timeoutMs?: number } = {}): Promise<Ocpp201Response<A>> {
    // Strict mode has validated the answer against this action's response schema.
    return (await this.callRaw(action, payload, options)) as Ocpp201Response<A>;
  }

  /** Answers a CALL the CSMS sends. */
  handle<A extends ServerAction201>(action: A, handler: Handler201<A>): void {
    this.handleRaw(action, (params) => handler(params as Ocpp201Request<A>));
  }
}
