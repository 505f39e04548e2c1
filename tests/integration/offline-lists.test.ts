import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { boot, connect, type TestCharger } from "./support/charger";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";
import { eventually, makeAppTokenRow, makeCardRow, makeCustomerRow, makeGroupRow, setCard } from "./support/driver-rows";

type Sent = { listVersion: number; updateType: string; localAuthorizationList?: { idTag: string; idTagInfo?: { status: string; parentIdTag?: string } }[] };

/** A charger that keeps its local list as a real one does and answers SendLocalList with `status()`. */
async function listCharger(operatorCode = "0PL002", status: () => string = () => "Accepted") {
  const made = await makeCharger(operatorCode);
  const { charger } = await connect(made.serialNumber, { key: made.key });
  await boot(charger!);
  // Every CALL the server makes from here on, answered or not, in order.
  const calls: string[] = [];
  charger!.ws.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data as string) as unknown[];
    if (frame[0] === 2) calls.push(frame[2] as string);
  });
  const sent: Sent[] = [];
  let version = 0;
  charger!.answer("SendLocalList", (payload: Sent) => {
    sent.push(payload);
    const answer = status();
    if (answer === "Accepted") version = payload.listVersion;
    return { status: answer };
  });
  charger!.answer("GetLocalListVersion", () => ({ listVersion: version }));
  return { ...made, charger: charger as TestCharger, sent, calls };
}

type Item = { id: number; pointId: number; status: string; answeredAt: string | null };
const items = async (token: string, listId: number): Promise<Item[]> => (await call("GET", `/customer-service/offline-list/${listId}/items?size=100`, { token })).body.data.records;
const settled = (token: string, listId: number, n: number) =>
  eventually(
    () => items(token, listId),
    (rows) => rows.length >= n && rows.every((r) => r.status !== "PENDING"),
  );
const push = (token: string, listId: number, body: Record<string, unknown>) => call("POST", `/customer-service/offline-list/${listId}/push`, { token, body });
const entries = (s: Sent) => (s.localAuthorizationList ?? []).map((e) => [e.idTag, e.idTagInfo?.status, e.idTagInfo?.parentIdTag]).sort();

