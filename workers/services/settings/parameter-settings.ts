import { parameterSettings } from "../../../db/schema";
import { Invalid } from "../../../domain/errors";
import { mainCurrencyOf, parameterSettingsInput, RETIRED_ITEMS, SUB_OPERATOR_FIELDS, subParameterSettingsInput, type ParameterSettings } from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { ownedRow } from "../../../tenants/scope";
import { nextSecret, sealContext } from "../../auth/sealed";
import { auditRow } from "../audit";
import type { Ctx, UserCtx } from "../context";
import { verb } from "../verb";
import { chargersTakeLimits } from "./charger-limits";

/**
 * Parameter settings (docs/rules/settings.md "Parameter settings"): one validated document per
 * operator, `GET/PUT /system-service/parameter-settings`. An operator reads and writes the whole
 * document; a sub-operator only its part (docs/rules/settings.md "Sub-operators").
 */

export const SETTINGS_MENU = "carrier.parameterSettings";
const SUB_SETTINGS_MENU = "sub.system.parameterSettings";

/** Items kept in the row's own columns (other modules read them there); the rest is the document. */
const COLUMN_ITEMS = ["timeZone", "defaultLanguage", "areaCodes"] as const;

/** What an answer shows: every item, secrets replaced by whether one is set. */
export function settingsView(p: ParameterSettings) {
  return {
    ...p,
    billPush: { url: p.billPush.url, signatureKey: null, signatureKeySet: p.billPush.signatureKey !== null },
  };
}
export type SettingsView = ReturnType<typeof settingsView>;

function subView(p: ParameterSettings) {
  return Object.fromEntries(SUB_OPERATOR_FIELDS.map((k) => [k, p[k]])) as Pick<ParameterSettings, (typeof SUB_OPERATOR_FIELDS)[number]>;
}

/** An operator's effective settings, for any module that acts within it (docs/rules/settings.md "Reading the settings"). */
export async function operatorSettings(ctx: Pick<Ctx, "db" | "operator">): Promise<ParameterSettings> {
  return (await settingsOf(ctx.db, ctx.operator.id)).parameters;
}

/** GET /system-service/parameter-settings. */
export const getParameterSettings = verb({ menu: [SETTINGS_MENU, SUB_SETTINGS_MENU] }, async (ctx) => {
  const parameters = await operatorSettings(ctx);
  return ctx.actor.sub ? subView(parameters) : settingsView(parameters);
});

/** Writes the next settings as the row's columns and its document, with the log row, in one batch. */
async function store(ctx: UserCtx, document: Record<string, unknown>, next: ParameterSettings, before: ParameterSettings, shown: unknown) {
  const main = mainCurrencyOf(next);
  const columns = {
    timeZone: next.timeZone,
    defaultLanguage: next.defaultLanguage,
    areaCodes: next.areaCodes,
    currencyCode: main.code,
    currencySign: main.sign,
    currencyDecimals: main.decimals,
    document,
    updatedAt: new Date(ctx.now()),
  };
  await ctx.db.batch([
    ctx.db
      .insert(parameterSettings)
      .values(ownedRow(ctx, columns))
      .onConflictDoUpdate({ target: parameterSettings.operatorId, set: columns }),
    auditRow(ctx, {
      table: "parameter_settings",
      module: "settings",
      type: "UPDATE",
      oldData: ctx.actor.sub ? subView(before) : settingsView(before),
      newData: shown,
    }),
  ]);
}

/** The document to store: what was stored (items later work adds included, retired ones left out), with the new items over it. */
async function storedDocument(ctx: UserCtx) {
  const row = await settingsOf(ctx.db, ctx.operator.id);
  const document = { ...row.document } as Record<string, unknown>;
  for (const item of RETIRED_ITEMS) delete document[item];
  return { row, document };
}

/** PUT /system-service/parameter-settings: the whole document for an operator, its part for a sub-operator. */
export const updateParameterSettings = verb({ menu: [SETTINGS_MENU, SUB_SETTINGS_MENU], mutates: true }, async (ctx, raw: unknown) => {
  const { row, document } = await storedDocument(ctx);
  const before = row.parameters;
  if (ctx.actor.sub) {
    const input = subParameterSettingsInput.parse(raw);
    const next = { ...before, ...input };
    for (const [key, value] of Object.entries(input)) if (!(COLUMN_ITEMS as readonly string[]).includes(key)) document[key] = value;
    await store(ctx, document, next, before, subView(next));
    return subView(next);
  }
  const input = parameterSettingsInput.parse(raw);
  const secretOf = (purpose: string) => sealContext(ctx.operator.id, purpose);
  const next: ParameterSettings = {
    ...before,
    ...input,
    billPush: {
      url: input.billPush.url,
      signatureKey: await nextSecret(ctx.env, secretOf("billPush.signatureKey"), input.billPush.signatureKey, before.billPush.signatureKey),
    },
    map: { ...input.map, endpoint: input.map.endpoint ?? null },
    ocpi: { ...input.ocpi, roles: input.ocpi.roles ?? before.ocpi.roles },
  };
  // A push without a key could not be signed (docs/rules/settings.md "Bill push").
  if (next.billPush.url && !next.billPush.signatureKey) {
    throw new Invalid("settings.validation.signatureKeyRequired", {}, { "billPush.signatureKey": "settings.validation.signatureKeyRequired" });
  }
  for (const [key, value] of Object.entries(next)) if (!(COLUMN_ITEMS as readonly string[]).includes(key)) document[key] = value;
  const shown = settingsView(next);
  await store(ctx, document, next, before, shown);
  await chargersTakeLimits(ctx, before.resilience, next.resilience);
  return shown;
});
