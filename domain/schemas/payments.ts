import { z } from "zod";
import { pageQuery } from "./account-service";
import { recordId, wholeNumber } from "./numbers";

/**
 * Payment channels (docs/rules/payments.md "Channels"): the card processors an operator takes
 * money through, one per type. Type ids are the wire contract: 0 PayPal, 1 PSiGate,
 * 2 GlobalPayments, 3 KKB, 4 Stripe, 5 Cardcom, 6 HUB2, 7 MPU, 8 MSU. Credentials are write-only:
 * a string sets one, "" removes it, null or absent keeps it; answers carry them masked.
 * Messages are catalogue keys (domain/i18n/locales/<lang>/payments.json).
 */

const v = (key: string) => `payments.validation.${key}`;

export const CHANNEL_TYPES = ["PayPal", "PSiGate", "GlobalPayments", "KKB", "Stripe", "Cardcom", "HUB2", "MPU", "MSU"] as const;
export type ChannelTypeName = (typeof CHANNEL_TYPES)[number];
export const STRIPE = CHANNEL_TYPES.indexOf("Stripe");
export const PAYPAL = CHANNEL_TYPES.indexOf("PayPal");
/**
 * The types with a gateway adapter (docs/rules/payments.md "Gateways"); the others are configured
 * and stored, and a payment through them answers "not supported yet".
 */
export const SUPPORTED_CHANNEL_TYPES: readonly number[] = [STRIPE, PAYPAL];
/** The recharge way (domain/schemas/wallets.ts RECHARGE_WAYS) a supported type's top-ups are recorded with. */
export const wayOfChannel = (type: number) => (type === PAYPAL ? ("PAYPAL" as const) : ("STRIPE" as const));
export const ENVIRONMENTS = ["sandbox", "live"] as const;

/** Every credential a channel type may need (docs/rules/payments.md "Credentials"). */
export const CREDENTIAL_FIELDS = [
  "clientId",
  "secret",
  "account",
  "username",
  "password",
  "clientApiKey",
  "merchantId",
  "sharedSecret",
  "accountId",
  "certificate",
  "storePass",
  "secretApiKey",
  "terminalSettings",
  "cardKey",
  "securityCode",
  "cardType",
  /** PayPal: the id of the webhook the operator registered, which its signatures are checked against. */
  "webhookId",
] as const;
export type CredentialField = (typeof CREDENTIAL_FIELDS)[number];

/**
 * What each type cannot work without. Stripe: the secret API key, and the webhook signing secret
 * (`whsec_…`) as `sharedSecret` (docs/rules/payments.md "Webhooks").
 */
export const REQUIRED_CREDENTIALS: Record<ChannelTypeName, readonly CredentialField[]> = {
  PayPal: ["clientId", "secret"],
  PSiGate: ["account", "storePass"],
  GlobalPayments: ["merchantId", "sharedSecret", "accountId"],
  KKB: ["merchantId", "certificate", "password"],
  Stripe: ["secretApiKey", "sharedSecret"],
  Cardcom: ["terminalSettings", "username"],
  HUB2: ["merchantId", "clientApiKey"],
  MPU: ["merchantId", "secretApiKey"],
  MSU: ["merchantId", "secretApiKey"],
};

const text = (max: number, key: string) => z.string({ error: v(key) }).trim().max(max, { error: v("tooLong") });
const credential = z.string({ error: v("credential") }).max(4000, { error: v("tooLong") }).nullish();

export const channelType = wholeNumber(v("typeFirst"), (n) => n.min(0, { error: v("typeFirst") }).max(CHANNEL_TYPES.length - 1, { error: v("typeFirst") }));

