/**
 * OCPP-J RPC framing (OCPP-J 1.6 §4, OCPP 2.0.1 Part 4 §4): reading frames off the socket,
 * checking payloads against the action's schema, and writing frames back. The frames of the two
 * versions are alike; their error codes are not, so reading and checking take a dialect that
 * names the code for each kind of fault (1.6 by default).
 */
import type { z } from "zod";
import type { OcppAction } from "./actions";
import { OCPP_REQUESTS, OCPP_RESPONSES, type OcppRequest, type OcppResponse } from "./schemas";

/** Message type numbers (OCPP-J 1.6 §4.1.3). */
export const MessageType = { CALL: 2, CALLRESULT: 3, CALLERROR: 4 } as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

/**
 * The error codes of OCPP-J 1.6 §4.2.3, spelled as 1.6 spells them ("Occurence", one 'r'). The
 * 2.0.1 codes (FormatViolation, RpcFrameworkError, MessageTypeNotSupported,
 * OccurrenceConstraintViolation) are not 1.6 and a 1.6 charger may not recognise them.
 */
export const OCPP_ERROR_CODES = [
  "NotImplemented",
  "NotSupported",
  "InternalError",
  "ProtocolError",
  "SecurityError",
  "FormationViolation",
  "PropertyConstraintViolation",
  "OccurenceConstraintViolation",
  "TypeConstraintViolation",
  "GenericError",
] as const;
export type OcppErrorCode = (typeof OCPP_ERROR_CODES)[number];

/**
 * The error codes of OCPP 2.0.1 Part 4 §4.3 (table "Valid Error Codes"): 1.6's FormationViolation
 * is FormatViolation, OccurenceConstraintViolation gains its second 'r', and MessageTypeNotSupported
 * and RpcFrameworkError are new.
 */
export const OCPP201_ERROR_CODES = [
  "FormatViolation",
  "GenericError",
  "InternalError",
  "MessageTypeNotSupported",
  "NotImplemented",
  "NotSupported",
  "OccurrenceConstraintViolation",
  "PropertyConstraintViolation",
  "ProtocolError",
  "RpcFrameworkError",
  "SecurityError",
  "TypeConstraintViolation",
] as const;
export type Ocpp201ErrorCode = (typeof OCPP201_ERROR_CODES)[number];

/** A code of either version: what `errorFrame` writes. */
export type AnyOcppErrorCode = OcppErrorCode | Ocpp201ErrorCode;

/**
 * The codes one OCPP-J version answers faults with, by kind of fault.
 * - `unreadable`: not JSON, not an array, a message type or id that cannot be read, a CALL whose
 *   action or a CALLERROR whose code, description or details are malformed;
 * - `unknownMessageType`: a number other than 2, 3, 4 in element 0;
 * - `frameShape`: an empty array, or the wrong number of elements for the message type;
 * - `format`, `occurrence`, `type`, `property`: the payload checks of `checkPayload`.
 */
export interface FramingDialect<Code extends string = string> {
  readonly version: "1.6" | "2.0.1";
  readonly codes: readonly Code[];
  readonly unreadable: Code;
  readonly unknownMessageType: Code;
  readonly frameShape: Code;
  readonly format: Code;
  readonly occurrence: Code;
  readonly type: Code;
  readonly property: Code;
  /**
   * A CALL refused because its charger sends more than its operator's rate (docs/rules/ocpp.md
   * "A charger that floods"): neither version has a code of its own for it, so both answer the
   * code for "any other error" (OCPP-J 1.6 §4.2.3, 2.0.1 Part 4 §4.3 GenericError).
   */
  readonly throttled: Code;
}

/** OCPP-J 1.6 §4.2.3: an unreadable frame is a FormationViolation, a frame of the wrong shape a ProtocolError. */
export const OCPP16_DIALECT = {
  version: "1.6",
  codes: OCPP_ERROR_CODES,
  unreadable: "FormationViolation",
  unknownMessageType: "ProtocolError",
  frameShape: "ProtocolError",
  format: "FormationViolation",
  occurrence: "OccurenceConstraintViolation",
  type: "TypeConstraintViolation",
  property: "PropertyConstraintViolation",
  throttled: "GenericError",
} as const satisfies FramingDialect<OcppErrorCode>;

/**
 * OCPP 2.0.1 Part 4 §4.3: RpcFrameworkError is "content of the call is not a valid RPC request,
 * for example: MessageId could not be read", which covers every frame that is not a well-formed
 * `[type, id, …]` array, a wrong element count included (ProtocolError there is about the
 * payload's PDU structure); an unknown message type number is MessageTypeNotSupported.
 */
