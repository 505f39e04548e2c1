import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { makeCharger } from "./support/factories";
import { captcha, call, login, tokenFor } from "./support/http";

async function operatorId(code: string) {
  const row = await env.DB.prepare("SELECT id FROM operators WHERE code = ?").bind(code).first<{ id: number }>();
  return row!.id;
}

describe("operator domains", () => {
  it("lets an account log in through its own operator's domain only", async () => {
    const de = await operatorId("0DE001");
    await env.DB.prepare("INSERT OR IGNORE INTO operator_domains (operator_id, domain) VALUES (?, 'laden.example.de')").bind(de).run();
    const post = async (operatorCode: string, username: string) => {
      const { captchaId } = await captcha();
      const res = await SELF.fetch("https://laden.example.de/user-service/auth/login/operator", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ operatorCode, username, password: "Demo12345", captchaId, captcha: "1234" }),
      });
      return { status: res.status, body: (await res.json()) as { msg: string } };
    };
    expect((await post("0DE001", "deadmin1")).status).toBe(200);
    const foreign = await post("0PL002", "demoadmin");
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe("Wrong username or password");
  });
});

describe("sessions slide", () => {
  it("pushes the expiry out when less than half of the seven days remain", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const soon = Date.now() + 2 * 24 * 3600 * 1000;
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE account_id = (SELECT id FROM accounts WHERE username = 'demoadmin') AND expires_at > ?")
      .bind(soon, Date.now())
      .run();
    expect((await call("GET", "/user-service/person/operator", { token })).status).toBe(200);
    const row = await env.DB.prepare("SELECT MAX(expires_at) AS e FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE username = 'demoadmin')").first<{ e: number }>();
    expect(row!.e).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  it("ends an expired session with 401", async () => {
    const res = await login("0DE001", "deadmin1", "Demo12345");
    const token = res.body.data.accessToken;
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE account_id = (SELECT id FROM accounts WHERE username = 'deadmin1')").bind(Date.now() - 1).run();
    expect((await call("GET", "/user-service/person/operator", { token })).status).toBe(401);
  });
});

describe("files", () => {
  it("serves public branding to anyone and an operator's other files only to its own sessions", async () => {
    const pl = await operatorId("0PL002");
    await env.FILES.put(`operators/${pl}/public/logo.png`, new Uint8Array([137, 80, 78, 71]), { httpMetadata: { contentType: "image/png" } });
    await env.FILES.put(`operators/${pl}/private/contract.pdf`, "pdf", { httpMetadata: { contentType: "application/pdf" } });

    const logo = await SELF.fetch(`http://localhost/user-service/file/show?key=operators/${pl}/public/logo.png`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("Content-Type")).toBe("image/png");

    const key = `operators/${pl}/private/contract.pdf`;
    expect((await call("GET", `/user-service/file/show?key=${key}`)).status).toBe(404);
    const de = await tokenFor("0DE001", "deadmin1");
    expect((await call("GET", `/user-service/file/show?key=${key}`, { token: de })).status).toBe(404);
    const own = await SELF.fetch(`http://localhost/user-service/file/show?key=${key}`, {
      headers: { Authorization: `Bearer ${await tokenFor("0PL002", "demoadmin")}` },
    });
    expect(own.status).toBe(200);
  });

  it("refuses keys outside the operators' folders", async () => {
    expect((await call("GET", "/user-service/file/show?key=../secrets")).status).toBe(400);
  });
});

describe("housekeeping cron", () => {
  it("purges expired sessions and captchas", async () => {
    const { createScheduledController, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../../workers/app")).default;
    await captcha();
    await env.DB.prepare("UPDATE captcha_challenges SET expires_at = 0").run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM captcha_challenges WHERE expires_at < ?").bind(Date.now()).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  it("marks the sessions of long-silent chargers ABNORMAL, logged for their own operator with the cron as the actor", async () => {
    const { createScheduledController, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../../workers/app")).default;
    const { pointId, operatorId } = await makeCharger("0DE001");
    const longAgo = Date.now() - 7 * 60 * 60 * 1000;
    await env.DB.prepare("UPDATE points SET online = 0, online_changed_at = ? WHERE id = ?").bind(longAgo, pointId).run();
    const started = await env.DB.prepare(
      "INSERT INTO transactions (operator_id, point_id, connector_no, id_tag, auth_status, meter_start_wh, start_at) VALUES (?, ?, 1, 'DEDEMO01', 'Accepted', 0, ?) RETURNING id",
    )
      .bind(operatorId, pointId, longAgo)
      .first<{ id: number }>();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await env.DB.prepare("SELECT status, abnormal_reason FROM transactions WHERE id = ?").bind(started!.id).first()).toEqual({
      status: "ABNORMAL",
      abnormal_reason: "silent",
    });
    const logged = await env.DB.prepare("SELECT operator_id, account, new_data FROM operation_logs WHERE account LIKE 'system: cron%' AND new_data LIKE ?")
      .bind(`%${started!.id}%`)
      .first<{ operator_id: number; account: string; new_data: string }>();
    expect(logged).toMatchObject({ operator_id: operatorId, account: "system: cron */15 * * * *" });
    expect(JSON.parse(logged!.new_data)).toMatchObject({ status: "ABNORMAL", reason: "silent" });
  });
});
