import { env } from "cloudflare:test";
import type { ActionFunctionArgs, AppLoadContext } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { rechargeAction } from "../../app/routes/wallets/wallets.server";
import { createDb } from "../../db/client";
import { purgeIdempotencyKeys } from "../../workers/services/idempotency";
import { makeCustomer } from "./support/drivers";
import { tokenWithMenus } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";
import { row } from "./support/d1";

/**
 * Idempotency keys (docs/rules/input.md "Idempotency keys"): a money-moving request sent again
 * with the same `Idempotency-Key` and body answers the first result and moves nothing; another
 * body is 409; keys are the account's and the operator's own.
 */

const balanceOf = async (id: number) => (await row<{ balance: number }>("SELECT balance FROM customers WHERE id = ?", id))!.balance;
const rechargeCount = async (customerId: number) => (await row<{ n: number }>("SELECT count(*) AS n FROM recharges WHERE customer_id = ?", customerId))!.n;
const newKey = () => crypto.randomUUID();

let pl: string;
let de: string;

beforeAll(async () => {
  [pl, de] = await Promise.all([tokenFor("0PL002", "demoadmin"), tokenFor("0DE001", "deadmin1")]);
});

const topUp = (token: string, key: string | undefined, body: Record<string, unknown>, lang = "en") =>
  call("POST", `/finance-service/recharge?lang=${lang}`, { token, body, headers: key === undefined ? {} : { "Idempotency-Key": key } });

