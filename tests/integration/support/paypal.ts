import { createHmac, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";

/**
 * PayPal's REST API as far as the product uses it (docs/rules/payments.md "PayPal"), served by the
 * integration tests' fake under `/paypal/` (tests/integration/support/fakes.ts), as Stripe's is:
 * - `POST /v1/oauth2/token`: client credentials by HTTP Basic, only `CLIENT_ID` / `CLIENT_SECRET`;
 *   every other call wants one of the tokens it issued (401 otherwise).
 * - Every POST wants a `PayPal-Request-Id` (400 without); the same id on the same path answers
 *   what it answered the first time, as PayPal does.
 * - Orders v2: create (intent CAPTURE or AUTHORIZE; with `payment_source.paypal.vault_id` it
 *   completes at once, a vault id starting with `declined` is refused with 422
 *   INSTRUMENT_DECLINED; without one it waits for the payer), authorise an approved order,
 *   capture and void an authorisation, refund a capture. Amounts are checked as PayPal checks
 *   them: a decimal string with exactly the currency's decimals (none for HUF, JPY, TWD), above
 *   zero; a capture never above what was authorised, a refund never above what is left.
 * - `POST /v1/notifications/verify-webhook-signature` answers SUCCESS only for a transmission this
 *   fake signed (`POST /__fake/sign`) for that webhook id and that exact event.
 * Test-only routes: `POST /__fake/approve/{order}` (the payer approves), `GET /__fake/orders/{id}`,
 * `POST /__fake/sign {webhookId, payload}` → the PayPal-Transmission-* headers of a delivery.
 */

export const CLIENT_ID = "AplugdeskSandboxClientId0001";
export const CLIENT_SECRET = "EplugdeskSandboxSecret9876";
export const CERT_URL_PATH = "/paypal/certs/CERT-360caa42-fca2a594-fake";

interface Money {
  currency_code: string;
  value: string;
}
interface Movement {
  id: string;
  status: string;
  amount: Money;
  custom_id?: string;
  final_capture?: boolean;
  supplementary_data: { related_ids: { order_id: string; authorization_id?: string } };
}
export interface FakeOrder {
  id: string;
  intent: "CAPTURE" | "AUTHORIZE";
  status: string;
  purchase_units: { reference_id: string; custom_id?: string; amount: Money; payments: { authorizations: Movement[]; captures: Movement[] } }[];
  payment_source?: unknown;
  links: { href: string; rel: string; method: string }[];
}

export interface PayPalAnswer {
  status: number;
  body: unknown;
}

/** PayPal takes no decimals for these (PayPal's currency codes reference). */
const WHOLE = new Set(["HUF", "JPY", "TWD"]);
const decimalsOf = (currency: string) => (WHOLE.has(currency) ? 0 : 2);

/** An amount as PayPal checks it, in hundredths of a thousandth to compare exactly; null when malformed. */
function cents(money: unknown): { currency: string; units: bigint } | null {
  if (!money || typeof money !== "object") return null;
  const { currency_code, value } = money as Partial<Money>;
  if (typeof currency_code !== "string" || !/^[A-Z]{3}$/.test(currency_code) || typeof value !== "string") return null;
  const d = decimalsOf(currency_code);
  const match = d === 0 ? /^(\d+)$/.exec(value) : new RegExp(`^(\\d+)\\.(\\d{${d}})$`).exec(value);
  if (!match) return null;
  return { currency: currency_code, units: BigInt(match[1]) * 10n ** BigInt(d) + BigInt(match[2] ?? "0") };
}

const moneyOf = (currency: string, units: bigint): Money => {
  const d = decimalsOf(currency);
  const text = units.toString().padStart(d + 1, "0");
  return { currency_code: currency, value: d === 0 ? text : `${text.slice(0, -d)}.${text.slice(-d)}` };
};

const error = (status: number, name: string, issue: string, description = issue): PayPalAnswer => ({ status, body: { name, message: description, details: [{ issue, description }] } });

/** The signature this fake gives a transmission: PayPal's signed text `<id>|<time>|<webhook id>|<crc32 of the body>`, under the fake's own key. */
const FAKE_KEY = randomUUID();
const signatureOf = (transmissionId: string, time: string, webhookId: string, payload: string) =>
  createHmac("sha256", FAKE_KEY).update(`${transmissionId}|${time}|${webhookId}|${crc32(payload)}`).digest("base64");

/** A fresh fake: its own tokens, orders and request ids. */
export function paypalApi(origin: () => string) {
  const tokens = new Set<string>();
  const orders = new Map<string, FakeOrder>();
  const replies = new Map<string, PayPalAnswer>();
  const refunded = new Map<string, bigint>();
  let serial = 0;
  const nextId = (prefix: string) => `${prefix}${String(++serial).padStart(13, "0")}`;

  const movementIn = (id: string) => {
    for (const order of orders.values()) {
      const payments = order.purchase_units[0].payments;
      const found = [...payments.authorizations, ...payments.captures].find((m) => m.id === id);
      if (found) return { order, movement: found };
    }
    return null;
  };

  function capture(order: FakeOrder, amount: Money, authorizationId?: string): Movement {
    const unit = order.purchase_units[0];
    const taken: Movement = {
      id: nextId("CAP"),
      status: "COMPLETED",
      amount,
      custom_id: unit.custom_id,
      supplementary_data: { related_ids: { order_id: order.id, ...(authorizationId && { authorization_id: authorizationId }) } },
    };
    unit.payments.captures.push(taken);
    return taken;
  }

  function authorize(order: FakeOrder): Movement {
    const unit = order.purchase_units[0];
    const authorization: Movement = { id: nextId("AUTH"), status: "CREATED", amount: unit.amount, custom_id: unit.custom_id, supplementary_data: { related_ids: { order_id: order.id } } };
    unit.payments.authorizations.push(authorization);
    return authorization;
  }

  function api(method: string, path: string, body: unknown): PayPalAnswer {
    const b = (body ?? {}) as Record<string, unknown>;
    if (method === "POST" && path === "/v2/checkout/orders") {
      if (b.intent !== "CAPTURE" && b.intent !== "AUTHORIZE") return error(400, "INVALID_REQUEST", "INVALID_PARAMETER_VALUE", "intent");
      const units = b.purchase_units as { reference_id?: string; custom_id?: string; amount?: unknown }[] | undefined;
      const amount = cents(units?.[0]?.amount);
      if (!units?.length || !amount) return error(422, "UNPROCESSABLE_ENTITY", "DECIMAL_PRECISION", "The amount's value does not have the currency's decimals");
      if (amount.units <= 0n) return error(422, "UNPROCESSABLE_ENTITY", "CANNOT_BE_ZERO_OR_NEGATIVE");
      const vault = (b.payment_source as { paypal?: { vault_id?: string } } | undefined)?.paypal?.vault_id;
      if (vault?.startsWith("declined")) return error(422, "UNPROCESSABLE_ENTITY", "INSTRUMENT_DECLINED", "The instrument presented was declined.");
      const id = nextId("ORDER");
      const order: FakeOrder = {
        id,
        intent: b.intent,
        status: "PAYER_ACTION_REQUIRED",
        purchase_units: [{ reference_id: units[0].reference_id ?? "default", custom_id: units[0].custom_id, amount: moneyOf(amount.currency, amount.units), payments: { authorizations: [], captures: [] } }],
        ...(vault && { payment_source: { paypal: { vault_id: vault } } }),
        links: [
          { href: `${origin()}/paypal/v2/checkout/orders/${id}`, rel: "self", method: "GET" },
          { href: `${origin()}/paypal/checkoutnow?token=${id}`, rel: "payer-action", method: "GET" },
        ],
      };
      orders.set(id, order);
      // A vaulted payment source is charged at once, as PayPal does for a merchant-initiated payment.
      if (vault) {
        order.status = "COMPLETED";
        if (order.intent === "CAPTURE") capture(order, order.purchase_units[0].amount);
        else authorize(order);
      }
      return { status: 201, body: order };
    }
    const get = /^\/v2\/checkout\/orders\/(\w+)$/.exec(path);
    if (method === "GET" && get) return orders.has(get[1]) ? { status: 200, body: orders.get(get[1]) } : error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
    const authorizeOrder = /^\/v2\/checkout\/orders\/(\w+)\/authorize$/.exec(path);
    if (method === "POST" && authorizeOrder) {
      const order = orders.get(authorizeOrder[1]);
      if (!order) return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      if (order.intent !== "AUTHORIZE") return error(422, "UNPROCESSABLE_ENTITY", "ACTION_DOES_NOT_MATCH_INTENT");
      if (order.status !== "APPROVED") return error(422, "UNPROCESSABLE_ENTITY", "ORDER_NOT_APPROVED");
      authorize(order);
      order.status = "COMPLETED";
      return { status: 201, body: order };
    }
    const authorization = /^\/v2\/payments\/authorizations\/(\w+)\/(capture|void)$/.exec(path);
    if (method === "POST" && authorization) {
      const found = movementIn(authorization[1]);
      if (!found || !found.movement.id.startsWith("AUTH")) return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      const { order, movement } = found;
      if (movement.status !== "CREATED") return error(422, "UNPROCESSABLE_ENTITY", authorization[2] === "void" ? "PREVIOUSLY_VOIDED" : "AUTHORIZATION_ALREADY_CAPTURED", `The authorization is ${movement.status}`);
      if (authorization[2] === "void") {
        movement.status = "VOIDED";
        order.status = "VOIDED";
        return { status: 200, body: movement };
      }
      const asked = b.amount === undefined ? cents(movement.amount) : cents(b.amount);
      const held = cents(movement.amount)!;
      if (!asked || asked.currency !== held.currency) return error(422, "UNPROCESSABLE_ENTITY", "DECIMAL_PRECISION", "The amount's value does not have the currency's decimals");
      if (asked.units <= 0n) return error(422, "UNPROCESSABLE_ENTITY", "CANNOT_BE_ZERO_OR_NEGATIVE");
      if (asked.units > held.units) return error(422, "UNPROCESSABLE_ENTITY", "MAX_CAPTURE_AMOUNT_EXCEEDED");
      movement.status = "CAPTURED";
      return { status: 201, body: capture(order, moneyOf(asked.currency, asked.units), movement.id) };
    }
    const refund = /^\/v2\/payments\/captures\/(\w+)\/refund$/.exec(path);
    if (method === "POST" && refund) {
      const found = movementIn(refund[1]);
      if (!found || !found.movement.id.startsWith("CAP")) return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
      const taken = cents(found.movement.amount)!;
      const asked = b.amount === undefined ? taken : cents(b.amount);
      if (!asked || asked.currency !== taken.currency) return error(422, "UNPROCESSABLE_ENTITY", "DECIMAL_PRECISION", "The amount's value does not have the currency's decimals");
      const before = refunded.get(found.movement.id) ?? 0n;
      if (asked.units <= 0n || before + asked.units > taken.units) return error(422, "UNPROCESSABLE_ENTITY", "REFUND_AMOUNT_EXCEEDED");
      refunded.set(found.movement.id, before + asked.units);
      found.movement.status = before + asked.units === taken.units ? "REFUNDED" : "PARTIALLY_REFUNDED";
      return { status: 201, body: { id: nextId("REF"), status: "COMPLETED", amount: moneyOf(asked.currency, asked.units) } };
    }
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") {
      const { auth_algo, cert_url, transmission_id, transmission_sig, transmission_time, webhook_id, webhook_event } = b as Record<string, string>;
      const known = auth_algo === "SHA256withRSA" && typeof cert_url === "string" && cert_url.endsWith(CERT_URL_PATH) && typeof webhook_id === "string" && webhook_event !== undefined;
      const holds = known && transmission_sig === signatureOf(transmission_id, transmission_time, webhook_id, JSON.stringify(webhook_event));
      return { status: 200, body: { verification_status: holds ? "SUCCESS" : "FAILURE" } };
    }
    return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", `Unrecognized request URL (${method}: ${path})`);
  }

  /** One request to the fake; `path` is below `/paypal`. */
  function handle(method: string, path: string, headers: Record<string, string>, text: string): PayPalAnswer {
    let body: unknown = null;
    if (text && !path.startsWith("/v1/oauth2/")) {
      try {
        body = JSON.parse(text);
      } catch {
        return error(400, "INVALID_REQUEST", "MALFORMED_REQUEST_JSON");
      }
    }
    const approve = /^\/__fake\/approve\/(\w+)$/.exec(path);
    if (method === "POST" && approve) {
      const order = orders.get(approve[1]);
      if (!order || order.status !== "PAYER_ACTION_REQUIRED") return error(422, "UNPROCESSABLE_ENTITY", "ORDER_NOT_APPROVABLE");
      order.status = "APPROVED";
      return { status: 200, body: order };
    }
    const peek = /^\/__fake\/orders\/(\w+)$/.exec(path);
    if (method === "GET" && peek) return orders.has(peek[1]) ? { status: 200, body: orders.get(peek[1]) } : error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID");
    if (method === "POST" && path === "/__fake/sign") {
      const { webhookId, payload } = body as { webhookId: string; payload: string };
      const id = randomUUID();
      const time = new Date().toISOString();
      return {
        status: 200,
        body: {
          "PayPal-Transmission-Id": id,
          "PayPal-Transmission-Time": time,
          "PayPal-Transmission-Sig": signatureOf(id, time, webhookId, payload),
          "PayPal-Cert-Url": `${origin()}${CERT_URL_PATH}`,
          "PayPal-Auth-Algo": "SHA256withRSA",
        },
      };
    }

    const requestId = headers["paypal-request-id"];
    if (method === "POST" && !requestId) return error(400, "INVALID_REQUEST", "PAYPAL_REQUEST_ID_REQUIRED", "A PayPal-Request-Id header is required");
    if (method === "POST" && path === "/v1/oauth2/token") {
      const [scheme, encoded] = (headers.authorization ?? "").split(" ");
      const [id, secret] = Buffer.from(encoded ?? "", "base64").toString("utf8").split(":");
      if (scheme !== "Basic" || id !== CLIENT_ID || secret !== CLIENT_SECRET || new URLSearchParams(text).get("grant_type") !== "client_credentials") {
        return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
      }
      const token = `A21AA${randomUUID().replace(/-/g, "")}`;
      tokens.add(token);
      return { status: 200, body: { scope: "https://uri.paypal.com/services/payments/payment", access_token: token, token_type: "Bearer", app_id: "APP-FAKE", expires_in: 32400 } };
    }
    const bearer = /^Bearer (\S+)$/.exec(headers.authorization ?? "")?.[1];
    if (!bearer || !tokens.has(bearer)) return error(401, "AUTHENTICATION_FAILURE", "INVALID_TOKEN", "Authentication failed due to invalid authentication credentials or a missing Authorization header.");
    const replayKey = `${path} ${requestId}`;
    if (method === "POST" && replies.has(replayKey)) return replies.get(replayKey)!;
    const answer = api(method, path, body);
    // PayPal answers a repeated request id with the first answer; a refused one may be tried again.
    if (method === "POST" && answer.status < 300) replies.set(replayKey, answer);
    return answer;
  }

  return { handle, orders, count: () => orders.size };
}
