import { and, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import { chargeRecords, chargeStrategyVersions, connectors, ocpiCpoCdrs, ocpiCpoSessions, operators, points, stations, transactions } from "../../../../db/schema";
import { tariffOfStrategy } from "../../../../domain/ocpi/tariff-of-strategy";
import type { OcpiTariff } from "../../../../domain/schemas/ocpi/tariffs";
import { tariffTermsOf } from "../cpo-tariffs";
import { alpha3Of } from "../../../../domain/ocpi/countries";
import { ocpiFormatOf, ocpiPowerTypeOf, ocpiStandardOf } from "../../../../domain/ocpi/connector-standard";
import { evseIdOf } from "../../../../domain/ocpi/cpo-evse";
import { ocpiSignedData } from "../../../../domain/ocpp/signed-meter";
import { chargePointName } from "../../../ocpp/identity";
import { addressOf, coordinateOf } from "../../../../domain/ocpi/location-of-station";
import { ocpiTime } from "../../../../domain/ocpi/wire";
import { majorUnits } from "../../../../domain/pricing";
import { mainCurrencyOf } from "../../../../domain/schemas/settings";
import { settingsOf } from "../../../../tenants/resolve";
import { acrossTenants, owned, ownedRow } from "../../../../tenants/scope";
import type { Ctx, PartnerCtx } from "../../context";
import { verb } from "../../verb";
import { callPartner, PartnerFailure, workerFetch, type OcpiFetch } from "../client";
import { ourIdentity, type OurIdentity } from "../identity";
import { CPO_PAGE_LIMIT, periodOf, queueCpoDelivery, receiverOf, senderQuery } from "./sessions";
import { z } from "zod";

/**
 * The CDRs sender of our CPO side (OCPI 2.2.1 §10; docs/rules/ocpi.md "Sessions and CDRs we
 * send"): a roaming session priced for good by our own engine becomes one CDR whose total is the
 * charge record's to the minor unit, POSTed to the eMSP until it takes it, with backoff; eMSPs
 * may also pull them.
 */

/** After a refusal the next try waits 1, 2, 4 … minutes, at most a day (OCPI 2.2.1 §10.2.2 leaves it to the CPO). */
export const cdrRetryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 24 * 3_600_000);

const hoursOf = (ms: number) => Math.round((ms / 3_600_000) * 10_000) / 10_000;

/**
 * A roaming session's charge record was priced: its final price makes the session COMPLETED and
 * its CDR (once: the CDR is unique per session), both then pushed to the eMSP. A provisional
 * price (an idle fee after charging awaits the unplug) waits for the final one.
 */
