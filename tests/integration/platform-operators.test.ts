import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { boot, connect } from "./support/charger";
import { makeCharger } from "./support/factories";
import { newOperatorBody } from "../support/operators";
import { call, login, tokenFor } from "./support/http";

/**
 * The platform runs the business (docs/rules/platform.md): it provisions operators with their
 * edition, validity and domains; their admins log in at once and must change the password.
 */
let platform: string;

let counter = 0;
const code = (prefix = "0TQ") => `${prefix}${Date.now().toString(36).slice(-4).toUpperCase()}${++counter}`;

function operatorBody(overrides: Record<string, unknown> = {}) {
  return newOperatorBody((overrides.code as string) ?? code(), { eipaAccount: "eipa-user", eipaPassword: "eipa-secret", ...overrides });
}

async function provision(body = operatorBody()) {
  const res = await call("POST", "/platform-service/operator", { token: platform, body });
  if (res.status !== 200) throw new Error(`provision: ${JSON.stringify(res.body)}`);
  return { body, data: res.body.data as { id: number; code: string; admin: { id: number; username: string; initialPassword: string } } };
}

async function changePassword(operatorCode: string, username: string, initialPassword: string) {
  const first = (await login(operatorCode, username, initialPassword)).body.data.accessToken;
  const res = await call("PUT", "/user-service/person/operator/password", {
    token: first,
    body: { oldPassword: initialPassword, newPassword: "Admin12345", confirmPassword: "Admin12345" },
  });
  expect(res.status).toBe(200);
  return (await login(operatorCode, username, "Admin12345")).body.data.accessToken as string;
}

beforeAll(async () => {
  platform = await tokenFor("PLATFORM", "platform", "Platform123");
});

