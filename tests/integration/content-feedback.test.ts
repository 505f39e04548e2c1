import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../domain/i18n/locales/en/content.json";
import { tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";

/** Drivers' feedback: UNPROCESSED → PROCESSED with a reply (docs/rules/content.md "Feedback"). */
const ROWS = 150;
const tag = `fb${Date.now().toString(36)}`;
let admin: string;

/** Feedback as the driver app leaves it, straight into the table; answers the ids. */
async function addFeedback(code: string, rows: { creator: string; content: string; at: number }[]) {
  const { id } = (await env.DB.prepare("SELECT id FROM operators WHERE code = ?").bind(code).first<{ id: number }>())!;
  const statement = env.DB.prepare("INSERT INTO feedback (operator_id, creator, content, created_at) VALUES (?, ?, ?, ?) RETURNING id");
  const results = await env.DB.batch<{ id: number }>(rows.map((r) => statement.bind(id, r.creator, r.content, r.at)));
  return results.map((r) => r.results[0].id);
}

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  const base = Date.parse("2026-04-01T00:00:00Z");
  await addFeedback("0PL002", Array.from({ length: ROWS }, (_, i) => ({ creator: `${tag}-driver${i}`, content: `Slow charger ${i}`, at: base + i * 1000 })));
});

describe("feedback", () => {
  it("lists at page size 100 with more than 100 rows, newest first, by creator and status", async () => {
    const first = await call("GET", `/system-service/feedback?creator=${tag}&size=100&current=1`, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.data.total).toBe(ROWS);
    expect(first.body.data.records).toHaveLength(100);
    expect(first.body.data.records[0]).toMatchObject({ creator: `${tag}-driver${ROWS - 1}`, content: `Slow charger ${ROWS - 1}`, status: "UNPROCESSED", reply: null });
    expect(first.body.data.records[0].createdAt).toBe(new Date(Date.parse("2026-04-01T00:00:00Z") + (ROWS - 1) * 1000).toISOString());
    const second = await call("GET", `/system-service/feedback?creator=${tag}&size=100&current=2`, { token: admin });
    expect(second.body.data.records).toHaveLength(ROWS - 100);
    const bad = await call("GET", "/system-service/feedback?status=DONE", { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.data.fields.status).toBe(en.content.validation.feedbackStatus);
  });

  it("goes UNPROCESSED → PROCESSED with a reply, who and when, once, with a log row", async () => {
    const [id] = await addFeedback("0PL002", [{ creator: `${tag}-reply`, content: "Card not read", at: Date.now() }]);
    const empty = await call("PUT", `/system-service/feedback/${id}/reply`, { token: admin, body: { reply: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.body.data.fields.reply).toBe(en.content.validation.replyRequired);
    const done = await call("PUT", `/system-service/feedback/${id}/reply`, { token: admin, body: { reply: "Reader replaced" } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ status: "PROCESSED", reply: "Reader replaced", processedBy: "demoadmin" });
    expect(done.body.data.processedAt).not.toBeNull();
    const again = await call("PUT", `/system-service/feedback/${id}/reply`, { token: admin, body: { reply: "Again" } });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(en.content.errors.feedbackProcessed);
    expect((await call("GET", `/system-service/feedback/${id}`, { token: admin })).body.data.reply).toBe("Reader replaced");
    const processed = await call("GET", `/system-service/feedback?creator=${tag}-reply&status=PROCESSED`, { token: admin });
    expect(processed.body.data.total).toBe(1);
    const log = await call("GET", "/system-service/operation-log?tableName=feedback&size=1", { token: admin });
    expect(log.body.data.records[0]).toMatchObject({ tableName: "feedback", operationType: "UPDATE", account: "demoadmin" });
  });

  it("answers another operator's feedback with 404 on every verb, and refuses an account without the menu (403)", async () => {
    const [id] = await addFeedback("0PL002", [{ creator: `${tag}-private`, content: "Mine", at: Date.now() }]);
    const other = await tokenFor("0DE001", "deadmin1");
    expect((await call("GET", `/system-service/feedback/${id}`, { token: other })).status).toBe(404);
    expect((await call("PUT", `/system-service/feedback/${id}/reply`, { token: other, body: { reply: "x" } })).status).toBe(404);
    expect((await call("GET", `/system-service/feedback?creator=${tag}`, { token: other })).body.data.total).toBe(0);
    const without = await tokenWithMenus(admin, ["home"]);
    expect((await call("GET", "/system-service/feedback", { token: without })).status).toBe(403);
    expect((await call("PUT", `/system-service/feedback/${id}/reply`, { token: without, body: { reply: "x" } })).status).toBe(403);
    expect((await call("GET", `/system-service/feedback/${id}`, { token: admin })).body.data.status).toBe("UNPROCESSED");
  });
});
