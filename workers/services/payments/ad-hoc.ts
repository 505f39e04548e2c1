import { generateRandomString, type RandomReader } from "@oslojs/crypto/random";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { and, count, eq, gt, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import {
  adHocSessions,
  chargeRecords,
  chargeStrategies,
  chargeStrategyVersions,
  connectors,
  customers,
  idTags,
  operators,
  payments,
  points,
  transactions,
} from "../../../db/schema";
import { type AdHocOffer, type AdHocStartInput, type AdHocStatus, type AdHocView } from "../../../domain/schemas/ad-hoc";
import { Conflict, NotFound, TooManyAttempts } from "../../../domain/errors";
import { fixed } from "../../../domain/pricing/decimal";
import { mainCurrencyOf } from "../../../domain/schemas/settings";
import { STRIPE } from "../../../domain/schemas/payments";
import { settingsOf } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedRow } from "../../../tenants/scope";
import { UNKNOWN_CLIENT } from "../../http/client";
import { reportError } from "../../http/report-error";
import { auditRow } from "../audit";
import { systemCtx, type Ctx, type PublicCtx, type SystemCtx } from "../context";
import { runningCostOf } from "../pricing/running-cost";
import { callCharger } from "../remote/remote-control";
import { verb } from "../verb";
import { enabledChannel, findChannel, openCredentials } from "./channels";
import { gatewayOf, keyOf } from "./cards";
import { STRIPE_API } from "./stripe";

/**
 * Ad-hoc payment (docs/rules/payments.md "Ad-hoc payment", docs/decisions/0088-ad-hoc-sessions-reuse-the-card-session.md):
 * a driver without an account pays on a charger's public page. A hold (a PaymentIntent with
 * manual capture) is confirmed in the browser; once authorised (its webhook, or the page's polling
 * finding `requires_capture`) the connector is started remotely with a one-time id tag bound to
 * that payment. The session is then an ordinary card session: billing prices it, skips the wallet,
 * and the capture of `capture.ts` takes the receipt's total from the hold (Stripe releases the rest).
 */

/** A charger that has not started within this time after the authorisation releases the hold. */
export const START_WITHIN_MS = 5 * 60 * 1000;
/** A hold the driver never confirmed is given up after this time. */
export const CONFIRM_WITHIN_MS = 30 * 60 * 1000;
/** Ad-hoc starts one client may ask for within an hour (429 beyond). */
export const STARTS_PER_CLIENT_HOUR = 10;
/** Ad-hoc starts one connector takes within an hour, whoever asks (429 beyond). */
export const STARTS_PER_CONNECTOR_HOUR = 20;
/** The hold when neither the strategy nor the operator names one: 100.00 in the main currency. */
export const DEFAULT_HOLD_MAJOR = 100;
/** The payer of every ad-hoc session of an operator: a guest that no one logs in as, never mailed. */
export const GUEST_EMAIL = "ad-hoc-payment@invalid";

const random: RandomReader = { read: (bytes) => void crypto.getRandomValues(bytes as Uint8Array<ArrayBuffer>) };
/** 192 random bits: the page's address, never guessed. */
const newHandle = () => {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return encodeBase64urlNoPadding(bytes);
};
/** A one-time tag within OCPP 1.6's 20 characters (CiString20Type), upper case as the registry compares. */
const newIdTag = () => `AH${generateRandomString(random, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 18)}`;

type Session = typeof adHocSessions.$inferSelect;
type Payment = typeof payments.$inferSelect;

/** The point behind a public serial number, with its operator: unknown is a 404. */
async function publicPoint(ctx: PublicCtx, serialNumber: string) {
  const [row] = await ctx.db
    .select({ point: points, operatorCode: operators.code })
    .from(points)
    .innerJoin(operators, eq(operators.id, points.operatorId))
    .where(acrossTenants("a public page names a charger by its serial number, unique across the platform", eq(points.serialNumber, serialNumber)))
    .limit(1);
  if (!row) throw new NotFound("adHoc.errors.chargerNotFound");
  return { point: row.point, sys: systemCtx(ctx.env, { id: row.point.operatorId, code: row.operatorCode }, "ad-hoc payment", ctx.now) };
}