describe("idempotency keys of money-moving requests", () => {
  it("books a recharge sent twice with the same key once and answers the same body again", async () => {
    const customer = await makeCustomer(pl);
    const key = newKey();
    const first = await topUp(pl, key, { customerId: customer.id, amount: 2500 });
    const again = await topUp(pl, key, { customerId: customer.id, amount: 2500 });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await balanceOf(customer.id)).toBe(2500);
    expect(await rechargeCount(customer.id)).toBe(1);
    // Without a key, the same body is a second recharge.
    expect((await topUp(pl, undefined, { customerId: customer.id, amount: 2500 })).status).toBe(200);
    expect(await balanceOf(customer.id)).toBe(5000);
  });

  it("refuses the same key with another body with 409 and a localized message, moving nothing", async () => {
    const customer = await makeCustomer(pl);
    const key = newKey();
    expect((await topUp(pl, key, { customerId: customer.id, amount: 2500 })).status).toBe(200);
    const other = await topUp(pl, key, { customerId: customer.id, amount: 9900 }, "pl");
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 409, msg: "Ten Idempotency-Key został już użyty dla innego żądania" });
    expect(await balanceOf(customer.id)).toBe(2500);
  });

  it("moves money once when two identical requests with one key arrive at once", async () => {
    const customer = await makeCustomer(pl);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 4 }, () => topUp(pl, key, { customerId: customer.id, amount: 1200 })));
    expect(answers.every((a) => a.status === 200 || (a.status === 409 && a.body.msg.includes("still running")))).toBe(true);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(await balanceOf(customer.id)).toBe(1200);
    expect(await rechargeCount(customer.id)).toBe(1);
  });

  it("keeps the keys of different operators and accounts apart", async () => {
    const key = newKey();
    const [plCustomer, deCustomer] = await Promise.all([makeCustomer(pl), makeCustomer(de)]);
    const plAnswer = await topUp(pl, key, { customerId: plCustomer.id, amount: 2500 });
    const deAnswer = await topUp(de, key, { customerId: deCustomer.id, amount: 2500 });
    expect(plAnswer.status).toBe(200);
    expect(deAnswer.status).toBe(200);
    expect(deAnswer.headers.get("Idempotent-Replayed")).toBeNull();
    expect(deAnswer.body.data.customerId).toBe(deCustomer.id);
    expect(await balanceOf(deCustomer.id)).toBe(2500);

    // Another account of the same operator, same key and body: its own recharge, never the first's answer.
    const other = await tokenWithMenus(pl, ["users.userRecharge"]);
    const second = await topUp(other, key, { customerId: plCustomer.id, amount: 2500 });
    expect(second.status).toBe(200);
    expect(second.body.data.id).not.toBe(plAnswer.body.data.id);
    expect(await balanceOf(plCustomer.id)).toBe(5000);
  });

  it("refuses a key that is not 1 to 255 printable characters with 400, before anything moves", async () => {
    const customer = await makeCustomer(pl);
    for (const key of ["", "k".repeat(256), "a\tb"]) {
      const answer = await topUp(pl, key, { customerId: customer.id, amount: 2500 });
      expect(answer.status, JSON.stringify(key)).toBe(400);
      expect(answer.body.msg).toBe("The Idempotency-Key header must be 1 to 255 printable characters");
    }
    expect(await balanceOf(customer.id)).toBe(0);
    expect((await topUp(pl, "k".repeat(255), { customerId: customer.id, amount: 2500 })).status).toBe(200);
  });

  it("keeps nothing of a refused request: the same key and body may be sent again once it can pass", async () => {
    const customer = await makeCustomer(pl);
    const key = newKey();
    const setSilver = () => call("PUT", `/customer-service/customer/${customer.id}/member-level`, { token: pl, body: { level: "SILVER" }, headers: { "Idempotency-Key": key } });
    expect((await setSilver()).status).toBe(409);
    await topUp(pl, undefined, { customerId: customer.id, amount: 6000 });
    expect((await setSilver()).status).toBe(200);
    expect((await setSilver()).headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(customer.id)).toBe(1000);
  });

  it("forgets a key after 24 hours: the key may then be used again", async () => {
    const customer = await makeCustomer(pl);
    const key = newKey();
    expect((await topUp(pl, key, { customerId: customer.id, amount: 2500 })).status).toBe(200);
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = created_at - ? WHERE key = ?")
      .bind(24 * 60 * 60 * 1000 + 1000, key)
      .run();
    const later = await topUp(pl, key, { customerId: customer.id, amount: 3000 });
    expect(later.status).toBe(200);
    expect(await balanceOf(customer.id)).toBe(5500);

    // Housekeeping drops keys older than 24 h and keeps younger ones.
    const count = async () => (await row<{ n: number }>("SELECT count(*) AS n FROM idempotency_keys WHERE key = ?", key))!.n;
    await purgeIdempotencyKeys({ db: createDb(env.DB), now: Date.now });
    expect(await count()).toBe(1);
    await purgeIdempotencyKeys({ db: createDb(env.DB), now: () => Date.now() + 24 * 60 * 60 * 1000 + 1000 });
    expect(await count()).toBe(0);
  });

  it("honours the key on every money-moving route: a key taken by another request is 409, the verb never runs, and the route documents the header", async () => {
    const customer = await makeCustomer(pl);
    const ids = (await row<{ operatorId: number; accountId: number }>(
      "SELECT a.operator_id AS operatorId, a.id AS accountId FROM accounts a JOIN operators o ON o.id = a.operator_id WHERE o.code = '0PL002' AND a.username = 'demoadmin'",
    ))!;
    const c = customer.id;
    // Method, the documented path, the path called and its body.
    const routes: [string, string, string, unknown?][] = [
      ["POST", "/finance-service/recharge", "/finance-service/recharge", { customerId: c, amount: 2500 }],
      ["PUT", "/customer-service/customer/{id}/member-level", `/customer-service/customer/${c}/member-level`, { level: "SILVER" }],
      ["POST", "/customer-service/customer/{id}/discount-card", `/customer-service/customer/${c}/discount-card`, { activationCode: "NOSUCHCODE1" }],
      ["PUT", "/customer-service/customer/{id}/discount-card/{cardId}/void", `/customer-service/customer/${c}/discount-card/1/void`],
      ["POST", "/finance-service/stripe-top-up", "/finance-service/stripe-top-up", { customerId: c, amount: 2500 }],
      ["POST", "/finance-service/bill/{id}/retry-payment", "/finance-service/bill/1/retry-payment"],
      ["PUT", "/station-service/charge/record/{id}/settle", "/station-service/charge/record/1/settle"],
      ["PUT", "/station-service/charge/record/{id}/retry", "/station-service/charge/record/1/retry"],
      ["PUT", "/station-service/charge/record/{id}/unplug", "/station-service/charge/record/1/unplug"],
    ];
    const openapi = (await call("GET", "/openapi.json")).body as unknown as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
    for (const [method, documentedPath, path, body] of routes) {
      const key = newKey();
      await env.DB.prepare("INSERT INTO idempotency_keys (operator_id, account_id, key, fingerprint) VALUES (?, ?, ?, 'in flight')")
        .bind(ids.operatorId, ids.accountId, key)
        .run();
      const answer = await call(method, path, { token: pl, body, headers: { "Idempotency-Key": key } });
      expect(answer.status, `${method} ${path}`).toBe(409);
      expect(answer.body.msg, `${method} ${path}`).toBe("This Idempotency-Key was already used for another request");
      const documented = openapi.paths[documentedPath]?.[method.toLowerCase()];
      expect(documented?.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key"), `${method} ${path} documents the header`).toBe(true);
    }
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it("honours the key the console's recharge dialog sends with its form post", async () => {
    const customer = await makeCustomer(pl);
    const key = newKey();
    const context = { cloudflare: { env, ctx: {}, nonce: "" } } as unknown as AppLoadContext;
    const post = () =>
      rechargeAction({
        request: new Request(`${ORIGIN}/rechargeManagement/userRecharge?idempotencyKey=${key}`, {
          method: "POST",
          headers: { Cookie: `${env.SESSION_COOKIE}=${pl}`, Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
          body: JSON.stringify({ customerId: customer.id, amount: 2500 }),
        }),
        context,
        params: {},
      } as unknown as ActionFunctionArgs);
    const first = await post();
    const again = await post();
    expect(first).toMatchObject({ ok: true });
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(first)));
    expect(await balanceOf(customer.id)).toBe(2500);
  });
});
