import { z } from "zod";
import { LANGUAGES, type Language } from "../languages";
import { DEFAULT_CDR_LIMIT, type CdrLimit } from "../ocpi/cdr-checks";
import { DEFAULT_OPERATOR_ROLES, OPERATOR_ROLES, type OperatorRole } from "../ocpi/roles";
import { isPriceText } from "../pricing/decimal";
import { DEFAULT_CHARGER_LIMITS, DEFAULT_STUCK_SESSION_HOURS } from "../ocpp/resilience";
import { isTimeZone } from "../time";
import { CONNECTOR_STANDARDS, connectorStandard, type ConnectorStandard } from "./equipment";
import { wholeNumber } from "./numbers";
import { latitude, longitude } from "./stations";

/**
 * An operator's parameter settings as one validated document (docs/rules/settings.md
 * "Parameter settings"), shared by the console form and `PUT /system-service/parameter-settings`.
 * Money is integer minor units of the main currency (docs/decisions/0005-money-in-minor-units.md).
 * Secrets (the bill-push signature key) are write-only: an
 * answer says whether one is set (`…Set`), a body sets one with a string, keeps it with null or
 * by leaving it out, and removes it with "". Messages are catalogue keys
 * (domain/i18n/locales/<lang>/settings.json).
 */

const v = (key: string) => `settings.validation.${key}`;

const text = (max: number, key: string) => z.string({ error: v(key) }).trim().max(max, { error: v("tooLong") });
const requiredText = (max: number, key: string) => text(max, key).min(1, { error: v(key) });
const flag = (key: string) => z.boolean({ error: v(key) });
/** Minor units of the main currency: a whole number of at least 0. */
const minor = (key: string) => wholeNumber(v(key), (n) => n.min(0, { error: v(key) }).max(1_000_000_000, { error: v(key) }));
const percent = (key: string) => wholeNumber(v(key), (n) => n.min(0, { error: v(key) }).max(100, { error: v(key) }));
/** A write-only secret: a string sets it, "" removes it, null or absent keeps it. */
const secret = (max: number) => z.string({ error: v("secret") }).max(max, { error: v("tooLong") }).nullish();

/** A currency set: ISO 4217 code, the sign shown beside amounts, and its minor-unit decimals. */
export const currencySet = z.object({
  code: z.string({ error: v("currencyCode") }).trim().regex(/^[A-Z]{3}$/, { error: v("currencyCode") }),
  sign: requiredText(5, "currencySign"),
  decimals: wholeNumber(v("currencyDecimals"), (n) => n.min(0, { error: v("currencyDecimals") }).max(4, { error: v("currencyDecimals") })),
});
export type CurrencySet = z.infer<typeof currencySet>;

/**
 * Membership fees in minor units and the payment discount per level in percent (0 to 100); the
 * gold fee must be above the silver fee (docs/rules/settings.md "Parameter settings").
 */
export const membership = z
  .object({
    silverFee: minor("membershipFee"),
    goldFee: minor("membershipFee"),
    silverDiscount: percent("discount"),
    goldDiscount: percent("discount"),
  })
  .refine((m) => m.goldFee > m.silverFee, { error: v("goldAboveSilver"), path: ["goldFee"] });

/**
 * The map under the console's maps: OpenStreetMap's public tiles need no key, so a new operator
 * has a map at once (docs/rules/settings.md "Map"); Bing and Google need the operator's key.
 */
export const MAP_PROVIDERS = ["osm", "bing", "google"] as const;
export type MapProvider = (typeof MAP_PROVIDERS)[number];
/** The providers that take a key, and geocode with it. */
export type KeyedMapProvider = Exclude<MapProvider, "osm">;

const mapKey = z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? null : value), text(200, "mapKey").nullable());

/**
 * Map settings: the default map, a key per provider, and the view a map opens at when it has no
 * station to show. `endpoint` replaces the provider's public geocoding URL (a proxy, or a local
 * fake in tests).
 */