/** The hold: the strategy's `preAuthAmount`, else the operator's ad-hoc hold, else 100.00 in its main currency (minor units). */
async function holdOf(sys: Ctx, point: { id: number; chargeStrategyId: number | null }) {
  const [[version], settings] = await Promise.all([
    point.chargeStrategyId === null
      ? Promise.resolve([])
      : sys.db
          .select({ prices: chargeStrategyVersions.prices })
          .from(chargeStrategies)
          .innerJoin(chargeStrategyVersions, and(eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId), eq(chargeStrategyVersions.operatorId, chargeStrategies.operatorId)))
          .where(owned(sys, chargeStrategies, eq(chargeStrategies.id, point.chargeStrategyId)))
          .limit(1),
    settingsOf(sys.db, sys.operator.id),
  ]);
  const currency = mainCurrencyOf(settings.parameters);
  const amount = version?.prices.preAuthAmount ?? settings.parameters.adHocHold ?? DEFAULT_HOLD_MAJOR * 10 ** currency.decimals;
  return { amount, currency };
}

/** Whether the channel points at a local test double rather than Stripe (docs/rules/payments.md "Ad-hoc payment"). */
const testDoubleOf = (channel: { environment: string; gateway: string }) => {
  if (channel.environment !== "sandbox" || !channel.gateway) return null;
  try {
    const url = new URL(channel.gateway);
    if (url.origin === new URL(STRIPE_API).origin) return null;
    return ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) ? channel.gateway.replace(/\/$/, "") : null;
  } catch {
    return null;
  }
};

/**
 * `GET /public-service/charger/{serialNumber}/ad-hoc`: whether the charger takes ad-hoc payment,
 * the hold, and how the page takes the card (Stripe.js with the publishable key, or the test
 * double's card form).
 */
export const adHocOffer = verb({ actors: ["public"] }, async (ctx, serialNumber: string): Promise<AdHocOffer> => {
  const { point, sys } = await publicPoint(ctx, serialNumber);
  const [channel, hold] = await Promise.all([enabledChannel(sys, STRIPE), holdOf(sys, point)]);
  const hold$ = fixed(BigInt(hold.amount), hold.currency.decimals);
  if (!channel) return { available: false, hold: hold$, currency: hold.currency.code, publishableKey: null, testCardUrl: null };
  const double = testDoubleOf(channel);
  const credentials = await openCredentials(sys, channel);
  return {
    available: point.status === "VALID",
    hold: hold$,
    currency: hold.currency.code,
    publishableKey: credentials.clientApiKey ?? null,
    testCardUrl: double ? `${double}/test-card` : null,
  };
});

/** The guest customer ad-hoc sessions are billed to, made once per operator. */
async function guestOf(sys: Ctx) {
  const theGuest = owned(sys, customers, sql`lower(${customers.email}) = ${GUEST_EMAIL}`);
  const [found] = await sys.db.select({ id: customers.id }).from(customers).where(theGuest).limit(1);
  if (found) return found.id;
  const now = new Date(sys.now());
  await sys.db
    .insert(customers)
    .values(ownedRow(sys, { firstName: "Ad-hoc", lastName: "payment", gender: "OTHER" as const, email: GUEST_EMAIL, country: "", zipCode: "", evModel: "", createdAt: now, updatedAt: now }))
    .onConflictDoNothing();
  const [made] = await sys.db.select({ id: customers.id }).from(customers).where(theGuest).limit(1);
  return made.id;
}

const fingerprintOf = (serialNumber: string, input: AdHocStartInput) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(JSON.stringify([serialNumber, input.connectorId, input.email ?? null]))));

/**
 * `POST /public-service/charger/{serialNumber}/ad-hoc`: holds the card for the hold amount and
 * answers the client secret the page confirms it with and the handle it follows the session by.
 * The point must be enabled and online, its connector Available and free of another ad-hoc
 * session; a client may ask `STARTS_PER_CLIENT_HOUR` times an hour. Under a repeated
 * `Idempotency-Key` the first answer is given again (another body under it: 409).
 */
