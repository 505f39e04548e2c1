import { asc, eq } from "drizzle-orm";
import { paymentChannels, payments } from "../../../db/schema";
import { isUniqueViolation } from "../../../db/statements";
import { Conflict, Invalid, NotFound } from "../../../domain/errors";
import {
  CHANNEL_TYPES,
  channelEnableInput,
  CREDENTIAL_FIELDS,
  maskCredential,
  PAYPAL,
  paymentChannelInput,
  REQUIRED_CREDENTIALS,
  typeFirst,
  type CredentialField,
} from "../../../domain/schemas/payments";
import { secretsKept } from "../../../domain/secret-destinations";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { owned, ownedRow } from "../../../tenants/scope";
import { seal, sealContext, unseal } from "../../auth/sealed";
import { auditRow } from "../audit";
import type { Ctx } from "../context";
import { operatorSettings } from "../settings/parameter-settings";
import { verb } from "../verb";

/**
 * Payment channels (docs/rules/payments.md "Channels"): `/system-service/payment-channel`. One
 * channel per type and operator; an enabled channel is locked (disable it to change or remove
 * it); credentials are sealed as one JSON object and answered masked.
 */

export const CHANNEL_MENU = "carrier.paymentChannel";

type Row = typeof paymentChannels.$inferSelect;
export type Credentials = Partial<Record<CredentialField, string>>;

const credentialsContext = (operatorId: number) => sealContext(operatorId, "paymentChannel.credentials");

/** The channel's credentials in clear, for its adapter (never for an answer). */
export async function openCredentials(ctx: Pick<Ctx, "env" | "operator">, row: Pick<Row, "credentials">): Promise<Credentials> {
  if (!row.credentials) return {};
  return JSON.parse(await unseal(ctx.env, credentialsContext(ctx.operator.id), row.credentials)) as Credentials;
}

