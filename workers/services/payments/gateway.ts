/**
 * What the product asks of a card processor (docs/rules/payments.md "Gateways"). One adapter per
 * channel type implements it; today only Stripe has one (workers/services/payments/stripe.ts),
 * the other types are configured and stored until theirs follow this interface.
 * Amounts are integers in the currency's minor units (docs/decisions/0005-money-in-minor-units.md).
 */

export interface PaymentRequest {
  amount: number;
  /** ISO 4217. */
  currency: string;
  /** The processor's customer and the card it keeps on file for them. */
  customerRef: string;
  paymentMethodRef: string;
  /** `true`: authorise only, captured later (a session's pre-authorisation). */
  authoriseOnly: boolean;
  /** Makes a repeated request the same payment at the processor. */
  idempotencyKey: string;
  /** Carried back by the processor's webhooks. */
  metadata: Record<string, string>;
}

/** The processor's answer, normalised. */
export interface PaymentOutcome {
  /** The processor's id of the payment (Stripe: `pi_…`); absent when it refused before creating one. */
  ref: string | null;
  status: "SUCCEEDED" | "AUTHORISED" | "PENDING" | "FAILED";
  /** What was taken so far, minor units. */
  captured: number;
  /** The processor's reason for a refusal. */
  error: string | null;
}

/** A verified webhook event, normalised. */
export interface PaymentEvent {
  id: string;
  type: "succeeded" | "failed" | "authorised" | "other";
  ref: string;
  captured: number;
  /** What the payment is for and its currency (ISO 4217, any case), when the processor says: checked against ours. */
  amount?: number;
  currency?: string;
  error: string | null;
  metadata: Record<string, string>;
}

/**
 * A hold the driver confirms in the browser (docs/rules/payments.md "Ad-hoc payment"): an
 * authorisation with manual capture and no card on file; the page confirms it with the client secret.
 */
export interface HoldRequest {
  amount: number;
  /** ISO 4217. */
  currency: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface PaymentGateway {
  createPayment(request: PaymentRequest): Promise<PaymentOutcome>;
  /** Creates a hold for the browser to confirm: the outcome and the secret the page confirms it with. */
  createHold(request: HoldRequest): Promise<PaymentOutcome & { clientSecret: string | null }>;
  /** The payment as the processor has it now (the page's polling: an authorisation whose webhook is late). */
  retrieve(ref: string): Promise<PaymentOutcome>;
  /** Cancels an authorised or unconfirmed payment: the hold is released. */
  cancel(ref: string, idempotencyKey: string): Promise<PaymentOutcome>;
  /** Takes `amount` of an authorised payment; the processor releases the rest. */
  capture(ref: string, amount: number, idempotencyKey: string): Promise<PaymentOutcome>;
  /** Gives back `amount` of a taken payment. */
  refund(ref: string, amount: number, idempotencyKey: string): Promise<{ ref: string | null; error: string | null }>;
  /** The event a webhook carries, or null when its signature does not hold. */
  verifyWebhook(payload: string, headers: Headers, now: number): Promise<PaymentEvent | null>;
}
