import { describe, expect, it } from "vitest";
import { makeAccount, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";

describe("roles", () => {
  it("creates, lists with filters and paging, reads, updates and deletes a role", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const created = await call("POST", "/user-service/role", {
      token,
      body: { name: "Field crew", code: "FIELD_CREW", type: "MAINTAINER", menuCodes: ["operation", "home"] },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.id;

    const list = await call("GET", "/user-service/role?current=1&size=10&name=Field", { token });
    expect(list.body.data).toMatchObject({ current: 1, size: 10 });
    expect(list.body.data.records.map((r: { id: number }) => r.id)).toContain(id);

    const updated = await call("PUT", `/user-service/role/${id}`, {
      token,
      body: { name: "Field crew B", code: "FIELD_CREW", type: "MAINTAINER", menuCodes: ["operation.maintain"] },
    });
    expect(updated.body.data.menuCodes).toEqual(["operation.maintain"]);
    expect((await call("GET", `/user-service/role/${id}`, { token })).body.data.name).toBe("Field crew B");

    expect((await call("DELETE", `/user-service/role/${id}`, { token })).status).toBe(200);
    expect((await call("GET", `/user-service/role/${id}`, { token })).status).toBe(404);
  });

  it("refuses a role name shorter than 5 characters, unknown types and unknown menu codes", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const short = await call("POST", "/user-service/role", { token, body: { name: "Ops", code: "OPS", type: "NORMAL", menuCodes: [] } });
    expect(short.status).toBe(400);
    expect(short.body.data.fields.name).toBe("Length must be 5 to 20 characters");

    const badType = await call("POST", "/user-service/role", { token, body: { name: "Operators", code: "OPS2", type: "BOSS", menuCodes: [] } });
    expect(badType.body.data.fields.type).toBe("Please choose a role type");

    const badMenu = await call("POST", "/user-service/role", {
      token,
      body: { name: "Operators", code: "OPS3", type: "NORMAL", menuCodes: ["no.such.menu"] },
    });
    expect(badMenu.status).toBe(400);
    expect(badMenu.body.msg).toBe("Unknown menu entries: no.such.menu");
  });

  it("answers validation messages in the language asked for", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const body = { name: "Ops", code: "OPS", type: "NORMAL", menuCodes: [] };
    const pl = await call("POST", "/user-service/role?lang=pl", { token, body });
    const de = await call("POST", "/user-service/role", { token, body, headers: { Cookie: "lang=de" } });
    const en = await call("POST", "/user-service/role", { token, body });
    expect(en.body.data.fields.name).toBe("Length must be 5 to 20 characters");
    expect(pl.body.data.fields.name).not.toBe(en.body.data.fields.name);
    expect(de.body.data.fields.name).not.toBe(en.body.data.fields.name);
    expect(de.body.data.fields.name).not.toBe(pl.body.data.fields.name);
  });

  it("never lets a second operator read or change the first one's roles (404)", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const role = await makeRole(pl);
    expect((await call("GET", `/user-service/role/${role.id}`, { token: de })).status).toBe(404);
    const put = await call("PUT", `/user-service/role/${role.id}`, {
      token: de,
      body: { name: "Hijacked role", code: "HIJACK", type: "SUPER", menuCodes: [] },
    });
    expect(put.status).toBe(404);
    expect((await call("DELETE", `/user-service/role/${role.id}`, { token: de })).status).toBe(404);
    const list = await call("GET", "/user-service/role?size=100", { token: de });
    expect(list.body.data.records.map((r: { id: number }) => r.id)).not.toContain(role.id);
    expect((await call("GET", `/user-service/role/${role.id}`, { token: pl })).body.data.name).toBe(role.name);
  });

  it("refuses the role API to an account whose role lacks the role menu (403 'Access denied')", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["home", "monitoring"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = (await login("0PL002", account.username, account.password)).body.data.accessToken;
    const res = await call("GET", "/user-service/role", { token });
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe("Access denied");
    expect((await call("POST", "/user-service/role", { token, body: { name: "Sneaky role", code: "SNEAK", type: "SUPER" } })).status).toBe(403);
    expect((await call("GET", "/user-service/account", { token })).status).toBe(403);
  });

  it("does not delete a role that accounts still use", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    await makeAccount("0PL002", admin, role.id, { changePassword: false });
    const res = await call("DELETE", `/user-service/role/${role.id}`, { token: admin });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe("This role is given to 1 account and cannot be deleted");
  });
});

