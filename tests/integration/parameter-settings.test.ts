import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import en from "../../domain/i18n/locales/en/settings.json";
import pl from "../../domain/i18n/locales/pl/settings.json";
import { authorize } from "../../workers/services/ocpp/tag-answers";
import { systemCtx } from "../../workers/services/context";
import { makeAccount, makeRole } from "./support/factories";
import { call, ORIGIN, tokenFor } from "./support/http";

const PATH = "/system-service/parameter-settings";
const V = en.settings.validation;

const operatorOf = async (code: string) =>
  (await env.DB.prepare("SELECT id, code FROM operators WHERE code = ?").bind(code).first<{ id: number; code: string }>())!;

/** The document an operator's console would send back: what GET answered, changed by `change`. */
async function documentOf(token: string, change: (doc: any) => void = () => undefined) {
  const doc = structuredClone((await call("GET", PATH, { token })).body.data);
  change(doc);
  return doc;
}

describe("parameter settings: one document per operator", () => {
  it("answers every item with the demo operator's values and defaults, never a secret", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await call("GET", PATH, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      mainCurrency: "PLN",
      currencies: [{ code: "PLN", sign: "zł", decimals: 2 }],
      membership: { silverFee: 5000, goldFee: 10000, silverDiscount: 5, goldDiscount: 10 },
      tax: { mark: "VAT", inclusive: true, rate: "0" },
      timeZone: "Europe/Warsaw",
      defaultLanguage: "en",
      map: { provider: "osm", centre: { lat: "52.2297", lng: "21.0122" }, zoom: 11 },
      rfCardRestriction: false,
      hideZeroCosts: false,
      decimalSeparator: null,
      decimals: 2,
      billPush: { url: null, signatureKey: null, signatureKeySet: false },
      // The seed gives the demo operator its OCPI identity (docs/rules/demo.md "Demo roaming").
      ocpi: { countryCode: "PL", partyId: "PLD" },
    });
    expect(res.body.data.connectorTypeOrder).toHaveLength(9);
    expect(res.body.data.areaCodes).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+$/)]));
  });

  it("gives an operator without a stored document the defaults for every item", async () => {
    const { id } = await operatorOf("0DE001");
    await env.DB.prepare("UPDATE parameter_settings SET document = '{}' WHERE operator_id = ?").bind(id).run();
    const token = await tokenFor("0DE001", "deadmin1");
    const data = (await call("GET", PATH, { token })).body.data;
    expect(data).toMatchObject({
      // The row's own columns still count: its currency, time zone and area codes.
      mainCurrency: "EUR",
      currencies: [{ code: "EUR", sign: "€", decimals: 2 }],
      decimals: 2,
      timeZone: "Europe/Berlin",
      membership: { silverFee: 0, goldFee: 1, silverDiscount: 0, goldDiscount: 0 },
      tax: { mark: "", inclusive: true, rate: "0" },
      map: { provider: "osm", keys: { bing: null, google: null }, zoom: 2 },
      rechargeParameter: { presets: [] },
      billPush: { url: null, signatureKeySet: false },
    });
  });

  it("saves the whole document, reads it back, and the currency and shell formats follow it", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const doc = await documentOf(token, (d) => {
      d.mainCurrency = "CHF";
      d.currencies = [
        { code: "EUR", sign: "€", decimals: 2 },
        { code: "CHF", sign: "Fr.", decimals: 2 },
      ];
      d.decimals = 1;
      d.decimalSeparator = ",";
      d.hideZeroCosts = true;
      d.membership = { silverFee: 1500, goldFee: 3000, silverDiscount: 5, goldDiscount: 12 };
      d.tax = { mark: "MwSt", inclusive: false, rate: "7.7" };
      d.map = { provider: "google", keys: { bing: "", google: "g-key" }, centre: { lat: 47.3769, lng: "8.5417" }, zoom: 12 };
      d.connectorTypeOrder = ["IEC2", "IEC1"];
      d.areaCodes = ["41", "49"];
      d.rechargeParameter = { presets: [1000, "2000"] };
      d.ocpi = { countryCode: "CH", partyId: "PLG" };
    });
    const saved = await call("PUT", PATH, { token, body: doc });
    expect(saved.status).toBe(200);
    const read = (await call("GET", PATH, { token })).body.data;
    expect(read).toMatchObject({
      mainCurrency: "CHF",
      decimals: 1,
      decimalSeparator: ",",
      hideZeroCosts: true,
      tax: { mark: "MwSt", inclusive: false, rate: "7.7" },
      map: { provider: "google", keys: { bing: null, google: "g-key" }, centre: { lat: "47.3769", lng: "8.5417" }, zoom: 12 },
      connectorTypeOrder: ["IEC2", "IEC1"],
      areaCodes: ["41", "49"],
      rechargeParameter: { presets: [1000, 2000] },
    });
    const currencies = (await call("GET", "/user-service/person/operator/support/currency", { token })).body.data;
    expect(currencies).toEqual([
      { code: "CHF", sign: "Fr.", decimals: 2 },
      { code: "EUR", sign: "€", decimals: 2 },
    ]);
    expect((await call("GET", "/user-service/person/operator/area-code", { token })).body.data).toEqual(["41", "49"]);
    const log = await env.DB.prepare("SELECT new_data FROM operation_logs WHERE table_name = 'parameter_settings' ORDER BY id DESC LIMIT 1").first<{ new_data: string }>();
    expect(JSON.parse(log!.new_data)).toMatchObject({ mainCurrency: "CHF" });
  });

  const rules: [string, (doc: any) => void, string, string][] = [
    ["a gold fee not above the silver fee", (d) => (d.membership = { ...d.membership, silverFee: 3000, goldFee: 3000 }), "membership.goldFee", V.goldAboveSilver],
    ["a fee that is not whole minor units", (d) => (d.membership.silverFee = 12.5), "membership.silverFee", V.membershipFee],
    ["a negative fee", (d) => (d.membership.goldFee = -1), "membership.goldFee", V.membershipFee],
    ["a discount above 100", (d) => (d.membership.goldDiscount = 101), "membership.goldDiscount", V.discount],
    ["no currency set", (d) => (d.currencies = []), "currencies", V.currencies],
    ["four currency sets", (d) => (d.currencies = ["PLN", "EUR", "USD", "CHF"].map((code) => ({ code, sign: code, decimals: 2 }))), "currencies", V.currencies],
    ["a main currency that is not listed", (d) => (d.mainCurrency = "USD"), "mainCurrency", V.mainCurrencyListed],
    ["a currency listed twice", (d) => (d.currencies = [d.currencies[0], d.currencies[0]]), "currencies", V.currencyTwice],
    ["a currency code in lower case", (d) => (d.currencies[0].code = "pln"), "currencies.0.code", V.currencyCode],
    ["more decimals than the main currency has", (d) => (d.decimals = 3), "decimals", V.decimalsAboveCurrency],
    ["an unknown time zone", (d) => (d.timeZone = "Mars/Olympus"), "timeZone", V.timeZone],
    ["a language without a catalogue", (d) => (d.defaultLanguage = "fr"), "defaultLanguage", V.language],
    ["an area code with a plus", (d) => (d.areaCodes = ["+48"]), "areaCodes.0", V.areaCode],
    ["a tax rate with three decimals", (d) => (d.tax.rate = "23.456"), "tax.rate", V.taxRate],
    ["a tax rate above 100", (d) => (d.tax.rate = 101), "tax.rate", V.taxRate],
    ["an unknown map", (d) => (d.map.provider = "here"), "map.provider", V.mapProvider],
    ["a zoom of 0", (d) => (d.map.zoom = 0), "map.zoom", V.zoom],
    ["a bill push URL without a signature key", (d) => (d.billPush = { url: "https://example.com/bills", signatureKey: null }), "billPush.signatureKey", V.signatureKeyRequired],
    ["a signature key shorter than 16 characters", (d) => (d.billPush = { url: "https://example.com/bills", signatureKey: "short" }), "billPush.signatureKey", V.signatureKeyShort],
    ["a bill push URL that is not http(s)", (d) => (d.billPush = { url: "ftp://example.com", signatureKey: "0123456789abcdef" }), "billPush.url", V.url],
    ["a connector type twice", (d) => (d.connectorTypeOrder = ["IEC2", "IEC2"]), "connectorTypeOrder", V.connectorTypeOrder],
    ["a decimal separator other than a dot or a comma", (d) => (d.decimalSeparator = ";"), "decimalSeparator", V.decimalSeparator],
    ["an OCPI country code of three letters", (d) => (d.ocpi.countryCode = "POL"), "ocpi.countryCode", V.countryCode],
    ["a flag given as text", (d) => (d.balancePayment = "yes"), "balancePayment", V.flag],
  ];

  it.each(rules)("refuses %s with its message, and changes nothing", async (_what, change, field, message) => {
    const token = await tokenFor("0PL002", "demoadmin");
    const before = (await call("GET", PATH, { token })).body.data;
    const res = await call("PUT", PATH, { token, body: await documentOf(token, change) });
    expect(res.status).toBe(400);
    expect(res.body.data.fields[field]).toBe(message);
    expect((await call("GET", PATH, { token })).body.data).toEqual(before);
  });

  it("answers a refused rule in the request's language", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const body = await documentOf(token, (d) => (d.membership = { ...d.membership, silverFee: 9000, goldFee: 100 }));
    const res = await call("PUT", `${PATH}?lang=pl`, { token, body });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe(pl.settings.validation.goldAboveSilver);
  });

  it("refuses a missing body and a document with an item left out", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const res = await SELF.fetch(`${ORIGIN}${PATH}`, { method: "PUT", headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(400);
    const partial = await documentOf(token, (d) => delete d.membership);
    expect((await call("PUT", PATH, { token, body: partial })).status).toBe(400);
  });

  it("keeps the signature key sealed: set by a string, kept by null, removed by an empty string", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const key = "push-signature-key-0123456789";
    const set = await call("PUT", PATH, {
      token,
      body: await documentOf(token, (d) => {
        d.billPush = { url: "https://bills.example.com/in", signatureKey: key };
      }),
    });
    expect(set.status).toBe(200);
    expect(set.body.data.billPush).toEqual({ url: "https://bills.example.com/in", signatureKey: null, signatureKeySet: true });
    const { id } = await operatorOf("0DE001");
    const stored = (await env.DB.prepare("SELECT document FROM parameter_settings WHERE operator_id = ?").bind(id).first<{ document: string }>())!.document;
    expect(stored).not.toContain(key);
    const log = await env.DB.prepare("SELECT new_data, request_body FROM operation_logs WHERE table_name = 'parameter_settings' ORDER BY id DESC LIMIT 1").first<{ new_data: string; request_body: string }>();
    expect(`${log!.new_data}${log!.request_body}`).not.toContain(key);

    // The GET answer sent back as it is keeps the secret.
    const kept = await call("PUT", PATH, { token, body: await documentOf(token) });
    expect(kept.body.data.billPush.signatureKeySet).toBe(true);

    const removed = await call("PUT", PATH, {
      token,
      body: await documentOf(token, (d) => {
        d.billPush = { url: null, signatureKey: "" };
      }),
    });
    expect(removed.body.data.billPush).toEqual({ url: null, signatureKey: null, signatureKeySet: false });
  });
});