export const startAdHoc = verb({ actors: ["public"] }, async (ctx, serialNumber: string, input: AdHocStartInput, requestKey: string | undefined) => {
  const { point, sys } = await publicPoint(ctx, serialNumber);
  const fingerprint = fingerprintOf(serialNumber, input);
  if (requestKey !== undefined) {
    const [first] = await sys.db.select().from(adHocSessions).where(owned(sys, adHocSessions, eq(adHocSessions.requestKey, requestKey))).limit(1);
    if (first) {
      if (first.fingerprint !== fingerprint) throw new Conflict("errors.idempotencyKeyReused");
      if (!first.clientSecret) throw new Conflict("errors.idempotencyKeyInFlight");
      return { clientSecret: first.clientSecret, handle: first.handle };
    }
  }
  const client = ctx.request.ip;
  const hourAgo = new Date(sys.now() - 3_600_000);
  const [[asked], [atConnector], [connector], channel] = await Promise.all([
    // Where nothing vouches for the client's address every client is one (workers/http/client.ts): only the connector's limit counts.
    client === UNKNOWN_CLIENT
      ? Promise.resolve([{ n: 0 }])
      : sys.db
          .select({ n: count() })
          .from(adHocSessions)
          .where(acrossTenants("one client asking many operators' chargers is still one client", eq(adHocSessions.client, client), gt(adHocSessions.createdAt, hourAgo))),
    sys.db
      .select({ n: count() })
      .from(adHocSessions)
      .where(owned(sys, adHocSessions, eq(adHocSessions.pointId, point.id), eq(adHocSessions.connectorNo, input.connectorId), gt(adHocSessions.createdAt, hourAgo))),
    sys.db
      .select({ status: connectors.status })
      .from(connectors)
      .where(owned(sys, connectors, eq(connectors.pointId, point.id), eq(connectors.connectorNo, input.connectorId)))
      .limit(1),
    enabledChannel(sys, STRIPE),
  ]);
  if (asked.n >= STARTS_PER_CLIENT_HOUR || atConnector.n >= STARTS_PER_CONNECTOR_HOUR) throw new TooManyAttempts("adHoc.errors.tooManyStarts", { minutes: 60 });
  if (point.status !== "VALID") throw new Conflict("adHoc.errors.pointDisabled");
  if (!point.online) throw new Conflict("adHoc.errors.pointOffline");
  if (!connector) throw new NotFound("adHoc.errors.connectorNotFound");
  if (connector.status !== "Available") throw new Conflict("adHoc.errors.connectorBusy", { status: connector.status ?? "" });
  if (!channel) throw new Conflict("adHoc.errors.noPayment");
  const [hold, guestId] = await Promise.all([holdOf(sys, point), guestOf(sys)]);
  if (hold.amount <= 0) throw new Conflict("adHoc.errors.noPayment");
  const handle = newHandle();
  const idTag = newIdTag();
  const now = new Date(sys.now());
  // The payment, the session (bound to it by the row just inserted) and the one-time tag, together
  // or not at all: the live-connector index refuses a second session on the connector here.
  try {
    await sys.db.batch([
      sys.db
        .insert(payments)
        .values(ownedRow(sys, { customerId: guestId, channelId: channel.id, kind: "PRE_AUTH" as const, status: "PENDING" as const, amount: hold.amount, currency: channel.currency, createdAt: now, updatedAt: now })),
      sys.db.insert(adHocSessions).values(
        ownedRow(sys, {
          handle,
          pointId: point.id,
          connectorNo: input.connectorId,
          idTag,
          email: input.email ?? null,
          status: "AWAITING_PAYMENT" as const,
          paymentId: sql<number>`last_insert_rowid()`,
          requestKey: requestKey ?? null,
          fingerprint,
          client,
          createdAt: now,
          updatedAt: now,
        }),
      ),
      sys.db.insert(idTags).values(ownedRow(sys, { idTag, status: "Accepted" as const, kind: "AD_HOC" as const, customerId: guestId, createdAt: now })),
      auditRow(sys, { table: "ad_hoc_sessions", module: "payments", type: "CREATE", newData: { handle: `${handle.slice(0, 4)}…`, pointId: point.id, connectorId: input.connectorId, hold: hold.amount } }),
    ]);
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw new Conflict("adHoc.errors.connectorBusy", { status: "ad-hoc" });
    throw error;
  }
  const session = (await sessionBy(sys, eq(adHocSessions.handle, handle)))!;
  const payment = (await paymentOf(sys, session))!;
  const outcome = await (
    await gatewayOf(sys, await findChannel(sys, channel.id))
  ).createHold({
    amount: payment.amount,
    currency: payment.currency,
    idempotencyKey: keyOf(sys, payment, "hold"),
    metadata: { operatorId: String(sys.operator.id), paymentId: String(payment.id), kind: "PRE_AUTH", adHoc: "true" },
  });
  if (!outcome.ref || !outcome.clientSecret) {
    await failSession(sys, session, payment, outcome.error ?? "no hold");
    throw new Conflict("adHoc.errors.paymentUnavailable");
  }
  await sys.db.batch([
    sys.db.update(payments).set({ intentRef: outcome.ref, updatedAt: now }).where(owned(sys, payments, eq(payments.id, payment.id))),
    sys.db.update(adHocSessions).set({ clientSecret: outcome.clientSecret, updatedAt: now }).where(owned(sys, adHocSessions, eq(adHocSessions.id, session.id))),
  ]);
  return { clientSecret: outcome.clientSecret, handle };
});

