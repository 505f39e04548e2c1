import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { Forbidden } from "../../domain/errors";
import { contextFromToken, publicCtxOf } from "../../workers/services/context";
import { onboardingChecklist } from "../../workers/services/onboarding/checklist";
import { newOperatorBody } from "../support/operators";
import { uniqueTag } from "./support/drivers";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, ORIGIN, tokenFor } from "./support/http";
import { flatStrategy } from "./support/strategies";

/**
 * A new operator's checklist on the home page (docs/rules/console.md "Onboarding"): each step is
 * read from the operator's own rows and ticks itself once the work is done, wherever it was done.
 */

let platform: string;
let operators = 0;

beforeAll(async () => {
  platform = await tokenFor("PLATFORM", "platform", "Platform123");
});

/** A freshly provisioned operator, its administrator logged in with a changed password. */
async function newOperator(edition = "standard") {
  const code = `0NB${Date.now().toString(36).slice(-4).toUpperCase()}${++operators}`;
  const created = await call("POST", "/platform-service/operator", { token: platform, body: newOperatorBody(code, { edition }) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const { admin } = created.body.data as { admin: { username: string; initialPassword: string } };
  const first = (await login(code, admin.username, admin.initialPassword)).body.data.accessToken as string;
  const changed = await call("PUT", "/user-service/person/operator/password", {
    token: first,
    body: { oldPassword: admin.initialPassword, newPassword: "Admin12345", confirmPassword: "Admin12345" },
  });
  expect(changed.status).toBe(200);
  return { code, token: await tokenFor(code, admin.username, "Admin12345") };
}

const checklistOf = async (token: string) => onboardingChecklist(await contextFromToken(publicCtxOf(new Request(ORIGIN), env), token));
const doneSteps = (list: Awaited<ReturnType<typeof checklistOf>>) => list?.steps.filter((s) => s.done).map((s) => s.step);

describe("the onboarding checklist", () => {
  it("starts with every step to do, each linked to its screen, and ticks each one as the operator's data appears", async () => {
    const { code, token } = await newOperator();
    const fresh = await checklistOf(token);
    expect(fresh).toEqual({
      complete: false,
      steps: [
        { step: "location", done: false, href: "/equipmentManagement/station/stationAdd", allowed: true },
        { step: "charger", done: false, href: "/equipmentManagement/point/pointAdd", allowed: true },
        { step: "price", done: false, href: "/financialManagement/chargeConfigurationNew", allowed: true },
        { step: "card", done: false, href: "/user/rf-card", allowed: true },
        { step: "colleague", done: false, href: "/carrierSystem/carrierAcount/add", allowed: true },
      ],
    });

    // A location alone: the charger step waits for a point with its key.
    const station = await call("POST", "/station-service/station", {
      token,
      body: {
        name: "First site",
        address: "ul. Długa 1, Gdańsk",
        lat: "54.35",
        lng: "18.65",
        parkingFee: false,
        servicePhone: "+48 58 000 00 00",
        maintainer: "Serwis",
        rank: 0,
        businessHours: "00:00-24:00",
        description: "The first location",
      },
    });
    expect(station.status, JSON.stringify(station.body)).toBe(200);
    expect(doneSteps(await checklistOf(token))).toEqual(["location"]);

    const charger = await makeCharger(code);
    expect(doneSteps(await checklistOf(token))).toEqual(["location", "charger"]);

    const strategy = await flatStrategy(token);
    const assigned = await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token, body: { pointIds: [charger.pointId] } });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(doneSteps(await checklistOf(token))).toEqual(["location", "charger", "price"]);

    const card = await call("POST", "/customer-service/rf-card", { token, body: { idTag: uniqueTag(), deliveryType: "TAKE" } });
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    expect(doneSteps(await checklistOf(token))).toEqual(["location", "charger", "price", "card"]);

    const role = await makeRole(token);
    await makeAccount(code, token, role.id);
    const finished = await checklistOf(token);
    expect(finished?.complete).toBe(true);
    expect(doneSteps(finished)).toEqual(["location", "charger", "price", "card", "colleague"]);
  });

  it("leaves out the steps whose screens the operator's edition lacks", async () => {
    const { token } = await newOperator("basic");
    expect((await checklistOf(token))?.steps.map((s) => s.step)).toEqual(["location", "charger", "colleague"]);
  });

  it("counts a charger only once its key is set, since the key is what connects it", async () => {
    const { code, token } = await newOperator();
    const { pointId } = await makeCharger(code);
    await env.DB.prepare("UPDATE points SET key_hash = NULL, key_set_at = NULL WHERE id = ?").bind(pointId).run();
    expect(doneSteps(await checklistOf(token))).toEqual(["location"]);
  });

  it("reads only the operator's own rows: another operator's network ticks nothing", async () => {
    const { token } = await newOperator();
    // The demo operator has locations, chargers with keys, prices and cards.
    expect(doneSteps(await checklistOf(await tokenFor("0PL002", "demoadmin")))).toEqual(expect.arrayContaining(["location", "charger", "price", "card"]));
    expect(doneSteps(await checklistOf(token))).toEqual([]);
  });

  it("says which screens a role may not open, and shows a sub-operator no checklist", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["home"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const homeOnly = await checklistOf(await tokenFor("0PL002", account.username, account.password));
    expect(homeOnly?.steps.map((s) => s.allowed)).toEqual([false, false, false, false, false]);

    // A sub-operator's equipment, prices and accounts are its parent's: it gets no checklist.
    const sub = await checklistOf(await tokenFor("0PL002A", "subadmin1")).catch((error: unknown) => (error instanceof Forbidden ? "Forbidden" : error));
    expect([null, "Forbidden"]).toContain(sub);
  });
});
