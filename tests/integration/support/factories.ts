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

/** A fresh enabled charger of an operator, with its own key (equipment screens come later). */
export async function makeCharger(
  operatorCode: string,
  options: { enabled?: boolean; type?: "AC" | "DC"; connectors?: number; ocppVersion?: "AUTO" | "OCPP16" | "OCPP201" } = {},
) {
  const { env } = await import("cloudflare:test");
  const { createDb } = await import("../../../db/client");
  const { connectors, operators, points, stations } = await import("../../../db/schema");
  const { eq } = await import("drizzle-orm");
  const { generateChargerKey, hashChargerKey, keyBytesOf } = await import("../../../workers/auth/charger-key");
  const db = createDb(env.DB);
  const [operator] = await db.select().from(operators).where(eq(operators.code, operatorCode));
  const [station] = await db.insert(stations).values({ operatorId: operator.id, name: unique("Station "), status: "VALID" }).returning();
  const key = generateChargerKey();
  const serialNumber = unique("TEST-");
  const count = options.connectors ?? 2;
  const [point] = await db
    .insert(points)
    .values({
      operatorId: operator.id,
      stationId: station.id,
      serialNumber,
      pointNo: "01",
      name: serialNumber,
      type: options.type ?? "AC",
      ratedPowerW: 22_000,
      connectorCount: count,
      status: options.enabled === false ? "INVALID" : "VALID",
      ocppVersion: options.ocppVersion ?? "AUTO",
      keyHash: hashChargerKey(keyBytesOf(key)!, env.CHARGER_KEY_PEPPER),
    })
    .returning();
  await db.insert(connectors).values(
    Array.from({ length: count }, (_, i) => ({
      operatorId: operator.id,
      pointId: point.id,
      connectorNo: i + 1,
      standard: "IEC2" as const,
      powerW: 11_000,
      chargeSpeed: "SLOW" as const,
    })),
  );
  return { pointId: point.id, operatorId: operator.id, serialNumber, key };
}

/** The token of a fresh account whose role holds exactly these menu codes. */
export async function tokenWithMenus(adminToken: string, menuCodes: string[], operatorCode = "0PL002") {
  const role = await makeRole(adminToken, { menuCodes });
  const account = await makeAccount(operatorCode, adminToken, role.id);
  return tokenFor(operatorCode, account.username, account.password);
}