export const mapSettings = z.object({
  provider: z.enum(MAP_PROVIDERS, { error: v("mapProvider") }),
  keys: z.object({ bing: mapKey, google: mapKey }),
  centre: z.object({
    lat: latitude.pipe(z.string({ error: "stations.validation.latitude" })),
    lng: longitude.pipe(z.string({ error: "stations.validation.longitude" })),
  }),
  zoom: wholeNumber(v("zoom"), (n) => n.min(1, { error: v("zoom") }).max(20, { error: v("zoom") })),
  endpoint: z.url({ protocol: /^https?$/, error: v("url") }).nullish(),
});
export type MapSettings = z.infer<typeof mapSettings>;

/** Tax: the mark printed beside taxed lines, whether prices include it, the rate in percent. */
export const taxSettings = z.object({
  mark: text(8, "taxMark"),
  inclusive: flag("taxInclusive"),
  rate: z
    .union([z.string({ error: v("taxRate") }), z.number({ error: v("taxRate") })], { error: v("taxRate") })
    .transform((value, ctx) => {
      const written = typeof value === "number" ? String(value) : value.trim();
      if (!/^\d{1,3}(\.\d{1,2})?$/.test(written) || Number(written) > 100) {
        ctx.addIssue({ code: "custom", message: v("taxRate") });
        return z.NEVER;
      }
      return String(Number(written));
    }),
});
export type TaxSettings = z.infer<typeof taxSettings>;

const httpsUrl = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? null : value),
  z.url({ protocol: /^https?$/, error: v("url") }).max(500, { error: v("tooLong") }).nullable(),
);

/** A unit price of the CDR limit: a decimal text ≥ 0 with at most four decimals ("3", "0.50"), a number taken as its text. */
const cdrLimitPrice = z.preprocess(
  (value) => (typeof value === "number" && Number.isFinite(value) ? String(value) : value),
  z.string({ error: v("roamingCdrLimit") }).trim().refine(isPriceText, { error: v("roamingCdrLimit") }),
);

/** The roles an operator takes on the OCPI wire: CPO, eMSP or both, each once. */
const ocpiRoles = z
  .array(z.enum(OPERATOR_ROLES, { error: v("ocpiRoles") }), { error: v("ocpiRoles") })
  .min(1, { error: v("ocpiRoles") })
  .max(OPERATOR_ROLES.length, { error: v("ocpiRoles") })
  .refine((roles) => new Set(roles).size === roles.length, { error: v("ocpiRoles") });

/** Messages of the resilience items are in their own catalogue (domain/i18n/locales/<lang>/resilience.json). */
const rv = (key: string) => `resilience.validation.${key}`;
const bounded = (key: string, min: number, max: number) => wholeNumber(rv(key), (n) => n.min(min, { error: rv(key) }).max(max, { error: rv(key) }));

/** An operator's charger limits and stuck-session threshold (domain/ocpp/resilience.ts). */
export const resilienceSettings = z.object(
  {
    messagesPerSecond: bounded("messagesPerSecond", 1, 1000),
    connectionsPerHour: bounded("connectionsPerHour", 1, 10_000),
    quarantineMinutes: bounded("quarantineMinutes", 1, 7 * 24 * 60),
    stuckSessionHours: bounded("stuckSessionHours", 1, 24 * 30),
  },
  { error: rv("limits") },
);
export type ResilienceSettings = z.infer<typeof resilienceSettings>;

/** Which of the optional customer fields an operator makes required (the CPF follows its country instead). */
export const customerFieldRules = z.object({ gender: flag("flag"), zipCode: flag("flag"), evModel: flag("flag") }, { error: v("flag") });
export type CustomerFieldRules = z.infer<typeof customerFieldRules>;

export const DEFAULT_RESILIENCE: ResilienceSettings = { ...DEFAULT_CHARGER_LIMITS, stuckSessionHours: DEFAULT_STUCK_SESSION_HOURS };

