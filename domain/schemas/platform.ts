import { z } from "zod";
import { LANGUAGES } from "../languages";
import { accountInput, name5to20, pageQuery, recordStatus } from "./account-service";
import { recordId, wholeNumber } from "./numbers";
import { isTimeZone } from "../time";
import { blank } from "./stations";

/**
 * The platform's business (docs/rules/platform.md): provisioning operators and sub-operators,
 * editions, validity, branded domains and price packages. One set of rules for the console forms
 * and the API; messages are catalogue keys (domain/i18n/locales/<lang>/platform.json).
 */

const text = (max: number) =>
  z.preprocess(blank, z.string({ error: "platform.validation.text" }).trim().max(max, { error: "platform.validation.tooLong" }).optional());

const required = (max: number, key = "validation.required") =>
  z.string({ error: key }).trim().min(1, { error: key }).max(max, { error: "platform.validation.tooLong" });

const email = z.preprocess(blank, z.email({ error: "validation.email" }).max(120, { error: "platform.validation.tooLong" }).optional());
const phone = z.preprocess(
  blank,
  z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{4,30}$/, { error: "validation.phone" })
    .optional(),
);

/** Operator codes are the login codes (`0PL003`): letters, digits, `_` and `-`, 3 to 32. */
export const newOperatorCode = z
  .string({ error: "validation.required" })
  .trim()
  .min(1, { error: "validation.required" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/, { error: "platform.validation.code" });

/**
 * A day (`2026-05-01`) or an instant; a day is read as UTC midnight. A Date passes as its ISO
 * text, so a body parsed by the route parses again in the verb to the same value.
 */
const dayOrInstant = (key: string) =>
  z
    .string({ error: key })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, { error: key })
    .transform((value, issue) => {
      const at = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
      if (Number.isNaN(at)) {
        issue.addIssue({ code: "custom", message: key });
        return z.NEVER;
      }
      return new Date(at);
    });

const asText = (value: unknown) => (value instanceof Date ? value.toISOString() : blank(value));

const instant = (key: string) => z.preprocess(asText, dayOrInstant(key));

/** Empty (a blank form field, null) means not given. */
const optionalInstant = (key: string) => z.preprocess(asText, dayOrInstant(key).optional());

/** A branded host: a DNS name, lower-cased, without scheme, port or path. */
const host = z
  .string({ error: "platform.validation.domain" })
  .trim()
  .toLowerCase()
  .regex(/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: "platform.validation.domain" });

const timeZone = z.string({ error: "platform.validation.timeZone" }).max(64).refine(isTimeZone, { error: "platform.validation.timeZone" });

const homeUrl = z.preprocess(
  blank,
  z.url({ protocol: /^https?$/, error: "platform.validation.url" }).max(300, { error: "platform.validation.tooLong" }).optional(),
);

/** Editions decide an operator's menus (tenants/editions.ts, docs/editions.md). */
export const EDITIONS = ["basic", "standard", "ultimate"] as const;
export type Edition = (typeof EDITIONS)[number];

export const editionInput = z.enum(EDITIONS, { error: "platform.validation.edition" });

/** The validity window: the end, when given, after the beginning. */
const validity = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape).superRefine((value, issue) => {
    const from = (value as { validFrom?: Date }).validFrom;
    const until = (value as { validUntil?: Date }).validUntil;
    if (from && until && until.getTime() <= from.getTime()) {
      issue.addIssue({ code: "custom", path: ["validUntil"], message: "platform.validation.untilBeforeFrom" });
    }
  });

/** Contact, accounts and branding of an operator or a sub-operator. */
const profile = {
  name: required(60),
  contactName: text(60),
  contactPhone: phone,
  contactEmail: email,
  chargeAccount: text(64),
  clearingAccount: text(64),
  cardPaymentAccount: text(64),
  paypalAccount: text(120),
  homeUrl,
  openingHours: text(100),
};

/** The first account of a new operator or sub-operator: a SUPER with an initial password. */
export const adminInput = z.object({
  username: accountInput.shape.username,
  email: z.email({ error: "validation.email" }).max(120),
  name: name5to20,
});

/** What the platform sets of an operator, when it creates one and when it edits it. */
const operatorFields = {
  ...profile,
  edition: editionInput,
  validFrom: optionalInstant("platform.validation.date"),
  validUntil: optionalInstant("platform.validation.date"),
  subscriptionAmount: z.preprocess(blank, wholeNumber("platform.validation.amount", (n) => n.min(0)).optional()),
  timeZone,
  currency: z.string({ error: "platform.validation.currency" }).trim().toUpperCase().regex(/^[A-Z]{3}$/, { error: "platform.validation.currency" }),
  currencySign: text(8),
  currencyDecimals: z.preprocess(blank, wholeNumber("platform.validation.decimals", (n) => n.min(0).max(4)).optional()),
  defaultLanguage: z.enum(LANGUAGES, { error: "platform.validation.language" }),
  /** A list, or the form's text with one host per line (or separated by commas or blanks). */
  domains: z.preprocess(
    (value) => (typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : value ?? []),
    z.array(host, { error: "platform.validation.domains" }).max(10, { error: "platform.validation.domains" }),
  ),
  eipaAccount: text(64),
  /** Write-only: blank keeps the stored one (docs/rules/platform.md "Operators"). */
  eipaPassword: text(128),
  /** A boolean, or the form's "true" / "false". */
  joinOcpi: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value ?? false),
    z.boolean({ error: "platform.validation.boolean" }),
  ),
};

/** POST /platform-service/operator. */
export const operatorInput = validity({ code: newOperatorCode, ...operatorFields, admin: adminInput });
export type OperatorInput = z.infer<typeof operatorInput>;

