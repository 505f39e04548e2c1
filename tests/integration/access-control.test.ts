import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { contextFromToken, publicCtxOf } from "../../workers/services/context";
import { listPoints } from "../../workers/services/points/points";
import { remoteStart } from "../../workers/services/remote/remote-control";
import { updateRole } from "../../workers/services/roles/roles";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, ORIGIN, tokenFor } from "./support/http";

/** A logged-in account holding exactly these menus (never a demo account). */
async function accountWith(menuCodes: string[], options: { changePassword?: boolean } = {}) {
  const admin = await tokenFor("0PL002", "demoadmin");
  const role = await makeRole(admin, { menuCodes });
  const account = await makeAccount("0PL002", admin, role.id, options);
  const token = (await login("0PL002", account.username, options.changePassword === false ? account.initialPassword : account.password)).body.data.accessToken;
  return { admin, role, account, token };
}

const roleBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Role ${crypto.randomUUID().slice(0, 8)}`,
  code: `R_${crypto.randomUUID().slice(0, 8)}`,
  type: "NORMAL",
  menuCodes: ["home"],
  ...overrides,
});

describe("no escalation through roles", () => {
  it("refuses to let an account edit the role it holds, even to keep its menus", async () => {
    const { role, token } = await accountWith(["home", "carrier.role"]);
    const own = await call("PUT", `/user-service/role/${role.id}`, { token, body: roleBody({ type: "SUPER", menuCodes: ["home", "carrier.role"] }) });
    expect(own.status).toBe(403);
    expect(own.body.msg).toBe("You cannot change the role you hold yourself");
    const again = await call("GET", `/user-service/role/${role.id}`, { token });
    expect(again.body.data.type).toBe("NORMAL");
  });

  it("lets only a SUPER create, edit or assign a role of type SUPER", async () => {
    const { admin, token } = await accountWith(["home", "carrier.role", "carrier.carrierAcount"]);
    const created = await call("POST", "/user-service/role", { token, body: roleBody({ type: "SUPER" }) });
    expect(created.status).toBe(403);
    expect(created.body.msg).toBe("Only a SUPER account may do this");
    const superRole = await makeRole(admin, { type: "SUPER", menuCodes: [] });
    expect((await call("PUT", `/user-service/role/${superRole.id}`, { token, body: roleBody({ menuCodes: ["home"] }) })).status).toBe(403);
    expect((await call("DELETE", `/user-service/role/${superRole.id}`, { token })).status).toBe(403);
    const assigned = await call("POST", "/user-service/account", {
      token,
      body: { username: `x${crypto.randomUUID().slice(0, 8)}`, name: "Someone New", roleId: superRole.id },
    });
    expect(assigned.status).toBe(403);
  });

  it("gives a role only menus the acting account holds itself; a group counts as all of its screens", async () => {
    const { token } = await accountWith(["home", "carrier.role", "monitoring.charging"]);
    const beyond = await call("POST", "/user-service/role", { token, body: roleBody({ menuCodes: ["home", "equipment.point"] }) });
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toBe("You can only give menus that you hold yourself");
    // Holding one monitoring screen does not let anyone hand out the whole monitoring group.
    expect((await call("POST", "/user-service/role", { token, body: roleBody({ menuCodes: ["monitoring"] }) })).status).toBe(403);
    const within = await call("POST", "/user-service/role", { token, body: roleBody({ menuCodes: ["home", "monitoring.charging"] }) });
    expect(within.status).toBe(200);
  });
});

describe("no takeover through accounts", () => {
  it("lets an account manager neither demote nor disable a SUPER, nor give itself more rights", async () => {
    const { admin, account, role, token } = await accountWith(["home", "carrier.carrierAcount"]);
    const me = (await call("GET", "/user-service/person/operator", { token: admin })).body.data;
    const superRole = (await call("GET", "/user-service/role?type=SUPER&size=100", { token: admin })).body.data.records[0];
    const bigRole = await makeRole(admin, { menuCodes: ["home", "carrier.carrierAcount", "equipment.point"] });

    const demote = await call("PUT", `/user-service/account/${me.id}`, { token, body: { name: "Demo Admin", roleId: role.id } });
    expect(demote.status).toBe(403);
    const disable = await call("PUT", `/user-service/account/${me.id}/enable`, { token, body: { status: "INVALID" } });
    expect(disable.status).toBe(403);
    const raiseSelf = await call("PUT", `/user-service/account/${account.id}`, { token, body: { name: account.username, roleId: superRole.id } });
    expect(raiseSelf.status).toBe(403);
    const sideDoor = await call("POST", "/user-service/account", {
      token,
      body: { username: `y${crypto.randomUUID().slice(0, 8)}`, name: "Side Door", roleId: bigRole.id },
    });
    expect(sideDoor.status).toBe(403);
    const selfDisable = await call("PUT", `/user-service/account/${account.id}/enable`, { token, body: { status: "INVALID" } });
    expect(selfDisable.status).toBe(403);
    expect(selfDisable.body.msg).toBe("You cannot change your own role or status");
    // The SUPER admin still works.
    expect((await call("GET", "/user-service/person/operator", { token: admin })).status).toBe(200);
  });

  it("lets only a SUPER edit, disable or re-role a SUPER account that is not the owner", async () => {
    const { admin, token } = await accountWith(["home", "carrier.carrierAcount"]);
    const superRole = await makeRole(admin, { type: "SUPER", menuCodes: [] });
    const plainRole = await makeRole(admin, { menuCodes: ["home"] });
    const target = await makeAccount("0PL002", admin, superRole.id);
    const before = (await call("GET", `/user-service/account/${target.id}`, { token: admin })).body.data;
    expect(before.owner).toBe(false);

    // Nothing but the target's SUPER role stands in the way: the name, the status and a role the actor may give.
    const rename = await call("PUT", `/user-service/account/${target.id}`, {
      token,
      body: { name: "Renamed Super", email: "renamed@example.com", roleId: superRole.id },
    });
    expect(rename.status).toBe(403);
    expect(rename.body.msg).toBe("Only a SUPER account may do this");
    const disable = await call("PUT", `/user-service/account/${target.id}/enable`, { token, body: { status: "INVALID" } });
    expect(disable.status).toBe(403);
    expect(disable.body.msg).toBe("Only a SUPER account may do this");
    const demote = await call("PUT", `/user-service/account/${target.id}`, { token, body: { name: before.name, roleId: plainRole.id } });
    expect(demote.status).toBe(403);
    expect(demote.body.msg).toBe("Only a SUPER account may do this");

    const after = (await call("GET", `/user-service/account/${target.id}`, { token: admin })).body.data;
    expect(after).toMatchObject({ name: before.name, email: before.email, status: "VALID", roleId: superRole.id });
    expect((await login("0PL002", target.username, target.password)).status).toBe(200);
  });

  it("keeps the operator's owner from being disabled or demoted by another SUPER", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const owner = (await call("GET", "/user-service/person/operator", { token: admin })).body.data;
    const superRole = await makeRole(admin, { type: "SUPER", menuCodes: [] });
    const plainRole = await makeRole(admin, { menuCodes: ["home"] });
    const second = await makeAccount("0PL002", admin, superRole.id);
    const secondToken = await tokenFor("0PL002", second.username, second.password);

    const disable = await call("PUT", `/user-service/account/${owner.id}/enable`, { token: secondToken, body: { status: "INVALID" } });
    expect(disable.status).toBe(403);
    expect(disable.body.msg).toBe("The operator's owner account can only be disabled or demoted by the platform");
    const demote = await call("PUT", `/user-service/account/${owner.id}`, { token: secondToken, body: { name: "Demo Admin", roleId: plainRole.id } });
    expect(demote.status).toBe(403);
    // A SUPER may disable another SUPER that is not the owner.
    expect((await call("PUT", `/user-service/account/${second.id}/enable`, { token: admin, body: { status: "INVALID" } })).status).toBe(200);
  });
});

describe("watching is not operating", () => {
  it("lets a monitoring-only role watch, but neither command a charger nor list the equipment", async () => {
    const { token } = await accountWith(["home", "monitoring.chargingPile"]);
    const { pointId, serialNumber } = await makeCharger("0PL002");
    expect((await call("GET", "/station-service/monitoring/chargingPile", { token })).status).toBe(200);
    expect((await call("GET", "/station-service/monitoring/point", { token })).status).toBe(200);
    expect((await call("GET", "/station-service/point", { token })).status).toBe(403);
    expect((await call("PUT", `/station-service/remoteControl/remoteStart/${pointId}`, { token, body: { connectorId: 1 } })).status).toBe(403);
    expect((await call("PUT", `/station-service/monitoring/reset/point/${serialNumber}`, { token, body: { type: "Hard" } })).status).toBe(403);
    expect((await call("PUT", `/station-service/remoteControl/${pointId}/remoteStop/1`, { token })).status).toBe(403);
    expect((await call("POST", `/station-service/point/${pointId}/command`, { token, body: { action: "ClearCache", payload: {} } })).status).toBe(403);
  });

  it("lets only the remote-control or point menus send generic commands; other menus get 403", async () => {
    const { pointId, serialNumber } = await makeCharger("0PL002");
    const commands = (token: string) =>
      Promise.all([
        call("PUT", `/station-service/remoteControl/unlockConnector/${pointId}`, { token, body: { connectorId: 1 } }),
        call("PUT", `/station-service/monitoring/point/triggerMessage/${serialNumber}`, { token, body: { requestedMessage: "Heartbeat" } }),
        call("PUT", `/station-service/monitoring/dataTransfer/${serialNumber}`, { token, body: { vendorId: "com.example" } }),
        call("GET", `/station-service/monitoring/getLocalListVersion/${serialNumber}`, { token }),
        call("GET", `/station-service/monitoring/getDiagnostics/${serialNumber}?location=${encodeURIComponent("ftp://logs.example.com/")}`, { token }),
        call("POST", `/station-service/point/${pointId}/command`, { token, body: { action: "ClearCache", payload: {} } }),
      ]).then((answers) => answers.map((a) => a.status));
    const watcher = await accountWith(["home", "monitoring.chargingPile", "monitoring.charging", "equipment.station"]);
    expect(await commands(watcher.token)).toEqual([403, 403, 403, 403, 403, 403]);
    // Admitted, the charger is simply offline (409): the menu, not the charger, decided the 403 above.
    for (const menu of ["equipment.remoteControl", "equipment.point"]) {
      const operator = await accountWith(["home", menu]);
      expect(await commands(operator.token), menu).toEqual([409, 409, 409, 409, 409, 409]);
    }
  });

  it("checks permission inside the verb, whoever calls it", async () => {
    const { token } = await accountWith(["home", "monitoring.chargingPile"]);
    const { pointId } = await makeCharger("0PL002");
    const ctx = await contextFromToken(publicCtxOf(new Request(ORIGIN), env), token);
    await expect(remoteStart(ctx, pointId, { connectorId: 1 })).rejects.toMatchObject({ status: 403 });
    await expect(listPoints(ctx, {})).rejects.toMatchObject({ status: 403 });
    await expect(updateRole(ctx, 1, roleBody())).rejects.toMatchObject({ status: 403 });
  });

  it("documents every route's menus in /openapi.json from its verb", async () => {
    const doc = (await (await SELF.fetch(`${ORIGIN}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[]; "x-menu"?: string[]; description?: string }>>;
    };
    const start = doc.paths["/station-service/remoteControl/remoteStart/{id}"].put;
    expect(start["x-menu"]).toEqual(["equipment.remoteControl", "equipment.point"]);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(operation.description, `${method} ${path}`).toMatch(/^(Public\.|Any session\.|Menus \(one of\): )/);
      }
    }
  });
});

