import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import en from "../../domain/i18n/locales/en/content.json";
import { makeAccount, makeRole, tokenWithMenus } from "./support/factories";
import { call, tokenFor } from "./support/http";

/** The operation log made visible (docs/rules/content.md "Operation log"). */
const V = en.content.validation;
const ROWS = 150;
const tag = `oplog${Date.now().toString(36)}`;
let admin: string;

const operatorId = async (code: string) => (await env.DB.prepare("SELECT id FROM operators WHERE code = ?").bind(code).first<{ id: number }>())!.id;

/** Log rows as `auditRow` writes them, straight into the table. */
async function insertLogs(code: string, rows: { module: string; table: string; type: string; account: string; at: number; oldData?: string }[]) {
  const id = await operatorId(code);
  const statement = env.DB.prepare(
    "INSERT INTO operation_logs (operator_id, operator_code, table_name, module, operation_type, account, old_data, url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  await env.DB.batch(rows.map((r) => statement.bind(id, code, r.table, r.module, r.type, r.account, r.oldData ?? null, `PUT /test/${r.module}`, r.at)));
}

beforeAll(async () => {
  admin = await tokenFor("0PL002", "demoadmin");
  const base = Date.parse("2026-03-01T00:00:00Z");
  await insertLogs(
    "0PL002",
    Array.from({ length: ROWS }, (_, i) => ({
      module: `${tag}-paging`,
      table: i % 3 === 0 ? "stations" : "points",
      type: i % 2 === 0 ? "UPDATE" : "CREATE",
      account: i < 10 ? `${tag}-alice` : `${tag}-bob`,
      at: base + i * 60_000,
    })),
  );
});

const list = (query: string, token = admin) => call("GET", `/system-service/operation-log?${query}`, { token });

describe("the operation log list", () => {
  it("pages at size 100 with more than 100 rows, newest first", async () => {
    const first = await list(`module=${tag}-paging&size=100&current=1`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ total: ROWS, size: 100, current: 1 });
    expect(first.body.data.records).toHaveLength(100);
    const record = first.body.data.records[0];
    expect(Object.keys(record)).toEqual(expect.arrayContaining(["id", "tableName", "operationType", "account", "url", "createdAt", "module"]));
    expect(record.createdAt).toBe(new Date(Date.parse("2026-03-01T00:00:00Z") + (ROWS - 1) * 60_000).toISOString());
    const second = await list(`module=${tag}-paging&size=100&current=2`);
    expect(second.body.data.records).toHaveLength(ROWS - 100);
    const ids = new Set([...first.body.data.records, ...second.body.data.records].map((r: { id: number }) => r.id));
    expect(ids.size).toBe(ROWS);
  });

  it("filters by module, account, table, operation type and time", async () => {
    const m = `module=${tag}-paging`;
    expect((await list(`${m}&account=${tag}-alice`)).body.data.total).toBe(10);
    expect((await list(`${m}&tableName=stations`)).body.data.total).toBe(50);
    expect((await list(`${m}&operationType=UPDATE`)).body.data.total).toBe(75);
    expect((await list(`${m}&tableName=stations&operationType=UPDATE`)).body.data.total).toBe(25);
    const window = await list(`${m}&from=2026-03-01T00:10:00Z&to=2026-03-01T00:19:00Z`);
    expect(window.body.data.total).toBe(10);
    expect((await list("module=nothing-like-this")).body.data.total).toBe(0);
  });

  it("refuses an unknown operation type and a reversed time range with a message", async () => {
    const type = await list("operationType=PATCH");
    expect(type.status).toBe(400);
    expect(type.body.data.fields.operationType).toBe(V.operationType);
    const range = await list("from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z");
    expect(range.status).toBe(400);
    expect(range.body.data.fields.to).toBe(V.timeRange);
    expect((await list("size=101")).status).toBe(400);
  });

  it("shows a real change with its account, table and URL", async () => {
    const role = await makeRole(admin, { name: `Log role ${tag}`.slice(0, 20) });
    const res = await list(`module=role&tableName=roles&operationType=CREATE`);
    const row = res.body.data.records.find((r: { url: string }) => r.url.includes("/user-service/role"));
    expect(row).toMatchObject({ account: "demoadmin", tableName: "roles", operationType: "CREATE" });
    const detail = await call("GET", `/system-service/operation-log/${row.id}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body.data.newData ?? detail.body.data.requestBody)).toContain(role.code);
  });
});

describe("one operation-log row", () => {
  it("keeps passwords redacted in the request body of a password change", async () => {
    const role = await makeRole(admin, { menuCodes: ["home"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const res = await list(`module=person&account=${account.username}`);
    expect(res.body.data.total).toBe(1);
    const detail = await call("GET", `/system-service/operation-log/${res.body.data.records[0].id}`, { token: admin });
    expect(detail.body.data.requestBody).toEqual({ oldPassword: "***", newPassword: "***", confirmPassword: "***" });
    const text = JSON.stringify(detail.body.data);
    expect(text).not.toContain(account.password);
    expect(text).not.toContain(account.initialPassword);
  });

  it("redacts secrets again when it reads a row written without redaction", async () => {
    await insertLogs("0PL002", [
      { module: `${tag}-raw`, table: "mail_settings", type: "UPDATE", account: "someone", at: Date.now(), oldData: JSON.stringify({ host: "smtp", password: "plain-secret", nested: { accessToken: "t0k" } }) },
    ]);
    const { id } = (await list(`module=${tag}-raw`)).body.data.records[0];
    const detail = await call("GET", `/system-service/operation-log/${id}`, { token: admin });
    expect(detail.body.data.oldData).toEqual({ host: "smtp", password: "***", nested: { accessToken: "***" } });
  });

  it("answers another operator's log id with 404, and a bad id with 400", async () => {
    const { id } = (await list(`module=${tag}-paging&size=1`)).body.data.records[0];
    const other = await tokenFor("0DE001", "deadmin1");
    const res = await call("GET", `/system-service/operation-log/${id}`, { token: other });
    expect(res.status).toBe(404);
    expect((await call("GET", `/system-service/operation-log?module=${tag}-paging`, { token: other })).body.data.total).toBe(0);
    expect((await call("GET", "/system-service/operation-log/0x1", { token: admin })).status).toBe(400);
  });

  it("refuses the log to an account without its menu (403), and lets the menu alone read it", async () => {
    const { id } = (await list(`module=${tag}-paging&size=1`)).body.data.records[0];
    const without = await tokenWithMenus(admin, ["home"]);
    expect((await list("", without)).status).toBe(403);
    expect((await call("GET", `/system-service/operation-log/${id}`, { token: without })).status).toBe(403);
    const withMenu = await tokenWithMenus(admin, ["carrier.operationLog"]);
    expect((await call("GET", `/system-service/operation-log/${id}`, { token: withMenu })).status).toBe(200);
  });
});