export const OCPP201_DIALECT = {
  version: "2.0.1",
  codes: OCPP201_ERROR_CODES,
  unreadable: "RpcFrameworkError",
  unknownMessageType: "MessageTypeNotSupported",
  frameShape: "RpcFrameworkError",
  format: "FormatViolation",
  occurrence: "OccurrenceConstraintViolation",
  type: "TypeConstraintViolation",
  property: "PropertyConstraintViolation",
  throttled: "GenericError",
} as const satisfies FramingDialect<Ocpp201ErrorCode>;

export type Ocpp16Dialect = typeof OCPP16_DIALECT;
export type Ocpp201Dialect = typeof OCPP201_DIALECT;
/** The error codes of a dialect. */
export type CodeOf<D extends FramingDialect> = D["codes"][number];

/** `[2, messageId, action, payload]` (OCPP-J 1.6 §4.2.1). The action stays a string: unknown ones get NotImplemented. */
export type Call = [typeof MessageType.CALL, string, string, unknown];
/** `[3, messageId, payload]` (OCPP-J 1.6 §4.2.2). */
export type CallResult = [typeof MessageType.CALLRESULT, string, unknown];
/** `[4, messageId, errorCode, errorDescription, errorDetails]` (OCPP-J 1.6 §4.2.3), the code one of the dialect's. */
export type CallError<Code extends string = OcppErrorCode> = [
  typeof MessageType.CALLERROR,
  string,
  Code,
  string,
  Record<string, unknown>,
];
export type Frame<Code extends string = OcppErrorCode> = Call | CallResult | CallError<Code>;

/**
 * A frame that could not be read. `id` is the frame's message id when it could be read, else "-1".
 * `messageType` is set when element 0 was a known type: a broken CALLRESULT or CALLERROR must not
 * be answered (a CALLERROR is only ever a reply to a CALL), whereas a broken CALL, or a frame whose
 * type is unknown, is answered with a CALLERROR carrying `code`, `id` and `description`.
 */
export interface FrameFault<Code extends string = OcppErrorCode> {
  ok: false;
  id: string;
  code: Code;
  description: string;
  messageType?: MessageType;
}

export type FrameParse<Code extends string = OcppErrorCode> = { ok: true; frame: Frame<Code> } | FrameFault<Code>;

/** Message ids are at most 36 characters (OCPP-J 1.6 §4.1.4): a UUID fits. */
const MAX_MESSAGE_ID_LENGTH = 36;

const FRAME_LENGTH: Record<MessageType, number> = {
  [MessageType.CALL]: 4,
  [MessageType.CALLRESULT]: 3,
  [MessageType.CALLERROR]: 5,
};

function isMessageType(value: number): value is MessageType {
  return value === MessageType.CALL || value === MessageType.CALLRESULT || value === MessageType.CALLERROR;
}

function isCodeOf<Code extends string>(dialect: FramingDialect<Code>, value: unknown): value is Code {
  return typeof value === "string" && (dialect.codes as readonly string[]).includes(value);
}