export async function roamingSessionPriced(ctx: Ctx, transactionId: number) {
  const [found] = await ctx.db
    .select({
      session: ocpiCpoSessions,
      record: {
        currency: chargeRecords.currency,
        pricingPhase: chargeRecords.pricingPhase,
        totalCost: chargeRecords.totalCost,
        taxCost: chargeRecords.taxCost,
        electricCost: chargeRecords.electricCost,
        occupancyCost: chargeRecords.occupancyCost,
        unplugAt: chargeRecords.unplugAt,
      },
      tx: { startAt: transactions.startAt, stopAt: transactions.stopAt, meterStartWh: transactions.meterStartWh, meterStopWh: transactions.meterStopWh, strategyVersionId: transactions.strategyVersionId },
      station: { name: stations.name, address: stations.address, lat: stations.lat, lng: stations.lng },
      serialNumber: points.serialNumber,
      connector: { standard: connectors.standard, powerW: connectors.powerW },
      version: { strategyId: chargeStrategyVersions.strategyId, name: chargeStrategyVersions.name, currency: chargeStrategyVersions.currency, prices: chargeStrategyVersions.prices, createdAt: chargeStrategyVersions.createdAt },
    })
    .from(ocpiCpoSessions)
    .innerJoin(chargeRecords, eq(chargeRecords.transactionId, ocpiCpoSessions.transactionId))
    .innerJoin(transactions, eq(transactions.id, ocpiCpoSessions.transactionId))
    .leftJoin(points, and(eq(points.id, ocpiCpoSessions.pointId), eq(points.operatorId, ocpiCpoSessions.operatorId)))
    .leftJoin(stations, and(eq(stations.id, points.stationId), eq(stations.operatorId, ocpiCpoSessions.operatorId)))
    .leftJoin(
      connectors,
      and(eq(connectors.pointId, ocpiCpoSessions.pointId), eq(connectors.connectorNo, ocpiCpoSessions.connectorNo), eq(connectors.operatorId, ocpiCpoSessions.operatorId)),
    )
    .leftJoin(chargeStrategyVersions, and(eq(chargeStrategyVersions.id, transactions.strategyVersionId), eq(chargeStrategyVersions.operatorId, ocpiCpoSessions.operatorId)))
    .where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.transactionId, transactionId)))
    .limit(1);
  if (!found || found.record.pricingPhase === "PROVISIONAL" || found.tx.stopAt === null || found.tx.meterStopWh === null) return null;
  // The charger's signed readings of the session's start and end, kept by its object (docs/rules/ocpi.md "Sessions and CDRs we send").
  const signed = found.serialNumber ? ctx.env.CHARGE_POINT.getByName(chargePointName(ctx.operator.id, found.serialNumber)).signedMeter(transactionId) : null;
  const [identity, settings, terms, signedMeter] = await Promise.all([ourIdentity(ctx), settingsOf(ctx.db, ctx.operator.id), tariffTermsOf(ctx), signed]);
  const currency = mainCurrencyOf(settings.parameters);
  // The tariff used: the strategy version the session was priced with, as we publish a strategy (docs/rules/ocpi.md "Tariffs we publish").
  const v = found.version;
  const tariff = v ? tariffOfStrategy(terms.party, { id: v.strategyId, name: v.name, currency: v.currency, prices: v.prices, updatedAt: v.createdAt.getTime() }, terms.tax) : null;
  const totalIncl = found.record.totalCost ?? 0;
  const totalExcl = totalIncl - (found.record.taxCost ?? 0);
  const energyWh = Math.max(0, found.tx.meterStopWh - found.tx.meterStartWh);
  const now = new Date(ctx.now());
  const object = cdrObject({ ...found, tariff, identity, signedData: ocpiSignedData(signedMeter), decimals: currency.decimals, currency: found.record.currency, totalIncl, totalExcl, energyWh, now: now.getTime() });
  const [, made] = await ctx.db.batch([
    ctx.db
      .update(ocpiCpoSessions)
      .set({ status: "COMPLETED", energyWh, costExcl: totalExcl, costIncl: totalIncl, endAt: found.tx.stopAt, lastUpdated: now })
      .where(owned(ctx, ocpiCpoSessions, eq(ocpiCpoSessions.id, found.session.id), eq(ocpiCpoSessions.status, "ACTIVE"))),
    ctx.db
      .insert(ocpiCpoCdrs)
      .values(
        ownedRow(ctx, {
          platformId: found.session.platformId,
          sessionId: found.session.id,
          cdrId: object.id,
          data: object,
          currency: found.record.currency,
          totalExcl,
          totalIncl,
          energyWh,
          startAt: found.tx.startAt,
          createdAt: now,
        }),
      )
      .onConflictDoNothing()
      .returning({ id: ocpiCpoCdrs.id }),
  ]);
  await queueCpoDelivery(ctx, "session", found.session.id);
  const [cdr] = made as { id: number }[];
  if (cdr) await queueCpoDelivery(ctx, "cdr", cdr.id);
  return object;
}

type Row<T extends { $inferSelect: object }, K extends keyof T["$inferSelect"]> = Pick<T["$inferSelect"], K>;

interface CdrFacts {
  session: typeof ocpiCpoSessions.$inferSelect;
  record: Row<typeof chargeRecords, "currency" | "pricingPhase" | "totalCost" | "taxCost" | "electricCost" | "occupancyCost" | "unplugAt">;
  tx: Row<typeof transactions, "startAt" | "stopAt" | "meterStartWh" | "meterStopWh" | "strategyVersionId">;
  station: Row<typeof stations, "name" | "address" | "lat" | "lng"> | null;
  connector: Row<typeof connectors, "standard" | "powerW"> | null;
  tariff: OcpiTariff | null;
  identity: OurIdentity;
  /** OCPI 2.2.1 §10.4.7, when the charger signed its meter values. */
  signedData?: ReturnType<typeof ocpiSignedData>;
  decimals: number;
  currency: string;
  totalIncl: number;
  totalExcl: number;
  energyWh: number;
  now: number;
}

