/**
 * How long a call to another system may take before it counts as unanswered: a roaming partner, a
 * payment processor, a bill-push or invoice receiver, a mail relay (docs/architecture.md "Jobs").
 * A queue hands its consumer the next batch only once this one has returned, on Cloudflare as in
 * Miniflare, so one call left without a bound would hold every later message of its queue; a
 * request would hold its user.
 */
export const OUTGOING_CALL_MS = 15_000;

/** The signal every outgoing `fetch` carries: aborted once `OUTGOING_CALL_MS` has passed. */
export const outgoingCallSignal = () => AbortSignal.timeout(OUTGOING_CALL_MS);