describe("provisioning", () => {
  it("creates 0TS001 with its admin in one step; the admin logs in, must change the password, sees its edition's menus and nothing of other operators", async () => {
    const body = operatorBody({ code: "0TS001", edition: "basic", admin: { username: "ts001admin", email: "ts@example.com", name: "TS Admin" } });
    const created = await call("POST", "/platform-service/operator", { token: platform, body });
    expect(created.status).toBe(200);
    const { data } = created.body;
    expect(data).toMatchObject({ code: "0TS001", admin: { username: "ts001admin" } });
    expect(data.admin.initialPassword).toMatch(/^[A-Za-z0-9]{12}$/);

    const detail = await call("GET", `/platform-service/operator/${data.id}`, { token: platform });
    expect(detail.body.data).toMatchObject({
      code: "0TS001",
      edition: "basic",
      timeZone: "Europe/Warsaw",
      currency: "PLN",
      currencySign: "zł",
      currencyDecimals: 2,
      defaultLanguage: "pl",
      eipaPasswordSet: true,
      validity: "valid",
      admin: { username: "ts001admin", mustChangePassword: true },
    });
    expect(JSON.stringify(detail.body.data)).not.toContain("eipa-secret");
    expect(JSON.stringify(detail.body.data)).not.toContain(data.admin.initialPassword);

    const first = await login("0TS001", "ts001admin", data.admin.initialPassword);
    expect(first.status).toBe(200);
    expect(first.body.data.user.mustChangePassword).toBe(true);
    expect((await call("GET", "/station-service/station", { token: first.body.data.accessToken })).body.msg).toBe(
      "Please change your initial password first",
    );

    const token = await changePassword("0TS001", "ts001admin", data.admin.initialPassword);
    const me = await call("GET", "/user-service/person/operator", { token });
    expect(me.body.data.menuCodeList).toEqual(expect.arrayContaining(["home", "monitoring.charging", "equipment.point", "carrier.role"]));
    for (const missing of ["finance.chargeRecord", "emsp.platform", "subOperator.account", "users.rfCard", "platform.operator"]) {
      expect(me.body.data.menuCodeList).not.toContain(missing);
    }
    expect((await call("GET", "/station-service/station?size=100", { token })).body.data.total).toBe(0);
    expect((await call("GET", "/station-service/point?size=100", { token })).body.data.total).toBe(0);
    expect((await call("GET", "/platform-service/operator", { token })).status).toBe(403);

    const role = await call("GET", "/user-service/role?size=100", { token });
    expect(role.body.data.records).toHaveLength(1);
    expect(role.body.data.records[0]).toMatchObject({ type: "SUPER", code: "ADMIN" });
    expect(role.body.data.records[0].menuCodes).not.toContain("finance");
  });

  it("is idempotent on the code: a second request changes nothing and answers 409", async () => {
    const first = await provision();
    const again = await call("POST", "/platform-service/operator", { token: platform, body: { ...first.body, name: "Another name" } });
    expect(again.status).toBe(409);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM accounts WHERE operator_id = ?").bind(first.data.id).first<{ n: number }>();
    expect(rows!.n).toBe(1);
    const named = await env.DB.prepare("SELECT name FROM operators WHERE id = ?").bind(first.data.id).first<{ name: string }>();
    expect(named!.name).toBe(first.body.name);
  });

  it("writes nothing of a request that loses the race for a code", async () => {
    const body = operatorBody();
    const [a, b] = await Promise.all([
      call("POST", "/platform-service/operator", { token: platform, body }),
      call("POST", "/platform-service/operator", { token: platform, body: { ...body, admin: { ...body.admin, username: `${body.admin.username}x` } } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const operator = await env.DB.prepare("SELECT id FROM operators WHERE code = ?").bind(body.code).first<{ id: number }>();
    for (const table of ["accounts", "roles", "parameter_settings"]) {
      const n = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE operator_id = ?`).bind(operator!.id).first<{ n: number }>();
      expect(n!.n).toBe(1);
    }
  });

  it("refuses bad input with a message per field, in the language asked for, and creates nothing", async () => {
    const body = operatorBody({ edition: "gold", validUntil: "2024-01-01", timeZone: "Mars/Base", currency: "złoty", domains: ["not a host"] });
    const res = await call("POST", "/platform-service/operator?lang=de", { token: platform, body: { ...body, admin: { username: "ab", email: "x", name: "n" } } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.fields)).toEqual(
      expect.arrayContaining(["edition", "timeZone", "currency", "domains.0", "admin.username", "admin.email", "admin.name"]),
    );
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM operators WHERE code = ?").bind(body.code).first<{ n: number }>();
    expect(none!.n).toBe(0);
    const until = await call("POST", "/platform-service/operator", { token: platform, body: operatorBody({ validFrom: "2030-01-01", validUntil: "2029-01-01" }) });
    expect(until.body.data.fields.validUntil).toBeTruthy();
  });

  it("refuses the operator API to operators and to platform accounts that are not SUPER", async () => {
    const demo = await tokenFor("0PL002", "demoadmin");
    expect((await call("GET", "/platform-service/operator", { token: demo })).status).toBe(403);
    expect((await call("POST", "/platform-service/operator", { token: demo, body: operatorBody() })).status).toBe(403);
    expect((await call("GET", "/platform-service/operator")).status).toBe(401);
  });

  it("lists operators by code, name, edition and validity", async () => {
    const a = await provision(operatorBody({ code: code("0LQ"), edition: "standard" }));
    const b = await provision(operatorBody({ code: code("0LQ"), edition: "ultimate", validUntil: "2025-06-01" }));
    const list = async (query: string) => (await call("GET", `/platform-service/operator?size=100&${query}`, { token: platform })).body.data;
    expect((await list("code=0LQ")).records.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining([a.data.code, b.data.code]));
    expect((await list("code=0LQ&edition=standard")).records.map((r: { code: string }) => r.code)).toContain(a.data.code);
    expect((await list("code=0LQ&edition=standard")).records.map((r: { code: string }) => r.code)).not.toContain(b.data.code);
    const expired = await list("code=0LQ&validity=expired");
    expect(expired.records.map((r: { code: string }) => r.code)).toEqual([b.data.code]);
    expect(expired.records[0].validity).toBe("expired");
    expect((await call("GET", "/platform-service/operator?validity=soon", { token: platform })).status).toBe(400);
    expect((await list("code=0PL")).records.map((r: { code: string }) => r.code)).not.toContain("0PL002A");
  });
});

describe("validity and disabling", () => {
  it("refuses the login of a disabled operator, ends its sessions, Rejects its chargers at boot, and keeps its data", async () => {
    const { data } = await provision(operatorBody({ edition: "ultimate" }));
    const token = await changePassword(data.code, data.admin.username, data.admin.initialPassword);
    const charger = await makeCharger(data.code);

    const disabled = await call("PUT", `/platform-service/operator/${data.id}/status`, { token: platform, body: { status: "INVALID" } });
    expect(disabled.body.data).toMatchObject({ status: "INVALID", validity: "disabled" });
    expect((await call("GET", "/user-service/person/operator", { token })).status).toBe(401);
    const refused = await login(data.code, data.admin.username, "Admin12345");
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe("This operator is disabled");

    const { charger: ws } = await connect(charger.serialNumber, { key: charger.key });
    expect((await boot(ws!)).status).toBe("Rejected");
    ws!.close();
    const kept = await env.DB.prepare("SELECT COUNT(*) AS n FROM points WHERE operator_id = ?").bind(data.id).first<{ n: number }>();
    expect(kept!.n).toBe(1);

    await call("PUT", `/platform-service/operator/${data.id}/status`, { token: platform, body: { status: "VALID" } });
    expect((await login(data.code, data.admin.username, "Admin12345")).status).toBe(200);
    const { charger: again } = await connect(charger.serialNumber, { key: charger.key });
    expect((await boot(again!)).status).toBe("Accepted");
    again!.close();
  });

  it("refuses the login of an operator past its end, or before its beginning, with its own message; its chargers are Rejected", async () => {
    const { data, body } = await provision(operatorBody({ edition: "ultimate" }));
    await changePassword(data.code, data.admin.username, data.admin.initialPassword);
    const charger = await makeCharger(data.code);
    const edit = (validFrom: string, validUntil: string) =>
      call("PUT", `/platform-service/operator/${data.id}`, { token: platform, body: { ...body, code: undefined, admin: undefined, validFrom, validUntil } });

    expect((await edit("2024-01-01", "2025-01-01")).status).toBe(200);
    const expired = await login(data.code, data.admin.username, "Admin12345");
    expect(expired.status).toBe(403);
    expect(expired.body.msg).toBe("This operator's service ended on 2025-01-01");
    const { charger: ws } = await connect(charger.serialNumber, { key: charger.key });
    expect((await boot(ws!)).status).toBe("Rejected");
    ws!.close();

    await edit("2098-01-01", "2099-01-01");
    expect((await login(data.code, data.admin.username, "Admin12345")).body.msg).toBe("This operator's service begins on 2098-01-01");
  });
});

describe("editions", () => {
  it("shows a new edition to the operator's users at their next request, and refuses roles beyond the edition", async () => {
    const { data, body } = await provision(operatorBody({ code: code("0PLE"), edition: "basic" }));
    const token = await changePassword(data.code, data.admin.username, data.admin.initialPassword);
    const menus = async () => (await call("GET", "/user-service/person/operator", { token })).body.data.menuCodeList as string[];
    expect(await menus()).not.toContain("finance.chargeRecord");

    const beyond = await call("POST", "/user-service/role", { token, body: { name: "Finance desk", code: "FIN", type: "NORMAL", menuCodes: ["finance.chargeRecord"] } });
    expect(beyond.status).toBe(400);

    // Joining OCPI as well: the roaming area is only for operators that joined (docs/rules/platform.md "Roaming").
    const upgraded = await call("PUT", `/platform-service/operator/${data.id}`, { token: platform, body: { ...body, code: undefined, admin: undefined, edition: "ultimate", joinOcpi: true } });
    expect(upgraded.body.data.edition).toBe("ultimate");
    expect(await menus()).toEqual(expect.arrayContaining(["finance.chargeRecord", "emsp.platform", "subOperator.account"]));
    const role = await call("POST", "/user-service/role", { token, body: { name: "Finance desk", code: "FIN", type: "NORMAL", menuCodes: ["finance.chargeRecord"] } });
    expect(role.status).toBe(200);
    const account = await call("POST", "/user-service/account", { token, body: { username: "financeuser", name: "Finance User", roleId: role.body.data.id } });
    const financeToken = await changePassword(data.code, "financeuser", account.body.data.initialPassword);
    expect((await call("GET", "/user-service/person/operator", { token: financeToken })).body.data.menuCodeList).toContain("finance.chargeRecord");

    await call("PUT", `/platform-service/operator/${data.id}`, { token: platform, body: { ...body, code: undefined, admin: undefined, edition: "basic" } });
    expect(await menus()).not.toContain("finance.chargeRecord");
    // The role still names the code, but the edition no longer has it: it grants nothing.
    expect((await call("GET", "/user-service/person/operator", { token: financeToken })).body.data.menuCodeList).not.toContain("finance.chargeRecord");
  });

  it("keeps the demo operators on the ultimate edition", async () => {
    const demo = await call("GET", "/platform-service/operator?code=0PL002", { token: platform });
    expect(demo.body.data.records[0]).toMatchObject({ code: "0PL002", edition: "ultimate" });
  });
});

describe("branded domains", () => {
  it("lets the admin log in through the operator's registered host only, and gives a host to one operator", async () => {
    const host = `${code("d").toLowerCase()}.charge.example`;
    const { data } = await provision(operatorBody({ domains: [host] }));
    await changePassword(data.code, data.admin.username, data.admin.initialPassword);
    const post = async (operatorCode: string, username: string, password: string) => {
      const { captchaId } = (await call("GET", "/user-service/auth/captcha")).body.data;
      const res = await SELF.fetch(`https://${host}/user-service/auth/login/operator`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ operatorCode, username, password, captchaId, captcha: "1234" }),
      });
      return res.status;
    };
    expect(await post(data.code, data.admin.username, "Admin12345")).toBe(200);
    expect(await post("0PL002", "demoadmin", "Demo12345")).toBe(400);

    const taken = await call("POST", "/platform-service/operator", { token: platform, body: operatorBody({ domains: [host] }) });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe(`The domain ${host} already belongs to another operator`);
    const detail = await call("GET", `/platform-service/operator/${data.id}`, { token: platform });
    expect(detail.body.data.domains).toEqual([host]);
  });
});
