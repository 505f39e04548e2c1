import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { stripeApi, TEST_CARDS } from "./api";

/**
 * The Stripe test double `npm start` serves on loopback (docs/rules/payments.md "Ad-hoc payment",
 * docs/decisions/0049-stripe-over-http-with-a-local-fake.md): Stripe's API as the integration
 * tests' fake plays it (one logic, `./api.ts`), and a test card form, clearly labelled test mode,
 * that a charger's public page shows instead of Stripe.js when the channel points here. Nothing
 * leaves the machine; a fresh start holds no payment (the intents live in this process only).
 */

/** Where the form sends the driver back: an http(s) address only. */
const returnUrlOf = (text: string | null) => {
  try {
    const url = new URL(text ?? "");
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : "";
  } catch {
    return "";
  }
};

/** Client secrets and keys are word characters; anything else is dropped rather than written into the page. */
const word = (text: string | null) => (text && /^\w{1,200}$/.test(text) ? text : "");

/** The test card form: confirms the intent as Stripe.js does (publishable key and client secret), then tells the page. */
function testCardPage(clientSecret: string, key: string, returnUrl: string) {
  const cards = JSON.stringify(TEST_CARDS);
  return `<!doctype html>
<html lang="en" data-hydrated><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Stripe test double: TEST MODE</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:12px;background:#fff8e1;color:#222}
.banner{background:#f59e0b;color:#000;font-weight:700;padding:6px 10px;border-radius:6px;text-align:center;letter-spacing:.05em}
label{display:block;margin-top:10px;font-size:14px}
input{width:100%;box-sizing:border-box;padding:10px;font-size:16px;border:1px solid #aaa;border-radius:6px}
.row{display:flex;gap:8px}.row label{flex:1}
button{margin-top:14px;width:100%;padding:12px;font-size:16px;border:0;border-radius:6px;background:#111;color:#fff}
p{font-size:13px}#result{font-weight:600}
</style></head>
<body>
<div class="banner" data-testid="test-mode">TEST MODE · Stripe test double · no real card is charged</div>
<p>Test cards: 4242 4242 4242 4242 is accepted, 4000 0000 0000 0002 is declined.</p>
<form id="card">
<label>Card number<input name="number" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"></label>
<div class="row"><label>Expiry<input name="expiry" value="12/34"></label><label>CVC<input name="cvc" value="123"></label></div>
<button type="submit">Authorise (test)</button>
</form>
<p id="result" role="status"></p>
<script>
const cards = ${cards};
const secret = ${JSON.stringify(clientSecret)};
const key = ${JSON.stringify(key)};
const returnUrl = ${JSON.stringify(returnUrl)};
document.getElementById("card").addEventListener("submit", async (event) => {
  event.preventDefault();
  const number = new FormData(event.target).get("number").replace(/\\s+/g, "");
  const result = document.getElementById("result");
  const paymentMethod = cards[number];
  if (!paymentMethod) { result.textContent = "Use one of the test cards above."; return; }
  const id = secret.split("_secret_")[0];
  const res = await fetch("/v1/payment_intents/" + id + "/confirm", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ key, client_secret: secret, payment_method: paymentMethod }),
  });
  const body = await res.json();
  const status = res.ok ? body.status : "declined";
  result.textContent = res.ok ? "Authorised (test mode)." : (body.error && body.error.message) || "Refused.";
  if (parent !== window) parent.postMessage({ type: "plugdesk-test-card", status }, "*");
  // Back to the charger's page, as Stripe's redirect flow does.
  if (res.ok && returnUrl) setTimeout(() => location.assign(returnUrl), 600);
});
</script>
</body></html>`;
}

const read = (req: import("node:http").IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => resolve(text));
  });

/** Serves the double on 127.0.0.1:`port` (0: any free port); resolves with its origin. */
export async function startStripeDouble(port: number): Promise<{ origin: string; server: Server }> {
  const api = stripeApi();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    // The card form's own requests are same-origin; the headers let a page elsewhere on loopback confirm too.
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "Content-Type, Authorization, Idempotency-Key" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, cors);
      return res.end();
    }
    if (req.method === "GET" && url.pathname === "/test-card") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      return res.end(testCardPage(word(url.searchParams.get("client_secret")), word(url.searchParams.get("key")), returnUrlOf(url.searchParams.get("return_url"))));
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const answer = api.handle(req.method ?? "", url.pathname, headers, await read(req));
    res.writeHead(answer.status, { "Content-Type": "application/json", ...cors });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
