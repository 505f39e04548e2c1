import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { customerBody, makeCard, makeCustomer, makeGroup, uniqueTag } from "./support/drivers";
import { makeAccount, makeCharger, makeRole } from "./support/factories";
import { call, login, tokenFor } from "./support/http";

let pl: string;
let de: string;
beforeAll(async () => {
  pl = await tokenFor("0PL002", "demoadmin");
  de = await tokenFor("0DE001", "deadmin1");
});

/** A token of a fresh account whose role holds exactly these menus. */
async function holding(menuCodes: string[]) {
  const role = await makeRole(pl, { menuCodes });
  const account = await makeAccount("0PL002", pl, role.id);
  return (await login("0PL002", account.username, account.password)).body.data.accessToken;
}

describe("customers (docs/rules/drivers.md \"Customers\")", () => {
  it("creates a customer with every field, NORMAL level, zero balance and NORMAL status, and reads it back", async () => {
    const body = customerBody({
      gender: "OTHER",
      country: "br",
      district: "Centro",
      street: "Rua Augusta",
      houseNumber: "12",
      state: "SP",
      complement: "apto 3",
      cpf: "529.982.247-25",
      idCard: "ID-77",
      carPlate: "ABC1D23",
      carBrand: "BYD",
      carModel: "Dolphin",
      overdraftCredit: 5000,
      // Read-only here: ignored.
      memberLevel: "GOLD",
      balance: 999,
    });
    const res = await call("POST", "/customer-service/customer", { token: pl, body });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      firstName: body.firstName,
      lastName: body.lastName,
      gender: "OTHER",
      email: body.email,
      phone: "+48 600 000 000",
      country: "BR",
      zipCode: "00-001",
      district: "Centro",
      street: "Rua Augusta",
      houseNumber: "12",
      state: "SP",
      complement: "apto 3",
      // A Polish operator does not take a CPF (tests/integration/customer-fields.test.ts asks a Brazilian one).
      cpf: null,
      idCard: "ID-77",
      evModel: "Kia EV6",
      carPlate: "ABC1D23",
      carBrand: "BYD",
      carModel: "Dolphin",
      memberLevel: "NORMAL",
      balance: 0,
      overdraftCredit: 5000,
      payWay: "PERSONAL",
      groupId: null,
      chargeAllPoint: true,
      chargePointList: [],
      status: "NORMAL",
    });
    const detail = await call("GET", `/customer-service/customer/${res.body.data.id}`, { token: pl });
    expect(detail.body.data).toMatchObject({ customer: { id: res.body.data.id, cpf: null }, group: null, cards: [], paysFrom: { kind: "PERSONAL", balance: 0 } });
  });

  it("requires a country and checks email, phone and the CPF's check digits (gender, zip code and EV model as the settings say)", async () => {
    const res = await call("POST", "/customer-service/customer", {
      token: pl,
      body: { firstName: "A", lastName: "B", email: "not-an-email", phone: "600 000 000", cpf: "529.982.247-24" },
    });
    expect(res.status).toBe(400);
    expect(res.body.data.fields).toEqual({
      email: "Please enter a valid email address",
      phone: "Please enter a valid phone number",
      country: "Please choose a country",
      cpf: "This CPF is not valid (check digits)",
    });
    const polish = await call("POST", "/customer-service/customer?lang=pl", { token: pl, body: customerBody({ country: "XX", cpf: "111.111.111-11" }) });
    expect(polish.body.data.fields).toEqual({ country: "Wybierz kraj", cpf: "Ten CPF jest nieprawidłowy (cyfry kontrolne)" });
    const level = await call("GET", "/customer-service/customer?memberLevel=PLATINUM", { token: pl });
    expect(level.status).toBe(400);
  });

  it("keeps one customer per e-mail address within an operator, compared case-insensitively", async () => {
    const first = await makeCustomer(pl);
    const again = await call("POST", "/customer-service/customer", { token: pl, body: customerBody({ email: first.email.toUpperCase() }) });
    expect(again.status).toBe(400);
    expect(again.body.data.fields).toEqual({ email: "Another customer already has this email address" });
    // Another operator may have a customer with the same address.
    expect((await call("POST", "/customer-service/customer", { token: de, body: customerBody({ email: first.email, country: "DE" }) })).status).toBe(200);
  });

  it("edits a customer without touching level, balance or status, and replaces the points it may charge at", async () => {
    const a = await makeCharger("0PL002");
    const b = await makeCharger("0PL002");
    const customer = await makeCustomer(pl, { chargeAllPoint: false, chargePointList: [a.pointId] });
    await env.DB.prepare("UPDATE customers SET balance = 1234, member_level = 'SILVER' WHERE id = ?").bind(customer.id).run();
    const res = await call("PUT", `/customer-service/customer/${customer.id}`, {
      token: pl,
      body: customerBody({ email: customer.email, firstName: "Renamed", chargeAllPoint: false, chargePointList: [b.pointId, b.pointId], balance: 0 }),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ firstName: "Renamed", balance: 1234, memberLevel: "SILVER", status: "NORMAL", chargePointList: [b.pointId] });
    const detail = await call("GET", `/customer-service/customer/${customer.id}`, { token: pl });
    expect(detail.body.data.chargePoints.map((p: { id: number }) => p.id)).toEqual([b.pointId]);
    const none = await call("PUT", `/customer-service/customer/${customer.id}`, { token: pl, body: customerBody({ chargeAllPoint: false, chargePointList: [] }) });
    expect(none.body.data.fields).toEqual({ chargePointList: "Choose at least one charging point" });
    // Another operator's point is not found.
    const theirs = await makeCharger("0DE001");
    const foreign = await call("PUT", `/customer-service/customer/${customer.id}`, { token: pl, body: customerBody({ chargeAllPoint: false, chargePointList: [theirs.pointId] }) });
    expect(foreign.status).toBe(404);
  });

  it("deletes a customer and unbinds its cards, but not while it leads a group or holds a balance", async () => {
    const customer = await makeCustomer(pl);
    const card = await makeCard(pl, { customerId: customer.id });
    const leader = await makeCustomer(pl);
    await makeGroup(pl, leader.id);
    expect((await call("DELETE", `/customer-service/customer/${leader.id}`, { token: pl })).status).toBe(409);
    const rich = await makeCustomer(pl);
    await env.DB.prepare("UPDATE customers SET balance = 1 WHERE id = ?").bind(rich.id).run();
    expect((await call("DELETE", `/customer-service/customer/${rich.id}`, { token: pl })).status).toBe(409);
    expect((await call("DELETE", `/customer-service/customer/${customer.id}`, { token: pl })).status).toBe(200);
    expect((await call("GET", `/customer-service/customer/${customer.id}`, { token: pl })).status).toBe(404);
    expect((await call("GET", `/customer-service/rf-card/${card.id}`, { token: pl })).body.data).toMatchObject({ bindStatus: "UNBIND", customerId: null });
  });

  it("filters by name, email, phone, member level, status and group", async () => {
    const tag = uniqueTag("Q").toLowerCase();
    const a = await makeCustomer(pl, { firstName: `Zofia${tag}`, phone: "+48 511 222 333" });
    const b = await makeCustomer(pl, { lastName: `Lis${tag}` });
    await call("PUT", `/customer-service/customer/${b.id}/status`, { token: pl, body: { status: "ABNORMAL" } });
    const group = await makeGroup(pl, a.id);
    const ids = async (query: string) => (await call("GET", `/customer-service/customer?size=100&${query}`, { token: pl })).body.data.records.map((c: { id: number }) => c.id);
    expect(await ids(`name=${tag}`)).toEqual([b.id, a.id]);
    expect(await ids(`name=${encodeURIComponent(`Zofia${tag} Test`)}`)).toEqual([a.id]);
    expect(await ids(`name=${tag}&status=ABNORMAL`)).toEqual([b.id]);
    expect(await ids(`name=${tag}&memberLevel=NORMAL`)).toEqual([b.id, a.id]);
    expect(await ids(`groupId=${group.id}`)).toEqual([a.id]);
    expect(await ids(`email=${encodeURIComponent(b.email)}`)).toEqual([b.id]);
    expect(await ids(`name=${tag}&phone=${encodeURIComponent("511 222")}`)).toEqual([a.id]);
  });
});

