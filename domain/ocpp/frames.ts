/**
 * OCPP-J 1.6 RPC framing (OCPP-J 1.6 §4): reading frames off the socket, checking payloads
 * against the action's schema with 1.6 error codes, and writing frames back.
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

/** `[2, messageId, action, payload]` (OCPP-J 1.6 §4.2.1). The action stays a string: unknown ones get NotImplemented. */
export type Call = [typeof MessageType.CALL, string, string, unknown];
/** `[3, messageId, payload]` (OCPP-J 1.6 §4.2.2). */
export type CallResult = [typeof MessageType.CALLRESULT, string, unknown];
/** `[4, messageId, errorCode, errorDescription, errorDetails]` (OCPP-J 1.6 §4.2.3). */
export type CallError = [typeof MessageType.CALLERROR, string, OcppErrorCode, string, Record<string, unknown>];
export type Frame = Call | CallResult | CallError;

/**
 * A frame that could not be read. `id` is the frame's message id when it could be read, else "-1".
 * `messageType` is set when element 0 was a known type: a broken CALLRESULT or CALLERROR must not
 * be answered (a CALLERROR is only ever a reply to a CALL), whereas a broken CALL, or a frame whose
 * type is unknown, is answered with a CALLERROR carrying `code`, `id` and `description`.
 */
export interface FrameFault {
  ok: false;
  id: string;
  code: "FormationViolation" | "ProtocolError";
  description: string;
  messageType?: MessageType;
}

export type FrameParse = { ok: true; frame: Frame } | FrameFault;

/** Message ids are at most 36 characters (OCPP-J 1.6 §4.1.4): a UUID fits. */
const MAX_MESSAGE_ID_LENGTH = 36;

const FRAME_LENGTH: Record<MessageType, number> = {
  [MessageType.CALL]: 4,
  [MessageType.CALLRESULT]: 3,
  [MessageType.CALLERROR]: 5,
};

const errorCodes: ReadonlySet<string> = new Set(OCPP_ERROR_CODES);

function isMessageType(value: number): value is MessageType {
  return value === MessageType.CALL || value === MessageType.CALLRESULT || value === MessageType.CALLERROR;
}

function isOcppErrorCode(value: unknown): value is OcppErrorCode {
  return typeof value === "string" && errorCodes.has(value);
}

function isMessageId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_MESSAGE_ID_LENGTH;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads one WebSocket text message as an OCPP-J frame. The checks, in order:
 *
 * 1. Not JSON → FormationViolation, id "-1".
 * 2. JSON but not an array → FormationViolation, id "-1".
 * 3. From here the id is element 1 when it is a valid message id (a string of 1 to 36 characters),
 *    else "-1": an id we could not answer with is never echoed.
 * 4. Empty array → ProtocolError (no message type).
 * 5. Element 0 not a number → FormationViolation; a number other than 2, 3, 4 → ProtocolError.
 * 6. Wrong length for the type (CALL 4, CALLRESULT 3, CALLERROR 5) → ProtocolError.
 * 7. Element 1 not a string, empty, or longer than 36 characters → FormationViolation, id "-1".
 * 8. CALL whose action is not a string → FormationViolation.
 * 9. CALLERROR whose code is not a 1.6 error code, whose description is not a string, or whose
 *    details are not a JSON object → FormationViolation.
 *
 * Payloads are not looked at here: `checkPayload` does that against the action's schema.
 */
export function parseFrame(text: string): FrameParse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fault("-1", "FormationViolation", "Message is not valid JSON");
  }
  if (!Array.isArray(parsed)) return fault("-1", "FormationViolation", "Message is not a JSON array");

  const elements: unknown[] = parsed;
  const id = isMessageId(elements[1]) ? elements[1] : "-1";
  if (elements.length === 0) return fault(id, "ProtocolError", "Message is an empty array");

  const type = elements[0];
  if (typeof type !== "number") return fault(id, "FormationViolation", "Message type is not a number");
  if (!isMessageType(type)) return fault(id, "ProtocolError", `Unknown message type ${type}`);

  const expectedLength = FRAME_LENGTH[type];
  if (elements.length !== expectedLength) {
    return fault(id, "ProtocolError", `Message type ${type} has ${expectedLength} elements, got ${elements.length}`, type);
  }
  if (!isMessageId(elements[1])) {
    return fault("-1", "FormationViolation", "Message id is not a string of 1 to 36 characters", type);
  }

  if (type === MessageType.CALL) {
    const [, , action, payload] = elements;
    if (typeof action !== "string") return fault(id, "FormationViolation", "Action is not a string", type);
    return { ok: true, frame: [type, id, action, payload] };
  }
  if (type === MessageType.CALLRESULT) return { ok: true, frame: [type, id, elements[2]] };

  const [, , code, description, details] = elements;
  if (!isOcppErrorCode(code)) {
    return fault(id, "FormationViolation", `Error code ${JSON.stringify(code)} is not an OCPP 1.6 error code`, type);
  }
  if (typeof description !== "string") return fault(id, "FormationViolation", "Error description is not a string", type);
  if (!isPlainObject(details)) return fault(id, "FormationViolation", "Error details are not a JSON object", type);
  return { ok: true, frame: [type, id, code, description, details] };
}

