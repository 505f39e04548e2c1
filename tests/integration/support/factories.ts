import { call, login, tokenFor } from "./http";

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${++counter}`;

/** A role of an operator, made through the API as an administrator would. */
export async function makeRole(adminToken: string, overrides: Record<string, unknown> = {}) {
  const res = await call("POST", "/user-service/role", {
    token: adminToken,
    body: { name: unique("Role "), code: unique("R_"), type: "NORMAL", menuCodes: ["home"], ...overrides },
  });
  if (res.status !== 200) throw new Error(`makeRole: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; name: string; code: string };
}

/** An account with its initial password changed, ready to log in (never a demo account). */
export async function makeAccount(
  operatorCode: string,
  adminToken: string,
  roleId: number,
  options: { changePassword?: boolean } = {},
) {
  const username = unique("user");
  const res = await call("POST", "/user-service/account", {
    token: adminToken,
    body: { username, name: `Name ${username}`, email: `${username}@example.com`, roleId },
  });
  if (res.status !== 200) throw new Error(`makeAccount: ${JSON.stringify(res.body)}`);
  const { id, initialPassword } = res.body.data as { id: number; initialPassword: string };
  let password = initialPassword;
  if (options.changePassword !== false) {
    const first = (await login(operatorCode, username, initialPassword)).body.data.accessToken;
    password = "Changed123";
    const change = await call("PUT", "/user-service/person/operator/password", {
      token: first,
      body: { oldPassword: initialPassword, newPassword: password, confirmPassword: password },
    });
    if (change.status !== 200) throw new Error(`password change: ${JSON.stringify(change.body)}`);
  }
  return { id, username, password, initialPassword };
}

export { tokenFor };
