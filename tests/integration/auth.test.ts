import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { captchaChallenges } from "../../db/schema";
import { createDb } from "../../db/client";
import { eq } from "drizzle-orm";
import { login as loginVerb } from "../../workers/services/auth/login";
import { storeCaptcha } from "../../workers/services/auth/captcha";
import { publicCtxOf } from "../../workers/services/context";
import { makeAccount, makeRole } from "./support/factories";
import { call, captcha, freshClient, login, testCtx, tokenFor } from "./support/http";

describe("login", () => {
  it("logs the demo operator admin in and answers the user info the console keeps", async () => {
    const res = await login("0PL002", "demoadmin", "Demo12345");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    const { accessToken, expiresAt, user } = res.body.data;
    expect(accessToken).toMatch(/^[a-z2-7]{32}$/);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(user).toMatchObject({ account: "demoadmin", timeZone: "Europe/Warsaw", type: "SUPER", sub: 0, operatorCode: "0PL002" });
    expect(user.menuCodeList).toContain("carrier.role");
    expect(user.menuCodeAllList).toContain("subOperator.account");
  });

  it("logs the platform's SUPER account in at PLATFORM", async () => {
    const res = await login("PLATFORM", "platform", "Platform123");
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ account: "platform", type: "SUPER", operatorCode: "PLATFORM", sub: 0 });
  });

  it("marks a sub-operator account with sub = 1 and its reduced menu", async () => {
    const res = await login("0PL002A", "subadmin1", "Demo12345");
    expect(res.status).toBe(200);
    expect(res.body.data.user.sub).toBe(1);
    expect(res.body.data.user.menuCodeList).toContain("sub.equipment.station");
    // Its own financial statements, over its devices (docs/rules/statements.md "Sub-operators").
    expect(res.body.data.user.menuCodeList).toContain("sub.finance.financialStatements");
    expect(res.body.data.user.menuCodeList).not.toContain("carrier.role");
  });

  it("refuses an account through another operator's code with the one credentials message", async () => {
    const res = await login("0DE001", "demoadmin", "Demo12345");
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("Wrong username or password");
  });

  it("gives the same message for a wrong password and an unknown username", async () => {
    const wrongPassword = await login("0PL002", "demoadmin", "Wrong12345");
    const unknownUser = await login("0PL002", "nobody-here", "Demo12345");
    expect(wrongPassword.status).toBe(400);
    expect(unknownUser.body.msg).toBe(wrongPassword.body.msg);
  });

  it("signs in with the account's e-mail address in any case, and an unknown e-mail answers like an unknown username", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const account = await makeAccount("0PL002", admin, role.id);
    const byEmail = await login("0PL002", `${account.username}@example.com`.toUpperCase(), account.password);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.user.account).toBe(account.username);
    const wrongPassword = await login("0PL002", `${account.username}@example.com`, "Wrong12345");
    const unknownEmail = await login("0PL002", "nobody-here@example.com", "Demo12345");
    expect(unknownEmail.status).toBe(400);
    expect(unknownEmail.body.msg).toBe(wrongPassword.body.msg);
    // An e-mail is looked up within the operator only.
    expect((await login("0DE001", `${account.username}@example.com`, account.password)).body.msg).toBe(wrongPassword.body.msg);
  });
  it("prefers the account whose username is the identifier over another account with that e-mail", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const other = await makeAccount("0PL002", admin, role.id);
    const identifier = `${other.username}@x.io`;
    const owner = await call("POST", "/user-service/account", { token: admin, body: { username: identifier, name: "Owner Name", roleId: role.id } });
    expect(owner.status).toBe(200);
    const edited = await call("PUT", `/user-service/account/${other.id}`, { token: admin, body: { name: "Other Name", email: identifier.toUpperCase(), roleId: role.id } });
    expect(edited.status).toBe(200);
    const asOwner = await login("0PL002", identifier, owner.body.data.initialPassword);
    expect(asOwner.status).toBe(200);
    expect(asOwner.body.data.user.account).toBe(identifier);
    expect((await login("0PL002", identifier, other.password)).status).toBe(400);
  });
  it("says 'Verification code error' for a wrong captcha", async () => {
    const res = await login("0PL002", "demoadmin", "Demo12345", { captcha: "9999" });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("Verification code error");
  });

  it("refuses a captcha used twice", async () => {
    const { captchaId } = await captcha();
    const body = { operatorCode: "0PL002", username: "demoadmin", password: "Demo12345", captchaId, captcha: "1234" };
    expect((await call("POST", "/user-service/auth/login/operator", { body })).status).toBe(200);
    const again = await call("POST", "/user-service/auth/login/operator", { body });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe("Verification code error");
  });

  it("refuses an expired captcha", async () => {
    const { captchaId } = await captcha();
    await createDb(env.DB).update(captchaChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(captchaChallenges.id, captchaId));
    const res = await call("POST", "/user-service/auth/login/operator", {
      body: { operatorCode: "0PL002", username: "demoadmin", password: "Demo12345", captchaId, captcha: "1234" },
    });
    expect(res.body.msg).toBe("Verification code error");
  });

  it("draws the captcha as paths, never as text", async () => {
    const { image } = await captcha();
    expect(image).toMatch(/^<svg/);
    expect(image).toContain("<path");
    expect(image).not.toContain("<text");
  });

  it("refuses the development captcha 1234 where DEV_CAPTCHA is not configured, and accepts the real answer", async () => {
    const deployed = testCtx({ env: { ...env, DEV_CAPTCHA: undefined } as unknown as Env });
    const devId = await storeCaptcha(deployed, "K7MX");
    await expect(
      loginVerb(deployed, { operatorCode: "0PL002", username: "demoadmin", password: "Demo12345", captchaId: devId, captcha: "1234" }),
    ).rejects.toMatchObject({ key: "errors.captcha" });
    const realId = await storeCaptcha(deployed, "K7MX");
    const ok = await loginVerb(deployed, {
      operatorCode: "0PL002",
      username: "demoadmin",
      password: "Demo12345",
      captchaId: realId,
      captcha: "k7mx",
    });
    expect(ok.user.account).toBe("demoadmin");
  });

  it("answers validation messages for missing fields", async () => {
    const res = await call("POST", "/user-service/auth/login/operator", { body: { operatorCode: "0PL002" } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields.username).toBe("Please enter your username or email");
    expect(res.body.data.fields.password).toBe("Please enter your password");
  });

  it("locks an account after ten failures, and a success resets the count; a forged client address does not escape the lock", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const account = await makeAccount("0PL002", admin, role.id);
    const client = freshClient();

    for (let i = 0; i < 9; i++) expect((await login("0PL002", account.username, "Wrong999", { client })).status).toBe(400);
    expect((await login("0PL002", account.username, account.password, { client })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await login("0PL002", account.username, "Wrong999", { client })).status).toBe(400);

    const locked = await login("0PL002", account.username, account.password, { client });
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toBe("Too many failed sign-in attempts. Try again in 15 minutes.");
    // Not behind Cloudflare, CF-Connecting-IP is whatever the client says: it counts for nothing.
    const forged = await login("0PL002", account.username, account.password, { client: freshClient() });
    expect(forged.status).toBe(429);
  });

  it("counts failures by e-mail and by username against the same account, whatever the case", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const account = await makeAccount("0PL002", admin, role.id);
    const client = freshClient();
    const email = `${account.username}@example.com`;
    for (let i = 0; i < 5; i++) expect((await login("0PL002", email.toUpperCase(), "Wrong999", { client })).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await login("0PL002", account.username, "Wrong999", { client })).status).toBe(400);
    expect((await login("0PL002", email, account.password, { client })).status).toBe(429);
    expect((await login("0PL002", account.username, account.password, { client })).status).toBe(429);
    // An unknown identifier locks the same way, whatever its case.
    for (let i = 0; i < 10; i++) expect((await login("0PL002", i % 2 ? "ghost@example.com" : "GHOST@example.com", "Wrong999", { client })).status).toBe(400);
    expect((await login("0PL002", "Ghost@Example.com", "Wrong999", { client })).status).toBe(429);
  });
  it("behind Cloudflare, keys the lockout on the account and the client address Cloudflare vouches for", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin);
    const account = await makeAccount("0PL002", admin, role.id);
    const behindCloudflare = { ...env, BEHIND_CLOUDFLARE: "true" };
    const attempt = async (password: string, ip: string) => {
      const request = new Request("https://console.example/user-service/auth/login/operator", { method: "POST", headers: { "CF-Connecting-IP": ip } });
      const ctx = publicCtxOf(request, behindCloudflare);
      const captchaId = await storeCaptcha(ctx, "ABCD");
      return loginVerb(ctx, { operatorCode: "0PL002", username: account.username, password, captchaId, captcha: "ABCD" }).then(
        () => 200,
        (error: { status: number }) => error.status,
      );
    };
    for (let i = 0; i < 10; i++) expect(await attempt("Wrong999", "198.51.100.7")).toBe(400);
    expect(await attempt(account.password, "198.51.100.7")).toBe(429);
    expect(await attempt(account.password, "198.51.100.8")).toBe(200);
  });
});

