import { majorUnits, priceWith, registerSamplesOf, tariffMessage, type PricedSession, type TariffMessage } from "../../../domain/pricing";
import type { IdTokenInfoType } from "../../../domain/ocpp/v201/schemas";
import { translator } from "../../i18n";
import { priceBeforeCharging, transactionTariff, type TransactionTariff } from "../../services/pricing/tariffs";
import { lastEnergyOf } from "../charger-model";
import type { ChargerSession, Transaction201 } from "../session";

/**
 * Tariff and cost on an OCPP 2.0.1 charger (Part 2 I01–I03), from the engine that bills the
 * session (docs/rules/pricing.md "Running and final cost"):
 * - I01: an Accepted token is told the price the point charges by, in the driver's language
 *   (`idTokenInfo.personalMessage`).
 * - I02: a transaction's tariff is taken from D1 once, when it starts (a D1 write anyway), and kept
 *   in the charger's storage; its running cost is priced from the samples and statuses this object
 *   keeps (the inputs billing reads) at most once per RUNNING_COST_EVERY_MS, and every
 *   TransactionEventResponse carries the last one as `totalCost`, with no D1 read (an Updated that
 *   only adds readings is answered from this object's own state).
 * - I03: the response to Ended carries the cost of the whole session, priced like billing prices it;
 *   billing then sends the record's total as CostUpdated (workers/services/billing/billing.ts),
 *   which also carries what only billing knows (discount cards, the idle fee after charging).
 */

/** The storage key of the tariffs of the running transactions, by our transaction id. */
const TARIFFS_KEY = "tariffs201";

/** The running cost is priced again at most this often per transaction (docs/performance.md: readings are the hot path). */
export const RUNNING_COST_EVERY_MS = 60_000;

const tariffsOf = (session: ChargerSession) => session.store.get<Record<string, TransactionTariff>>(TARIFFS_KEY) ?? {};

/** The message of the price, on an Accepted token only. */
export function withPersonalMessage(info: IdTokenInfoType, message: TariffMessage | undefined): IdTokenInfoType {
  return message && info.status === "Accepted" ? { ...info, personalMessage: message } : info;
}

/** I01: the price the point charges by now, for the driver behind `idToken`; none at a point without a strategy. */
export async function priceMessage(session: ChargerSession, idToken: string): Promise<TariffMessage | undefined> {
  const price = await priceBeforeCharging(session.ctx, session.identity.pointId, idToken);
  return price ? tariffMessage(price.display, session.now(), price.language, translator(price.language)) : undefined;
}

/** The session so far (or whole, at its stop) priced by its tariff, with the samples and statuses billing reads. */
function priced(session: ChargerSession, kept: TransactionTariff, tx: Transaction201, id: number, stopAt: number, meterStopWh: number): PricedSession {
  return priceWith(kept.tariff, {
    startAt: Date.parse(tx.startedAt),
    stopAt,
    meterStartWh: tx.meterStartWh ?? 0,
    meterStopWh,
    samples: registerSamplesOf(session.store.samplesOf(id, 20_000)),
    statuses: session.store.sessionStatusesOf(id),
    reservationStartAt: kept.reservationStartAt,
    unplugAt: null,
  });
}

/**
 * A transaction has just started in D1: its tariff is taken and kept (the tariffs of transactions
 * no longer running go), its cost at the start priced, and the price told to the driver (I01).
 * `running`: our ids of the transactions running on this charger.
 */
export async function takeTariff(session: ChargerSession, tx: Transaction201, running: readonly number[]): Promise<TariffMessage | undefined> {
  if (tx.id === undefined || !tx.idToken) return undefined;
  const kept = await transactionTariff(session.ctx, tx.id, tx.idToken);
  if (!kept) return undefined;
  const tariffs = Object.fromEntries(Object.entries(tariffsOf(session)).filter(([id]) => running.includes(Number(id))));
  tariffs[String(tx.id)] = kept;
  session.store.put(TARIFFS_KEY, tariffs);
  const cost = priced(session, kept, tx, tx.id, Date.parse(tx.startedAt), tx.meterStartWh ?? 0);
  tx.cost = { at: session.now(), totalCost: majorUnits(cost.totalCost, kept.tariff.currencyDecimals) };
  return tariffMessage(kept.display, session.now(), kept.language, translator(kept.language));
}

/** The price a running transaction charges by, for an event that names a token (I01). */
export function keptPriceMessage(session: ChargerSession, tx: Transaction201): TariffMessage | undefined {
  const kept = tx.cost && tx.id !== undefined ? tariffsOf(session)[String(tx.id)] : undefined;
  return kept && tariffMessage(kept.display, session.now(), kept.language, translator(kept.language));
}

/**
 * I02: the running cost of a transaction with a tariff, priced again when the last price is
 * RUNNING_COST_EVERY_MS old, up to the event's time (`at`) and the last register read. Undefined
 * without a tariff. Synchronous: the charger's own storage only.
 */
export function runningCost(session: ChargerSession, tx: Transaction201, at: number): number | undefined {
  if (!tx.cost || tx.id === undefined) return undefined;
  if (session.now() - tx.cost.at < RUNNING_COST_EVERY_MS) return tx.cost.totalCost;
  const kept = tariffsOf(session)[String(tx.id)];
  if (!kept) return tx.cost.totalCost;
  const cost = priced(session, kept, tx, tx.id, at, lastEnergyOf(session, tx.id) ?? tx.meterStartWh ?? 0);
  tx.cost = { at: session.now(), totalCost: majorUnits(cost.totalCost, kept.tariff.currencyDecimals) };
  return tx.cost.totalCost;
}

/**
 * I03: the cost of a stopped transaction, priced with the stop as billing will price it; its tariff
 * is let go. Undefined without a tariff, or for a stop billing will not price (`stop` null).
 */
export function finalCost(session: ChargerSession, tx: Transaction201, id: number, stop: { at: number; meterWh: number } | null): number | undefined {
  if (!tx.cost) return undefined;
  const tariffs = tariffsOf(session);
  const kept = tariffs[String(id)];
  if (!kept) return undefined;
  delete tariffs[String(id)];
  session.store.put(TARIFFS_KEY, tariffs);
  if (!stop) return undefined;
  return majorUnits(priced(session, kept, tx, id, stop.at, stop.meterWh).totalCost, kept.tariff.currencyDecimals);
}
