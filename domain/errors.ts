/**
 * Typed errors thrown by services and mapped to the API envelope in one place
 * (workers/http/error-envelope.ts). `key` is a message key of the i18n catalogues (`errors.*`,
 * `validation.*`); params fill its placeholders.
 */
export type FieldErrors = Record<string, string>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly params: Record<string, unknown> = {},
    readonly fields?: FieldErrors,
    /** What the answer carries in `data` besides the message (a charger's reply to a refused command). */
    readonly data?: unknown,
  ) {
    super(key);
    this.name = new.target.name;
  }
}

/** 400: the input is not acceptable. */
export class Invalid extends AppError {
  constructor(key = "errors.invalid", params?: Record<string, unknown>, fields?: FieldErrors) {
    super(400, key, params, fields);
  }
}
/** 401: no session, or it has ended. */
export class Unauthorized extends AppError {
  constructor(key = "errors.unauthorized") {
    super(401, key);
  }
}
/** 403: the actor may not do this. */
export class Forbidden extends AppError {
  constructor(key = "errors.forbidden", params?: Record<string, unknown>) {
    super(403, key, params);
  }
}
/** 404: no such record, or another tenant's. */
export class NotFound extends AppError {
  constructor(key = "errors.notFound") {
    super(404, key);
  }
}
/** 409: a business rule refuses the change, or a charger refused or is offline. */
export class Conflict extends AppError {
  constructor(key: string, params?: Record<string, unknown>, data?: unknown) {
    super(409, key, params, undefined, data);
  }
}
/** 504: a charger did not answer in time. */
export class ChargerTimeout extends AppError {
  constructor(key = "errors.chargerTimeout", params?: Record<string, unknown>) {
    super(504, key, params);
  }
}
/** 429: too many attempts. */
export class TooManyAttempts extends AppError {
  constructor(key = "errors.locked", params?: Record<string, unknown>) {
    super(429, key, params);
  }
}
/** 413: a body larger than the route accepts. */
export class PayloadTooLarge extends AppError {
  constructor(key = "errors.payloadTooLarge", params?: Record<string, unknown>) {
    super(413, key, params);
  }
}