describe("sessions", () => {
  it("reads the current admin with the Bearer token, refreshes it, and logs out", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const me = await call("GET", "/user-service/person/operator", { token });
    expect(me.body.data).toMatchObject({ account: "deadmin1", operatorCode: "0DE001", timeZone: "Europe/Berlin" });

    const refreshed = await call("GET", "/user-service/auth/token/refresh", { token });
    expect(refreshed.status).toBe(200);
    const next = refreshed.body.data.accessToken;
    expect(next).not.toBe(token);
    expect((await call("GET", "/user-service/person/operator", { token })).status).toBe(401);
    expect((await call("GET", "/user-service/person/operator", { token: next })).status).toBe(200);

    expect((await call("DELETE", `/user-service/auth/token/${next}`)).status).toBe(200);
    const logRow = await env.DB.prepare(
      "SELECT operation_type FROM operation_logs WHERE account = 'deadmin1' ORDER BY id DESC LIMIT 1",
    ).first<{ operation_type: string }>();
    expect(logRow?.operation_type).toBe("LOGOUT");
    const after = await call("GET", "/user-service/person/operator", { token: next });
    expect(after.status).toBe(401);
    expect(after.body.msg).toBe("No authorization, please sign in");
  });

  it("answers 401 without a token", async () => {
    const res = await call("GET", "/user-service/person/operator/info");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
  });

  it("answers the operator's info, currency and area codes", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    expect((await call("GET", "/user-service/person/operator/info", { token })).body.data).toMatchObject({
      operatorCode: "0PL002",
      name: "Plugdesk Polska",
    });
    expect((await call("GET", "/user-service/person/operator/support/currency", { token })).body.data).toEqual([
      { code: "PLN", sign: "zł", decimals: 2 },
    ]);
    expect((await call("GET", "/user-service/person/operator/area-code", { token })).body.data).toEqual(["48"]);
  });
});