const sessionBy = async (sys: Ctx, where: ReturnType<typeof eq>) => (await sys.db.select().from(adHocSessions).where(owned(sys, adHocSessions, where)).limit(1))[0];
const paymentOf = async (sys: Ctx, session: Session) => (await sys.db.select().from(payments).where(owned(sys, payments, eq(payments.id, session.paymentId))).limit(1))[0];

/**
 * Ends a session that never charged: the hold is cancelled at Stripe (released), the payment and
 * the session FAILED and the one-time tag expired, in one batch. A cancel Stripe did not answer
 * leaves the payment as it was; the sweep cancels it again (`sweepAdHoc`).
 */
async function failSession(sys: Ctx, session: Session, payment: Payment, reason: string) {
  let released = payment.intentRef === null || payment.status === "FAILED";
  if (!released) {
    const outcome = await (await gatewayOf(sys, await findChannel(sys, payment.channelId))).cancel(payment.intentRef!, keyOf(sys, payment, "cancel"));
    // Answered (canceled now, or already): the hold is gone; not answered: tried again by the sweep.
    released = outcome.ref !== null;
  }
  const now = new Date(sys.now());
  await sys.db.batch([
    sys.db
      .update(adHocSessions)
      .set({ status: "FAILED", error: reason.slice(0, 300), updatedAt: now })
      .where(owned(sys, adHocSessions, eq(adHocSessions.id, session.id), inArray(adHocSessions.status, ["AWAITING_PAYMENT", "STARTING"]), sql`${adHocSessions.transactionId} is null`)),
    sys.db.update(idTags).set({ status: "Expired" }).where(owned(sys, idTags, eq(idTags.idTag, session.idTag), eq(idTags.kind, "AD_HOC"))),
    ...(released
      ? [
          sys.db
            .update(payments)
            .set({ status: "FAILED", error: reason.slice(0, 300), updatedAt: now })
            .where(owned(sys, payments, eq(payments.id, payment.id), inArray(payments.status, ["PENDING", "AUTHORISED"]), sql`${payments.transactionId} is null`)),
        ]
      : []),
    auditRow(sys, { table: "ad_hoc_sessions", module: "payments", type: "UPDATE", newData: { id: session.id, status: "FAILED", reason, released } }),
  ]);
}

/**
 * The hold is authorised (its webhook, or the page's polling): the payment AUTHORISED and the
 * session STARTING in one batch, guarded by their states so a webhook and a poll start it once;
 * then the connector is started remotely with the one-time tag (OCPP 1.6 RemoteStartTransaction,
 * 2.0.1 RequestStartTransaction F01 through the product's command path). A refusal releases the hold.
 */