describe("customer groups (docs/rules/drivers.md \"Customer groups\")", () => {
  it("creates a group whose code is unique within the operator, with a leader among its members", async () => {
    const leader = await makeCustomer(pl);
    const member = await makeCustomer(pl, { payWay: "PERSONAL" });
    const code = uniqueTag("G");
    const res = await call("POST", "/customer-service/group", {
      token: pl,
      body: { name: "Taxi fleet", code, leaderId: leader.id, memberIds: [leader.id, member.id], deductionAccount: "PL61109010140000071219812874", deductionEmail: "fleet@example.com" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ code, leaderId: leader.id, memberIds: [leader.id, member.id], deductionEmail: "fleet@example.com" });
    const dup = await call("POST", "/customer-service/group", { token: pl, body: { name: "Other", code: code.toLowerCase(), leaderId: member.id, memberIds: [member.id] } });
    expect(dup.status).toBe(400);
    expect(dup.body.data.fields.code).toBe("Another group already has this code");
    // The same code is free in another operator.
    const theirs = await makeCustomer(de, { country: "DE" });
    expect((await call("POST", "/customer-service/group", { token: de, body: { name: "Other", code, leaderId: theirs.id, memberIds: [theirs.id] } })).status).toBe(200);
  });

  it("requires at least one member, a leader among them, and members of no other group", async () => {
    const a = await makeCustomer(pl);
    const b = await makeCustomer(pl);
    const none = await call("POST", "/customer-service/group", { token: pl, body: { name: "Empty", code: uniqueTag("G"), leaderId: a.id, memberIds: [] } });
    expect(none.body.data.fields).toMatchObject({ memberIds: "Select at least one customer" });
    const outside = await call("POST", "/customer-service/group", { token: pl, body: { name: "X", code: uniqueTag("G"), leaderId: a.id, memberIds: [b.id] } });
    expect(outside.body.data.fields).toEqual({ leaderId: "The leader must be one of the members" });
    const code = await call("POST", "/customer-service/group", { token: pl, body: { name: "X", code: "TWENTY-ONE-CHARACTERS", leaderId: a.id, memberIds: [a.id] } });
    expect(code.body.data.fields).toEqual({ code: "Use 1 to 20 printable characters without spaces" });
    await makeGroup(pl, a.id);
    const taken = await call("POST", "/customer-service/group", { token: pl, body: { name: "Y", code: uniqueTag("G"), leaderId: b.id, memberIds: [a.id, b.id] } });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toContain(`${(await call("GET", `/customer-service/customer/${a.id}`, { token: pl })).body.data.customer.name}`);
  });

  it("stores LEADER payers, shows whose balance pays, and lets members who leave pay personally again", async () => {
    const leader = await makeCustomer(pl, { firstName: "Lena" });
    const member = await makeCustomer(pl);
    const group = await makeGroup(pl, leader.id, [leader.id, member.id]);
    const pays = await call("PUT", `/customer-service/customer/${member.id}`, { token: pl, body: customerBody({ email: member.email, payWay: "LEADER", groupId: group.id }) });
    expect(pays.body.data).toMatchObject({ payWay: "LEADER", groupId: group.id });
    const detail = await call("GET", `/customer-service/customer/${member.id}`, { token: pl });
    expect(detail.body.data.paysFrom).toMatchObject({ kind: "LEADER", customerId: leader.id });
    const members = await call("GET", `/customer-service/group/member?groupId=${group.id}`, { token: pl });
    expect(members.body.data.records.find((r: { customerId: number }) => r.customerId === member.id)).toMatchObject({ payWay: "LEADER", paysFrom: `Lena ${leader.lastName}` });
    const noGroup = await call("PUT", `/customer-service/customer/${member.id}`, { token: pl, body: customerBody({ email: member.email, payWay: "LEADER", groupId: null }) });
    expect(noGroup.body.data.fields).toEqual({ payWay: "Only a group member can pay with the leader's account" });
    const edit = await call("PUT", `/customer-service/group/${group.id}`, { token: pl, body: { name: "Fleet", code: group.code, leaderId: leader.id, memberIds: [leader.id] } });
    expect(edit.body.data.memberIds).toEqual([leader.id]);
    expect((await call("GET", `/customer-service/customer/${member.id}`, { token: pl })).body.data.customer).toMatchObject({ groupId: null, payWay: "PERSONAL" });
    // The leader stays in the group it leads.
    const leaves = await call("PUT", `/customer-service/customer/${leader.id}`, { token: pl, body: customerBody({ email: leader.email, groupId: null }) });
    expect(leaves.status).toBe(409);
  });

  it("deletes a group and keeps its members, outside any group", async () => {
    const leader = await makeCustomer(pl);
    const group = await makeGroup(pl, leader.id);
    expect((await call("GET", `/customer-service/group/${group.id}`, { token: pl })).body.data).toMatchObject({ memberIds: [leader.id], members: [{ id: leader.id }] });
    expect((await call("DELETE", `/customer-service/group/${group.id}`, { token: pl })).status).toBe(200);
    expect((await call("GET", `/customer-service/group/${group.id}`, { token: pl })).status).toBe(404);
    expect((await call("GET", `/customer-service/customer/${leader.id}`, { token: pl })).body.data.customer.groupId).toBeNull();
  });
});

describe("RFID cards (docs/rules/drivers.md \"RFID cards\")", () => {
  it("needs only the id tag and the delivery type; a new card is VALID and UNBIND, with the delivery details of its type", async () => {
    const bare = await call("POST", "/customer-service/rf-card", { token: pl, body: {} });
    expect(bare.body.data.fields).toEqual({ idTag: "Please enter the RFID number", deliveryType: "Please choose a delivery type" });
    const idTag = uniqueTag();
    const res = await call("POST", "/customer-service/rf-card", {
      token: pl,
      body: { idTag, deliveryType: "TAKE", pickupNumber: "P-1", pickupPhone: "+48 600 000 001", pickupAddress: "Desk 1", trackingNumber: "dropped" },
    });
    expect(res.body.data).toMatchObject({ idTag, status: "VALID", bindStatus: "UNBIND", customerId: null, expiryDate: null, pickupNumber: "P-1", trackingNumber: null });
    const bad = await call("POST", "/customer-service/rf-card", { token: pl, body: { idTag: "has space", deliveryType: "DRONE", expiryDate: "tomorrow" } });
    expect(bad.body.data.fields).toEqual({
      idTag: "Use printable characters without spaces",
      deliveryType: "Please choose a delivery type",
      expiryDate: "Please enter a valid expiry date",
    });
  });

  it("refuses a taken id tag with the field's 400, case-insensitively and against the operator's other tags", async () => {
    const card = await makeCard(pl);
    for (const idTag of [card.idTag.toLowerCase(), "plremote", "DEMO0001"]) {
      const res = await call("POST", "/customer-service/rf-card?lang=de", { token: pl, body: { idTag, deliveryType: "TAKE" } });
      expect(res.status).toBe(400);
      expect(res.body.data.fields).toEqual({ idTag: "Diese RFID-Nummer ist bereits registriert" });
    }
    const other = await makeCard(pl);
    const edit = await call("PUT", `/customer-service/rf-card/${other.id}`, { token: pl, body: { idTag: card.idTag, deliveryType: "TAKE" } });
    expect(edit.body.data.fields).toEqual({ idTag: "This RFID number is already registered" });
    // Another operator's tags are theirs alone.
    expect((await call("POST", "/customer-service/rf-card", { token: de, body: { idTag: card.idTag, deliveryType: "TAKE" } })).status).toBe(200);
  });

  it("binds only an unbound card, unbinds only a bound one, and never a lost one", async () => {
    const owner = await makeCustomer(pl);
    const card = await makeCard(pl);
    expect((await call("PUT", `/customer-service/rf-card/${card.id}/unbind`, { token: pl })).status).toBe(409);
    expect((await call("PUT", `/customer-service/rf-card/${card.id}/bind`, { token: pl, body: {} })).status).toBe(400);
    expect((await call("PUT", `/customer-service/rf-card/${card.id}/bind`, { token: pl, body: { customerId: owner.id } })).status).toBe(200);
    expect((await call("PUT", `/customer-service/rf-card/${card.id}/bind`, { token: pl, body: { customerId: owner.id } })).status).toBe(409);
    const theirs = await makeCustomer(de, { country: "DE" });
    const unbound = await makeCard(pl);
    expect((await call("PUT", `/customer-service/rf-card/${unbound.id}/bind`, { token: pl, body: { customerId: theirs.id } })).status).toBe(404);
    await call("PUT", `/customer-service/rf-card/${card.id}/lost`, { token: pl, body: { newIdTag: uniqueTag("N") } });
    expect((await call("PUT", `/customer-service/rf-card/${card.id}/unbind`, { token: pl })).status).toBe(409);
  });

  it("changes a bound card's owner only through unbind and bind: an edit keeps it, or gives an unbound card one", async () => {
    const [anna, jan] = [await makeCustomer(pl), await makeCustomer(pl)];
    const card = await makeCard(pl, { customerId: anna.id });
    const edit = (body: Record<string, unknown>, lang = "en") => call("PUT", `/customer-service/rf-card/${card.id}?lang=${lang}`, { token: pl, body: { idTag: card.idTag, deliveryType: "TAKE", ...body } });
    // The form sends the owner it shows: the same one, or none at all, keeps it.
    expect((await edit({ cardName: "Kept", customerId: anna.id })).body.data).toMatchObject({ cardName: "Kept", bindStatus: "BIND", customerId: anna.id });
    expect((await edit({ cardName: "Still kept" })).body.data).toMatchObject({ cardName: "Still kept", bindStatus: "BIND", customerId: anna.id });
    // Another owner, or none, is bind's and unbind's to decide.
    for (const customerId of [jan.id, null]) {
      const moved = await edit({ customerId }, "de");
      expect(moved.status).toBe(409);
      expect(moved.body.msg).toBe("Eine zugeordnete Karte wechselt den Inhaber nur, indem sie gelöst und neu zugeordnet wird");
    }
    expect((await call("GET", `/customer-service/rf-card/${card.id}`, { token: pl })).body.data).toMatchObject({ cardName: "Still kept", customerId: anna.id });
    // Unbound, it may be given an owner by an edit, as bind would.
    await call("PUT", `/customer-service/rf-card/${card.id}/unbind`, { token: pl });
    expect((await edit({ customerId: jan.id })).body.data).toMatchObject({ bindStatus: "BIND", customerId: jan.id });
  });

  it("filters by id tag, card name, status, bind status and owner", async () => {
    const owner = await makeCustomer(pl, { firstName: `Own${uniqueTag("O")}` });
    const mark = uniqueTag("F");
    const a = await makeCard(pl, { idTag: `${mark}A`, cardName: `Name ${mark}`, customerId: owner.id });
    const b = await makeCard(pl, { idTag: `${mark}B` });
    await call("PUT", `/customer-service/rf-card/${b.id}/status`, { token: pl, body: { status: "BLOCKED" } });
    const ids = async (query: string) => (await call("GET", `/customer-service/rf-card?size=100&${query}`, { token: pl })).body.data.records.map((c: { id: number }) => c.id);
    expect(await ids(`idTag=${mark.toLowerCase()}`)).toEqual([b.id, a.id]);
    expect(await ids(`cardName=${mark}`)).toEqual([a.id]);
    expect(await ids(`idTag=${mark}&status=BLOCKED`)).toEqual([b.id]);
    expect(await ids(`idTag=${mark}&bindStatus=BIND`)).toEqual([a.id]);
    expect(await ids(`customerId=${owner.id}`)).toEqual([a.id]);
    expect(await ids(`owner=${encodeURIComponent(owner.firstName)}`)).toEqual([a.id]);
    expect((await call("GET", "/customer-service/rf-card?status=GONE", { token: pl })).status).toBe(400);
    const listed = (await call("GET", `/customer-service/rf-card?customerId=${owner.id}`, { token: pl })).body.data.records[0];
    expect(listed).toMatchObject({ customerName: `${owner.firstName} ${owner.lastName}`, customerEmail: owner.email });
  });

  it("imports all rows or none, reporting each bad cell by line and field", async () => {
    const owner = await makeCustomer(pl);
    const existing = await makeCard(pl);
    const fresh = [uniqueTag("I"), uniqueTag("I")];
    const bad = await call("POST", "/customer-service/rf-card/import", {
      token: pl,
      body: {
        rows: [
          { line: 2, idTag: fresh[0], deliveryType: "TAKE", ownerEmail: owner.email.toUpperCase() },
          { line: 3, idTag: existing.idTag.toLowerCase(), deliveryType: "TAKE" },
          { line: 4, idTag: fresh[0], deliveryType: "SEND", ownerEmail: "nobody@example.com" },
          { line: 5, idTag: "", deliveryType: "POST", expiryDate: "soon" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Nothing was imported: 3 rows have errors");
    expect(bad.body.data.fields).toEqual({
      "3.idTag": "This RFID number is already registered",
      "4.idTag": "This RFID number appears twice in the file",
      "4.ownerEmail": "No customer has this email address",
      "5.idTag": "Please enter the RFID number",
      "5.deliveryType": "Please choose a delivery type",
      "5.expiryDate": "Please enter a valid expiry date",
    });
    expect((await call("GET", `/customer-service/rf-card?idTag=${fresh[0]}`, { token: pl })).body.data.total).toBe(0);
    const good = await call("POST", "/customer-service/rf-card/import", {
      token: pl,
      body: {
        rows: [
          { line: 2, idTag: fresh[0], cardName: 1001, deliveryType: "TAKE", ownerEmail: owner.email, expiryDate: "2030-01-01T00:00:00Z" },
          { line: 3, idTag: fresh[1], deliveryType: "SEND", recipientName: "Ewa" },
        ],
      },
    });
    expect(good.body.data).toEqual({ imported: 2 });
    const cards = (await call("GET", `/customer-service/rf-card?customerId=${owner.id}`, { token: pl })).body.data.records;
    expect(cards).toMatchObject([{ idTag: fresh[0], cardName: "1001", status: "VALID", bindStatus: "BIND", deliveryType: "TAKE", expiryDate: "2030-01-01T00:00:00.000Z" }]);
    // The delivery type is required, as in the form: a blank cell is reported, never taken for TAKE.
    const sent = uniqueTag("I");
    const blank = await call("POST", "/customer-service/rf-card/import", {
      token: pl,
      body: { rows: [{ line: 2, idTag: sent, deliveryType: "SEND" }, { line: 3, idTag: uniqueTag("I"), cardName: "No delivery" }, { line: 4, idTag: uniqueTag("I"), deliveryType: "" }] },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.data.fields).toEqual({ "3.deliveryType": "Please choose a delivery type", "4.deliveryType": "Please choose a delivery type" });
    expect((await call("GET", `/customer-service/rf-card?idTag=${sent}`, { token: pl })).body.data.total).toBe(0);
    const tooMany = await call("POST", "/customer-service/rf-card/import", { token: pl, body: { rows: Array.from({ length: 501 }, (_, i) => ({ idTag: `X${i}` })) } });
    expect(tooMany.body.data.fields).toEqual({ rows: "At most 500 cards per file" });
  });

  it("imports 500 cards within D1's limits", async () => {
    const mark = uniqueTag("M");
    const rows = Array.from({ length: 500 }, (_, i) => ({ line: i + 2, idTag: `${mark}${i}`, cardName: `Card ${i}`, deliveryType: "TAKE", pickupNumber: `P${i}` }));
    const res = await call("POST", "/customer-service/rf-card/import", { token: pl, body: { rows } });
    expect(res.body).toMatchObject({ code: 200, data: { imported: 500 } });
  });
});

describe("tenancy and permissions of drivers", () => {
  it("answers another operator's customer, group and card with 404 on every verb", async () => {
    const customer = await makeCustomer(pl);
    const group = await makeGroup(pl, customer.id);
    const card = await makeCard(pl, { customerId: customer.id });
    const paths: [string, string, unknown?][] = [
      ["GET", `/customer-service/customer/${customer.id}`],
      ["PUT", `/customer-service/customer/${customer.id}`, customerBody({ country: "DE" })],
      ["PUT", `/customer-service/customer/${customer.id}/status`, { status: "ABNORMAL" }],
      ["DELETE", `/customer-service/customer/${customer.id}`],
      ["GET", `/customer-service/group/${group.id}`],
      ["PUT", `/customer-service/group/${group.id}`, { name: "X", code: uniqueTag("G"), leaderId: customer.id, memberIds: [customer.id] }],
      ["DELETE", `/customer-service/group/${group.id}`],
      ["GET", `/customer-service/rf-card/${card.id}`],
      ["PUT", `/customer-service/rf-card/${card.id}`, { idTag: uniqueTag(), deliveryType: "TAKE" }],
      ["PUT", `/customer-service/rf-card/${card.id}/status`, { status: "BLOCKED" }],
      ["PUT", `/customer-service/rf-card/${card.id}/bind`, { customerId: customer.id }],
      ["PUT", `/customer-service/rf-card/${card.id}/unbind`],
      ["PUT", `/customer-service/rf-card/${card.id}/lost`, { newIdTag: uniqueTag() }],
      ["DELETE", `/customer-service/rf-card/${card.id}`],
    ];
    for (const [method, path, body] of paths) {
      const res = await call(method, path, { token: de, body });
      expect([path, res.status]).toEqual([path, 404]);
    }
    // Lists and pickers show nothing of another operator.
    expect((await call("GET", `/customer-service/customer?email=${encodeURIComponent(customer.email)}`, { token: de })).body.data.total).toBe(0);
    expect((await call("GET", `/customer-service/rf-card?idTag=${card.idTag}`, { token: de })).body.data.total).toBe(0);
    expect((await call("GET", `/customer-service/group?code=${group.code}`, { token: de })).body.data.total).toBe(0);
    expect((await call("GET", `/customer-service/customer/options?keyword=${encodeURIComponent(customer.email)}`, { token: de })).body.data).toEqual([]);
    // A card may not be given another operator's customer, nor a group its members.
    expect((await call("POST", "/customer-service/rf-card", { token: de, body: { idTag: uniqueTag(), deliveryType: "TAKE", customerId: customer.id } })).status).toBe(404);
    const theirs = await makeCustomer(de, { country: "DE" });
    const foreign = await call("POST", "/customer-service/group", { token: de, body: { name: "X", code: uniqueTag("G"), leaderId: theirs.id, memberIds: [theirs.id, customer.id] } });
    expect(foreign.status).toBe(404);
    // Nor may their card be bound to our customer, nor their customer put in our group.
    const theirCard = await makeCard(de);
    expect((await call("PUT", `/customer-service/rf-card/${theirCard.id}/bind`, { token: de, body: { customerId: customer.id } })).status).toBe(404);
    expect((await call("PUT", `/customer-service/rf-card/${theirCard.id}`, { token: de, body: { idTag: theirCard.idTag, deliveryType: "TAKE", customerId: customer.id } })).status).toBe(404);
    const grouped = await call("PUT", `/customer-service/customer/${theirs.id}`, { token: de, body: customerBody({ email: theirs.email, country: "DE", groupId: group.id }) });
    expect(grouped.status).toBe(404);
    expect((await call("GET", `/customer-service/group/options?keyword=${group.code}`, { token: de })).body.data).toEqual([]);
    // Nothing changed.
    expect((await call("GET", `/customer-service/rf-card/${card.id}`, { token: pl })).body.data).toMatchObject({ status: "VALID", bindStatus: "BIND", customerId: customer.id });
    expect((await call("GET", `/customer-service/rf-card/${theirCard.id}`, { token: de })).body.data).toMatchObject({ bindStatus: "UNBIND", customerId: null });
    expect((await call("GET", `/customer-service/customer/${theirs.id}`, { token: de })).body.data.customer.groupId).toBeNull();
  });

  it("refuses each screen's API to an account without its menu (403)", async () => {
    const none = await holding(["home"]);
    for (const [method, path] of [
      ["GET", "/customer-service/customer"],
      ["GET", "/customer-service/group"],
      ["GET", "/customer-service/group/member"],
      ["GET", "/customer-service/rf-card"],
      ["POST", "/customer-service/rf-card/import"],
    ]) {
      expect([path, (await call(method, path, { token: none, body: method === "POST" ? { rows: [{}] } : undefined })).status]).toEqual([path, 403]);
    }
  });

  it("lets the card, group-list and customer screens read what they pick from, and change only their own records", { timeout: 20_000 }, async () => {
    const cardsOnly = await holding(["home", "users.rfCard"]);
    expect((await call("GET", "/customer-service/customer/options", { token: cardsOnly })).status).toBe(200);
    expect((await call("POST", "/customer-service/customer", { token: cardsOnly, body: customerBody() })).status).toBe(403);
    expect((await call("POST", "/customer-service/rf-card", { token: cardsOnly, body: { idTag: uniqueTag(), deliveryType: "TAKE" } })).status).toBe(200);
    const groupList = await holding(["home", "users.groupList"]);
    expect((await call("GET", "/customer-service/group/member", { token: groupList })).status).toBe(200);
    expect((await call("GET", "/customer-service/group", { token: groupList })).status).toBe(200);
    const leader = await makeCustomer(pl);
    expect((await call("POST", "/customer-service/group", { token: groupList, body: { name: "X", code: uniqueTag("G"), leaderId: leader.id, memberIds: [leader.id] } })).status).toBe(403);
    expect((await call("GET", "/customer-service/rf-card", { token: groupList })).status).toBe(403);
    const customersOnly = await holding(["home", "users.userProfile"]);
    expect((await call("GET", "/customer-service/rf-card", { token: customersOnly })).status).toBe(200);
    expect((await call("POST", "/customer-service/rf-card", { token: customersOnly, body: { idTag: uniqueTag(), deliveryType: "TAKE" } })).status).toBe(403);
    expect((await call("POST", "/customer-service/group", { token: customersOnly, body: { name: "X", code: uniqueTag("G"), leaderId: leader.id, memberIds: [leader.id] } })).status).toBe(403);
  });

  it("keeps drivers closed to the sub-operator, whose menu has no user management", async () => {
    const sub = await tokenFor("0PL002A", "subadmin1");
    for (const path of ["/customer-service/customer", "/customer-service/group", "/customer-service/rf-card"]) {
      expect([path, (await call("GET", path, { token: sub })).status]).toEqual([path, 403]);
    }
  });
});