/** Every field of the document a body carries; `parameterSettingsInput` adds the cross-field rules. */
const documentFields = {
  /** Quick amounts offered for a top-up, in minor units. */
  rechargeParameter: z.object({
    presets: z
      .array(wholeNumber(v("rechargePreset"), (n) => n.min(1, { error: v("rechargePreset") }).max(1_000_000_000, { error: v("rechargePreset") })), {
        error: v("rechargePreset"),
      })
      .max(8, { error: v("rechargePresets") }),
  }),
  mainCurrency: z.string({ error: v("mainCurrency") }).trim().regex(/^[A-Z]{3}$/, { error: v("mainCurrency") }),
  currencies: z.array(currencySet, { error: v("currencies") }).min(1, { error: v("currencies") }).max(3, { error: v("currencies") }),
  /**
   * On: billing debits sessions from the payer's balance. Off: no wallet is debited; a session
   * pre-authorised on a card is paid by the card, any other is left RECORD_UNSETTLED for the
   * cashier with its reason (docs/rules/billing.md "Paying from the balance off").
   */
  balancePayment: flag("flag"),
  minimumRecharge: minor("minimumRecharge"),
  /**
   * What a card is held for when a driver pays ad hoc on a charger's public page and the
   * strategy names no `preAuthAmount`, minor units; null: 100.00 in the main currency
   * (docs/rules/payments.md "Ad-hoc payment"). Optional in a body: left out, the stored one stays.
   */
  adHocHold: wholeNumber(v("adHocHold"), (n) => n.min(1, { error: v("adHocHold") }).max(1_000_000_000, { error: v("adHocHold") })).nullable().optional(),
  /**
   * The balance plus overdraft credit a driver needs to start charging on a partner's network; 0
   * asks for none (docs/rules/ocpi.md "Tokens": NO_CREDIT).
   */
  minimumChargeBalance: minor("minimumChargeBalance"),
  membership,
  map: mapSettings,
  /**
   * The most a partner's CDR may cost per kWh and per minute, decimal texts in the main currency;
   * a CDR above it is held for review (docs/rules/ocpi.md "What a CDR may bill"). Optional in a
   * body: left out, the stored limit stays.
   */
  roamingCdrLimit: z
    .object({ perKwh: cdrLimitPrice, perMinute: cdrLimitPrice }, { error: v("roamingCdrLimit") })
    .optional(),
  /** On: only the operator's own RFID cards start sessions at its chargers (docs/rules/settings.md "RF-card restriction"). */
  rfCardRestriction: flag("flag"),
  connectorTypeOrder: z
    .array(connectorStandard)
    .max(CONNECTOR_STANDARDS.length)
    .refine((list) => new Set(list).size === list.length, { error: v("connectorTypeOrder") }),
  timeZone: z.string({ error: v("timeZone") }).trim().max(64, { error: v("timeZone") }).refine(isTimeZone, { error: v("timeZone") }),
  defaultLanguage: z.enum(LANGUAGES, { error: v("language") }),
  hideEnergyPrice: flag("flag"),
  areaCodes: z
    .array(z.string({ error: v("areaCode") }).trim().regex(/^\d{1,4}$/, { error: v("areaCode") }), { error: v("areaCode") })
    .min(1, { error: v("areaCodes") })
    .max(10, { error: v("areaCodes") }),
  tax: taxSettings,
  billPush: z.object({ url: httpsUrl, signatureKey: secret(200) }),
  hideZeroCosts: flag("flag"),
  ocpi: z.object({
    countryCode: z.preprocess((x) => (x === "" ? null : x), z.string().regex(/^[A-Z]{2}$/, { error: v("countryCode") }).nullable()),
    partyId: z.preprocess((x) => (x === "" ? null : x), z.string().regex(/^[A-Z0-9]{3}$/, { error: v("partyId") }).nullable()),
    /** The roles the operator takes on the wire (docs/rules/ocpi.md "CPO role"); left out of a body, the stored ones stay. */
    roles: ocpiRoles.optional(),
  }),
  /** null: numbers are written the interface language's way (docs/rules/console.md "Formatting"). */
  decimalSeparator: z.preprocess((x) => (x === "" ? null : x), z.enum([".", ","], { error: v("decimalSeparator") }).nullable()),
  /** Decimals money is shown with: at most the main currency's own. */
  decimals: wholeNumber(v("decimals"), (n) => n.min(0, { error: v("decimals") }).max(4, { error: v("decimals") })),
  /**
   * How much a charger may misbehave and when a session counts as stuck (docs/rules/ocpp.md
   * "A charger that floods", "A charger that keeps reconnecting"; docs/rules/monitoring.md
   * "Suspect sessions"). Optional in a body: left out, the stored limits stay.
   */
  resilience: resilienceSettings.optional(),
  /**
   * Customer fields the operator requires (docs/rules/drivers.md "What the customer form asks");
   * optional in a body: left out, the stored choice stays.
   */
  customerFields: customerFieldRules.optional(),
};

