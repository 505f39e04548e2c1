/**
 * Payload checks of OCPP 2.0.1 messages: the shared OCPP-J reading and checking of
 * domain/ocpp/frames.ts in the 2.0.1 dialect (Part 4 §4.3 error codes), against the schemas
 * generated from the official 2.0.1 JSON schemas.
 */
import { OCPP201_DIALECT, checkPayload, type Ocpp201PayloadViolation, type PayloadCheck } from "../frames";
import type { Ocpp201Action } from "./actions";
import { OCPP201_REQUESTS, OCPP201_RESPONSES, type Ocpp201Request, type Ocpp201Response } from "./schemas";

/**
 * `checkPayload` against the request schema of `action`, with 2.0.1's codes, typed by the action.
 * As for 1.6's checkRequest, TypeScript cannot relate `OCPP201_REQUESTS[A]` to `Ocpp201Request<A>`
 * for a generic A (a correlated union), hence the assertion; the table's `satisfies` clause and
 * Ocpp201Request's definition make it true.
 */
export function checkRequest201<A extends Ocpp201Action>(
  action: A,
  payload: unknown,
): PayloadCheck<Ocpp201Request<A>, Ocpp201PayloadViolation> {
  return checkPayload(OCPP201_REQUESTS[action], payload, OCPP201_DIALECT) as PayloadCheck<
    Ocpp201Request<A>,
    Ocpp201PayloadViolation
  >;
}

/** `checkPayload` against the response schema of `action`, with 2.0.1's codes (see checkRequest201). */
export function checkResponse201<A extends Ocpp201Action>(
  action: A,
  payload: unknown,
): PayloadCheck<Ocpp201Response<A>, Ocpp201PayloadViolation> {
  return checkPayload(OCPP201_RESPONSES[action], payload, OCPP201_DIALECT) as PayloadCheck<
    Ocpp201Response<A>,
    Ocpp201PayloadViolation
  >;
}
