import { priceWith, type Tariff } from "../../domain/pricing/tariff";
import type { StrategyPrices } from "../../domain/pricing/strategy";
import { mainCurrencyOf, type ParameterSettings } from "../../domain/schemas/settings";
import { ApiError, type Api } from "../sim/register";
import type { ChaosCharger } from "./chargers";

/**
 * The money of the chaos sessions (docs/testing.md "Chaos"): the chargers that the runtime dies
 * under charge by a strategy of their own, each with an RFID card of one customer who pays from
 * a topped-up wallet, so that a session billed twice, or billed a wrong amount, moves money that
 * the harness can count.
 */

/**
 * One price all day (so the station's time zone cannot move a slot boundary under a session of a
 * few seconds), with four-decimal prices and a fee a session, so that each amount is rounded.
 */
export const CHAOS_PRICES: StrategyPrices = {
  electricity: { slots: [{ start: "00:00", end: "24:00", price: "2.4567" }] },
  service: { unit: "COUNT", slots: [{ start: "00:00", end: "24:00", price: "0.5500" }] },
  idle: { before: null, during: null, after: null },
};

/** What the wallet is topped up with before the sessions: far more than they can cost. */
const TOP_UP = 10_000_000;

export interface ChaosWallet {
  customerId: number;
  /** One card a charger: a card charges at one charger at a time (OCPP 1.6 §7.2 ConcurrentTx). */
  idTags: string[];
  toppedUp: number;
  tariff: Tariff;
}

/**
 * A strategy on `pointIds`, one customer with `cards` RFID cards and a topped-up wallet, through the
 * API as an operator would set them up. The tariff is the engine's input for these sessions: the
 * strategy's prices with the operator's tax and currency, and no discount (a NORMAL member).
 * A local server that restarts its worker mid-request answers a POST 503 without applying it or
 * not: the whole set-up is made afresh then (a new customer, cards and strategy, assigned over
 * the last), never a half-known one reused.
 */
export async function pricedWallet(api: Api, pointIds: readonly number[], cards: number): Promise<ChaosWallet> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await setUpWallet(api, pointIds, cards);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 503) || attempt === 3) throw error;
    }
  }
}

async function setUpWallet(api: Api, pointIds: readonly number[], cards: number): Promise<ChaosWallet> {
  const stamp = Date.now().toString(36).toUpperCase();
  const customer = await api.post<{ id: number }>("/customer-service/customer", {
    firstName: "Chaos",
    lastName: "Kierowca",
    gender: "MALE",
    email: `chaos.${stamp.toLowerCase()}@example.com`,
    country: "PL",
    zipCode: "00-001",
    evModel: "Skoda Enyaq",
  });
  const idTags = Array.from({ length: cards }, (_, i) => `CH${stamp}${i}`.slice(0, 20));
  for (const idTag of idTags) await api.post("/customer-service/rf-card", { idTag, deliveryType: "TAKE", customerId: customer.id });
  await api.post("/finance-service/recharge", { customerId: customer.id, amount: TOP_UP });
  const strategy = await api.post<{ id: number }>("/finance-service/strategy", { name: `Chaos ${stamp}`, ...CHAOS_PRICES });
  await api.put(`/finance-service/strategy/${strategy.id}/assign`, { pointIds });
  const settings = await api.get<ParameterSettings>("/system-service/parameter-settings");
  return {
    customerId: customer.id,
    idTags,
    toppedUp: TOP_UP,
    tariff: {
      prices: CHAOS_PRICES,
      timeZone: "UTC",
      currencyDecimals: mainCurrencyOf(settings).decimals,
      tax: { rate: settings.tax.rate, inclusive: settings.tax.inclusive },
      discountPercent: null,
    },
  };
}

/** What the engine gives for what the charger sent: its start and stop, its readings between them. */
export function expectedCost(wallet: ChaosWallet, charger: ChaosCharger): number {
  const tx = charger.transaction!;
  return priceWith(wallet.tariff, {
    startAt: Date.parse(tx.startedAt),
    stopAt: Date.parse(tx.stoppedAt!),
    meterStartWh: tx.meterStartWh,
    meterStopWh: tx.meterStopWh!,
    samples: tx.readings.map((r) => ({ at: Date.parse(r.at), wh: r.registerWh })),
  }).totalCost;
}

type Rows = Record<string, unknown>[];

export interface MoneyCheck {
  /** Minor units the sessions' applied debits took from the wallet. */
  moved: number;
  lost: string[];
  doubled: string[];
}

/**
 * Each session's money against what the engine gives: its record's total to the minor unit (less
 * is lost, more doubled), exactly one applied debit of that total, and the wallet's balance the
 * top-up less those debits.
 */
export function checkMoney(
  wallet: ChaosWallet,
  sessions: readonly { charger: ChaosCharger; transactionId: number }[],
  records: Rows,
  bills: Rows,
  balance: number,
): MoneyCheck {
  const lost: string[] = [];
  const doubled: string[] = [];
  let moved = 0;
  for (const { charger, transactionId } of sessions) {
    const expected = expectedCost(wallet, charger);
    const record = records.find((r) => r.id === transactionId);
    if (record) {
      const total = record.total as number | null;
      if (total === null || total < expected) lost.push(`${charger.serial}: transaction ${transactionId} billed ${total}, the engine gives ${expected}`);
      else if (total > expected) doubled.push(`${charger.serial}: transaction ${transactionId} billed ${total}, the engine gives ${expected}`);
    }
    const debits = bills.filter((b) => b.id === transactionId && b.type === "Charging" && b.applied === 1);
    const debited = debits.reduce((sum, b) => sum + (b.cost as number), 0);
    moved += debited;
    if (debits.length === 0) lost.push(`${charger.serial}: transaction ${transactionId} never debited from the wallet`);
    else if (debits.length > 1) doubled.push(`${charger.serial}: transaction ${transactionId} debited ${debits.length} times`);
    else if (debited !== expected) (debited < expected ? lost : doubled).push(`${charger.serial}: transaction ${transactionId} debited ${debited}, the engine gives ${expected}`);
  }
  if (balance !== wallet.toppedUp - moved) {
    (balance > wallet.toppedUp - moved ? lost : doubled).push(`the wallet holds ${balance}, topped up ${wallet.toppedUp} less ${moved} debited`);
  }
  return { moved, lost, doubled };
}