describe("accounts", () => {
  it("creates an account with an initial password shown once, edits and disables it", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const created = await call("POST", "/user-service/account", {
      token: admin,
      body: { username: "cashier01", name: "Anna Kowalska", email: "anna@example.com", phone: "+48 600 100 200", roleId: role.id },
    });
    expect(created.status).toBe(200);
    expect(created.body.data.initialPassword).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(created.body.data.mustChangePassword).toBe(true);
    const id = created.body.data.id;

    const read = await call("GET", `/user-service/account/${id}`, { token: admin });
    expect(read.body.data).not.toHaveProperty("initialPassword");
    expect(read.body.data).not.toHaveProperty("passwordHash");
    expect(read.body.data.roleName).toBe(role.name);

    const edited = await call("PUT", `/user-service/account/${id}`, {
      token: admin,
      body: { name: "Anna Nowak-Kowalska", email: "anna@example.com", roleId: role.id },
    });
    expect(edited.body.data.name).toBe("Anna Nowak-Kowalska");

    const duplicate = await call("POST", "/user-service/account", {
      token: admin,
      body: { username: "cashier01", name: "Someone else", roleId: role.id },
    });
    expect(duplicate.status).toBe(409);

    const userToken = (await login("0PL002", "cashier01", created.body.data.initialPassword)).body.data.accessToken;
    const disabled = await call("PUT", `/user-service/account/${id}/enable`, { token: admin, body: { status: "INVALID" } });
    expect(disabled.body.data.status).toBe("INVALID");
    expect((await call("GET", "/user-service/person/operator", { token: userToken })).status).toBe(401);
    const refused = await login("0PL002", "cashier01", created.body.data.initialPassword);
    expect(refused.body.msg).toBe("This account is disabled");
  });

  it("keeps one account per e-mail address within an operator, compared case-insensitively", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const role = await makeRole(pl);
    const first = await makeAccount("0PL002", pl, role.id, { changePassword: false });
    const second = await makeAccount("0PL002", pl, role.id, { changePassword: false });
    const email = `${first.username}@example.com`;
    const created = await call("POST", "/user-service/account", { token: pl, body: { username: `x${first.username}`, name: "Same Email", email: email.toUpperCase(), roleId: role.id } });
    expect(created.status).toBe(400);
    expect(created.body.data.fields).toEqual({ email: "Another account already has this email address" });
    const edited = await call("PUT", `/user-service/account/${second.id}?lang=pl`, { token: pl, body: { name: "Second Name", email: ` ${email.toUpperCase()} `, roleId: role.id } });
    expect(edited.status).toBe(400);
    expect(edited.body.data.fields.email).toBe("Inne konto ma już ten adres e-mail");
    // Keeping one's own address is no duplicate.
    expect((await call("PUT", `/user-service/account/${first.id}`, { token: pl, body: { name: "First Name", email: email.toUpperCase(), roleId: role.id } })).status).toBe(200);
    // Another operator may have an account with the same address.
    const deRole = await makeRole(de);
    expect((await call("POST", "/user-service/account", { token: de, body: { username: `x${first.username}`, name: "Same Email", email, roleId: deRole.id } })).status).toBe(200);
  });

  it("refuses an unknown status instead of reading it as a default", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const account = await makeAccount("0PL002", admin, role.id, { changePassword: false });
    const res = await call("PUT", `/user-service/account/${account.id}/enable`, { token: admin, body: { status: "MAYBE" } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields.status).toBe("Unknown status");
  });

  it("refuses short names, bad emails and another operator's role", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const deRole = await makeRole(de);
    const res = await call("POST", "/user-service/account", {
      token: pl,
      body: { username: "abc", name: "Zed", email: "not-an-email", roleId: deRole.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toMatchObject({
      username: "Length must be 5 to 20 characters",
      name: "Length must be 5 to 20 characters",
      email: "Please enter a valid email address",
    });
    const foreignRole = await call("POST", "/user-service/account", {
      token: pl,
      body: { username: "validname1", name: "Valid Name", roleId: deRole.id },
    });
    expect(foreignRole.status).toBe(400);
    expect(foreignRole.body.data.fields.roleId).toBe("Please choose a role");
  });

  it("never shows or changes another operator's accounts (404)", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const role = await makeRole(pl);
    const account = await makeAccount("0PL002", pl, role.id, { changePassword: false });
    expect((await call("GET", `/user-service/account/${account.id}`, { token: de })).status).toBe(404);
    expect((await call("PUT", `/user-service/account/${account.id}/enable`, { token: de, body: { status: "INVALID" } })).status).toBe(404);
    const list = await call("GET", "/user-service/account?size=100", { token: de });
    expect(list.body.data.records.map((a: { id: number }) => a.id)).not.toContain(account.id);
  });
});
