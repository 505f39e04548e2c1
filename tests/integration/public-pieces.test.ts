import { env } from "cloudflare:test";
import type { AppLoadContext, LoaderFunctionArgs } from "react-router";
import { describe, expect, it } from "vitest";
import { loadPublicReceipt } from "../../app/routes/records/records.server";
import { makeCharger } from "./support/factories";
import { call, ORIGIN } from "./support/http";
import { addSessions } from "./support/sessions";

/**
 * Public pieces drivers and visitors reach without logging in (docs/rules/records.md "Receipts";
 * docs/rules/sessions.md "Login"): the operator picker of the home page and the bill page
 * /valina-bill/{code}.
 */

type Picked = { operatorCode: string; name: string };
const picker = (query: string) => call<Picked[]>("GET", `/user-service/operator/homepage${query}`);

describe("the operator picker (GET /user-service/operator/homepage)", () => {
  it("finds valid operators by the start of their code or name, at most ten, and nothing for an empty keyword", async () => {
    const byCode = await picker("?keyword=0PL");
    expect(byCode.status).toBe(200);
    expect(byCode.body.data.map((o) => o.operatorCode)).toContain("0PL002");
    const byName = await picker(`?keyword=${encodeURIComponent("Plugdesk Deut")}`);
    expect(byName.body.data.map((o) => o.operatorCode)).toEqual(["0DE001"]);
    expect((await picker("")).body.data).toEqual([]);
    expect((await picker("?keyword=%20%20")).body.data).toEqual([]);
    // A wildcard is a character to match, not a pattern: nothing starts with it.
    expect((await picker(`?keyword=${encodeURIComponent("%")}`)).body.data).toEqual([]);
    expect((await picker(`?keyword=${encodeURIComponent("_PL")}`)).body.data).toEqual([]);
  });

  it("never offers the platform, a sub-operator or an operator that is not valid", async () => {
    await env.DB.prepare("UPDATE operators SET status = 'INVALID' WHERE code = '0DE001'").run();
    try {
      expect((await picker("?keyword=0DE")).body.data).toEqual([]);
    } finally {
      await env.DB.prepare("UPDATE operators SET status = 'VALID' WHERE code = '0DE001'").run();
    }
    const kinds = await env.DB.prepare("SELECT code, kind FROM operators WHERE kind != 'OPERATOR'").all<{ code: string; kind: string }>();
    for (const { code } of kinds.results) {
      expect((await picker(`?keyword=${encodeURIComponent(code)}`)).body.data.map((o) => o.operatorCode)).not.toContain(code);
    }
    expect(kinds.results.length).toBeGreaterThan(0);
  });
});

describe("the bill page /valina-bill/{code}", () => {
  const context = { cloudflare: { env, ctx: {}, nonce: "" } } as unknown as AppLoadContext;
  const open = async (code: string) => {
    const answer = (await loadPublicReceipt({ request: new Request(`${ORIGIN}/valina-bill/${code}`), context, params: { code } } as unknown as LoaderFunctionArgs, "bill")) as unknown as {
      data: { receipt: { transactionId: number; operatorName: string } | null };
      init: { status?: number } | null;
    };
    return { receipt: answer.data.receipt, status: answer.init?.status ?? 200 };
  };

  it("shows the record's bill by its code, and the not-found page with 404 for a wrong code or a receipt token", async () => {
    const made = await makeCharger("0PL002");
    const [id] = await addSessions(made, [{ start: "2025-06-01T10:00:00Z", stop: "2025-06-01T10:40:00Z", meterStart: 0, meterStop: 8_000, bill: true }]);
    const codes = await env.DB.prepare("SELECT receipt_token, bill_code FROM charge_records WHERE transaction_id = ?").bind(id).first<{ receipt_token: string; bill_code: string }>();
    const found = await open(codes!.bill_code);
    expect(found.status).toBe(200);
    expect(found.receipt).toMatchObject({ transactionId: id, operatorName: "Plugdesk Polska" });
    expect(await open("NO-SUCH-CODE")).toEqual({ receipt: null, status: 404 });
    expect(await open(codes!.receipt_token)).toEqual({ receipt: null, status: 404 });
  });
});
