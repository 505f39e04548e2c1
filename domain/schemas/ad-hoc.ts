import { z } from "zod";

/**
 * Ad-hoc payment on a charger's public page (docs/rules/payments.md "Ad-hoc payment"): the body
 * of the start, the states a session goes through and what the page follows.
 */

/** Where an ad-hoc session stands; the contract's words, in order. */
export const AD_HOC_STATUSES = ["AWAITING_PAYMENT", "STARTING", "CHARGING", "FINISHED", "FAILED"] as const;
export type AdHocStatus = (typeof AD_HOC_STATUSES)[number];

/** A session that holds its connector: one such per connector. */
export const LIVE_AD_HOC: readonly AdHocStatus[] = ["AWAITING_PAYMENT", "STARTING", "CHARGING"];

const v = (key: string) => `adHoc.validation.${key}`;

/** `POST /public-service/charger/{serialNumber}/ad-hoc`: strict, unknown fields are a 400. */
export const adHocStartInput = z.strictObject(
  {
    connectorId: z.number({ error: v("connectorId") }).int({ error: v("connectorId") }).min(1, { error: v("connectorId") }).max(99, { error: v("connectorId") }),
    email: z
      .string({ error: v("email") })
      .trim()
      .max(120, { error: v("email") })
      .pipe(z.email({ error: v("email") }))
      .optional(),
  },
  { error: v("body") },
);
export type AdHocStartInput = z.infer<typeof adHocStartInput>;

/** A handle: 32 characters of base64url (192 random bits); anything else is not one. */
export const adHocHandle = z.string().regex(/^[A-Za-z0-9_-]{32}$/, { error: "adHoc.errors.notFound" });

/** What `GET /public-service/ad-hoc/{handle}` answers. */
export interface AdHocView {
  handle: string;
  status: AdHocStatus;
  connectorId: number;
  energyWh: number;
  /** Decimal text in the currency's major unit (docs/rules/pricing.md), what the session cost so far. */
  cost: string;
  currency: string;
  receiptUrl: string | null;
}

/**
 * How the page takes the card (`GET /public-service/charger/{serialNumber}/ad-hoc`): Stripe.js with
 * the channel's publishable key, or, when the channel points at the local test double, its test
 * card form (`testCardUrl`). `hold` is what the card is authorised for, decimal text.
 */
export interface AdHocOffer {
  available: boolean;
  hold: string;
  currency: string;
  publishableKey: string | null;
  testCardUrl: string | null;
}
