/**
 * OCPP 2.0.1 beside 1.6J: its actions, schemas and payload checks. Kept out of domain/ocpp's
 * index because names such as `IdTokenType` or `MeterValueType` mean something else in 1.6;
 * import from "domain/ocpp/v201". The framing dialect (OCPP201_DIALECT, OCPP201_ERROR_CODES)
 * lives with 1.6's in domain/ocpp/frames.ts and is re-exported here for convenience.
 */
export * from "./actions";
export * from "./frames";
export * from "./schemas";
export {
  OCPP201_DIALECT,
  OCPP201_ERROR_CODES,
  type Ocpp201Dialect,
  type Ocpp201ErrorCode,
  type Ocpp201PayloadViolation,
} from "../frames";