describe("forced password change", () => {
  it("makes a new account change its initial password, then log in again", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["carrier.role"] });
    const account = await makeAccount("0PL002", admin, role.id, { changePassword: false });

    const first = await login("0PL002", account.username, account.initialPassword);
    expect(first.status).toBe(200);
    expect(first.body.data.user.mustChangePassword).toBe(true);
    const token = first.body.data.accessToken;

    const blocked = await call("GET", "/user-service/role", { token });
    expect(blocked.status).toBe(403);
    expect(blocked.body.msg).toBe("Please change your initial password first");

    const mismatch = await call("PUT", "/user-service/person/operator/password", {
      token,
      body: { oldPassword: account.initialPassword, newPassword: "Fresh12345", confirmPassword: "Fresh99999" },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.data.fields.confirmPassword).toBe("The two passwords do not agree");

    const badRule = await call("PUT", "/user-service/person/operator/password", {
      token,
      body: { oldPassword: account.initialPassword, newPassword: "abc", confirmPassword: "abc" },
    });
    expect(badRule.body.data.fields.newPassword).toBe("Use 5 to 20 letters and digits");

    const wrongOld = await call("PUT", "/user-service/person/operator/password", {
      token,
      body: { oldPassword: "NotIt12345", newPassword: "Fresh12345", confirmPassword: "Fresh12345" },
    });
    expect(wrongOld.body.msg).toBe("The old password is not correct");

    const changed = await call("PUT", "/user-service/person/operator/password", {
      token,
      body: { oldPassword: account.initialPassword, newPassword: "Fresh12345", confirmPassword: "Fresh12345" },
    });
    expect(changed.status).toBe(200);
    expect((await call("GET", "/user-service/person/operator", { token })).status).toBe(401);

    const again = await login("0PL002", account.username, "Fresh12345");
    expect(again.body.data.user.mustChangePassword).toBe(false);
    expect((await call("GET", "/user-service/role", { token: again.body.data.accessToken })).status).toBe(200);
  });
});
