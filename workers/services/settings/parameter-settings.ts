import { parameterSettings } from "../../../db/schema";
import { Invalid } from "../../../domain/errors";
import {
  CERTIFICATE_MAX_BYTES,
  certificateQuery,
  mainCurrencyOf,
  parameterSettingsInput,
  SUB_OPERATOR_FIELDS,
  subParameterSettingsInput,
  type CertificateKind,
  type ParameterSettings,
} from "../../../domain/schemas/settings";
import { settingsOf } from "../../../tenants/resolve";
import { ownedRow } from "../../../tenants/scope";
import { nextSecret, openBytes, sealBytes, sealContext } from "../../auth/sealed";
import { auditRow } from "../audit";
import type { Ctx, UserCtx } from "../context";
import { verb } from "../verb";

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
    apple: { ...p.apple, password: null, passwordSet: p.apple.password !== null },
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

/** The document to store: what was stored (items later work adds included), with the new items over it. */
async function storedDocument(ctx: UserCtx) {
  const row = await settingsOf(ctx.db, ctx.operator.id);
  return { row, document: { ...row.document } as Record<string, unknown> };
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
    apple: {
      ...input.apple,
      certificate: before.apple.certificate,
      password: await nextSecret(ctx.env, secretOf("apple.password"), input.apple.password, before.apple.password),
    },
    google: before.google,
    billPush: {
      url: input.billPush.url,
      signatureKey: await nextSecret(ctx.env, secretOf("billPush.signatureKey"), input.billPush.signatureKey, before.billPush.signatureKey),
    },
    map: { ...input.map, endpoint: input.map.endpoint ?? null },
  };
  // A push without a key could not be signed (docs/rules/settings.md "Bill push").
  if (next.billPush.url && !next.billPush.signatureKey) {
    throw new Invalid("settings.validation.signatureKeyRequired", {}, { "billPush.signatureKey": "settings.validation.signatureKeyRequired" });
  }
  for (const [key, value] of Object.entries(next)) if (!(COLUMN_ITEMS as readonly string[]).includes(key)) document[key] = value;
  const shown = settingsView(next);
  await store(ctx, document, next, before, shown);
  return shown;
});

// ── Certificates ─────────────────────────────────────────────────────────────────────────────

/**
 * Where a certificate is kept: outside `operators/`, so the file route never serves it
 * (docs/rules/tenancy.md "Files"), and sealed, so the bucket alone gives nothing away.
 */
const certificateKey = (operatorId: number, kind: CertificateKind) => `secure/operators/${operatorId}/certificates/${kind}`;

/** Whether the bytes look like the kind: an Apple .p12 is DER (a SEQUENCE), a Google key a service-account JSON. */
function looksLike(kind: CertificateKind, bytes: Uint8Array): boolean {
  if (kind === "apple") return bytes[0] === 0x30;
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    return typeof json.private_key === "string" && typeof json.client_email === "string";
  } catch {
    return false;
  }
}

const certificateRefusal = (key: string, params: Record<string, unknown> = {}) => new Invalid(key, params, { file: key });

/** POST /system-service/parameter-settings/certificate?kind=apple|google, multipart field `file`. */
export const uploadCertificate = verb({ menu: SETTINGS_MENU, mutates: true }, async (ctx, rawKind: unknown, readFile: () => Promise<unknown>) => {
  const { kind } = certificateQuery.parse({ kind: rawKind });
  const file = await readFile();
  if (!(file instanceof File) || file.size === 0) throw certificateRefusal("settings.validation.fileRequired");
  if (file.size > CERTIFICATE_MAX_BYTES) throw certificateRefusal("settings.validation.certificateBytes", { max: "64 KB" });
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!looksLike(kind, bytes)) throw certificateRefusal(`settings.validation.certificate.${kind}`);
  await ctx.env.FILES.put(certificateKey(ctx.operator.id, kind), await sealBytes(ctx.env, sealContext(ctx.operator.id, `certificate.${kind}`), bytes), {
    httpMetadata: { contentType: "application/octet-stream" },
  });
  const certificate = { fileName: file.name.slice(0, 200), size: bytes.length, uploadedAt: new Date(ctx.now()).toISOString() };
  const { row, document } = await storedDocument(ctx);
  const before = row.parameters;
  const next: ParameterSettings = { ...before, [kind]: { ...before[kind], certificate } };
  document[kind] = next[kind];
  await store(ctx, document, next, before, settingsView(next));
  return certificate;
});

/** DELETE /system-service/parameter-settings/certificate?kind=apple|google. */
export const removeCertificate = verb({ menu: SETTINGS_MENU, mutates: true }, async (ctx, rawKind: unknown) => {
  const { kind } = certificateQuery.parse({ kind: rawKind });
  await ctx.env.FILES.delete(certificateKey(ctx.operator.id, kind));
  const { row, document } = await storedDocument(ctx);
  const before = row.parameters;
  const next: ParameterSettings = { ...before, [kind]: { ...before[kind], certificate: null } };
  document[kind] = next[kind];
  await store(ctx, document, next, before, settingsView(next));
  return { kind, removed: true };
});

/** The certificate's bytes in clear, for the module that sends app notifications; null when none is stored. */
export async function readCertificate(ctx: Pick<Ctx, "env" | "operator">, kind: CertificateKind): Promise<Uint8Array | null> {
  const object = await ctx.env.FILES.get(certificateKey(ctx.operator.id, kind));
  if (!object) return null;
  return openBytes(ctx.env, sealContext(ctx.operator.id, `certificate.${kind}`), new Uint8Array(await object.arrayBuffer()));
}