function isMessageId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_MESSAGE_ID_LENGTH;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads one WebSocket text message as an OCPP-J frame. The checks, in order, with the kind of
 * fault each is (its code is the dialect's: 1.6 by default, see FramingDialect):
 *
 * 1. Not JSON → unreadable, id "-1".
 * 2. JSON but not an array → unreadable, id "-1".
 * 3. From here the id is element 1 when it is a valid message id (a string of 1 to 36 characters),
 *    else "-1": an id we could not answer with is never echoed.
 * 4. Empty array → frameShape (no message type).
 * 5. Element 0 not a number → unreadable; a number other than 2, 3, 4 → unknownMessageType.
 * 6. Wrong length for the type (CALL 4, CALLRESULT 3, CALLERROR 5) → frameShape.
 * 7. Element 1 not a string, empty, or longer than 36 characters → unreadable, id "-1".
 * 8. CALL whose action is not a string → unreadable.
 * 9. CALLERROR whose code is not one of the dialect's error codes, whose description is not a
 *    string, or whose details are not a JSON object → unreadable.
 *
 * Payloads are not looked at here: `checkPayload` does that against the action's schema.
 */
export function parseFrame(text: string): FrameParse<OcppErrorCode>;
export function parseFrame<D extends FramingDialect>(text: string, dialect: D): FrameParse<CodeOf<D>>;
export function parseFrame(text: string, dialect: FramingDialect = OCPP16_DIALECT): FrameParse<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fault("-1", dialect.unreadable, "Message is not valid JSON");
  }
  if (!Array.isArray(parsed)) return fault("-1", dialect.unreadable, "Message is not a JSON array");

  const elements: unknown[] = parsed;
  const id = isMessageId(elements[1]) ? elements[1] : "-1";
  if (elements.length === 0) return fault(id, dialect.frameShape, "Message is an empty array");

  const type = elements[0];
  if (typeof type !== "number") return fault(id, dialect.unreadable, "Message type is not a number");
  if (!isMessageType(type)) return fault(id, dialect.unknownMessageType, `Unknown message type ${type}`);

  const expectedLength = FRAME_LENGTH[type];
  if (elements.length !== expectedLength) {
    const description = `Message type ${type} has ${expectedLength} elements, got ${elements.length}`;
    return fault(id, dialect.frameShape, description, type);
  }
  if (!isMessageId(elements[1])) {
    return fault("-1", dialect.unreadable, "Message id is not a string of 1 to 36 characters", type);
  }

  if (type === MessageType.CALL) {
    const [, , action, payload] = elements;
    if (typeof action !== "string") return fault(id, dialect.unreadable, "Action is not a string", type);
    return { ok: true, frame: [type, id, action, payload] };
  }
  if (type === MessageType.CALLRESULT) return { ok: true, frame: [type, id, elements[2]] };

  const [, , code, description, details] = elements;
  if (!isCodeOf(dialect, code)) {
    const wrong = `Error code ${JSON.stringify(code)} is not an OCPP ${dialect.version} error code`;
    return fault(id, dialect.unreadable, wrong, type);
  }
  if (typeof description !== "string") return fault(id, dialect.unreadable, "Error description is not a string", type);
  if (!isPlainObject(details)) return fault(id, dialect.unreadable, "Error details are not a JSON object", type);
  return { ok: true, frame: [type, id, code, description, details] };
}

function fault(id: string, code: string, description: string, messageType?: MessageType): FrameFault<string> {
  return messageType === undefined ? { ok: false, id, code, description } : { ok: false, id, code, description, messageType };
}

/** The codes a schema violation maps to in a dialect. */
export type ViolationOf<D extends FramingDialect> = D["format"] | D["occurrence"] | D["type"] | D["property"];

/** The codes a schema violation maps to (OCPP-J 1.6 §4.2.3). */
export type PayloadViolation = ViolationOf<Ocpp16Dialect>;

/** The codes a schema violation maps to (OCPP 2.0.1 Part 4 §4.3). */
export type Ocpp201PayloadViolation = ViolationOf<Ocpp201Dialect>;

export type PayloadCheck<T, Violation extends string = PayloadViolation> =
  | { ok: true; value: T }
  | { ok: false; code: Violation; description: string; details: Record<string, unknown> };

/** The kinds of payload fault, the most basic first: when a payload breaks several rules, that one is reported. */
type ViolationKind = "format" | "occurrence" | "type" | "property";
const VIOLATION_RANK: Record<ViolationKind, number> = { format: 0, occurrence: 1, type: 2, property: 3 };

/**
 * Validates a CALL or CALLRESULT payload and maps the first problem to the dialect's code
 * (1.6 by default; 2.0.1's spelling in brackets):
 * - not a JSON object → FormationViolation [FormatViolation] (the PDU itself is malformed);
 * - a required field absent, or a list shorter or longer than its bounds (a `1..*` list empty) →
 *   OccurenceConstraintViolation [OccurrenceConstraintViolation];
 * - a value of the wrong JSON type (including 1.5 for an integer, and null) → TypeConstraintViolation;
 * - anything else (enum value, string length, date-time or URI format, multipleOf, number range,
 *   unknown property) → PropertyConstraintViolation.
 * `details` names the field (`path`, dotted, arrays as `[i]`; for an unknown property, that
 * property, with all of them in `keys`) and the issue: zod's issue code, or "missing".
 */