/** POST and PUT /system-service/payment-channel: the type is chosen first, its credentials follow. */
export const paymentChannelInput = z
  .object({
    type: channelType,
    name: text(60, "name").min(1, { error: v("name") }),
    environment: z.enum(ENVIRONMENTS, { error: v("environment") }),
    bankId: text(40, "bankId").default(""),
    bankName: text(100, "bankName").default(""),
    /** The processor's API base; empty for its public one (Stripe: https://api.stripe.com). */
    gateway: z
      .string({ error: v("gateway") })
      .trim()
      .max(300, { error: v("tooLong") })
      .refine((s) => s === "" || /^https?:\/\/[^\s/]+(\/\S*)?$/.test(s), { error: v("gateway") })
      .default(""),
    currentAccount: text(60, "currentAccount").default(""),
    minimumValue: wholeNumber(v("minimumValue"), (n) => n.min(0, { error: v("minimumValue") }).max(1_000_000_000, { error: v("minimumValue") })).default(0),
    currency: z
      .string({ error: v("currency") })
      .trim()
      .regex(/^[A-Za-z]{3}$/, { error: v("currency") })
      .transform((s) => s.toUpperCase()),
    credentials: z.object(Object.fromEntries(CREDENTIAL_FIELDS.map((f) => [f, credential])) as Record<CredentialField, typeof credential>).strict().default({}),
  })
  .strict();
export type PaymentChannelInput = z.infer<typeof paymentChannelInput>;

/** The type alone, read before anything else so that a body without one says so first. */
export const typeFirst = z.object({ type: channelType }, { error: v("typeFirst") });

export const channelEnableInput = z.object({ enabled: z.boolean({ error: v("enabled") }) }).strict();

/**
 * PUT /customer-service/customer/{id}/payment-card: the processor's customer and the card (or
 * PayPal vault) it keeps on file. `channelType` 4 Stripe (the default: `cus_…`, `pm_…`) or 0
 * PayPal (its customer id and the vault's payment token id, docs/rules/payments.md "PayPal").
 */
const paypalRef = /^[A-Za-z0-9_-]{1,64}$/;
export const paymentCardInput = z
  .object({
    channelType: z.union([z.literal(STRIPE), z.literal(PAYPAL)], { error: "paypal.validation.cardChannelType" }).default(STRIPE),
    customerRef: z.string({ error: v("customerRef") }).trim(),
    paymentMethodRef: z.string({ error: v("paymentMethodRef") }).trim(),
  })
  .strict()
  .superRefine((card, ctx) => {
    const paypal = card.channelType === PAYPAL;
    if (!(paypal ? paypalRef : /^cus_\w{1,250}$/).test(card.customerRef)) {
      ctx.addIssue({ code: "custom", path: ["customerRef"], message: paypal ? "paypal.validation.customerRef" : v("customerRef") });
    }
    if (!(paypal ? paypalRef : /^pm_\w{1,250}$/).test(card.paymentMethodRef)) {
      ctx.addIssue({ code: "custom", path: ["paymentMethodRef"], message: paypal ? "paypal.validation.vaultRef" : v("paymentMethodRef") });
    }
  });

/** POST /finance-service/stripe-top-up: a top-up charged to the customer's card on file. */
export const cardTopUpInput = z
  .object({
    customerId: recordId(v("customerId")),
    amount: wholeNumber(v("amount"), (n) => n.min(1, { error: v("amount") }).max(100_000_000, { error: v("amount") })),
    remark: text(200, "remark").optional(),
  })
  .strict();

/**
 * POST /finance-service/card-top-up: a top-up charged through the operator's channel of a type
 * (docs/rules/payments.md "Top-ups"): Stripe or PayPal; the other types answer "not supported yet".
 */
export const channelTopUpInput = cardTopUpInput.extend({ channelType }).strict();

/** A top-up, a session's pre-authorisation, or the charge of what a session cost above it. */
export const PAYMENT_KINDS = ["TOP_UP", "PRE_AUTH", "REMAINDER"] as const;
export const PAYMENT_STATUSES = ["PENDING", "AUTHORISED", "SUCCEEDED", "FAILED"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** GET /finance-service/payment: card payments, newest first. */
export const paymentQuery = pageQuery.extend({
  status: z.enum(PAYMENT_STATUSES, { error: v("status") }).optional(),
  customerId: recordId(v("customerId")).optional(),
});

/** A credential as answers show it: at most its last four characters (docs/rules/payments.md "Credentials"). */
export function maskCredential(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.length >= 12 ? `••••${value.slice(-4)}` : "••••";
}
