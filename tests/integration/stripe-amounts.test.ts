import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { stripeSignature } from "../../workers/services/payments/stripe";
import { call, ORIGIN, tokenFor } from "./support/http";
import { intentOf, payingCustomer, stripeChannel, WEBHOOK_SECRET, webhook } from "./support/stripe";
import { row } from "./support/d1";

/**
 * Money that arrives in Stripe's events is believed only as the payment asked for it
 * (docs/rules/payments.md "Webhooks"): whole minor units, the payment's currency, its amount.
 */
const balanceOf = async (customerId: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", customerId))!.balance;

let pl: string;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
});

/** A `payment_intent.succeeded` event, signed as Stripe signs it, for an intent as given. */
async function succeededWith(intent: Record<string, unknown>) {
  const payload = JSON.stringify({ id: `evt_amounts_${Date.now()}_${Math.random()}`, object: "event", type: "payment_intent.succeeded", data: { object: intent } });
  const t = Math.floor(Date.now() / 1000);
  const res = await SELF.fetch(`${ORIGIN}/finance-service/payment-webhook/0PL002/stripe`, {
    method: "POST",
    headers: { "Stripe-Signature": `t=${t},v1=${stripeSignature(WEBHOOK_SECRET, t, payload)}`, "Content-Type": "application/json" },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { data?: { outcome: string } } };
}

describe("amounts in Stripe's events", () => {
  it("raises no balance for an event whose amount, currency or intent is not the top-up's", async () => {
    await stripeChannel(pl);
    const customer = await payingCustomer(pl);
    const before = await balanceOf(customer.id);
    const started = await call("POST", "/finance-service/stripe-top-up", { token: pl, body: { customerId: customer.id, amount: 2_500 } });
    expect(started.status).toBe(200);
    const { bill, payment } = started.body.data;
    const intent = (await intentOf(payment.intentRef)) as Record<string, unknown> & { amount: number };
    const paid = { ...intent, status: "succeeded", amount_received: intent.amount };
    for (const [what, forged] of [
      ["a smaller amount received", { ...paid, amount: 1, amount_received: 1 }],
      ["less received than asked", { ...paid, amount_received: 2_499 }],
      ["another currency", { ...paid, currency: "eur" }],
    ] as const) {
      const answer = await succeededWith(forged);
      expect(answer.status, what).toBe(200);
      expect(answer.body.data?.outcome, what).toBe("mismatch");
    }
    // Not whole minor units: the event is not believed at all.
    expect((await succeededWith({ ...paid, amount_received: 2_500.5 })).status).toBe(400);
    // Another intent naming the payment in its metadata is not its event.
    expect((await succeededWith({ ...paid, id: "pi_someone_else" })).body.data?.outcome).toBe("unknown");
    expect(await balanceOf(customer.id)).toBe(before);
    expect(await row("SELECT status, applied FROM bills WHERE id = ?", bill.id)).toEqual({ status: "Paying", applied: 0 });
    // The top-up's own event raises the balance by what was asked.
    const delivered = await webhook("payment_intent.succeeded", payment.intentRef);
    expect(delivered.body.data.outcome).toBe("succeeded");
    expect(await balanceOf(customer.id)).toBe(before + 2_500);
  });
});