describe("/live follows the API's rules", () => {
  const upgrade = (token: string) => SELF.fetch(`${ORIGIN}/live`, { headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` } });

  it("refuses an account without a screen that listens live", async () => {
    const { token } = await accountWith(["carrier.role"]);
    const res = await upgrade(token);
    expect(res.status).toBe(403);
    expect(res.webSocket).toBeFalsy();
  });

  it("marks its refusals no-store and nosniff, like the API's JSON", async () => {
    const { token } = await accountWith(["carrier.role"]);
    const forbidden = await upgrade(token);
    const unauthenticated = await SELF.fetch(`${ORIGIN}/live`, { headers: { Upgrade: "websocket" } });
    expect([forbidden.status, unauthenticated.status]).toEqual([403, 401]);
    for (const res of [forbidden, unauthenticated]) {
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("refuses an account that has not yet changed its initial password", async () => {
    const { token } = await accountWith(["monitoring.charging"], { changePassword: false });
    const res = await upgrade(token);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { msg: string }).msg).toBe("Please change your initial password first");
  });

  it("lets a monitoring screen listen", async () => {
    const { token } = await accountWith(["monitoring.charging"]);
    const res = await upgrade(token);
    expect(res.status).toBe(101);
    res.webSocket?.accept();
    res.webSocket?.close(1000, "done");
  });
});

describe("session endings are not cross-site", () => {
  it("refreshes a cookie session only from the console's origin; Bearer clients as before", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const cookie = `${env.SESSION_COOKIE}=${token}`;
    const crossSite = await call("GET", "/user-service/auth/token/refresh", { headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    // The session did not end.
    expect((await call("GET", "/user-service/person/operator", { token })).status).toBe(200);
    const sameOrigin = await call("GET", "/user-service/auth/token/refresh", { headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" } });
    expect(sameOrigin.status).toBe(200);
    const bearer = await call("GET", "/user-service/auth/token/refresh", { token: sameOrigin.body.data.accessToken, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(bearer.status).toBe(200);
  });

  it("authenticates before it reads the body: no session is 401, never a 400 listing fields", async () => {
    const res = await call("POST", "/user-service/role", { body: { name: 1 } });
    expect(res.status).toBe(401);
    const noBody = await SELF.fetch(`${ORIGIN}/user-service/account`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
    expect(noBody.status).toBe(401);
  });
});