/** The CDR (OCPI 2.2.1 §10.3.1) of a priced roaming session: its id is the session's, so a CDR is never made twice. */
export function cdrObject(f: CdrFacts) {
  const start = f.tx.startAt.getTime();
  const stop = f.tx.stopAt!.getTime();
  const parkingMs = f.record.unplugAt ? Math.max(0, f.record.unplugAt.getTime() - stop) : 0;
  const price = (minor: number) => ({ excl_vat: majorUnits(minor, f.decimals), incl_vat: majorUnits(minor, f.decimals) });
  const standard = f.connector?.standard ?? "IEC2";
  const powerW = f.connector?.powerW ?? 0;
  const tariffId = f.tariff?.id;
  const place = addressOf(f.station?.address ?? "", f.station?.name ?? "-");
  return {
    country_code: f.identity.countryCode,
    party_id: f.identity.partyId,
    id: String(f.session.id),
    start_date_time: ocpiTime(start),
    end_date_time: ocpiTime(stop),
    session_id: String(f.session.id),
    cdr_token: { country_code: f.session.tokenCountryCode, party_id: f.session.tokenPartyId, uid: f.session.tokenUid, type: f.session.tokenType, contract_id: f.session.contractId },
    auth_method: f.session.authMethod,
    ...(f.session.authorizationReference && { authorization_reference: f.session.authorizationReference }),
    cdr_location: {
      id: f.session.locationId,
      ...(f.station && { name: f.station.name.slice(0, 255) }),
      ...place,
      country: alpha3Of(f.identity.countryCode) ?? "XXX",
      coordinates: { latitude: coordinateOf(f.station?.lat ?? null), longitude: coordinateOf(f.station?.lng ?? null) },
      evse_uid: f.session.evseUid,
      evse_id: evseIdOf(f.identity.countryCode, f.identity.partyId, f.session.pointId, f.session.connectorNo),
      connector_id: f.session.connectorId,
      connector_standard: ocpiStandardOf(standard),
      connector_format: ocpiFormatOf(standard),
      connector_power_type: ocpiPowerTypeOf(standard, powerW),
    },
    currency: f.currency,
    ...(f.tariff && { tariffs: [f.tariff] }),
    charging_periods: [
      {
        start_date_time: ocpiTime(start),
        dimensions: [
          { type: "ENERGY", volume: f.energyWh / 1000 },
          { type: "TIME", volume: hoursOf(stop - start) },
        ],
        ...(tariffId && { tariff_id: tariffId }),
      },
      ...(parkingMs > 0 ? [{ start_date_time: ocpiTime(stop), dimensions: [{ type: "PARKING_TIME", volume: hoursOf(parkingMs) }], ...(tariffId && { tariff_id: tariffId }) }] : []),
    ],
    total_cost: { excl_vat: majorUnits(f.totalExcl, f.decimals), incl_vat: majorUnits(f.totalIncl, f.decimals) },
    ...(f.record.electricCost !== null && { total_energy_cost: price(f.record.electricCost) }),
    ...(f.record.occupancyCost !== null && f.record.occupancyCost > 0 && { total_parking_cost: price(f.record.occupancyCost) }),
    total_energy: f.energyWh / 1000,
    total_time: hoursOf(stop - start),
    total_parking_time: hoursOf(parkingMs),
    ...(f.signedData && { signed_data: f.signedData }),
    last_updated: ocpiTime(f.now),
  };
}

const anything = z.unknown();

/**
 * One CDR to its eMSP (OCPI 2.2.1 §10.2.2 POST): ACCEPTED once taken, else RETRYING with the
 * partner's reason and the time of the next try (backoff). An accepted CDR is never sent again.
 */
