import type { PayloadCheck } from "../../domain/ocpp";
import { errorFrame, resultFrame } from "../../domain/ocpp";
import { SUBPROTOCOLS } from "../../domain/ocpp/endpoint";
import { reportError } from "../http/report-error";
import type { ChargerSession } from "./session";

/**
 * Two protocols, one charger model (docs/decisions/0078-one-charger-model-two-protocols.md): each
 * version is a codec with its own action table, schemas (checked both ways) and handlers that
 * translate into workers/ocpp/charger-model.ts. The ChargePoint object picks the codec of the
 * connection; nothing past the codec knows which protocol a charger speaks.
 */
export type OcppVersion = "1.6" | "2.0.1";

export { SUBPROTOCOLS };

/** What a point admits, as the operator set it (`points.ocpp_version`). */
export type AdmittedVersions = "AUTO" | "OCPP16" | "OCPP201";

/**
 * The version a connection speaks: 2.0.1 when the charger offers it and the point admits it, else
 * 1.6 on the same terms; none when nothing offered is admitted (the upgrade is refused with 400).
 * A charger offering both gets the newer: it lists what it can do, not what it prefers (Part 4
 * §3.1.2 lets the server choose).
 */
export function chooseVersion(offered: readonly string[], admitted: AdmittedVersions = "AUTO"): OcppVersion | undefined {
  if (offered.includes(SUBPROTOCOLS["2.0.1"]) && admitted !== "OCPP16") return "2.0.1";
  if (offered.includes(SUBPROTOCOLS["1.6"]) && admitted !== "OCPP201") return "1.6";
  return undefined;
}

/** The answer to a charger's CALL, its message id still to be filled in. */
export interface Answer {
  type: "CALLRESULT" | "CALLERROR";
  frame: (id: string) => string;
}

/** A payload check of either version's framing (domain/ocpp/frames.ts, with that version's dialect). */
type Check = (action: never, payload: unknown) => PayloadCheck<unknown, string>;

type AnyHandler = (session: ChargerSession, request: never) => Promise<unknown>;

/** What a codec is made of: its tables and checks; `answerCall` does the rest the same way for both. */
export interface CodecParts {
  version: OcppVersion;
  /** Any action of the version (else NotImplemented). */
  isAction(action: string): boolean;
  /** The actions its handlers take from a charger (else NotSupported). */
  handlers: Partial<Record<string, AnyHandler>>;
  /** Why an action of the version a charger may send is not taken (NotSupported's description). */
  notTaken?: Partial<Record<string, string>>;
  checkRequest: Check;
  checkResponse: Check;
}

const fail = (code: string, description: string, details: Record<string, unknown> = {}): Answer => ({
  type: "CALLERROR",
  // Both versions' codes pass: the codec only names codes its own version has.
  frame: (id) => errorFrame(id, code as Parameters<typeof errorFrame>[1], description, details),
});

/**
 * Every CALL gets exactly one answer (OCPP-J 1.6 §4.2, 2.0.1 Part 4 §4.2): a CALLRESULT whose
 * payload passed the response schema, or a CALLERROR with the version's own code.
 */
export async function answerCall(parts: CodecParts, session: ChargerSession, action: string, payload: unknown, serialNumber?: string): Promise<Answer> {
  if (!parts.isAction(action)) return fail("NotImplemented", `Unknown action ${action}`);
  const handler = parts.handlers[action];
  if (!handler) {
    const why = parts.notTaken?.[action] ?? `${action} is sent by the central system, not by a charge point`;
    return fail("NotSupported", why);
  }
  const checked = parts.checkRequest(action as never, payload);
  if (!checked.ok) return fail(checked.code, checked.description, checked.details);
  try {
    const response = await handler(session, checked.value as never);
    // What the server sends passes the response schema too (docs/rules/ocpp.md "Framing").
    const valid = parts.checkResponse(action as never, response);
    if (!valid.ok) return fail("InternalError", "The server built an invalid response", valid.details);
    return { type: "CALLRESULT", frame: (id) => resultFrame(id, valid.value as Record<string, unknown>) };
  } catch (error) {
    reportError("ocpp", error, { action, serialNumber, version: parts.version });
    return fail("InternalError", "The server could not handle this message");
  }
}