async function makeList(token: string, body: Record<string, unknown>) {
  const res = await call("POST", "/customer-service/offline-list", { token, body: { name: "Night drivers", chargeableType: "RFID", ...body } });
  if (res.status !== 200) throw new Error(`makeList: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; customerIds: number[]; groupIds: number[] };
}

// Deliveries go through the queue and the chargers: more than the default 5 s on a loaded machine.
describe("offline lists (/customer-service/offline-list)", { timeout: 30_000 }, () => {
  it("sends Full first, then Differential with only the changes; each accepted push raises the point's version, which GetLocalListVersion reports", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const anna = await makeCustomerRow("0PL002");
    const piotr = await makeCustomerRow("0PL002");
    const group = await makeGroupRow("0PL002", [piotr.id]);
    const annaCard = await makeCardRow("0PL002", anna.id);
    const piotrCard = await makeCardRow("0PL002", piotr.id);
    await makeAppTokenRow("0PL002", anna.id);
    const list = await makeList(token, { customerIds: [anna.id], groupIds: [group.id] });
    const { pointId, serialNumber, sent, calls } = await listCharger();

    expect((await push(token, list.id, { pointIds: [pointId] })).status).toBe(200);
    const [first] = await settled(token, list.id, 1);
    // Without asking the charger anything first: no GetLocalListVersion, only the list itself.
    expect(calls).toEqual(["SendLocalList"]);
    expect(first).toMatchObject({ status: "SUCCESS", reason: "Accepted", updateType: "Full", listVersion: 1, entryCount: 2 });
    expect(sent[0].updateType).toBe("Full");
    expect(entries(sent[0])).toEqual(
      [
        [annaCard.idTag, "Accepted", undefined],
        [piotrCard.idTag, "Accepted", group.code],
      ].sort(),
    );

    const later = await makeCardRow("0PL002", anna.id);
    await setCard(annaCard.id, { status: "BLOCKED" });
    await setCard(piotrCard.id, { customerId: null, bindStatus: "UNBIND" });
    await push(token, list.id, { pointIds: [pointId] });
    await settled(token, list.id, 2);
    expect(sent[1]).toMatchObject({ updateType: "Differential", listVersion: 2 });
    expect(entries(sent[1])).toEqual(
      [
        [annaCard.idTag, "Blocked", undefined],
        [later.idTag, "Accepted", undefined],
        [piotrCard.idTag, "Blocked", undefined],
      ].sort(),
    );

    await push(token, list.id, { pointIds: [pointId] });
    await settled(token, list.id, 3);
    expect(sent[2]).toMatchObject({ updateType: "Differential", listVersion: 3 });
    expect(entries(sent[2])).toEqual([]);
    expect(calls).toEqual(["SendLocalList", "SendLocalList", "SendLocalList"]);
    const version = await call("GET", `/station-service/monitoring/getLocalListVersion/${serialNumber}`, { token });
    expect(version.body.data).toEqual({ listVersion: 3 });
    const listed = (await call("GET", "/customer-service/offline-list?size=100", { token })).body.data.records.find((l: { id: number }) => l.id === list.id);
    expect(listed).toMatchObject({ userCount: 2, pushedPointCount: 1, pushedStationCount: 1, sendStatus: "SUCCESS", chargeableType: "RFID" });
    expect(listed.lastPushAt).toEqual(expect.any(String));
  });

  it("puts app tokens on an APP list, cards on an RFID list and both on ALL", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    const card = await makeCardRow("0PL002", driver.id);
    const app = await makeAppTokenRow("0PL002", driver.id);
    for (const [type, tags] of [
      ["APP", [app.idTag]],
      ["ALL", [app.idTag, card.idTag].sort()],
    ] as const) {
      const list = await makeList(token, { customerIds: [driver.id], chargeableType: type });
      const { pointId, sent } = await listCharger();
      await push(token, list.id, { pointIds: [pointId] });
      await settled(token, list.id, 1);
      expect(entries(sent[0]).map((e) => e[0])).toEqual(tags);
    }
  });

  it("records a failed delivery with the charger's status or offline, and sends a failed item again on retry", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", driver.id);
    const list = await makeList(token, { customerIds: [driver.id] });
    let answer = "Failed";
    const { pointId, sent } = await listCharger("0PL002", () => answer);
    const silent = await makeCharger("0PL002");

    await push(token, list.id, { pointIds: [pointId, silent.pointId] });
    const rows = await settled(token, list.id, 2);
    const byPoint = new Map(rows.map((r) => [r.pointId, r]));
    expect(byPoint.get(pointId)).toMatchObject({ status: "FAIL", reason: "Failed", updateType: "Full", listVersion: 1 });
    expect(byPoint.get(silent.pointId)).toMatchObject({ status: "FAIL", reason: "offline" });
    expect(byPoint.get(pointId)!.answeredAt).toEqual(expect.any(String));
    expect((await call("GET", "/customer-service/offline-list?size=100", { token })).body.data.records.find((l: { id: number }) => l.id === list.id).sendStatus).toBe("FAIL");

    answer = "Accepted";
    const failed = byPoint.get(pointId)!;
    const retried = await call("PUT", `/customer-service/offline-list/${list.id}/items/${failed.id}/retry`, { token });
    expect(retried.body.data).toEqual({ id: failed.id, status: "PENDING" });
    const again = await eventually(
      async () => (await items(token, list.id)).find((r) => r.id === failed.id),
      (r) => r?.status !== "PENDING",
    );
    // The version was not raised by the failure: the retry is still the point's first list, Full.
    expect(again).toMatchObject({ status: "SUCCESS", updateType: "Full", listVersion: 1, attempts: 2 });
    expect(sent.map((s) => [s.updateType, s.listVersion])).toEqual([
      ["Full", 1],
      ["Full", 1],
    ]);
    const twice = await call("PUT", `/customer-service/offline-list/${list.id}/items/${failed.id}/retry`, { token });
    expect(twice.status).toBe(409);
  });

  it("records a delivery the charger never answers as FAIL 'timeout', and keeps the point's version", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", driver.id);
    const list = await makeList(token, { customerIds: [driver.id] });
    // Connected and booted, but it never answers SendLocalList (the test env waits OCPP_CALL_TIMEOUT_MS, 1.5 s).
    const made = await makeCharger("0PL002");
    const { charger } = await connect(made.serialNumber, { key: made.key });
    await boot(charger!);
    const asked = charger!.nextCall();

    await push(token, list.id, { pointIds: [made.pointId] });
    expect((await asked)[2]).toBe("SendLocalList");
    const [item] = await settled(token, list.id, 1);
    expect(item).toMatchObject({ status: "FAIL", reason: "timeout", updateType: "Full", listVersion: 1 });
    expect(item.answeredAt).toEqual(expect.any(String));
    const points = (await call("GET", `/customer-service/offline-list/${list.id}/points`, { token })).body.data.records;
    expect(points).toEqual([expect.objectContaining({ pointId: made.pointId, listVersion: 0, lastStatus: "FAIL", lastReason: "timeout", behind: true })]);
  });

  it("sends Full again after the charger answers VersionMismatch", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", driver.id);
    const list = await makeList(token, { customerIds: [driver.id] });
    const answers = ["Accepted", "VersionMismatch", "Accepted"];
    const { pointId, sent } = await listCharger("0PL002", () => answers.shift() ?? "Accepted");
    for (let n = 1; n <= 3; n++) {
      await push(token, list.id, { pointIds: [pointId] });
      await settled(token, list.id, n);
    }
    expect(sent.map((s) => [s.updateType, s.listVersion])).toEqual([
      ["Full", 1],
      ["Differential", 2],
      ["Full", 2],
    ]);
  });

  it("shows which points are behind: a card blocked after the push, or a delivery that failed", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    const card = await makeCardRow("0PL002", driver.id);
    const list = await makeList(token, { customerIds: [driver.id] });
    const up = await listCharger();
    const down = await makeCharger("0PL002");
    await push(token, list.id, { pointIds: [up.pointId, down.pointId] });
    await settled(token, list.id, 2);
    const points = async () => new Map((await call("GET", `/customer-service/offline-list/${list.id}/points?size=100`, { token })).body.data.records.map((p: { pointId: number }) => [p.pointId, p]));
    let view = await points();
    expect(view.get(up.pointId)).toMatchObject({ behind: false, listVersion: 1, lastStatus: "SUCCESS", pendingChanges: 0 });
    expect(view.get(down.pointId)).toMatchObject({ behind: true, listVersion: 0, lastStatus: "FAIL", lastReason: "offline" });
    await setCard(card.id, { status: "BLOCKED" });
    view = await points();
    expect(view.get(up.pointId)).toMatchObject({ behind: true, pendingChanges: 1 });
  });

  it("waits for the list's effective time: the cron hands the items to the queue once it has passed", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", driver.id);
    const effective = new Date(Date.now() + 3_600_000).toISOString();
    const list = await makeList(token, { customerIds: [driver.id], effectiveTime: effective });
    const { pointId, sent } = await listCharger();
    const res = await push(token, list.id, { pointIds: [pointId] });
    expect(res.body.data).toMatchObject({ items: 1, waitsUntil: effective });
    const [waiting] = await items(token, list.id);
    expect(waiting).toMatchObject({ status: "PENDING", waitsUntil: effective });

    // The hour passes (moved back in the record rather than waited for), then the cron runs.
    await env.DB.prepare("UPDATE offline_list_push_items SET not_before = ? WHERE id = ?").bind(Date.now() - 1000, waiting.id).run();
    const { createScheduledController, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../../workers/app")).default;
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/15 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    const [done] = await settled(token, list.id, 1);
    expect(done).toMatchObject({ status: "SUCCESS", updateType: "Full" });
    expect(sent).toHaveLength(1);
  });

  it("requires a customer or group, a chargeable type and a point or location to push to", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("POST", "/customer-service/offline-list?lang=de", { token, body: { name: "Empty", customerIds: [], groupIds: [] } });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toMatchObject({ chargeableType: "Bitte eine Ladeberechtigung wählen" });
    const none = await call("POST", "/customer-service/offline-list?lang=de", { token, body: { name: "Empty", chargeableType: "ALL" } });
    expect(none.body.data.fields).toMatchObject({ customerIds: "Bitte mindestens einen Kunden oder eine Gruppe wählen" });
    const driver = await makeCustomerRow("0PL002");
    const list = await makeList(token, { customerIds: [driver.id] });
    const nowhere = await push(token, list.id, {});
    expect(nowhere.status).toBe(400);
    expect((await call("POST", `/customer-service/offline-list/${list.id}/push`, { token })).status).toBe(400);
  });

  it("edits the members, and refuses to delete a list a charger holds", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const a = await makeCustomerRow("0PL002");
    const b = await makeCustomerRow("0PL002");
    await makeCardRow("0PL002", a.id);
    const list = await makeList(token, { customerIds: [a.id] });
    const edited = await call("PUT", `/customer-service/offline-list/${list.id}`, { token, body: { name: "Renamed", customerIds: [b.id], chargeableType: "ALL" } });
    expect(edited.body.data).toMatchObject({ name: "Renamed", customerIds: [b.id], groupIds: [], chargeableType: "ALL", userCount: 1 });
    const unused = await makeList(token, { customerIds: [a.id] });
    expect((await call("DELETE", `/customer-service/offline-list/${unused.id}`, { token })).status).toBe(200);
    const { pointId } = await listCharger();
    await call("PUT", `/customer-service/offline-list/${list.id}`, { token, body: { name: "Renamed", customerIds: [a.id], chargeableType: "ALL" } });
    await push(token, list.id, { pointIds: [pointId] });
    await settled(token, list.id, 1);
    const refused = await call("DELETE", `/customer-service/offline-list/${list.id}`, { token });
    expect(refused.status).toBe(409);
  });

  it("never shows or changes another operator's lists, and takes none of its customers, groups, points or stations (404)", async () => {
    const pl = await tokenFor("0PL002", "demoadmin");
    const de = await tokenFor("0DE001", "deadmin1");
    const mine = await makeCustomerRow("0PL002");
    const foreign = await makeCustomerRow("0DE001");
    const foreignGroup = await makeGroupRow("0DE001", [foreign.id]);
    const list = await makeList(pl, { customerIds: [mine.id] });
    const foreignPoint = await makeCharger("0DE001");
    for (const [method, path, body] of [
      ["GET", `/customer-service/offline-list/${list.id}`],
      ["PUT", `/customer-service/offline-list/${list.id}`, { name: "X", customerIds: [foreign.id], chargeableType: "ALL" }],
      ["DELETE", `/customer-service/offline-list/${list.id}`],
      ["POST", `/customer-service/offline-list/${list.id}/push`, { pointIds: [foreignPoint.pointId] }],
      ["GET", `/customer-service/offline-list/${list.id}/items`],
      ["GET", `/customer-service/offline-list/${list.id}/points`],
      ["PUT", `/customer-service/offline-list/${list.id}/items/1/retry`],
    ] as const) {
      expect((await call(method, path, { token: de, body })).status, `${method} ${path}`).toBe(404);
    }
    expect((await call("POST", "/customer-service/offline-list", { token: pl, body: { name: "X", customerIds: [foreign.id], chargeableType: "ALL" } })).status).toBe(404);
    expect((await call("POST", "/customer-service/offline-list", { token: pl, body: { name: "X", groupIds: [foreignGroup.id], chargeableType: "ALL" } })).status).toBe(404);
    // As many groups as a list takes (100), one of them another operator's: counted in slices, a 404, never D1's limit.
    const hundred = [foreignGroup.id, ...Array.from({ length: 99 }, (_, i) => foreignGroup.id + 1_000_000 + i)];
    expect((await call("POST", "/customer-service/offline-list", { token: pl, body: { name: "X", groupIds: hundred, chargeableType: "ALL" } })).status).toBe(404);
    expect((await push(pl, list.id, { pointIds: [foreignPoint.pointId] })).status).toBe(404);
    const [{ id: foreignStation }] = (await env.DB.prepare("SELECT station_id AS id FROM points WHERE id = ?").bind(foreignPoint.pointId).all<{ id: number }>()).results;
    expect((await push(pl, list.id, { stationIds: [foreignStation] })).status).toBe(404);
    expect(await items(pl, list.id)).toEqual([]);
  });

  it("refuses the offline-list API to an account without its menu (403)", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const driver = await makeCustomerRow("0PL002");
    const list = await makeList(admin, { customerIds: [driver.id] });
    const account = await makeAccount("0PL002", admin, (await makeRole(admin, { menuCodes: ["users.vehicle"] })).id);
    const token = (await login("0PL002", account.username, account.password)).body.data.accessToken;
    expect((await call("GET", "/customer-service/offline-list", { token })).status).toBe(403);
    expect((await call("GET", `/customer-service/offline-list/${list.id}`, { token })).status).toBe(403);
    expect((await push(token, list.id, { pointIds: [1] })).status).toBe(403);
    expect((await call("GET", "/customer-service/offline-list/groups", { token })).status).toBe(403);
  });
});