export const deliverCpoCdr = verb({ actors: ["system"] }, async (ctx, cdrRowId: number, send: OcpiFetch = workerFetch) => {
  const [row] = await ctx.db.select().from(ocpiCpoCdrs).where(owned(ctx, ocpiCpoCdrs, eq(ocpiCpoCdrs.id, cdrRowId))).limit(1);
  if (!row || row.pushState === "ACCEPTED") return true;
  const fail = async (reason: string) => {
    const attempts = row.pushAttempts + 1;
    await ctx.db
      .update(ocpiCpoCdrs)
      .set({ pushState: "RETRYING", pushError: reason.slice(0, 500), pushAttempts: attempts, nextAttemptAt: new Date(ctx.now() + cdrRetryDelayMs(attempts)) })
      .where(owned(ctx, ocpiCpoCdrs, eq(ocpiCpoCdrs.id, row.id), sql`${ocpiCpoCdrs.pushState} <> 'ACCEPTED'`));
  };
  const receiver = await receiverOf(ctx, row.platformId, "cdrs");
  if ("error" in receiver) {
    await fail(receiver.error ?? "");
    return true;
  }
  const identity = await ourIdentity(ctx);
  const token = (row.data as { cdr_token?: { country_code?: string; party_id?: string } }).cdr_token;
  try {
    await callPartner(send, receiver.url, receiver.token, anything, {
      method: "POST",
      body: row.data,
      from: identity,
      ...(token?.country_code && token.party_id && { to: { countryCode: token.country_code, partyId: token.party_id } }),
    });
  } catch (error) {
    if (!(error instanceof PartnerFailure)) throw error;
    await fail(error.reason);
    // The cron tries again by `next_attempt_at`: the queue message is done with.
    return true;
  }
  await ctx.db
    .update(ocpiCpoCdrs)
    .set({ pushState: "ACCEPTED", pushError: null, acceptedAt: new Date(ctx.now()), nextAttemptAt: null })
    .where(owned(ctx, ocpiCpoCdrs, eq(ocpiCpoCdrs.id, row.id)));
  return true;
});

/** The CDRs whose next try is due, across operators (the cron's look). */
export const dueCdrRetries = verb({ actors: ["system"] }, async (ctx) =>
  ctx.db
    .select({ id: ocpiCpoCdrs.id, operatorId: ocpiCpoCdrs.operatorId, operatorCode: operators.code })
    .from(ocpiCpoCdrs)
    .innerJoin(operators, eq(operators.id, ocpiCpoCdrs.operatorId))
    .where(
      acrossTenants(
        "the cron finds every operator's CDRs due for another try; each is delivered as its own operator",
        eq(ocpiCpoCdrs.pushState, "RETRYING"),
        lte(ocpiCpoCdrs.nextAttemptAt, new Date(ctx.now())),
      ),
    )
    .limit(500),
);

/** `GET /ocpi/2.2.1/cpo/cdrs`: the caller's drivers' CDRs, a page at a time (OCPI 2.2.1 §10.2.1). */
export const listCpoCdrs = verb({ actors: ["partner"] }, async (ctx: PartnerCtx, raw: Record<string, string>) => {
  const query = senderQuery.parse(raw);
  const limit = Math.min(query.limit ?? CPO_PAGE_LIMIT, CPO_PAGE_LIMIT);
  const { from, to } = periodOf(query);
  const where = owned(
    ctx,
    ocpiCpoCdrs,
    eq(ocpiCpoCdrs.platformId, ctx.actor.platformId),
    ...(from === undefined ? [] : [gte(ocpiCpoCdrs.createdAt, new Date(from))]),
    ...(to === undefined ? [] : [lt(ocpiCpoCdrs.createdAt, new Date(to))]),
  );
  const [rows, [{ total }]] = await ctx.db.batch([
    ctx.db.select({ data: ocpiCpoCdrs.data }).from(ocpiCpoCdrs).where(where).orderBy(desc(ocpiCpoCdrs.startAt), desc(ocpiCpoCdrs.id)).limit(limit).offset(query.offset),
    ctx.db.select({ total: sql<number>`count(*)` }).from(ocpiCpoCdrs).where(where),
  ]);
  return { items: rows.map((r) => r.data), total, offset: query.offset, limit };
});