export function checkPayload<S extends z.ZodType>(schema: S, payload: unknown): PayloadCheck<z.output<S>>;
export function checkPayload<S extends z.ZodType, D extends FramingDialect>(
  schema: S,
  payload: unknown,
  dialect: D,
): PayloadCheck<z.output<S>, ViolationOf<D>>;
export function checkPayload(
  schema: z.ZodType,
  payload: unknown,
  dialect: FramingDialect = OCPP16_DIALECT,
): PayloadCheck<unknown, string> {
  if (!isPlainObject(payload)) {
    return {
      ok: false,
      code: dialect.format,
      description: "Payload is not a JSON object",
      details: { path: "", issue: "invalid_type" },
    };
  }
  const result = schema.safeParse(payload);
  if (result.success) return { ok: true, value: result.data };

  const { issue, kind } = result.error.issues
    .map((issue) => ({ issue, kind: violationOf(issue, payload) }))
    .reduce((worst, next) => (VIOLATION_RANK[next.kind] < VIOLATION_RANK[worst.kind] ? next : worst));
  const code = dialect[kind];

  const path = formatPath(issue.code === "unrecognized_keys" ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path);
  if (kind === "occurrence" && issue.code === "too_small") {
    const description = issue.minimum === 1 ? `${path} needs at least one item` : `${path} needs at least ${issue.minimum} items`;
    return { ok: false, code, description, details: { path, issue: issue.code } };
  }
  if (kind === "occurrence" && issue.code === "too_big") {
    return { ok: false, code, description: `${path} has more than ${issue.maximum} items`, details: { path, issue: issue.code } };
  }
  if (kind === "occurrence") {
    return { ok: false, code, description: `Required field ${path} is missing`, details: { path, issue: "missing" } };
  }
  const details: Record<string, unknown> = { path, issue: issue.code };
  if (issue.code === "unrecognized_keys") details.keys = issue.keys;
  return { ok: false, code, description: `${path}: ${issue.message}`, details };
}

/**
 * `checkPayload` against the request schema of `action`, typed by the action. TypeScript cannot
 * relate `OCPP_REQUESTS[A]` to `OcppRequest<A>` for a generic A (a correlated union), hence the
 * assertion; the table's `satisfies` clause and OcppRequest's definition make it true.
 */
export function checkRequest<A extends OcppAction>(action: A, payload: unknown): PayloadCheck<OcppRequest<A>> {
  return checkPayload(OCPP_REQUESTS[action], payload) as PayloadCheck<OcppRequest<A>>;
}

/** `checkPayload` against the response schema of `action`, typed by the action (see checkRequest). */
export function checkResponse<A extends OcppAction>(action: A, payload: unknown): PayloadCheck<OcppResponse<A>> {
  return checkPayload(OCPP_RESPONSES[action], payload) as PayloadCheck<OcppResponse<A>>;
}

type ZodIssue = z.ZodError["issues"][number];

function violationOf(issue: ZodIssue, payload: Record<string, unknown>): ViolationKind {
  // Too few or too many items is a cardinality problem, as a missing field is (2.0.1 bounds lists
  // with minItems and maxItems; 1.6 only with its `1..*` lists).
  if ((issue.code === "too_small" || issue.code === "too_big") && issue.origin === "array") return "occurrence";
  if (issue.code !== "invalid_type" && issue.code !== "invalid_value") return "property";
  const found = lookUp(payload, issue.path);
  // Zod reports an absent key as a type or enum mismatch on undefined; JSON has no undefined.
  if (!found.present) return "occurrence";
  if (issue.code === "invalid_type") return "type";
  // An enum value of the right JSON type is a property problem; 1 for a string enum is a type one.
  return issue.values.some((allowed) => typeof allowed === typeof found.value) ? "property" : "type";
}

function lookUp(payload: unknown, path: readonly PropertyKey[]): { present: false } | { present: true; value: unknown } {
  let node: unknown = payload;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return { present: false };
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value: node };
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`))
    .join("");
}

/** A new message id for an outgoing CALL: a UUID, 36 characters. */
export function newMessageId(): string {
  return crypto.randomUUID();
}

export function callFrame<A extends OcppAction>(id: string, action: A, payload: OcppRequest<A>): string {
  return JSON.stringify([MessageType.CALL, id, action, payload]);
}

export function resultFrame(id: string, payload: Record<string, unknown>): string {
  return JSON.stringify([MessageType.CALLRESULT, id, payload]);
}

/** A CALLERROR; the caller picks the code from its connection's dialect. */
export function errorFrame(
  id: string,
  code: AnyOcppErrorCode,
  description: string,
  details: Record<string, unknown> = {},
): string {
  return JSON.stringify([MessageType.CALLERROR, id, code, description, details]);
}
