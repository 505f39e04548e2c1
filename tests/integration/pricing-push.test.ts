import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { systemCtx } from "../../workers/services/context";
import { pushPrice } from "../../workers/services/pricing/price-push";
import { connect, landed, type TestCharger } from "./support/charger";
import { eventually } from "../support/eventually";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";

/** The price push (docs/rules/pricing.md "Price push"). */
let pl: string;
let de: string;
beforeAll(async () => {
  [pl, de] = await Promise.all([tokenFor("0PL002", "demoadmin"), tokenFor("0DE001", "deadmin1")]);
});

const strategyBody = (price = "0.85") => ({
  name: `Push ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`,
  electricity: { slots: [{ start: "00:00", end: "24:00", price }] },
  service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "2" }] },
});

/** A charger of 0PL002 with a strategy assigned, connected and booted as this vendor and model. */
async function pricedCharger(model = { vendor: "Plugdesk", model: "TestCharger" }) {
  const made = await makeCharger("0PL002");
  const strategy = (await call("POST", "/finance-service/strategy", { token: pl, body: strategyBody() })).body.data;
  await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token: pl, body: { pointIds: [made.pointId] } });
  const charger = (await connect(made.serialNumber, { key: made.key })).charger!;
  await charger.call("BootNotification", { chargePointVendor: model.vendor, chargePointModel: model.model });
  // The push chooses its way by the model D1 holds, which the boot reaches in a batch moments later.
  await landed();
  return { ...made, strategy, charger };
}

const pointOf = async (pointId: number) => (await call("GET", `/station-service/point/${pointId}`, { token: pl })).body.data;
const pushed = (pointId: number, status: string) => eventually(() => pointOf(pointId), (p) => p.pricePushStatus === status);

/** Answers the next push with `reply` and hands back what the charger received. */
function answerOnce(charger: TestCharger, action: string, reply: unknown) {
  return new Promise<unknown>((resolve) =>
    charger.answer(action, (payload) => {
      resolve(payload);
      return reply;
    }),
  );
}

describe("pushing a point's price", () => {
  it("sends the DefaultPrice key by default, and an accepting charger is Issued with the push time", async () => {
    const { pointId, charger } = await pricedCharger();
    expect((await pointOf(pointId)).pricePushStatus).toBe("NotIssue");
    const received = answerOnce(charger, "ChangeConfiguration", { status: "Accepted" });
    const res = await call("POST", `/station-service/point/${pointId}/issue-price`, { token: pl });
    expect(res.status).toBe(200);
    const payload = (await received) as { key: string; value: string };
    expect(payload.key).toBe("DefaultPrice");
    expect(JSON.parse(payload.value)).toEqual({
      priceText: "0.8500 PLN/kWh + 2.0000 PLN",
      priceTextOffline: "0.8500 PLN/kWh + 2.0000 PLN",
      chargingPrice: { kWhPrice: 0.85, hourPrice: 0, flatFee: 2 },
    });
    const point = await pushed(pointId, "Issued");
    expect(point.pricePushStatus).toBe("Issued");
    expect(Date.parse(point.pushedAt)).toBeGreaterThan(Date.now() - 60_000);
    charger.close();
  });

  it.each([
    ["NotSupported", { status: "NotSupported" }],
    ["Rejected", { status: "Rejected" }],
  ])("marks a charger that answers %s as NotSupport", async (_, reply) => {
    const { pointId, charger } = await pricedCharger();
    const received = answerOnce(charger, "ChangeConfiguration", reply);
    await call("POST", `/station-service/point/${pointId}/issue-price`, { token: pl });
    await received;
    expect((await pushed(pointId, "NotSupport")).pricePushStatus).toBe("NotSupport");
    charger.close();
  });

  it("uses a vendor DataTransfer for the models that take one, with the whole day of prices", async () => {
    const { pointId, charger, strategy } = await pricedCharger({ vendor: "Plugdesk", model: "PD-Display" });
    const received = answerOnce(charger, "DataTransfer", { status: "Accepted" });
    await call("POST", `/station-service/point/${pointId}/issue-price`, { token: pl });
    const payload = (await received) as { vendorId: string; messageId: string; data: string };
    expect(payload).toMatchObject({ vendorId: "com.plugdesk", messageId: "SetPrice" });
    expect(JSON.parse(payload.data)).toMatchObject({ currency: "PLN", electricity: strategy.electricity, now: { kWhPrice: "0.8500", flatFee: "2.0000" } });
    expect((await pushed(pointId, "Issued")).pricePushStatus).toBe("Issued");
    charger.close();
  });

  it("marks a DataTransfer model that does not know the vendor as NotSupport", async () => {
    const { pointId, charger } = await pricedCharger({ vendor: "Plugdesk", model: "PD-Old" });
    const received = answerOnce(charger, "DataTransfer", { status: "UnknownVendorId" });
    await call("POST", `/station-service/point/${pointId}/issue-price`, { token: pl });
    await received;
    expect((await pushed(pointId, "NotSupport")).pricePushStatus).toBe("NotSupport");
    charger.close();
  });

  it("pushes several points at once, and shows each point's status and time in the point list", async () => {
    const [a, b] = await Promise.all([pricedCharger(), pricedCharger()]);
    const replies = [answerOnce(a.charger, "ChangeConfiguration", { status: "Accepted" }), answerOnce(b.charger, "ChangeConfiguration", { status: "NotSupported" })];
    const res = await call("POST", "/station-service/point/issue-price", { token: pl, body: { pointIds: [a.pointId, b.pointId] } });
    expect(res.body.data.queued).toHaveLength(2);
    await Promise.all(replies);
    await pushed(a.pointId, "Issued");
    await pushed(b.pointId, "NotSupport");
    const list = await call("GET", `/station-service/point?serialNumber=${a.serialNumber}`, { token: pl });
    expect(list.body.data.records[0]).toMatchObject({ pricePushStatus: "Issued", pushedAt: expect.any(String), chargeStrategyId: a.strategy.id });
    a.charger.close();
    b.charger.close();
  });

  it("leaves the status as it was while the charger is offline, and asks the queue to try again", async () => {
    const made = await makeCharger("0PL002");
    const strategy = (await call("POST", "/finance-service/strategy", { token: pl, body: strategyBody() })).body.data;
    await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token: pl, body: { pointIds: [made.pointId] } });
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "push price");
    const outcome = await pushPrice(ctx, { kind: "price", operatorId: made.operatorId, operatorCode: "0PL002", pointId: made.pointId });
    expect(outcome).toEqual({ retry: "offline" });
    expect(await pointOf(made.pointId)).toMatchObject({ pricePushStatus: "NotIssue", pushedAt: null });
  });

  it("shows NotIssue again once the strategy changes or the point moves to another", async () => {
    const { pointId, charger, strategy } = await pricedCharger();
    charger.answer("ChangeConfiguration", () => ({ status: "Accepted" }));
    await call("POST", `/station-service/point/${pointId}/issue-price`, { token: pl });
    await pushed(pointId, "Issued");
    await call("PUT", `/finance-service/strategy/${strategy.id}`, { token: pl, body: { ...strategyBody("0.99"), name: strategy.name } });
    expect((await pointOf(pointId)).pricePushStatus).toBe("NotIssue");

    await call("POST", `/station-service/point/${pointId}/issue-price`, { token: pl });
    await pushed(pointId, "Issued");
    const other = (await call("POST", "/finance-service/strategy", { token: pl, body: strategyBody() })).body.data;
    await call("PUT", `/finance-service/strategy/${other.id}/assign`, { token: pl, body: { pointIds: [pointId] } });
    expect((await pointOf(pointId)).pricePushStatus).toBe("NotIssue");
    charger.close();
  });
});

