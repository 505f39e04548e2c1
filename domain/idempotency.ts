/**
 * How a money-moving request names itself (docs/rules/input.md "Idempotency keys"): the
 * `Idempotency-Key` header, or, from the console's form posts that cannot set a header, the
 * `idempotencyKey` search parameter.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_PARAM = "idempotencyKey";