describe("parameter settings: who may see and change them", () => {
  it("refuses an account whose role lacks the parameter-settings menu (403), on read and on write", async () => {
    const admin = await tokenFor("0PL002", "demoadmin");
    const role = await makeRole(admin, { menuCodes: ["home"] });
    const account = await makeAccount("0PL002", admin, role.id);
    const token = await tokenFor("0PL002", account.username, account.password);
    for (const [method, path] of [
      ["GET", PATH],
      ["PUT", PATH],
      ["GET", "/system-service/mail"],
      ["PUT", "/system-service/mail"],
      ["POST", "/system-service/mail/test"],
      ["GET", "/system-service/invoice-system"],
      ["PUT", "/system-service/invoice-system"],
    ] as const) {
      const res = await call(method, path, { token, body: method === "GET" ? undefined : {} });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    const withMenu = await makeRole(admin, { menuCodes: ["carrier.parameterSettings"] });
    const holder = await makeAccount("0PL002", admin, withMenu.id);
    const allowed = await tokenFor("0PL002", holder.username, holder.password);
    expect((await call("GET", PATH, { token: allowed })).status).toBe(200);
  });

  it("keeps each operator's settings its own: one operator's change never reaches another", async () => {
    const pl002 = await tokenFor("0PL002", "demoadmin");
    const de001 = await tokenFor("0DE001", "deadmin1");
    const before = (await call("GET", PATH, { token: pl002 })).body.data;
    const changed = await call("PUT", PATH, { token: de001, body: await documentOf(de001, (d) => (d.rfCardRestriction = !d.rfCardRestriction)) });
    expect(changed.status).toBe(200);
    expect((await call("GET", PATH, { token: pl002 })).body.data).toEqual(before);
    expect((await call("GET", PATH, { token: de001 })).body.data.timeZone).toBe("Europe/Berlin");
  });

  it("shows a sub-operator only its part, and lets it change only that part", async () => {
    const token = await tokenFor("0PL002A", "subadmin1");
    const res = await call("GET", PATH, { token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(["areaCodes", "decimalSeparator", "defaultLanguage", "hideEnergyPrice", "hideZeroCosts", "timeZone"]);
    const saved = await call("PUT", PATH, {
      token,
      body: { ...res.body.data, decimalSeparator: ",", hideZeroCosts: true, membership: { silverFee: 1, goldFee: 0, silverDiscount: 0, goldDiscount: 0 } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ decimalSeparator: ",", hideZeroCosts: true });
    expect(saved.body.data.membership).toBeUndefined();
    const bad = await call("PUT", PATH, { token, body: { ...res.body.data, timeZone: "Nowhere/City" } });
    expect(bad.body.data.fields).toEqual({ timeZone: V.timeZone });
    // The parent's own settings are untouched by its sub-operator.
    const parent = await tokenFor("0PL002", "demoadmin");
    expect((await call("GET", PATH, { token: parent })).body.data.membership.goldFee).toBeGreaterThan(0);
    // Mail and the invoice system belong to the operator's own screen.
    expect((await call("GET", "/system-service/mail", { token })).status).toBe(403);
  });
});

describe("retired items: no app notification certificates", () => {
  it("drops the retired app certificate items: a body may still carry them, the next save leaves them out", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const { id } = await operatorOf("0DE001");
    // A document saved before the items were retired (docs/decisions/0080-no-app-notification-certificates.md).
    await env.DB.prepare("UPDATE parameter_settings SET document = json_set(document, '$.apple', json(?), '$.google', json(?)) WHERE operator_id = ?")
      .bind(JSON.stringify({ certificate: { fileName: "push.p12", size: 12, uploadedAt: "2025-01-01T00:00:00.000Z" }, password: null, topic: "com.example.app", environment: "test" }), JSON.stringify({ certificate: null }), id)
      .run();
    const read = (await call("GET", PATH, { token })).body.data;
    expect(read).not.toHaveProperty("apple");
    expect(read).not.toHaveProperty("google");

    const saved = await call("PUT", PATH, { token, body: { ...read, apple: { password: "p12-secret", topic: "com.example.app", environment: "test" } } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).not.toHaveProperty("apple");
    const stored = (await env.DB.prepare("SELECT document FROM parameter_settings WHERE operator_id = ?").bind(id).first<{ document: string }>())!.document;
    expect(JSON.parse(stored)).not.toHaveProperty("apple");
    expect(JSON.parse(stored)).not.toHaveProperty("google");
    expect(stored).not.toContain("p12-secret");
    expect((await call("DELETE", `${PATH}/certificate?kind=apple`, { token })).status).toBe(404);
  });
});

describe("RF-card restriction", () => {
  it("accepts only the operator's own RFID cards (and its remote tag) when on; app tokens too when off", async () => {
    const token = await tokenFor("0DE001", "deadmin1");
    const operator = await operatorOf("0DE001");
    await env.DB.prepare("INSERT OR IGNORE INTO id_tags (operator_id, id_tag, status, kind) VALUES (?, 'APP-TOKEN-1', 'Accepted', 'APP'), (?, 'CARD-DE-1', 'Accepted', 'RFID')")
      .bind(operator.id, operator.id)
      .run();
    const ctx = systemCtx(env, operator, "charger test");
    const statusOf = async (tag: string) => (await authorize(ctx, 0, tag, true)).status;

    await call("PUT", PATH, { token, body: await documentOf(token, (d) => (d.rfCardRestriction = false)) });
    expect(await statusOf("APP-TOKEN-1")).toBe("Accepted");
    expect(await statusOf("CARD-DE-1")).toBe("Accepted");

    await call("PUT", PATH, { token, body: await documentOf(token, (d) => (d.rfCardRestriction = true)) });
    expect(await statusOf("APP-TOKEN-1")).toBe("Invalid");
    expect(await statusOf("CARD-DE-1")).toBe("Accepted");
    // Another operator's card is unknown here either way.
    const pl = await operatorOf("0PL002");
    await env.DB.prepare("INSERT OR IGNORE INTO id_tags (operator_id, id_tag, status, kind) VALUES (?, 'CARD-PL-ONLY', 'Accepted', 'RFID')").bind(pl.id).run();
    expect(await statusOf("CARD-PL-ONLY")).toBe("Invalid");
    await call("PUT", PATH, { token, body: await documentOf(token, (d) => (d.rfCardRestriction = false)) });
    expect(await statusOf("CARD-PL-ONLY")).toBe("Invalid");
  });
});
