import { OCPP16_DIALECT, OCPP201_DIALECT, checkRequest, checkResponse, isChargerAction, isOcppAction, type FramingDialect, type PayloadCheck } from "../../domain/ocpp";
import { isOcpp201Action } from "../../domain/ocpp/v201/actions";
import { checkRequest201, checkResponse201 } from "../../domain/ocpp/v201/frames";
import { answersFromOwnState, answersFromOwnState201 } from "./answer-paths";
import { HANDLERS } from "./handlers";
import { SUBPROTOCOLS, answerCall, type Answer, type CodecParts, type OcppVersion } from "./protocol";
import type { ChargerSession } from "./session";
import { HANDLERS_201, NOT_TAKEN_201 } from "./v201/handlers";

/**
 * A protocol as the ChargePoint object uses it (docs/decisions/0078-one-charger-model-two-protocols.md):
 * its subprotocol, the framing dialect of its error codes, how a CALL is answered and which
 * answers skip the write queue, and how a reply to our own CALL is checked.
 */
export interface Codec {
  version: OcppVersion;
  subprotocol: string;
  dialect: FramingDialect;
  answer(session: ChargerSession, action: string, payload: unknown): Promise<Answer>;
  answersFromOwnState(action: string, payload: unknown): boolean;
  /** A reply to a CALL of this version we sent, against its response schema. */
  checkReply(action: string, payload: unknown): PayloadCheck<unknown, string>;
  /** Whether the charger may be sent this action in this version. */
  isAction(action: string): boolean;
}

function codec(parts: CodecParts, dialect: FramingDialect, ownState: Codec["answersFromOwnState"]): Codec {
  return {
    version: parts.version,
    subprotocol: SUBPROTOCOLS[parts.version],
    dialect,
    answer: (session, action, payload) => answerCall(parts, session, action, payload, session.identity.serialNumber),
    answersFromOwnState: ownState,
    checkReply: (action, payload) => parts.checkResponse(action as never, payload),
    isAction: parts.isAction,
  };
}

const OCPP16_CODEC = codec(
  {
    version: "1.6",
    isAction: isOcppAction,
    handlers: Object.fromEntries(Object.entries(HANDLERS).filter(([action]) => isChargerAction(action))),
    checkRequest: checkRequest as CodecParts["checkRequest"],
    checkResponse: checkResponse as CodecParts["checkResponse"],
  },
  OCPP16_DIALECT,
  (action) => answersFromOwnState(action),
);

const OCPP201_CODEC = codec(
  {
    version: "2.0.1",
    isAction: isOcpp201Action,
    handlers: HANDLERS_201 as CodecParts["handlers"],
    notTaken: NOT_TAKEN_201,
    checkRequest: checkRequest201 as CodecParts["checkRequest"],
    checkResponse: checkResponse201 as CodecParts["checkResponse"],
  },
  OCPP201_DIALECT,
  answersFromOwnState201,
);

export const CODECS: Record<OcppVersion, Codec> = { "1.6": OCPP16_CODEC, "2.0.1": OCPP201_CODEC };