export async function adHocAuthorised(sys: Ctx, paymentId: number, intentRef: string) {
  const [session] = await sys.db.select().from(adHocSessions).where(owned(sys, adHocSessions, eq(adHocSessions.paymentId, paymentId))).limit(1);
  if (!session) return false;
  const now = new Date(sys.now());
  const [, moved] = await sys.db.batch([
    sys.db.update(payments).set({ status: "AUTHORISED", intentRef, updatedAt: now }).where(owned(sys, payments, eq(payments.id, paymentId), eq(payments.status, "PENDING"))),
    sys.db
      .update(adHocSessions)
      .set({ status: "STARTING", authorisedAt: now, updatedAt: now })
      .where(owned(sys, adHocSessions, eq(adHocSessions.id, session.id), eq(adHocSessions.status, "AWAITING_PAYMENT")))
      .returning({ id: adHocSessions.id }),
  ]);
  if (!moved.length) return true;
  const [point] = await sys.db.select({ serialNumber: points.serialNumber }).from(points).where(owned(sys, points, eq(points.id, session.pointId))).limit(1);
  const outcome = await callCharger(sys, { operatorId: sys.operator.id, serialNumber: point.serialNumber }, "RemoteStartTransaction", { connectorId: session.connectorNo, idTag: session.idTag });
  const refused = !outcome.ok ? outcome.reason : outcome.response.status !== "Accepted" ? outcome.response.status : null;
  if (refused) {
    const fresh = (await sessionBy(sys, eq(adHocSessions.id, session.id)))!;
    await failSession(sys, fresh, (await paymentOf(sys, fresh))!, `remote start: ${refused}`);
  }
  return true;
}

/** Minor units as the decimal text the page shows (docs/rules/pricing.md). */
const money = (minor: number, decimals: number) => fixed(BigInt(minor), decimals);

/** Asks the charger to stop the session's transaction (OCPP 1.6 RemoteStopTransaction, 2.0.1 F03), once per call. */
async function askStop(sys: Ctx, session: Session, serialNumber: string, why: string) {
  await sys.db.update(adHocSessions).set({ stopAskedAt: new Date(sys.now()), updatedAt: new Date(sys.now()) }).where(owned(sys, adHocSessions, eq(adHocSessions.id, session.id)));
  const outcome = await callCharger(sys, { operatorId: sys.operator.id, serialNumber }, "RemoteStopTransaction", { transactionId: session.transactionId! });
  await sys.db.batch([auditRow(sys, { table: "ad_hoc_sessions", module: "payments", type: "UPDATE", newData: { id: session.id, stop: why, outcome: outcome.ok ? outcome.response.status : outcome.reason } })]);
  return outcome.ok && outcome.response.status === "Accepted";
}

/**
 * Moves a session on from what is known now, and answers it as the page shows it:
 * - AWAITING_PAYMENT: the intent is asked for (a late webhook); authorised → started; given up
 *   after `CONFIRM_WITHIN_MS`;
 * - STARTING: a charger that has not started within `START_WITHIN_MS` releases the hold (FAILED);
 * - CHARGING: the running cost reaching the hold stops the session; once the transaction is
 *   billed and its capture answered, FINISHED with the receipt's address.
 */
