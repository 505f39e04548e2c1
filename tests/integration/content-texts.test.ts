import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import en from "../../domain/i18n/locales/en/content.json";
import pl from "../../domain/i18n/locales/pl/content.json";
import { publishedText } from "../../workers/services/content/texts";
import { tokenWithMenus } from "./support/factories";
import { call, testCtx, tokenFor } from "./support/http";

/** The disclaimer and privacy policy per language (docs/rules/content.md "Disclaimer and privacy policy"). */
const V = en.content.validation;
const stamp = Date.now().toString(36);

describe.each([
  ["disclaimer", "/system-service/disclaimer", "DISCLAIMER", "carrier.disclaimer"],
  ["privacy policy", "/system-service/privacy-policy", "PRIVACY_POLICY", "carrier.privacyPolicy"],
] as const)("the %s", (_name, path, kind, menu) => {
  it("keeps one text per language, written and read back, with its log row", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const english = `English ${kind} ${stamp}\nSecond line`;
    const polish = `Polski ${kind} ${stamp}`;
    expect((await call("PUT", `${path}?lang=en`, { token, body: { content: english } })).status).toBe(200);
    expect((await call("PUT", `${path}?lang=pl`, { token, body: { content: `  ${polish}  ` } })).body.data).toMatchObject({ lang: "pl", content: polish, updatedBy: "demoadmin" });
    expect((await call("GET", `${path}?lang=en`, { token })).body.data).toMatchObject({ kind, lang: "en", content: english });
    expect((await call("GET", `${path}?lang=pl`, { token })).body.data.content).toBe(polish);
    expect((await call("GET", `${path}?lang=de`, { token })).body.data).toMatchObject({ lang: "de", content: "", updatedAt: null });
    const log = await call("GET", `/system-service/operation-log?tableName=content_texts&size=5`, { token });
    expect(log.body.data.records[0]).toMatchObject({ tableName: "content_texts", account: "demoadmin" });
  });

  it("requires the text, in the language asked for, and refuses an unknown language", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    const empty = await call("PUT", `${path}?lang=en`, { token, body: { content: "   " } });
    expect(empty.status).toBe(400);
    expect(empty.body.data.fields.content).toBe(V.contentRequired);
    const missing = await call("PUT", `${path}?lang=pl`, { token, body: {} });
    expect(missing.body.data.fields.content).toBe(pl.content.validation.contentRequired);
    const unknown = await call("PUT", `${path}?lang=fr`, { token, body: { content: "x" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fields.lang).toBe(V.language);
    expect((await call("PUT", `${path}?lang=en`, { token })).status).toBe(400);
  });

  it("keeps each operator's text its own, and refuses an account without the menu (403)", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await call("PUT", `${path}?lang=en`, { token, body: { content: `Only 0PL002 ${stamp}` } });
    const other = await tokenFor("0DE001", "deadmin1");
    expect((await call("GET", `${path}?lang=en`, { token: other })).body.data.content).not.toContain("Only 0PL002");
    const without = await tokenWithMenus(token, ["home"]);
    expect((await call("GET", `${path}?lang=en`, { token: without })).status).toBe(403);
    expect((await call("PUT", `${path}?lang=en`, { token: without, body: { content: "x" } })).status).toBe(403);
    const holder = await tokenWithMenus(token, [menu]);
    expect((await call("GET", `${path}?lang=en`, { token: holder })).status).toBe(200);
  });

  it("serves the public page's text by operator code and language, else the operator's default language", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await call("PUT", `${path}?lang=en`, { token, body: { content: `Public en ${stamp}` } });
    await call("PUT", `${path}?lang=zh`, { token, body: { content: `Public zh ${stamp}` } });
    const read = (input: { operatorCode?: string; lang?: string; host?: string }) => publishedText(testCtx(), { kind, host: "localhost", ...input });
    expect(await read({ operatorCode: "0PL002", lang: "zh" })).toMatchObject({ operatorCode: "0PL002", lang: "zh", content: `Public zh ${stamp}` });
    // Nothing written in Brazilian Portuguese: the operator's default language (en).
    expect(await read({ operatorCode: "0PL002", lang: "pt_BR" })).toMatchObject({ lang: "en", content: `Public en ${stamp}` });
    expect(await read({ operatorCode: "NOPE" })).toBeNull();
    expect(await read({})).toBeNull();
    expect(await read({ operatorCode: "PLATFORM" })).toBeNull();
  });

  it("chooses the operator by its own domain before any operator code", async () => {
    const token = await tokenFor("0PL002", "demoadmin");
    await call("PUT", `${path}?lang=en`, { token, body: { content: `Domain text ${stamp}` } });
    const host = `${kind.toLowerCase().replace("_", "-")}-${stamp}.example.com`;
    const { id } = (await env.DB.prepare("SELECT id FROM operators WHERE code = '0PL002'").first<{ id: number }>())!;
    await env.DB.prepare("INSERT INTO operator_domains (operator_id, domain) VALUES (?, ?)").bind(id, host).run();
    expect(await publishedText(testCtx(), { kind, host, operatorCode: "0DE001", lang: "en" })).toMatchObject({ operatorCode: "0PL002", content: `Domain text ${stamp}` });
  });
});