type Fields = { [K in keyof typeof documentFields]: z.output<(typeof documentFields)[K]> };

/** Rules across fields (docs/rules/settings.md "Parameter settings"). */
function crossChecks(doc: Partial<Fields>, ctx: z.RefinementCtx) {
  const main = doc.currencies?.find((c) => c.code === doc.mainCurrency);
  if (doc.currencies) {
    const codes = doc.currencies.map((c) => c.code);
    if (new Set(codes).size !== codes.length) ctx.addIssue({ code: "custom", message: v("currencyTwice"), path: ["currencies"] });
    if (doc.mainCurrency !== undefined && !main) ctx.addIssue({ code: "custom", message: v("mainCurrencyListed"), path: ["mainCurrency"] });
  }
  if (main && doc.decimals !== undefined && doc.decimals > main.decimals) {
    ctx.addIssue({ code: "custom", message: v("decimalsAboveCurrency"), path: ["decimals"], params: { decimals: main.decimals } });
  }
  if (doc.billPush?.url && doc.billPush.signatureKey === "") {
    ctx.addIssue({ code: "custom", message: v("signatureKeyRequired"), path: ["billPush", "signatureKey"] });
  }
  if (doc.billPush?.signatureKey && doc.billPush.signatureKey.length < 16) {
    ctx.addIssue({ code: "custom", message: v("signatureKeyShort"), path: ["billPush", "signatureKey"] });
  }
}

/**
 * Every connector standard in the operator's order, for the console's lists and forms
 * (docs/rules/settings.md "Display switches"): those it placed first, then any it left out in the
 * usual order, so a new standard or a short list never hides one.
 */
export function orderedStandards(order: readonly ConnectorStandard[]): ConnectorStandard[] {
  return [...new Set([...order, ...CONNECTOR_STANDARDS])];
}

/** `PUT /system-service/parameter-settings` for an operator: the whole document. */
export const parameterSettingsInput = z.object(documentFields).superRefine(crossChecks);
export type ParameterSettingsInput = z.infer<typeof parameterSettingsInput>;

/**
 * The part of the settings a sub-operator sees and edits: its language, time zone and how its
 * console writes numbers (docs/rules/settings.md "Sub-operators").
 */
export const SUB_OPERATOR_FIELDS = ["timeZone", "defaultLanguage", "areaCodes", "decimalSeparator", "hideZeroCosts", "hideEnergyPrice"] as const;
export type SubOperatorField = (typeof SUB_OPERATOR_FIELDS)[number];
export const subParameterSettingsInput = z.object(
  Object.fromEntries(SUB_OPERATOR_FIELDS.map((k) => [k, documentFields[k]])) as { [K in SubOperatorField]: (typeof documentFields)[K] },
);
export type SubParameterSettingsInput = z.infer<typeof subParameterSettingsInput>;

