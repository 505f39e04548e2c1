import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { publicCtxOf } from "../../workers/services/context";
import { PER_CLIENT, PER_SUBJECT, sendPublicFeedback } from "../../workers/services/content/public-feedback";
import { makeCharger } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";
import { addSessions } from "./support/sessions";

/**
 * Drivers' feedback from public pages (docs/rules/content.md "Feedback"): POST
 * /public-service/feedback about a charger or a receipt, no login, no captcha, bounded; it lands in
 * the operator's feedback list.
 */
const send = (body: unknown, lang = "en") => call("POST", `/public-service/feedback?lang=${lang}`, { body });

async function feedbackOf(operatorCode: string, creator: string) {
  const token = await tokenFor(operatorCode, operatorCode === "0PL002" ? "demoadmin" : "deadmin1");
  const list = await call("GET", `/system-service/feedback?creator=${encodeURIComponent(creator)}&size=100`, { token });
  expect(list.status).toBe(200);
  return list.body.data.records as { id: number; content: string; creator: string; customerId: number | null; status: string }[];
}

describe("POST /public-service/feedback", () => {
  it("takes feedback about a charger by its serial number and about a session by its receipt token, into the operator's list", async () => {
    const made = await makeCharger("0PL002");
    const contact = `driver-${Date.now()}@example.com`;
    const aboutCharger = await send({ serialNumber: made.serialNumber, content: "  Connector 2 is broken  ", contact });
    expect(aboutCharger.status).toBe(200);
    expect(aboutCharger.body.data).toEqual({ id: expect.any(Number) });

    const [id] = await addSessions(made, [{ start: "2025-06-02T10:00:00Z", stop: "2025-06-02T10:30:00Z", meterStart: 0, meterStop: 5_000, bill: true }]);
    const { receipt_token: receiptToken } = (await env.DB.prepare("SELECT receipt_token FROM charge_records WHERE transaction_id = ?").bind(id).first<{ receipt_token: string }>())!;
    expect((await send({ receiptToken, content: "Charged twice?", contact })).status).toBe(200);

    const listed = await feedbackOf("0PL002", contact);
    expect(listed.map((f) => f.content).sort()).toEqual(["Charged twice?", "Connector 2 is broken"]);
    expect(listed.every((f) => f.status === "UNPROCESSED" && f.creator === contact)).toBe(true);
    const row = await env.DB.prepare("SELECT point_id, transaction_id, contact FROM feedback WHERE content = 'Charged twice?' AND contact = ?").bind(contact).first();
    expect(row).toEqual({ point_id: made.pointId, transaction_id: id, contact });
    // Another operator sees none of it.
    expect(await feedbackOf("0DE001", contact)).toEqual([]);
  });

  it("refuses a missing or malformed body with 400 and its message, and an unknown charger or receipt with 404", async () => {
    const made = await makeCharger("0PL002");
    const missing = await call("POST", "/public-service/feedback");
    expect(missing.status).toBe(400);
    for (const body of [
      { content: "about nothing" },
      { serialNumber: made.serialNumber, receiptToken: "abc", content: "about two things" },
      { serialNumber: made.serialNumber, content: "   " },
      { serialNumber: made.serialNumber, content: "x".repeat(1001) },
      { serialNumber: made.serialNumber, content: "ok", contact: "y".repeat(101) },
      { serialNumber: made.serialNumber, content: "ok", rating: 5 },
    ]) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const polish = await send({ serialNumber: made.serialNumber, content: "" }, "pl");
    expect(polish.body.msg).toContain("Napisz swoją opinię");
    expect((await send({ serialNumber: "NO-SUCH-CHARGER", content: "hello" })).status).toBe(404);
    expect((await send({ receiptToken: "0".repeat(32), content: "hello" })).status).toBe(404);
  });

  it(`takes at most ${PER_SUBJECT} an hour about one charger, then 429; another charger is not held back`, async () => {
    const [busy, quiet] = [await makeCharger("0PL002"), await makeCharger("0PL002")];
    for (let i = 0; i < PER_SUBJECT; i++) expect((await send({ serialNumber: busy.serialNumber, content: `message ${i}` })).status).toBe(200);
    const over = await send({ serialNumber: busy.serialNumber, content: "one more" });
    expect(over.status).toBe(429);
    expect(over.body.msg).toBe("Too much feedback was sent just now. Please try again in 60 min.");
    expect((await send({ serialNumber: quiet.serialNumber, content: "hello" })).status).toBe(200);
  });

  it(`takes at most ${PER_CLIENT} a minute from one client where the edge vouches for its address`, async () => {
    const behindCloudflare = { ...env, BEHIND_CLOUDFLARE: "true" } as Env;
    const from = (address: string) => publicCtxOf(new Request(`${ORIGIN}/public-service/feedback`, { method: "POST", headers: { "CF-Connecting-IP": address } }), behindCloudflare);
    const chargers = [];
    for (let i = 0; i <= PER_CLIENT; i++) chargers.push(await makeCharger("0PL002"));
    const address = `198.51.100.${Date.now() % 250}`;
    for (let i = 0; i < PER_CLIENT; i++) await sendPublicFeedback(from(address), { serialNumber: chargers[i].serialNumber, content: `from one client ${i}` });
    await expect(sendPublicFeedback(from(address), { serialNumber: chargers[PER_CLIENT].serialNumber, content: "one too many" })).rejects.toMatchObject({ status: 429 });
    await sendPublicFeedback(from("203.0.113.77"), { serialNumber: chargers[PER_CLIENT].serialNumber, content: "another client" });
  });
});