async function advance(sys: Ctx, session: Session, origin: string | null): Promise<AdHocView> {
  const [point] = await sys.db.select({ serialNumber: points.serialNumber }).from(points).where(owned(sys, points, eq(points.id, session.pointId))).limit(1);
  let payment = (await paymentOf(sys, session))!;
  const settings = await settingsOf(sys.db, sys.operator.id);
  const decimals = mainCurrencyOf(settings.parameters).decimals;
  const view = (s: Session, energyWh = 0, cost = 0, receiptToken: string | null = null): AdHocView => ({
    handle: s.handle,
    status: s.status,
    connectorId: s.connectorNo,
    energyWh,
    cost: money(cost, decimals),
    currency: payment.currency,
    receiptUrl: s.status === "FINISHED" && receiptToken ? `${origin ?? ""}/tourist/chargingRecordDetails/${receiptToken}` : null,
  });
  const again = async () => (await sessionBy(sys, eq(adHocSessions.id, session.id)))!;
  if (session.status === "AWAITING_PAYMENT" && payment.intentRef) {
    const outcome = await (await gatewayOf(sys, await findChannel(sys, payment.channelId))).retrieve(payment.intentRef);
    if (outcome.status === "AUTHORISED") await adHocAuthorised(sys, payment.id, payment.intentRef);
    else if (session.createdAt.getTime() + CONFIRM_WITHIN_MS < sys.now()) await failSession(sys, session, payment, "never confirmed");
    session = await again();
    payment = (await paymentOf(sys, session))!;
  }
  if (session.status === "STARTING" && session.transactionId === null && (session.authorisedAt?.getTime() ?? 0) + START_WITHIN_MS < sys.now()) {
    await failSession(sys, session, payment, "charger never started");
    session = await again();
  }
  if (session.transactionId === null || (session.status !== "CHARGING" && session.status !== "FINISHED")) return view(session);
  const [tx] = await sys.db.select().from(transactions).where(owned(sys, transactions, eq(transactions.id, session.transactionId))).limit(1);
  const [record] = await sys.db
    .select({ totalCost: chargeRecords.totalCost, pricingPhase: chargeRecords.pricingPhase, receiptToken: chargeRecords.receiptToken })
    .from(chargeRecords)
    .where(owned(sys, chargeRecords, eq(chargeRecords.transactionId, session.transactionId)))
    .limit(1);
  if (tx.stopAt === null) {
    const live = await runningCostOf(sys, tx, point.serialNumber);
    // The hold is all the card may pay: the session stops when its running cost reaches it.
    if (live.cost >= payment.amount && session.stopAskedAt === null) await askStop(sys, session, point.serialNumber, "hold reached");
    return view(session, live.energyWh, live.cost);
  }
  // The capture is answered (taken, or refused for the operator to retry): the session is over.
  const settled = record?.pricingPhase === "FINAL" && payment.status !== "AUTHORISED";
  if (session.status === "CHARGING" && settled) {
    await sys.db.batch([
      sys.db.update(adHocSessions).set({ status: "FINISHED", updatedAt: new Date(sys.now()) }).where(owned(sys, adHocSessions, eq(adHocSessions.id, session.id), eq(adHocSessions.status, "CHARGING"))),
      sys.db.update(idTags).set({ status: "Expired" }).where(owned(sys, idTags, eq(idTags.idTag, session.idTag), eq(idTags.kind, "AD_HOC"))),
    ]);
    session = await again();
  }
  return view(session, Math.max(0, (tx.meterStopWh ?? tx.meterStartWh) - tx.meterStartWh), record?.totalCost ?? 0, record?.receiptToken ?? null);
}

/** The session behind a public handle, with its operator's system context: unknown is a 404. */
async function byHandle(ctx: PublicCtx, handle: string) {
  const [row] = await ctx.db
    .select({ session: adHocSessions, operatorCode: operators.code })
    .from(adHocSessions)
    .innerJoin(operators, eq(operators.id, adHocSessions.operatorId))
    .where(acrossTenants("a handle is unguessable and names one ad-hoc session across the platform", eq(adHocSessions.handle, handle)))
    .limit(1);
  if (!row) throw new NotFound("adHoc.errors.notFound");
  return { session: row.session, sys: systemCtx(ctx.env, { id: row.session.operatorId, code: row.operatorCode }, "ad-hoc payment", ctx.now) };
}

/** `GET /public-service/ad-hoc/{handle}`: the session as the page follows it. */
export const followAdHoc = verb({ actors: ["public"] }, async (ctx, handle: string) => {
  const { session, sys } = await byHandle(ctx, handle);
  return advance(sys, session, ctx.request.origin ?? null);
});

/**
 * `POST /public-service/ad-hoc/{handle}/stop`: a charging session is stopped remotely; one that
 * has not started is given up and its hold released. A finished or failed one is answered as is.
 */