/** What is stored, and what every module reads through `settingsOf` (secrets still sealed). */
export interface ParameterSettings {
  rechargeParameter: { presets: number[] };
  mainCurrency: string;
  currencies: CurrencySet[];
  balancePayment: boolean;
  minimumRecharge: number;
  /** Minor units; null or absent: 100.00 in the main currency. */
  adHocHold?: number | null;
  minimumChargeBalance: number;
  roamingCdrLimit: CdrLimit;
  membership: { silverFee: number; goldFee: number; silverDiscount: number; goldDiscount: number };
  map: MapSettings;
  rfCardRestriction: boolean;
  connectorTypeOrder: ConnectorStandard[];
  timeZone: string;
  defaultLanguage: Language;
  hideEnergyPrice: boolean;
  areaCodes: string[];
  tax: TaxSettings;
  billPush: { url: string | null; /** Sealed. */ signatureKey: string | null };
  hideZeroCosts: boolean;
  ocpi: { countryCode: string | null; partyId: string | null; roles: OperatorRole[] };
  decimalSeparator: "." | "," | null;
  decimals: number;
  resilience: ResilienceSettings;
  customerFields: CustomerFieldRules;
}

/**
 * Items a stored document may still carry but nothing reads: the app notification certificates
 * (docs/decisions/0080-no-app-notification-certificates.md). The next save leaves them out.
 */
export const RETIRED_ITEMS = ["apple", "google"] as const;

/** The settings an operator has before anyone changed them. */
export const DEFAULT_PARAMETER_SETTINGS: ParameterSettings = {
  rechargeParameter: { presets: [] },
  mainCurrency: "USD",
  currencies: [{ code: "USD", sign: "$", decimals: 0 }],
  // Billing has always debited the balance: an operator who never chose keeps that.
  balancePayment: true,
  minimumRecharge: 0,
  adHocHold: null,
  minimumChargeBalance: 0,
  roamingCdrLimit: DEFAULT_CDR_LIMIT,
  membership: { silverFee: 0, goldFee: 1, silverDiscount: 0, goldDiscount: 0 },
  map: { provider: "osm", keys: { bing: null, google: null }, centre: { lat: "0", lng: "0" }, zoom: 2, endpoint: null },
  rfCardRestriction: false,
  connectorTypeOrder: [...CONNECTOR_STANDARDS],
  timeZone: "UTC",
  defaultLanguage: "en",
  hideEnergyPrice: false,
  areaCodes: ["86"],
  tax: { mark: "", inclusive: true, rate: "0" },
  billPush: { url: null, signatureKey: null },
  hideZeroCosts: false,
  ocpi: { countryCode: null, partyId: null, roles: DEFAULT_OPERATOR_ROLES },
  decimalSeparator: null,
  decimals: 0,
  resilience: DEFAULT_RESILIENCE,
  customerFields: { gender: false, zipCode: false, evModel: false },
};

const stored = {
  ...documentFields,
  billPush: documentFields.billPush.extend({ signatureKey: z.string().nullable() }),
  ocpi: documentFields.ocpi.extend({ roles: ocpiRoles.default(DEFAULT_OPERATOR_ROLES) }),
};

/** Before map keys per provider, a document kept one `key` for its provider. */
function legacyMap(value: unknown) {
  if (!value || typeof value !== "object" || "keys" in value) return value;
  const old = value as { provider?: MapProvider; key?: string; endpoint?: string };
  const provider = old.provider ?? "bing";
  return {
    ...DEFAULT_PARAMETER_SETTINGS.map,
    provider,
    keys: { ...DEFAULT_PARAMETER_SETTINGS.map.keys, [provider]: old.key ?? null },
    endpoint: old.endpoint ?? null,
  };
}

/**
 * The effective settings of an operator from what is stored: each item that is stored and valid
 * wins over the base (the row's columns, then the defaults), so an operator provisioned with an
 * empty document, or a document from before an item existed, reads the defaults for the rest.
 */