describe("what the price push refuses", () => {
  it("refuses a point without a strategy, naming it, and pushes nothing of the batch", async () => {
    const priced = await makeCharger("0PL002");
    const bare = await makeCharger("0PL002");
    const strategy = (await call("POST", "/finance-service/strategy", { token: pl, body: strategyBody() })).body.data;
    await call("PUT", `/finance-service/strategy/${strategy.id}/assign`, { token: pl, body: { pointIds: [priced.pointId] } });
    const one = await call("POST", `/station-service/point/${bare.pointId}/issue-price`, { token: pl });
    expect(one.status).toBe(409);
    expect(one.body.msg).toBe(`Charging point ${bare.serialNumber} has no charging strategy to push`);
    const logged = () => env.DB.prepare("SELECT count(*) AS n FROM operation_logs WHERE module = 'pricePush' AND new_data = ?").bind(JSON.stringify({ pointIds: [priced.pointId, bare.pointId] })).first();
    const batch = await call("POST", "/station-service/point/issue-price", { token: pl, body: { pointIds: [priced.pointId, bare.pointId] } });
    expect(batch.status).toBe(409);
    expect(await logged()).toEqual({ n: 0 });
  });

  it("answers another operator's point with 404, an empty or malformed list with 400", async () => {
    const foreign = await makeCharger("0DE001");
    expect((await call("POST", `/station-service/point/${foreign.pointId}/issue-price`, { token: pl })).status).toBe(404);
    expect((await call("POST", "/station-service/point/issue-price", { token: pl, body: { pointIds: [foreign.pointId] } })).status).toBe(404);
    expect((await call("POST", "/station-service/point/issue-price", { token: pl, body: { pointIds: [] } })).status).toBe(400);
    expect((await call("POST", "/station-service/point/issue-price", { token: pl, body: { pointIds: [true] } })).status).toBe(400);
    expect((await call("POST", `/station-service/point/${foreign.pointId}/issue-price`, { token: de })).status).toBe(409);
  });

  it("refuses an account without the points menu (403)", async () => {
    const role = await makeRole(pl, { menuCodes: ["finance.chargeConfiguration", "monitoring.chargingPile"] });
    const account = await makeAccount("0PL002", pl, role.id);
    const token = (await login("0PL002", account.username, account.password)).body.data.accessToken;
    const point = await makeCharger("0PL002");
    expect((await call("POST", `/station-service/point/${point.pointId}/issue-price`, { token })).status).toBe(403);
    expect((await call("POST", "/station-service/point/issue-price", { token, body: { pointIds: [point.pointId] } })).status).toBe(403);
  });
});
