import { eq } from "drizzle-orm";
import { contentTexts } from "../../../db/schema";
import { parseLanguage, type Language } from "../../../domain/languages";
import { contentTextInput, contentTextQuery, type TextKind } from "../../../domain/schemas/content";
import { owned, ownedBy, ownedRow } from "../../../tenants/scope";
import { operatorByCode, operatorByHost, settingsOf } from "../../../tenants/resolve";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * The disclaimer and the privacy policy (docs/rules/content.md "Disclaimer and privacy policy"):
 * one text per operator, kind and language, edited in the console and served on the public
 * mobile pages.
 */
const MENUS: Record<TextKind, string> = { DISCLAIMER: "carrier.disclaimer", PRIVACY_POLICY: "carrier.privacyPolicy" };

type TextRow = typeof contentTexts.$inferSelect;

const present = (kind: TextKind, lang: Language, row: TextRow | undefined) => ({
  kind,
  lang,
  content: row?.content ?? "",
  updatedBy: row?.updatedBy ?? null,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

/** The language asked for, else the request's own language. */
const languageOf = (ctx: UserCtx, raw: unknown) => contentTextQuery.parse(raw ?? {}).lang ?? ctx.lang;

async function read(ctx: UserCtx, kind: TextKind, lang: Language) {
  const [row] = await ctx.db.select().from(contentTexts).where(owned(ctx, contentTexts, eq(contentTexts.kind, kind), eq(contentTexts.lang, lang))).limit(1);
  return row;
}

const getter = (kind: TextKind) =>
  verb({ menu: MENUS[kind] }, async (ctx, rawQuery: unknown) => {
    const lang = languageOf(ctx, rawQuery);
    return present(kind, lang, await read(ctx, kind, lang));
  });

/** Writes the text of one language (created on first save), with its operation-log row in the same batch. */
const setter = (kind: TextKind) =>
  verb({ menu: MENUS[kind], mutates: true }, async (ctx, rawQuery: unknown, rawBody: unknown) => {
    const lang = languageOf(ctx, rawQuery);
    const { content } = contentTextInput.parse(rawBody);
    const before = await read(ctx, kind, lang);
    const updatedBy = ctx.actor.username;
    const now = new Date(ctx.now());
    const [[saved]] = await ctx.db.batch([
      ctx.db
        .insert(contentTexts)
        .values(ownedRow(ctx, { kind, lang, content, updatedBy, updatedAt: now }))
        .onConflictDoUpdate({ target: [contentTexts.operatorId, contentTexts.kind, contentTexts.lang], set: { content, updatedBy, updatedAt: now } })
        .returning(),
      auditRow(ctx, {
        table: "content_texts",
        module: kind === "DISCLAIMER" ? "disclaimer" : "privacyPolicy",
        type: before ? "UPDATE" : "CREATE",
        oldData: before ? { lang, content: before.content } : undefined,
        newData: { lang, content },
      }),
    ]);
    return present(kind, lang, saved);
  });

export const getDisclaimer = getter("DISCLAIMER");
export const updateDisclaimer = setter("DISCLAIMER");
export const getPrivacyPolicy = getter("PRIVACY_POLICY");
export const updatePrivacyPolicy = setter("PRIVACY_POLICY");

/**
 * The text a public mobile page shows. The operator is the one whose domain the request came
 * through, else the `operatorCode` asked for; the language is `lang`, else the operator's
 * default language when nothing is written in `lang`. Null when there is no such operator.
 */
export const publishedText = verb(
  { actors: ["public"] },
  async (ctx, input: { kind: TextKind; host: string; operatorCode?: string; lang?: string }) => {
    const operator = (await operatorByHost(ctx.db, input.host)) ?? (input.operatorCode ? await operatorByCode(ctx.db, input.operatorCode) : undefined);
    if (!operator || operator.kind === "PLATFORM") return null;
    const { defaultLanguage } = await settingsOf(ctx.db, operator.id);
    const wanted = parseLanguage(input.lang) ?? ctx.lang;
    const rows = await ctx.db
      .select()
      .from(contentTexts)
      .where(ownedBy(operator.id, contentTexts, eq(contentTexts.kind, input.kind)));
    const row = rows.find((r) => r.lang === wanted) ?? rows.find((r) => r.lang === defaultLanguage);
    return { operatorName: operator.name, operatorCode: operator.code, lang: (row?.lang ?? wanted) as Language, content: row?.content ?? null, updatedAt: row?.updatedAt.toISOString() ?? null };
  },
);