export function readParameterSettings(document: Record<string, unknown>, base: Partial<ParameterSettings> = {}): ParameterSettings {
  const out: Record<string, unknown> = { ...DEFAULT_PARAMETER_SETTINGS, ...base };
  for (const [key, schema] of Object.entries(stored)) {
    const raw = key === "map" ? legacyMap(document[key]) : document[key];
    if (raw === undefined) continue;
    const parsed = (schema as z.ZodType).safeParse(raw);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as unknown as ParameterSettings;
}

/** The main currency set (code, sign, decimals), as the console's formatting reads it. */
export function mainCurrencyOf(settings: Pick<ParameterSettings, "mainCurrency" | "currencies">): CurrencySet {
  return settings.currencies.find((c) => c.code === settings.mainCurrency) ?? settings.currencies[0];
}

/** Map settings that can geocode: the default provider has a key. */
export function geocoderOf(settings: ParameterSettings): { provider: KeyedMapProvider; key: string; endpoint: string | null } | null {
  const provider = settings.map.provider;
  if (provider === "osm") return null;
  const key = settings.map.keys[provider];
  return key ? { provider, key, endpoint: settings.map.endpoint ?? null } : null;
}

// ── Mail ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Workers cannot open connections to port 25 (docs/rules/settings.md "Mail"); submission ports
 * 587 (STARTTLS) and 465 (TLS) are what the console suggests.
 */
export const SMTP_BLOCKED_PORT = 25;

const email = (key: string) => z.string({ error: v(key) }).trim().max(200, { error: v("tooLong") }).pipe(z.email({ error: v(key) }));

export const TLS_MODES = ["NONE", "STARTTLS", "TLS"] as const;

export const smtpMailInput = z.object({
  type: z.literal("SMTP"),
  host: requiredText(200, "host").regex(/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/, { error: v("host") }),
  port: wholeNumber(v("port"), (n) =>
    n
      .min(1, { error: v("port") })
      .max(65535, { error: v("port") })
      .refine((p) => p !== SMTP_BLOCKED_PORT, { error: v("port25") }),
  ),
  username: text(200, "username").optional().default(""),
  password: secret(200),
  from: email("from"),
  tlsMode: z.enum(TLS_MODES, { error: v("tlsMode") }),
});

export const amazonMailInput = z.object({
  type: z.literal("AMAZON"),
  region: z.string({ error: v("region") }).trim().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, { error: v("region") }),
  accessKeyId: requiredText(128, "accessKeyId"),
  secretAccessKey: secret(200),
  from: email("from"),
  /** Replaces the SES endpoint of the region (a proxy, or a local fake in tests). */
  endpoint: z.url({ protocol: /^https?$/, error: v("url") }).nullish(),
});

/** `PUT /system-service/mail`. */
export const mailSettingsInput = z.discriminatedUnion("type", [smtpMailInput, amazonMailInput], { error: v("mailType") });
export type MailSettingsInput = z.infer<typeof mailSettingsInput>;

/** `POST /system-service/mail/test`. */
export const mailTestInput = z.object({ to: email("to") });

// ── Serbian invoice system ───────────────────────────────────────────────────────────────────

/** `PUT /system-service/invoice-system` (docs/rules/settings.md "Invoice system"). */
export const invoiceSystemInput = z
  .object({
    enabled: flag("flag"),
    url: httpsUrl,
    account: text(100, "account"),
    password: secret(200),
    pac: text(64, "pac"),
  })
  .superRefine((s, ctx) => {
    if (!s.enabled) return;
    if (!s.url) ctx.addIssue({ code: "custom", message: v("urlRequired"), path: ["url"] });
    if (!s.pac) ctx.addIssue({ code: "custom", message: v("pacRequired"), path: ["pac"] });
  });
export type InvoiceSystemInput = z.infer<typeof invoiceSystemInput>;

