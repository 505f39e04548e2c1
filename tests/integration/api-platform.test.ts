import { describe, expect, it } from "vitest";
import { call, tokenFor } from "./support/http";

describe("API platform", () => {
  it("wraps success as { code: 200, msg, data } in English without lang or cookie", async () => {
    const res = await call("GET", "/user-service/operator/login/info/0PL002");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 200,
      msg: "Operation successful",
      data: expect.objectContaining({ operatorCode: "0PL002", name: "Plugdesk Polska", defaultLanguage: "en" }),
    });
  });

  it("answers errors with the catalogue status, code and a translated message", async () => {
    const en = await call("GET", "/user-service/operator/login/info/NOPE");
    expect(en.status).toBe(404);
    expect(en.body).toMatchObject({ code: 404, msg: "No operator has this code" });
    const zh = await call("GET", "/user-service/operator/login/info/NOPE?lang=zh");
    expect(zh.body.msg).not.toBe(en.body.msg);
    const ptBr = await call("GET", "/user-service/operator/login/info/NOPE?lang=pt-BR");
    const ptBr2 = await call("GET", "/user-service/operator/login/info/NOPE?lang=pt_BR");
    expect(ptBr.body.msg).toBe(ptBr2.body.msg);
    expect(ptBr.body.msg).not.toBe(en.body.msg);
  });

  it("answers 404 in the envelope for an unknown API path", async () => {
    const res = await call("GET", "/user-service/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
  });

  it("ignores unknown query parameters and a cache-buster v", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("GET", `/user-service/role?v=${Date.now()}&whatever=1`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.size).toBe(10);
  });

  it("refuses page sizes above 100", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    expect((await call("GET", "/user-service/role?size=500", { token })).status).toBe(400);
  });

  it("writes an operation-log row for a mutation", async () => {
    const { env } = await import("cloudflare:test");
    const token = await tokenFor("0PL002", "demoadmin");
    await call("POST", "/user-service/role", { token, body: { name: "Audited role", code: "AUDITED", type: "NORMAL", menuCodes: [] } });
    const row = await env.DB.prepare(
      "SELECT table_name, operation_type, account, request_body FROM operation_logs WHERE table_name = 'roles' ORDER BY id DESC LIMIT 1",
    ).first<{ table_name: string; operation_type: string; account: string; request_body: string }>();
    expect(row).toMatchObject({ table_name: "roles", operation_type: "CREATE", account: "demoadmin" });
    expect(row?.request_body).toContain("Audited role");
  });

  it("keeps passwords out of the operation log", async () => {
    const { env } = await import("cloudflare:test");
    const rows = await env.DB.prepare("SELECT request_body FROM operation_logs WHERE request_body LIKE '%Demo12345%'").all();
    expect(rows.results).toHaveLength(0);
  });

  it("refuses cookie-authenticated changes from another origin", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", "/user-service/role", {
      body: { name: "Cross site role", code: "XSITE", type: "NORMAL", menuCodes: [] },
      headers: { Cookie: `plugdesk_session=${token}`, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    const same = await call("POST", "/user-service/role", {
      body: { name: "Same site role", code: "SAMESITE", type: "NORMAL", menuCodes: [] },
      headers: { Cookie: `plugdesk_session=${token}`, Origin: "http://localhost" },
    });
    expect(same.status).toBe(200);
  });

  it("describes the API in /openapi.json, generated from the schemas", async () => {
    const { SELF } = await import("cloudflare:test");
    const doc = (await (await SELF.fetch("http://localhost/openapi.json")).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/user-service/auth/login/operator"].post.requestBody).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/user-service/role/{id}", "/user-service/account/{id}/enable"]));
  });
});