export const stopAdHoc = verb({ actors: ["public"] }, async (ctx, handle: string) => {
  const { session, sys } = await byHandle(ctx, handle);
  if (session.status === "AWAITING_PAYMENT" || (session.status === "STARTING" && session.transactionId === null)) {
    await failSession(sys, session, (await paymentOf(sys, session))!, "stopped by the driver");
  } else if (session.status === "CHARGING" && session.transactionId !== null) {
    const [tx] = await sys.db.select({ stopAt: transactions.stopAt }).from(transactions).where(owned(sys, transactions, eq(transactions.id, session.transactionId))).limit(1);
    const [point] = await sys.db.select({ serialNumber: points.serialNumber }).from(points).where(owned(sys, points, eq(points.id, session.pointId))).limit(1);
    if (tx?.stopAt === null && !(await askStop(sys, session, point.serialNumber, "driver"))) throw new Conflict("adHoc.errors.stopRefused");
  }
  return advance(sys, (await sessionBy(sys, eq(adHocSessions.id, session.id)))!, ctx.request.origin ?? null);
});

/**
 * The cron's sweep of live ad-hoc sessions (docs/rules/payments.md "Ad-hoc payment"), for pages
 * closed early: each is moved on as the page would (released, stopped at the hold, finished), and
 * a failed session whose hold Stripe did not cancel is cancelled again.
 */
export async function sweepAdHoc(platform: SystemCtx) {
  const now = platform.now;
  const rows = await platform.db
    .select({ session: adHocSessions, operatorCode: operators.code })
    .from(adHocSessions)
    .innerJoin(operators, eq(operators.id, adHocSessions.operatorId))
    .innerJoin(payments, eq(payments.id, adHocSessions.paymentId))
    .where(
      acrossTenants(
        "the sweep moves on every operator's live ad-hoc sessions, each under its own operator",
        or(inArray(adHocSessions.status, ["AWAITING_PAYMENT", "STARTING", "CHARGING"]), and(eq(adHocSessions.status, "FAILED"), inArray(payments.status, ["PENDING", "AUTHORISED"]), isNotNull(payments.intentRef))),
        lt(adHocSessions.createdAt, new Date(now() - 60_000)),
      ),
    )
    .limit(200);
  for (const { session, operatorCode } of rows) {
    const sys = systemCtx(platform.env, { id: session.operatorId, code: operatorCode }, "ad-hoc sweep", now);
    try {
      if (session.status === "FAILED") {
        const payment = (await paymentOf(sys, session))!;
        if (payment.transactionId === null) await failSession(sys, session, payment, session.error ?? "released");
      } else await advance(sys, session, null);
    } catch (error) {
      reportError("ad-hoc", error, { sessionId: session.id });
    }
  }
}

/** The ad-hoc session behind a transaction (receipt mail), if any. */
export async function adHocOfTransaction(sys: Ctx, transactionId: number) {
  const [row] = await sys.db.select({ email: adHocSessions.email }).from(adHocSessions).where(owned(sys, adHocSessions, eq(adHocSessions.transactionId, transactionId))).limit(1);
  return row;
}

/**
 * The statements a charger's start adds to its batch (no extra round trip on the OCPP path,
 * docs/rules/ocpp.md "Hot path"): a start with a session's one-time tag binds the transaction
 * to the session (CHARGING) and to its hold, once. Other tags match nothing.
 */
export function bindAdHocStart(sys: Ctx, pointId: number, idTag: string, transaction: ReturnType<typeof sql<number>>) {
  const tag = idTag.toUpperCase();
  const waiting = owned(sys, adHocSessions, eq(adHocSessions.idTag, tag), eq(adHocSessions.pointId, pointId), eq(adHocSessions.status, "STARTING"), sql`${adHocSessions.transactionId} is null`);
  const now = new Date(sys.now());
  return [
    sys.db
      .update(payments)
      .set({ transactionId: transaction, updatedAt: now })
      .where(owned(sys, payments, sql`${payments.id} = (select ${adHocSessions.paymentId} from ${adHocSessions} where ${waiting})`, eq(payments.status, "AUTHORISED"), sql`${payments.transactionId} is null`)),
    sys.db.update(adHocSessions).set({ transactionId: transaction, status: "CHARGING", updatedAt: now }).where(waiting),
  ] as const;
}

export type { AdHocStatus };
