import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { operators, parameterSettings, paymentChannels } from "../../db/schema";
import { STRIPE } from "../../domain/schemas/payments";
import { seal, sealContext } from "../../workers/auth/sealed";

/**
 * The demo operator's Stripe channel for local development (docs/rules/demo.md "Demo payments",
 * docs/rules/payments.md "Ad-hoc payment"): an ordinary, enabled type-4 channel whose gateway is
 * the test double `npm start` serves on loopback, with test keys sealed under the local
 * `SECRETS_KEY` as the API would seal them. Only `npm start` writes it (never the tests' seed), and
 * only while the operator has no Stripe channel of its own, or the one written here before (its
 * gateway then follows the double's port, its keys sealed anew with it).
 */
export const DEMO_STRIPE = {
  operator: "0PL002",
  name: "Stripe (local test double)",
  credentials: { secretApiKey: "sk_test_plugdeskLocalDouble", sharedSecret: "whsec_plugdeskLocalDouble", clientApiKey: "pk_test_plugdeskLocalDouble" },
};

export async function seedDemoStripeChannel(db: Db, gateway: string) {
  const { SECRETS_KEY } = parseEnv(readFileSync(".dev.vars", "utf8"));
  if (!SECRETS_KEY) throw new Error(".dev.vars must set SECRETS_KEY");
  const [operator] = await db
    .select({ id: operators.id, currency: parameterSettings.currencyCode })
    .from(operators)
    .leftJoin(parameterSettings, eq(parameterSettings.operatorId, operators.id))
    .where(eq(operators.code, DEMO_STRIPE.operator));
  if (!operator) return;
  const [existing] = await db.select().from(paymentChannels).where(and(eq(paymentChannels.operatorId, operator.id), eq(paymentChannels.type, STRIPE)));
  if (existing && existing.name !== DEMO_STRIPE.name) return;
  const credentials = await seal({ SECRETS_KEY }, sealContext(operator.id, "paymentChannel.credentials"), JSON.stringify(DEMO_STRIPE.credentials));
  const now = new Date();
  if (existing) {
    await db.update(paymentChannels).set({ gateway, credentials, updatedAt: now }).where(eq(paymentChannels.id, existing.id));
    return;
  }
  await db.insert(paymentChannels).values({
    operatorId: operator.id,
    type: STRIPE,
    name: DEMO_STRIPE.name,
    environment: "sandbox",
    gateway,
    currency: operator.currency ?? "PLN",
    minimumValue: 0,
    enabled: true,
    credentials,
    createdAt: now,
    updatedAt: now,
  });
}