async function view(ctx: Pick<Ctx, "env" | "operator">, row: Row) {
  const credentials = await openCredentials(ctx, row);
  return {
    id: row.id,
    type: row.type,
    typeName: CHANNEL_TYPES[row.type],
    name: row.name,
    environment: row.environment,
    bankId: row.bankId,
    bankName: row.bankName,
    gateway: row.gateway,
    currentAccount: row.currentAccount,
    minimumValue: row.minimumValue,
    currency: row.currency,
    enabled: row.enabled,
    /** Each credential masked (at most its last four characters), null when not set. */
    credentials: Object.fromEntries(CREDENTIAL_FIELDS.map((f) => [f, maskCredential(credentials[f])])),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type PaymentChannelView = Awaited<ReturnType<typeof view>>;

/** A body whose type is missing says so before anything else (docs/rules/payments.md "Channels"). */
function parseChannel(raw: unknown) {
  const first = typeFirst.safeParse(raw);
  if (!first.success) throw new Invalid("payments.validation.typeFirst", {}, { type: "payments.validation.typeFirst" });
  return paymentChannelInput.parse(raw);
}

/** The sealed credentials after a body: each string sets, "" removes, null or absent keeps. */
async function nextCredentials(ctx: Pick<Ctx, "env" | "operator">, given: Partial<Record<CredentialField, string | null | undefined>>, stored: Credentials, type: number) {
  const next: Credentials = { ...stored };
  for (const field of CREDENTIAL_FIELDS) {
    const value = given[field];
    if (value === "") delete next[field];
    else if (typeof value === "string") next[field] = value;
  }
  const missing = REQUIRED_CREDENTIALS[CHANNEL_TYPES[type]].filter((f) => !next[f]);
  if (missing.length) {
    throw new Invalid("payments.validation.credentialsMissing", {}, Object.fromEntries(missing.map((f) => [`credentials.${f}`, "payments.validation.credentialRequired"])));
  }
  const context = credentialsContext(ctx.operator.id);
  return { sealed: await seal(ctx.env, context, JSON.stringify(next)), clear: next };
}

/**
 * A channel takes money in the operator's main currency and credits the wallet in it, so any other
 * is refused (docs/rules/payments.md "Channels"): 400 on `currency`.
 */
async function checkCurrency(ctx: Pick<Ctx, "db" | "operator">, currency: string) {
  const main = mainCurrencyOf(await operatorSettings(ctx)).code;
  if (currency !== main) throw new Invalid("payments.validation.currencyNotMain", { currency: main }, { currency: "payments.validation.currencyNotMain" });
}

/**
 * Where a channel's credentials are sent: its processor and gateway (docs/rules/settings.md
 * "Secrets at rest"), and for PayPal its environment, which picks PayPal's sandbox or live API
 * when no gateway is named (docs/rules/payments.md "PayPal").
 */
const destinationOf = (channel: { type: number; gateway: string; environment: string }) => [channel.type, channel.gateway, channel.type === PAYPAL ? channel.environment : ""];

export async function findChannel(ctx: Pick<Ctx, "db" | "operator">, id: number) {
  const [row] = await ctx.db.select().from(paymentChannels).where(owned(ctx, paymentChannels, eq(paymentChannels.id, id))).limit(1);
  if (!row) throw new NotFound();
  return row;
}

/** The operator's enabled channel of a type, if any (the gateways' lookup). */
export async function enabledChannel(ctx: Pick<Ctx, "db" | "operator">, type: number) {
  const [row] = await ctx.db
    .select()
    .from(paymentChannels)
    .where(owned(ctx, paymentChannels, eq(paymentChannels.type, type), eq(paymentChannels.enabled, true)))
    .limit(1);
  return row;
}

const exists = () => new Conflict("payments.errors.exists");
const locked = () => new Conflict("payments.errors.enabledLocked");

const columns = (input: Omit<Row, "id" | "operatorId" | "enabled" | "credentials" | "createdAt" | "updatedAt"> & { credentials: unknown }) => ({
  type: input.type,
  name: input.name,
  environment: input.environment,
  bankId: input.bankId,
  bankName: input.bankName,
  gateway: input.gateway,
  currentAccount: input.currentAccount,
  minimumValue: input.minimumValue,
  currency: input.currency,
});

/** GET /system-service/payment-channel: every channel of the operator (at most nine), by type. */
export const listChannels = verb({ menu: CHANNEL_MENU }, async (ctx) => {
  const rows = await ctx.db.select().from(paymentChannels).where(owned(ctx, paymentChannels)).orderBy(asc(paymentChannels.type));
  return Promise.all(rows.map((r) => view(ctx, r)));
});

/** GET /system-service/payment-channel/{id}. */
export const getChannel = verb({ menu: CHANNEL_MENU }, async (ctx, id: number) => view(ctx, await findChannel(ctx, id)));

/** POST /system-service/payment-channel: created disabled; a second of its type is a 409. */
export const createChannel = verb({ menu: CHANNEL_MENU, mutates: true }, async (ctx, raw: unknown) => {
  const input = parseChannel(raw);
  const [taken] = await ctx.db.select({ id: paymentChannels.id }).from(paymentChannels).where(owned(ctx, paymentChannels, eq(paymentChannels.type, input.type))).limit(1);
  if (taken) throw exists();
  await checkCurrency(ctx, input.currency);
  const credentials = await nextCredentials(ctx, input.credentials, {}, input.type);
  const now = new Date(ctx.now());
  const values = { ...columns(input), enabled: false, credentials: credentials.sealed, createdAt: now, updatedAt: now };
  try {
    const [[created]] = await ctx.db.batch([
      ctx.db.insert(paymentChannels).values(ownedRow(ctx, values)).returning(),
      auditRow(ctx, { table: "payment_channels", module: "payments", type: "CREATE", newData: columns(input) }),
    ]);
    return view(ctx, created);
  } catch (error) {
    // Two requests at once: the unique index decides.
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
});

/** PUT /system-service/payment-channel/{id}: refused while enabled (docs/rules/payments.md "Channels"). */
export const updateChannel = verb({ menu: CHANNEL_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const before = await findChannel(ctx, id);
  if (before.enabled) throw locked();
  const input = parseChannel(raw);
  if (input.type !== before.type) {
    const [taken] = await ctx.db.select({ id: paymentChannels.id }).from(paymentChannels).where(owned(ctx, paymentChannels, eq(paymentChannels.type, input.type))).limit(1);
    if (taken) throw exists();
  }
  await checkCurrency(ctx, input.currency);
  // Another processor or gateway gets no stored credential: the body enters them anew or they are missing.
  const stored = secretsKept(destinationOf(before), destinationOf(input), await openCredentials(ctx, before), {});
  const credentials = await nextCredentials(ctx, input.credentials, stored, input.type);
  try {
    const [updated] = await ctx.db.batch([
      ctx.db
        .update(paymentChannels)
        .set({ ...columns(input), credentials: credentials.sealed, updatedAt: new Date(ctx.now()) })
        // Enabled in between: the guard in the statement refuses it.
        .where(owned(ctx, paymentChannels, eq(paymentChannels.id, id), eq(paymentChannels.enabled, false)))
        .returning(),
      auditRow(ctx, { table: "payment_channels", module: "payments", type: "UPDATE", oldData: { id, ...columns({ ...before, credentials: {} }) }, newData: { id, ...columns(input) } }),
    ]);
    if (!updated.length) throw locked();
    return view(ctx, updated[0]);
  } catch (error) {
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
});

/** DELETE /system-service/payment-channel/{id}: refused while enabled. */
export const deleteChannel = verb({ menu: CHANNEL_MENU, mutates: true }, async (ctx, id: number) => {
  const before = await findChannel(ctx, id);
  if (before.enabled) throw locked();
  // Its payments keep naming it: a channel that took money stays (disabled) for the record.
  const [used] = await ctx.db.select({ id: payments.id }).from(payments).where(owned(ctx, payments, eq(payments.channelId, id))).limit(1);
  if (used) throw new Conflict("payments.errors.hasPayments");
  await ctx.db.batch([
    ctx.db.delete(paymentChannels).where(owned(ctx, paymentChannels, eq(paymentChannels.id, id), eq(paymentChannels.enabled, false))),
    auditRow(ctx, { table: "payment_channels", module: "payments", type: "DELETE", oldData: { id, type: before.type, name: before.name } }),
  ]);
  return null;
});

/** PUT /system-service/payment-channel/{id}/enable `{enabled}`. */
export const enableChannel = verb({ menu: CHANNEL_MENU, mutates: true }, async (ctx, id: number, raw: unknown) => {
  const { enabled } = channelEnableInput.parse(raw);
  const before = await findChannel(ctx, id);
  const [[updated]] = await ctx.db.batch([
    ctx.db
      .update(paymentChannels)
      .set({ enabled, updatedAt: new Date(ctx.now()) })
      .where(owned(ctx, paymentChannels, eq(paymentChannels.id, id)))
      .returning(),
    auditRow(ctx, { table: "payment_channels", module: "payments", type: "UPDATE", oldData: { id, enabled: before.enabled }, newData: { id, enabled } }),
  ]);
  return view(ctx, updated);
});
