import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemCtx } from "../../workers/services/context";
import { registryFacts } from "../../workers/services/drivers/registry";
import { boot, connect, now } from "./support/charger";
import { makeCard, makeCustomer, makeGroup, uniqueTag } from "./support/drivers";
import { makeAppTokenRow } from "./support/driver-rows";
import { makeCharger } from "./support/factories";
import { call, tokenFor } from "./support/http";
import { byOperatorAlone, plansOf } from "./support/query-plans";
import { addSessions } from "./support/sessions";
import { flatStrategy } from "./support/strategies";

/** A booted charger of 0PL002 and a way to ask it about a tag. */
async function charger() {
  const made = await makeCharger("0PL002");
  const { charger } = await connect(made.serialNumber, { key: made.key });
  await boot(charger!);
  const authorize = async (idTag: string) => (await charger!.call("Authorize", { idTag })).idTagInfo as { status: string; expiryDate?: string; parentIdTag?: string };
  return { ...made, charger: charger!, authorize };
}

const inAYear = () => new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

/** An app user's tag of the customer (kind APP in the registry), as the driver app's sign-up leaves it. */
const appTag = async (customerId: number) => (await makeAppTokenRow("0PL002", customerId)).idTag;

describe("the card registry answers Authorize at once (docs/rules/drivers.md \"Who may charge\")", () => {
  it("accepts a bound, valid card of a NORMAL customer with its expiry date and the group's code as parent tag", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { authorize } = await charger();
    const anna = await makeCustomer(token);
    const group = await makeGroup(token, anna.id);
    const expiryDate = inAYear();
    const card = await makeCard(token, { customerId: anna.id, expiryDate });
    expect(card).toMatchObject({ status: "VALID", bindStatus: "BIND", customerId: anna.id });
    expect(await authorize(card.idTag)).toEqual({ status: "Accepted", expiryDate: new Date(expiryDate).toISOString(), parentIdTag: group.code });
    // OCPP compares id tags case-insensitively.
    expect((await authorize(card.idTag.toLowerCase())).status).toBe("Accepted");
  });

  it("answers Invalid for an unbound card, and Accepted once it is bound, Invalid again once unbound", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { authorize } = await charger();
    const card = await makeCard(token);
    expect(card).toMatchObject({ status: "VALID", bindStatus: "UNBIND", customerId: null });
    expect(await authorize(card.idTag)).toEqual({ status: "Invalid" });
    const owner = await makeCustomer(token);
    const bound = await call("PUT", `/customer-service/rf-card/${card.id}/bind`, { token, body: { customerId: owner.id } });
    expect(bound.body.data).toMatchObject({ bindStatus: "BIND", customerId: owner.id });
    expect(await authorize(card.idTag)).toEqual({ status: "Accepted" });
    const unbound = await call("PUT", `/customer-service/rf-card/${card.id}/unbind`, { token });
    expect(unbound.body.data).toMatchObject({ bindStatus: "UNBIND", customerId: null });
    expect((await authorize(card.idTag)).status).toBe("Invalid");
  });

  it("answers Blocked for a blocked card and Expired for an expired card or one past its expiry date", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { authorize } = await charger();
    const owner = await makeCustomer(token);
    const card = await makeCard(token, { customerId: owner.id });
    const status = (s: string) => call("PUT", `/customer-service/rf-card/${card.id}/status`, { token, body: { status: s } });
    expect((await status("BLOCKED")).body.data.status).toBe("BLOCKED");
    expect((await authorize(card.idTag)).status).toBe("Blocked");
    await status("EXPIRED");
    expect((await authorize(card.idTag)).status).toBe("Expired");
    await status("VALID");
    expect((await authorize(card.idTag)).status).toBe("Accepted");
    const past = await makeCard(token, { customerId: owner.id, expiryDate: "2024-06-01T00:00:00+02:00" });
    expect(await authorize(past.idTag)).toEqual({ status: "Expired", expiryDate: "2024-05-31T22:00:00.000Z" });
  });

  it("answers Blocked for every tag of an ABNORMAL customer, and Accepted again once NORMAL", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { authorize, charger: cp } = await charger();
    const owner = await makeCustomer(token);
    const first = await makeCard(token, { customerId: owner.id });
    const second = await makeCard(token, { customerId: owner.id });
    const app = await appTag(owner.id);
    expect((await authorize(app)).status).toBe("Accepted");
    const abnormal = await call("PUT", `/customer-service/customer/${owner.id}/status`, { token, body: { status: "ABNORMAL" } });
    expect(abnormal.body.data.status).toBe("ABNORMAL");
    expect((await authorize(first.idTag)).status).toBe("Blocked");
    expect((await authorize(second.idTag)).status).toBe("Blocked");
    // Every tag of theirs: the app's too.
    expect((await authorize(app)).status).toBe("Blocked");
    // StartTransaction answers as Authorize does.
    const start = await cp.call("StartTransaction", { connectorId: 1, idTag: second.idTag, meterStart: 0, timestamp: now() });
    expect(start.idTagInfo.status).toBe("Blocked");
    await call("PUT", `/customer-service/customer/${owner.id}/status`, { token, body: { status: "NORMAL" } });
    expect((await authorize(first.idTag)).status).toBe("Accepted");
    expect((await authorize(app)).status).toBe("Accepted");
    expect((await call("PUT", `/customer-service/customer/${owner.id}/status`, { token, body: { status: "BLOCKED" } })).status).toBe(400);
  });

  it("lets a customer limited to some points charge there only: elsewhere its tags answer Invalid", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const here = await charger();
    const elsewhere = await charger();
    const owner = await makeCustomer(token, { chargeAllPoint: false, chargePointList: [here.pointId] });
    expect(owner).toMatchObject({ chargeAllPoint: false, chargePointList: [here.pointId] });
    const card = await makeCard(token, { customerId: owner.id });
    const app = await appTag(owner.id);
    expect((await here.authorize(card.idTag)).status).toBe("Accepted");
    expect((await elsewhere.authorize(card.idTag)).status).toBe("Invalid");
    // The app's tag of the same customer too.
    expect((await here.authorize(app)).status).toBe("Accepted");
    expect((await elsewhere.authorize(app)).status).toBe("Invalid");
    const start = await elsewhere.charger.call("StartTransaction", { connectorId: 1, idTag: card.idTag, meterStart: 0, timestamp: now() });
    expect(start.idTagInfo.status).toBe("Invalid");
  });

  it("resumes a lost card: the old tag answers Blocked, the new one takes the owner and group", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { authorize } = await charger();
    const owner = await makeCustomer(token);
    const group = await makeGroup(token, owner.id);
    const old = await makeCard(token, { customerId: owner.id, cardName: "Blue card", deliveryType: "SEND", recipientName: "Ewa" });
    const newIdTag = uniqueTag("N");
    const resumed = await call("PUT", `/customer-service/rf-card/${old.id}/lost`, { token, body: { newIdTag } });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({
      idTag: newIdTag,
      status: "VALID",
      bindStatus: "BIND",
      customerId: owner.id,
      cardName: "Blue card",
      deliveryType: "SEND",
      recipientName: "Ewa",
      replacesCardId: old.id,
      replacesIdTag: old.idTag,
      replacedById: null,
      replacedByIdTag: null,
    });
    const replacement = resumed.body.data.id;
    expect((await call("GET", `/customer-service/rf-card/${old.id}`, { token })).body.data).toMatchObject({
      status: "LOST",
      customerId: owner.id,
      replacesIdTag: null,
      replacedById: replacement,
      replacedByIdTag: newIdTag,
    });
    // The customer's page shows both cards, linked.
    const detailCards = (await call("GET", `/customer-service/customer/${owner.id}`, { token })).body.data.cards;
    expect(detailCards).toMatchObject([
      { idTag: newIdTag, replacesIdTag: old.idTag, replacedByIdTag: null },
      { idTag: old.idTag, replacesIdTag: null, replacedByIdTag: newIdTag },
    ]);
    // The list links them both ways.
    const listed = (await call("GET", `/customer-service/rf-card?customerId=${owner.id}`, { token })).body.data.records;
    expect(listed.map((c: { idTag: string; replacesIdTag: string | null; replacedByIdTag: string | null }) => [c.idTag, c.replacesIdTag, c.replacedByIdTag])).toEqual([
      [newIdTag, old.idTag, null],
      [old.idTag, null, newIdTag],
    ]);
    expect((await authorize(old.idTag)).status).toBe("Blocked");
    expect(await authorize(newIdTag)).toEqual({ status: "Accepted", parentIdTag: group.code });
    // A lost card is replaced once, and stays as it is.
    expect((await call("PUT", `/customer-service/rf-card/${old.id}/lost`, { token, body: { newIdTag: uniqueTag("N") } })).status).toBe(409);
    expect((await call("PUT", `/customer-service/rf-card/${old.id}/status`, { token, body: { status: "VALID" } })).status).toBe(409);
    // The new tag must be free.
    const taken = await call("PUT", `/customer-service/rf-card/${resumed.body.data.id}/lost`, { token, body: { newIdTag: old.idTag.toLowerCase() } });
    expect(taken.status).toBe(400);
    expect(taken.body.data.fields).toEqual({ newIdTag: "This RFID number is already registered" });
  });

  it("keeps the lost card's history with its owner: a session of the old tag billed after the loss is the customer's, under the old tag", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { versionId } = await flatStrategy(token);
    const made = await makeCharger("0PL002");
    const owner = await makeCustomer(token);
    await env.DB.prepare("UPDATE customers SET balance = 5000 WHERE id = ?").bind(owner.id).run();
    const old = await makeCard(token, { customerId: owner.id });
    const newIdTag = uniqueTag("N");
    expect((await call("PUT", `/customer-service/rf-card/${old.id}/lost`, { token, body: { newIdTag } })).status).toBe(200);
    // Started before the card was reported lost, stopped and billed after.
    const stop = Date.now() - 60_000;
    const [id] = await addSessions(made, [
      { start: new Date(stop - 3_600_000).toISOString(), stop: new Date(stop).toISOString(), meterStart: 0, meterStop: 2_000, idTag: old.idTag, strategyVersionId: versionId, bill: true },
    ]);
    const ids = async (query: string) => (await call("GET", `/station-service/charge/record?${query}`, { token })).body.data.records.map((r: { id: number }) => r.id);
    expect(await ids(`customerId=${owner.id}`)).toEqual([id]);
    expect(await ids(`idTag=${old.idTag}`)).toEqual([id]);
    const bills = (await call("GET", `/finance-service/bill?customerId=${owner.id}`, { token })).body.data.records;
    expect(bills).toMatchObject([{ type: "Charging", transactionId: id, cost: 200 }]);
  });

  it("keeps the demo tags' answers and the operator's remote tag", async () => {
    const { authorize } = await charger();
    expect(await authorize("DEMO0001")).toEqual({ status: "Accepted", parentIdTag: "NOWAKFAM" });
    expect(await authorize("PLCARD0002")).toEqual({ status: "Accepted" });
    expect(await authorize("DEMO0002")).toEqual({ status: "Blocked" });
    expect(await authorize("DEMO0003")).toEqual({ status: "Expired", expiryDate: "2025-01-01T00:00:00.000Z" });
    expect(await authorize("PLREMOTE")).toEqual({ status: "Accepted" });
    expect(await authorize("DEDEMO01")).toEqual({ status: "Invalid" });
  });

  it("reads a tag's cards, tags and transactions by the tag, not through the operator's whole history", async () => {
    // An ad-hoc session's tag asks whether a transaction of it has ended (`status <> 'ACTIVE'`):
    // through the tag's index, not every transaction the operator ever had (decision 0110).
    const made = await makeCharger("0PL002");
    const ctx = systemCtx(env, { id: made.operatorId, code: "0PL002" }, "test");
    const { plans } = await plansOf(() => registryFacts(ctx, made.pointId, "ADHOC0001"));
    expect(plans.filter(({ step }) => step.includes(" transactions "))).not.toEqual([]);
    expect(byOperatorAlone(plans)).toEqual([]);
  });

  it("answers a deleted card Invalid", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const { authorize } = await charger();
    const card = await makeCard(token, { customerId: (await makeCustomer(token)).id });
    expect((await authorize(card.idTag)).status).toBe("Accepted");
    expect((await call("DELETE", `/customer-service/rf-card/${card.id}`, { token })).status).toBe(200);
    expect((await authorize(card.idTag)).status).toBe("Invalid");
    expect((await call("GET", `/customer-service/rf-card/${card.id}`, { token })).status).toBe(404);
  });
});
