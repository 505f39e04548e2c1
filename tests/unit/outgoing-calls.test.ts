import { afterEach, describe, expect, it, vi } from "vitest";
import { OUTGOING_CALL_MS } from "../../workers/http/outgoing";
import { workerFetch } from "../../workers/services/ocpi/client";
import { paypalGateway } from "../../workers/services/payments/paypal";
import { stripeGateway } from "../../workers/services/payments/stripe";

/**
 * Every call to another system carries a bound (workers/http/outgoing.ts): a partner or processor
 * that never answers fails the call instead of holding its queue's later messages. Each call
 * here meets a server that never answers and must come back on its own once its bound, asked
 * of `AbortSignal.timeout`, runs out (at once here, so that the test does not wait it out).
 */
describe("outgoing calls", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  /** A `fetch` that never answers, until the call's signal gives up on it. */
  function silentServer() {
    const bounds: number[] = [];
    vi.spyOn(AbortSignal, "timeout").mockImplementation((ms: number) => {
      bounds.push(ms);
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException("The operation timed out.", "TimeoutError")), 10);
      return controller.signal;
    });
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn((input: Request | string, init?: RequestInit) => {
        const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
        if (!signal) return new Promise<Response>(() => undefined);
        signals.push(signal);
        return new Promise<Response>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
      }),
    );
    return Object.assign(signals, { bounds });
  }

  it("gives up on a roaming partner that never answers", async () => {
    const signals = silentServer();
    const call = workerFetch(new Request("https://partner.example/ocpi/versions"));
    expect(signals).toHaveLength(1);
    await expect(call).rejects.toThrow();
    expect(signals[0].aborted).toBe(true);
    expect(signals.bounds).toEqual([OUTGOING_CALL_MS]);
  });

  it("counts Stripe's silence as not known yet (PENDING), not as a hang", async () => {
    const signals = silentServer();
    const outcome = await stripeGateway({ secretApiKey: "sk_test_x", webhookSecret: "whsec_x", apiBase: "https://stripe.example" }).retrieve("pi_1");
    expect(signals).toHaveLength(1);
    expect(outcome.status).toBe("PENDING");
    expect(signals.bounds).toEqual([OUTGOING_CALL_MS]);
  });

  it("counts PayPal's silence as not known yet, not as a hang", async () => {
    const signals = silentServer();
    const outcome = await paypalGateway({ clientId: "id", secret: "secret", webhookId: "", environment: "sandbox", apiBase: "https://paypal.example", decimals: 2 }).retrieve("ORDER1");
    expect(signals.length).toBeGreaterThan(0);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(outcome.status).not.toBe("AUTHORISED");
    expect(signals.bounds.every((ms) => ms === OUTGOING_CALL_MS)).toBe(true);
  });
});