function fault(id: string, code: FrameFault["code"], description: string, messageType?: MessageType): FrameFault {
  return messageType === undefined ? { ok: false, id, code, description } : { ok: false, id, code, description, messageType };
}

/** The codes a schema violation maps to (OCPP-J 1.6 §4.2.3). */
export type PayloadViolation =
  | "FormationViolation"
  | "OccurenceConstraintViolation"
  | "TypeConstraintViolation"
  | "PropertyConstraintViolation";

export type PayloadCheck<T> =
  | { ok: true; value: T }
  | { ok: false; code: PayloadViolation; description: string; details: Record<string, unknown> };

/** When a payload breaks several rules, the most basic one is reported. */
const VIOLATION_RANK: Record<PayloadViolation, number> = {
  FormationViolation: 0,
  OccurenceConstraintViolation: 1,
  TypeConstraintViolation: 2,
  PropertyConstraintViolation: 3,
};

/**
 * Validates a CALL or CALLRESULT payload and maps the first problem to its 1.6 error code:
 * - not a JSON object → FormationViolation (the PDU itself is malformed);
 * - a required field absent, or a `1..*` list empty → OccurenceConstraintViolation;
 * - a value of the wrong JSON type (including 1.5 for an integer, and null) → TypeConstraintViolation;
 * - anything else (enum value, string length, date-time or URI format, multipleOf, number range,
 *   unknown property) → PropertyConstraintViolation.
 * `details` names the field (`path`, dotted, arrays as `[i]`; for an unknown property, that
 * property, with all of them in `keys`) and the issue: zod's issue code, or "missing".
 */
export function checkPayload<S extends z.ZodType>(schema: S, payload: unknown): PayloadCheck<z.output<S>> {
  if (!isPlainObject(payload)) {
    return {
      ok: false,
      code: "FormationViolation",
      description: "Payload is not a JSON object",
      details: { path: "", issue: "invalid_type" },
    };
  }
  const result = schema.safeParse(payload);
  if (result.success) return { ok: true, value: result.data };

  const { issue, code } = result.error.issues
    .map((issue) => ({ issue, code: violationOf(issue, payload) }))
    .reduce((worst, next) => (VIOLATION_RANK[next.code] < VIOLATION_RANK[worst.code] ? next : worst));

  const path = formatPath(issue.code === "unrecognized_keys" ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path);
  if (code === "OccurenceConstraintViolation" && issue.code === "too_small") {
    return { ok: false, code, description: `${path} needs at least one item`, details: { path, issue: issue.code } };
  }
  if (code === "OccurenceConstraintViolation") {
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

function violationOf(issue: ZodIssue, payload: Record<string, unknown>): PayloadViolation {
  // Too few items is a cardinality problem, as a missing field is.
  if (issue.code === "too_small" && issue.origin === "array") return "OccurenceConstraintViolation";
  if (issue.code !== "invalid_type" && issue.code !== "invalid_value") return "PropertyConstraintViolation";
  const found = lookUp(payload, issue.path);
  // Zod reports an absent key as a type or enum mismatch on undefined; JSON has no undefined.
  if (!found.present) return "OccurenceConstraintViolation";
  if (issue.code === "invalid_type") return "TypeConstraintViolation";
  // An enum value of the right JSON type is a property problem; 1 for a string enum is a type one.
  return issue.values.some((allowed) => typeof allowed === typeof found.value)
    ? "PropertyConstraintViolation"
    : "TypeConstraintViolation";
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

export function errorFrame(
  id: string,
  code: OcppErrorCode,
  description: string,
  details: Record<string, unknown> = {},
): string {
  return JSON.stringify([MessageType.CALLERROR, id, code, description, details]);
}