/** PUT /platform-service/operator/{id}: everything but the code and the admin. */
export const operatorUpdateInput = validity(operatorFields);
export type OperatorUpdateInput = z.infer<typeof operatorUpdateInput>;

export const operatorStatusInput = z.object({ status: recordStatus });

/** How an operator stands today: in service, disabled, past its end, or not yet begun. */
export const VALIDITIES = ["valid", "disabled", "expired", "future"] as const;
export type Validity = (typeof VALIDITIES)[number];

export const operatorListQuery = pageQuery.extend({
  code: z.string().trim().max(40).optional(),
  name: z.string().trim().max(60).optional(),
  edition: editionInput.optional(),
  validity: z.enum(VALIDITIES, { error: "platform.validation.validity" }).optional(),
});

/** POST /user-service/sub-operator: a parent's sub-operator with its first account. */
export const subOperatorInput = validity({
  code: newOperatorCode,
  ...profile,
  validFrom: optionalInstant("platform.validation.date"),
  validUntil: optionalInstant("platform.validation.date"),
  admin: adminInput,
});
export type SubOperatorInput = z.infer<typeof subOperatorInput>;

/** PUT /user-service/sub-operator/{id}: the parent edits all but the code and the admin. */
export const subOperatorUpdateInput = validity({
  ...profile,
  validFrom: optionalInstant("platform.validation.date"),
  validUntil: optionalInstant("platform.validation.date"),
});

/** PUT /user-service/sub-operator/info: the sub-operator edits its own contact and accounts. */
export const subOperatorInfoInput = z.object(profile);

/**
 * PUT /user-service/operator/info (carrierInfoEdit): the operator edits its own contact, accounts,
 * branding and EIPA access; its code, edition, validity, subscription and domains are the platform's.
 */
export const carrierInfoInput = z.object({ ...profile, eipaAccount: operatorFields.eipaAccount, eipaPassword: operatorFields.eipaPassword });
export type CarrierInfoInput = z.infer<typeof carrierInfoInput>;

export const subOperatorAccountsQuery = pageQuery.extend({
  name: z.string().trim().max(60).optional(),
  status: recordStatus.optional(),
});

export const financeQuery = pageQuery.extend({
  name: z.string().trim().max(60).optional(),
  from: optionalInstant("platform.validation.date"),
  to: optionalInstant("platform.validation.date"),
});

// ── price packages ────────────────────────────────────────────────────────────────────────────

export const PACKAGE_TYPES = ["default", "temporary", "regular"] as const;
export const PACKAGE_STATES = ["ineffective", "effective", "expired", "void"] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];
export type PackageState = (typeof PACKAGE_STATES)[number];

/** A price per connector per day: a decimal string with up to four decimals, kept as entered. */
export const unitPrice = z.preprocess(
  (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v),
  z
    .string({ error: "platform.validation.price" })
    .trim()
    .regex(/^\d{1,9}(\.\d{1,4})?$/, { error: "platform.validation.price" }),
);

const connectorCount = wholeNumber("platform.validation.connectors", (n) => n.min(0).max(100_000));

export const pricePackageInput = z
  .object({
    operatorId: recordId("platform.validation.operator"),
    type: z.enum(PACKAGE_TYPES, { error: "platform.validation.packageType" }),
    acPrice: unitPrice,
    dcPrice: unitPrice,
    acConnectors: connectorCount,
    dcConnectors: connectorCount,
    beginAt: instant("platform.validation.date"),
    endAt: instant("platform.validation.date"),
    remark: text(200),
  })
  .superRefine((value, issue) => {
    if (value.endAt.getTime() <= value.beginAt.getTime()) {
      issue.addIssue({ code: "custom", path: ["endAt"], message: "platform.validation.endBeforeBegin" });
    }
    if (value.acConnectors + value.dcConnectors === 0) {
      issue.addIssue({ code: "custom", path: ["acConnectors"], message: "platform.validation.noConnectors" });
    }
  });
export type PricePackageInput = z.infer<typeof pricePackageInput>;

export const packageListQuery = pageQuery.extend({
  operatorCode: z.string().trim().max(40).optional(),
  type: z.enum(PACKAGE_TYPES, { error: "platform.validation.packageType" }).optional(),
  status: z.enum(PACKAGE_STATES, { error: "platform.validation.packageState" }).optional(),
});

const flag = z.enum(["true", "false"], { error: "platform.validation.flag" });

export const billListQuery = pageQuery.extend({ recorded: flag.optional(), settled: flag.optional() });

/** PUT /platform-service/price-package/bill/{id}: recorded and settled flags. */
export const billFlagsInput = z
  .object({
    recorded: z.boolean({ error: "platform.validation.boolean" }).optional(),
    settled: z.boolean({ error: "platform.validation.boolean" }).optional(),
  })
  .refine((v) => v.recorded !== undefined || v.settled !== undefined, { error: "platform.validation.noFlag" });

/** The connectors an operator asks for beyond its quota. */
export const temporaryOfferQuery = z
  .object({ acConnectors: connectorCount.default(0), dcConnectors: connectorCount.default(0) })
  .refine((v) => v.acConnectors + v.dcConnectors > 0, { error: "platform.validation.noConnectors", path: ["acConnectors"] });

/** Accepting the offer: the counts and the prices the operator was shown. */
export const temporaryAcceptInput = z
  .object({ acConnectors: connectorCount, dcConnectors: connectorCount, acPrice: unitPrice, dcPrice: unitPrice })
  .refine((v) => v.acConnectors + v.dcConnectors > 0, { error: "platform.validation.noConnectors", path: ["acConnectors"] });
