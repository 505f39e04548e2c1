import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { createDb, type Db } from "../../../db/client";
import {
  accounts,
  alarms,
  chargeRecords,
  chargeStrategies,
  chargeStrategyVersions,
  connectors,
  customers,
  firmwares,
  ocpiParties,
  ocpiPlatforms,
  operators,
  points,
  reservationIds,
  reservations,
  rfCards,
  roles,
  stations,
  statusIntervals,
  transactions,
  vehicles,
} from "../../../db/schema";
import { batchOf, slices } from "../../../db/statements";
import { priceWith, type PricedSession, type RegisterSample, type StrategyPrices } from "../../../domain/pricing";
import type { CdrBillingMessage } from "../../../domain/schemas/billing";
import { OCPP_ERROR_LEVEL, type FirmwareWaveMessage } from "../../../domain/schemas/operations";
import { localDate, localMidnight } from "../../../domain/time";
import { settingsOf, type Settings } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedRow, ownedRows } from "../../../tenants/scope";
import type { PartnerCtx, SystemCtx, UserCtx } from "../context";
import { systemCtx, userActorOf } from "../context";
import { costColumns, settleStatements } from "../billing/settlement";
import { billedStatements, openRecordStatements, unplugStatement } from "../charge-records/lifecycle";
import { discountStatements } from "../discounts/billing";
import { payerOf, type Payer } from "../drivers/payer";
import { createFirmware, issueFirmware, recordFirmwareStatus, sendFirmwareWave } from "../firmware/firmware";
import { auditWorkOrder, createWorkOrder, processWorkOrder } from "../maintenance/work-orders";
import { billCdr } from "../ocpi/cdr-billing";
import { postCdr, putLocation, putSession } from "../ocpi/receivers";
import { tariffOf } from "../pricing/tariffs";
import { recharge } from "../wallets/recharges";

/**
 * Thirty days of history for the demo operator 0PL002 (docs/rules/demo.md "Demo history"), made
 * by the product's own code against D1 so that every screen and chart has a month to show:
 *
 * - sessions on the demo chargers, priced by the pricing engine with the tariff billing builds
 *   (`tariffOf`, `priceWith`) from register samples generated here, and billed by billing's own
 *   statements (the record, the daily totals, the debit and its bill: `openRecordStatements`,
 *   `billedStatements`, `settleStatements`), in the order the billing job writes them;
 * - wallet top-ups through the recharge verb, as the demo administrator at the counter;
 * - alarms the chargers reported, with work orders opened, processed and audited through their verbs;
 * - a firmware version issued and rolled out through the firmware verbs, the history playing the
 *   firmware queue and the chargers' answers;
 * - a registered roaming partner whose sessions and CDRs go through our OCPI receivers and the
 *   CDR billing verb, the history playing the partner and the billing queue;
 * - a reservation used by a session.
 *
 * It runs in the Worker (`workers/http/demo-history.ts`, asked by `npm start`), where the verbs
 * run. Billing reads a session's samples from its charger's Durable Object; these sessions never
 * ran on one, so the history prices with the samples it generated, which are what the object
 * would have kept (docs/decisions/0081-demo-history-written-by-the-worker.md). The unplug is known
 * when a session is billed, so each is finally priced at once (the case of an unplug that lands
 * before the billing job).
 *
 * Deterministic (a seeded random), dated relative to `now`, and nothing is left in flight: every
 * session stopped, billed and unplugged before `now`, the reservation used, the partner's
 * sessions completed. Each part is written once: a second run finds its rows and adds nothing.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEMO_HISTORY = {
  operator: "0PL002",
  days: 30,
  /** The operator's counter, which tops the wallets up. */
  administrator: "demoadmin",
  /** Drivers of the history, each with an RFID card; `dc`: prefers the fast chargers. */
  drivers: [
    {
      firstName: "Piotr",
      lastName: "Wiśniewski",
      gender: "MALE",
      city: "Warszawa",
      zipCode: "00-950",
      evModel: "Tesla Model 3",
      carPlate: "WA 70011",
      card: "PLH00001",
      dc: true,
    },
    {
      firstName: "Katarzyna",
      lastName: "Wójcik",
      gender: "FEMALE",
      city: "Warszawa",
      zipCode: "02-001",
      evModel: "Kia EV6",
      carPlate: "WA 70012",
      card: "PLH00002",
      dc: true,
    },
    {
      firstName: "Tomasz",
      lastName: "Kamiński",
      gender: "MALE",
      city: "Piaseczno",
      zipCode: "05-500",
      evModel: "Hyundai Kona Electric",
      carPlate: "WPI 7013",
      card: "PLH00003",
      dc: false,
    },
    {
      firstName: "Magdalena",
      lastName: "Lewandowska",
      gender: "FEMALE",
      city: "Warszawa",
      zipCode: "01-100",
      evModel: "Renault Zoe",
      carPlate: "WA 70014",
      card: "PLH00004",
      dc: false,
    },
    {
      firstName: "Michał",
      lastName: "Zieliński",
      gender: "MALE",
      city: "Łódź",
      zipCode: "90-001",
      evModel: "Volkswagen ID.4",
      carPlate: "EL 70015",
      card: "PLH00005",
      dc: true,
    },
    {
      firstName: "Agnieszka",
      lastName: "Szymańska",
      gender: "FEMALE",
      city: "Warszawa",
      zipCode: "03-300",
      evModel: "Nissan Leaf",
      carPlate: "WA 70016",
      card: "PLH00006",
      dc: false,
    },
    {
      firstName: "Paweł",
      lastName: "Woźniak",
      gender: "MALE",
      city: "Radom",
      zipCode: "26-600",
      evModel: "Skoda Enyaq",
      carPlate: "WR 70017",
      card: "PLH00007",
      dc: true,
    },
    {
      firstName: "Ewa",
      lastName: "Dąbrowska",
      gender: "FEMALE",
      city: "Warszawa",
      zipCode: "04-040",
      evModel: "BMW i3",
      carPlate: "WA 70018",
      card: "PLH00008",
      dc: false,
    },
  ],
  /** The operator's own tag starts a few sessions from the console: nobody pays for them (docs/rules/billing.md "Who pays"). */
  remoteShare: 0.06,
  /** This driver tops up once and no more: the session the balance cannot cover is PAY_FAIL, for the record's retry. */
  lateTopUpDriver: 6,
  /** A top-up, in minor units (zł 300.00): a round amount at the counter, over the minimum recharge. */
  topUp: 30_000,
  /** Below this the driver tops up before charging. */
  topUpBelow: 6_000,
  firmware: {
    version: "1.0.8",
    location: "ftp://firmware.plugdesk.example/sim/1.0.8.bin",
    description: "Stability fixes; rolled out to Warszawa Centrum",
  },
  partner: {
    name: "Ładowarki Bałtyk (demo roaming partner)",
    countryCode: "PL",
    partyId: "LBK",
    location: {
      id: "GDA01",
      name: "Gdańsk Oliwa",
      address: "ul. Grunwaldzka 500",
      city: "Gdańsk",
      latitude: "54.40230",
      longitude: "18.57050",
    },
    /** Which history drivers charged at the partner, and on which history day (days ago). */
    sessions: [
      { driver: 0, daysAgo: 26, hour: 14, kwh: 38.4 },
      { driver: 4, daysAgo: 21, hour: 11, kwh: 41.2 },
      { driver: 1, daysAgo: 15, hour: 17, kwh: 29.7 },
      { driver: 0, daysAgo: 9, hour: 10, kwh: 45.1 },
      { driver: 6, daysAgo: 4, hour: 16, kwh: 33.3 },
    ],
    /** The partner's price per kWh, with VAT. */
    pricePerKwh: 2.39,
  },
} as const;

const historyEmail = (d: { firstName: string; lastName: string }) =>
  `${d.firstName}.${d.lastName}`.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/ł/g, "l") + "@plugdesk.example";

/** mulberry32: a small seeded random, so that every seed writes the same history. */
function randomFrom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min: number, max: number) => min + next() * (max - min),
    int: (min: number, max: number) => Math.floor(min + next() * (max - min + 1)),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)],
    weighted: <T>(list: readonly (readonly [T, number])[]) => {
      let r = next() * list.reduce((s, [, w]) => s + w, 0);
      for (const [value, weight] of list) if ((r -= weight) < 0) return value;
      return list[list.length - 1][0];
    },
  };
}
type Random = ReturnType<typeof randomFrom>;

/**
 * What the history stands in for while it replays the month: the queues' consumers and the
 * chargers' objects (docs/rules/demo.md "Demo history"). A queued message is kept for the
 * history to hand to the verb its consumer would call, in the month's order, and a charger asked
 * for UpdateFirmware accepts it, as the simulator does. D1 and everything else are the Worker's own.
 */
function historyEnv(workerEnv: Env) {
  const queued = {
    firmware: [] as FirmwareWaveMessage[],
    billing: [] as CdrBillingMessage[],
  };
  const accepting = {
    send: async () => ({ ok: true as const, response: { status: "Accepted" } }),
  };
  // The stand-ins answer only the calls the history's verbs make; the casts name that choice.
  const env: Env = {
    ...workerEnv,
    FIRMWARE: {
      send: async (message: FirmwareWaveMessage) => void queued.firmware.push(message),
    } as unknown as Env["FIRMWARE"],
    BILLING: {
      send: async (message: CdrBillingMessage) => void queued.billing.push(message),
    } as unknown as Env["BILLING"],
    CHARGE_POINT: {
      getByName: () => accepting,
    } as unknown as Env["CHARGE_POINT"],
  };
  return { env, queued };
}

/** A clock the history moves: every verb it calls acts at the instant of the event it replays. */
interface Clock {
  at: number;
}

const requestOf = (what: string) => ({
  ip: "seed",
  url: `demo history: ${what}`,
  method: "SEED",
  userAgent: null,
});

/** The demo administrator of 0PL002, as its session would make it (workers/services/context.ts `contextFromToken`). */
async function administratorCtx(db: Db, env: Env, clock: Clock): Promise<UserCtx> {
  const [row] = await db
    .select({ account: accounts, role: roles, operator: operators })
    .from(accounts)
    .innerJoin(operators, eq(operators.id, accounts.operatorId))
    .leftJoin(roles, and(eq(roles.id, accounts.roleId), eq(roles.operatorId, accounts.operatorId)))
    .where(
      acrossTenants(
        "the demo's administrator is found by its operator's code before any tenant is known",
        eq(operators.code, DEMO_HISTORY.operator),
        eq(accounts.username, DEMO_HISTORY.administrator),
      ),
    )
    .limit(1);
  if (!row) throw new Error(`the demo history needs ${DEMO_HISTORY.administrator} of ${DEMO_HISTORY.operator}: seed the demo first`);
  const { account, operator } = row;
  const role = row.role ? { id: row.role.id, type: row.role.type, menuCodes: row.role.menuCodes } : null;
  return {
    db,
    env,
    lang: "en",
    now: () => clock.at,
    operator,
    token: "",
    session: { expiresAt: new Date(clock.at + HOUR), renewed: false },
    request: requestOf("administrator"),
    // The history acts as the administrator would once its initial password is changed.
    actor: userActorOf({ ...account, mustChangePassword: false }, operator, role),
  };
}

/** The history's drivers with their cards and cars (inserted once, like the demo's own drivers). */
async function seedHistoryDrivers(ctx: SystemCtx) {
  const { db } = ctx;
  // One insert per driver: D1 binds at most 100 values to a statement.
  await batchOf(
    db,
    DEMO_HISTORY.drivers.map((d, i) =>
      db
        .insert(customers)
        .values(
          ownedRow(ctx, {
            firstName: d.firstName,
            lastName: d.lastName,
            gender: d.gender,
            email: historyEmail(d),
            phone: `+48 601 200 ${String(300 + i)}`,
            country: "PL",
            city: d.city,
            zipCode: d.zipCode,
            evModel: d.evModel,
            carPlate: d.carPlate,
          }),
        )
        .onConflictDoNothing(),
    ),
  );
  const rows = await db
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .where(owned(ctx, customers, inArray(customers.email, DEMO_HISTORY.drivers.map(historyEmail))));
  const idOf = new Map(rows.map((r) => [r.email, r.id]));
  await db
    .insert(rfCards)
    .values(
      ownedRows(
        ctx,
        DEMO_HISTORY.drivers.map((d) => ({
          idTag: d.card,
          cardName: `${d.firstName}'s card`,
          customerId: idOf.get(historyEmail(d))!,
          status: "VALID" as const,
          bindStatus: "BIND" as const,
          deliveryType: "TAKE" as const,
        })),
      ),
    )
    .onConflictDoNothing();
  for (const d of DEMO_HISTORY.drivers) {
    const customerId = idOf.get(historyEmail(d))!;
    const [car] = await db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(owned(ctx, vehicles, eq(vehicles.customerId, customerId)))
      .limit(1);
    if (!car) {
      const [brand, ...model] = d.evModel.split(" ");
      await db.insert(vehicles).values(
        ownedRow(ctx, {
          customerId,
          name: `${d.firstName}'s ${model.join(" ")}`,
          plate: d.carPlate,
          brand,
          model: model.join(" "),
          isDefault: true,
        }),
      );
    }
  }
  return DEMO_HISTORY.drivers.map((d) => idOf.get(historyEmail(d))!);
}

/** The demo chargers of the operator with their connectors, strategy version and meter. */
async function chargersOf(ctx: SystemCtx) {
  const rows = await ctx.db
    .select({
      point: points,
      connector: connectors,
      stationTimeZone: stations.timeZone,
      versionId: chargeStrategies.currentVersionId,
      prices: chargeStrategyVersions.prices,
    })
    .from(points)
    .innerJoin(connectors, and(eq(connectors.pointId, points.id), eq(connectors.operatorId, points.operatorId)))
    .leftJoin(stations, eq(stations.id, points.stationId))
    .leftJoin(chargeStrategies, and(eq(chargeStrategies.id, points.chargeStrategyId), eq(chargeStrategies.operatorId, points.operatorId)))
    .leftJoin(chargeStrategyVersions, eq(chargeStrategyVersions.id, chargeStrategies.currentVersionId))
    .where(owned(ctx, points, inArray(points.serialNumber, ["PL002-CP01", "PL002-CP02", "PL002-CP03"])))
    .orderBy(points.serialNumber, connectors.connectorNo);
  return rows.map((r) => ({
    pointId: r.point.id,
    serialNumber: r.point.serialNumber,
    ocpp201: r.point.ocppVersion === "OCPP201",
    connectorNo: r.connector.connectorNo,
    powerW: r.connector.powerW,
    dc: r.point.type === "DC",
    stationTimeZone: r.stationTimeZone,
    versionId: r.versionId,
    prices: r.prices as StrategyPrices | null,
    /** The connector's energy register, Wh: a charger's meter does not start at zero. */
    registerWh: 1_250_000 + r.point.id * 37_000 + r.connector.connectorNo * 11_000,
    /** Until when the connector is taken (the car leaves at the unplug). */
    busyUntil: 0,
  }));
}
type Charger = Awaited<ReturnType<typeof chargersOf>>[number];

interface PlannedSession {
  charger: Charger;
  driver: number | null;
  idTag: string;
  startAt: number;
  stopAt: number;
  unplugAt: number;
  meterStartWh: number;
  meterStopWh: number;
  samples: RegisterSample[];
  stopReason: string;
  reservation?: { createdAt: number };
}

/** Local hours sessions start at, by weight: the morning commute, midday, the evening peak. */
const START_HOURS: (readonly [number, number])[] = [
  [6, 1], [7, 4], [8, 6], [9, 4], [10, 3], [11, 4], [12, 5], [13, 4], [14, 3], [15, 4], [16, 6], [17, 8], [18, 8], [19, 6], [20, 4], [21, 2], [22, 1],
];

/**
 * The sessions of one local day: more on weekdays, each on a free connector (a car leaves at its
 * unplug), its energy and pace those of the charger's kind, its register sampled every ten minutes.
 */
function planDay(random: Random, dayStart: number, weekday: boolean, chargers: Charger[], drivers: readonly { dc: boolean; away: boolean }[]): PlannedSession[] {
  const count = weekday ? random.int(6, 8) : random.int(4, 6);
  const starts = Array.from({ length: count }, () => dayStart + random.weighted(START_HOURS) * HOUR + random.int(0, 59) * MINUTE).sort((a, b) => a - b);
  const sessions: PlannedSession[] = [];
  for (const startAt of starts) {
    const remote = random.next() < DEMO_HISTORY.remoteShare;
    const driver = remote ? null : random.pick(drivers.flatMap((d, i) => (d.away ? [] : [i])));
    const wantsDc = driver === null ? random.next() < 0.5 : drivers[driver].dc ? random.next() < 0.85 : random.next() < 0.2;
    const free = chargers.filter((c) => c.dc === wantsDc && c.busyUntil <= startAt);
    const charger = free.length > 0 ? random.pick(free) : chargers.find((c) => c.busyUntil <= startAt);
    if (!charger) continue;
    const energyWh = Math.round(charger.dc ? random.between(14_000, 48_000) : random.between(7_000, 26_000));
    // DC tapers as the battery fills; AC draws what the car's charger takes.
    const averageW = charger.dc ? charger.powerW * random.between(0.55, 0.8) : charger.powerW * random.between(0.6, 0.95);
    const stopAt = startAt + Math.round((energyWh / averageW) * HOUR);
    const idleMinutes = random.next() < 0.18 ? random.int(35, 95) : random.int(2, 22);
    const unplugAt = stopAt + idleMinutes * MINUTE + random.int(0, 59) * 1000;
    const samples: RegisterSample[] = [];
    for (let at = startAt + 10 * MINUTE; at < stopAt; at += 10 * MINUTE) {
      const share = (at - startAt) / (stopAt - startAt);
      // A DC curve: faster at first, slower near full (the square root of the time share).
      samples.push({
        at,
        wh: charger.registerWh + Math.round(energyWh * (charger.dc ? Math.sqrt(share) : share)),
      });
    }
    sessions.push({
      charger,
      driver,
      idTag: driver === null ? "PLREMOTE" : DEMO_HISTORY.drivers[driver].card,
      startAt,
      stopAt,
      unplugAt,
      meterStartWh: charger.registerWh,
      meterStopWh: charger.registerWh + energyWh,
      samples,
      stopReason: driver === null ? "Remote" : random.next() < 0.7 ? "EVDisconnected" : "Local",
    });
    charger.registerWh += energyWh;
    charger.busyUntil = unplugAt + 5 * MINUTE;
  }
  return sessions;
}

/** Local midnight of the day `daysAgo` days before `now`'s local day. */
function dayStartOf(now: number, daysAgo: number, timeZone: string) {
  const today = localDate(now, timeZone);
  const day = new Date(Date.UTC(today.year, today.month - 1, today.day - daysAgo));
  return {
    start: localMidnight(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), timeZone),
    weekday: day.getUTCDay() % 6 !== 0,
  };
}

/** The next transaction id of the system-wide sequence (the history writes its ids itself, in order, before the server runs). */
async function nextTransactionId(d1: D1Database) {
  const row = await d1
    .prepare("SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'transactions'), 0), coalesce((SELECT max(id) FROM transactions), 0)) + 1 AS id")
    .first<{ id: number }>();
  return row!.id;
}

/**
 * The statements of one session, in the order a charger and the billing job write them: the
 * transaction as StartTransaction and StopTransaction leave it, its record and the day's record
 * count, the unplug, then the billing job's batch (workers/services/billing/billing.ts `billStop`):
 * energy and time, the priced record, the daily totals and CHARGE_COMPLETE, `billed_at`, the
 * discounts and the debit.
 */
function sessionStatements(
  ctx: SystemCtx,
  settings: Settings,
  s: PlannedSession & { id: number; chargerTransactionId: string | null },
  priced: PricedSession | null,
  payer: Payer | null,
): BatchItem<"sqlite">[] {
  const energyWh = s.meterStopWh - s.meterStartWh;
  const durationS = Math.round((s.stopAt - s.startAt) / 1000);
  const unbilled = owned(ctx, transactions, eq(transactions.id, s.id), sql`${transactions.billedAt} is null`);
  const [count, record] = openRecordStatements(
    ctx,
    {
      transactionId: s.id,
      pointId: s.charger.pointId,
      connectorNo: s.charger.connectorNo,
      idTag: s.idTag,
      chargerTransactionId: s.chargerTransactionId,
      startAt: new Date(s.startAt),
      abnormal: false,
    },
    settings.currencyCode,
    settings.timeZone,
  );
  return [
    ctx.db.insert(transactions).values(
      ownedRow(ctx, {
        id: s.id,
        pointId: s.charger.pointId,
        connectorNo: s.charger.connectorNo,
        chargerTransactionId: s.chargerTransactionId,
        idTag: s.idTag,
        authStatus: "Accepted",
        reservationId: null,
        meterStartWh: s.meterStartWh,
        startAt: new Date(s.startAt),
        meterStopWh: s.meterStopWh,
        stopAt: new Date(s.stopAt),
        stopReason: s.stopReason,
        status: "COMPLETED" as const,
        strategySnapshot: { takenAt: new Date(s.startAt).toISOString() },
        strategyVersionId: s.charger.versionId,
        createdAt: new Date(s.startAt),
      }),
    ),
    count,
    record,
    unplugStatement(ctx, s.charger.pointId, s.charger.connectorNo, new Date(s.unplugAt)),
    ctx.db.update(transactions).set({ energyWh, durationS }).where(unbilled),
    ...(priced
      ? [
          ctx.db
            .update(chargeRecords)
            .set({
              ...costColumns(priced),
              strategyVersionId: s.charger.versionId,
              customerId: payer?.customerId ?? null,
              pricingPhase: "FINAL",
              pricedAt: new Date(ctx.now()),
              updatedAt: new Date(ctx.now()),
            })
            .where(owned(ctx, chargeRecords, eq(chargeRecords.transactionId, s.id), sql`exists (select 1 from ${transactions} where ${unbilled})`)),
        ]
      : []),
    ...billedStatements(
      ctx,
      {
        transactionId: s.id,
        startAt: new Date(s.startAt),
        energyWh,
        durationS,
      },
      settings.timeZone,
    ),
    ctx.db
      .update(transactions)
      .set({ billedAt: new Date(ctx.now()) })
      .where(unbilled),
    ...(priced ? [...discountStatements(ctx, s.id, priced), ...settleStatements(ctx, s.id, payer, settings.parameters.balancePayment)] : []),
  ];
}

/** Where the partner's location stands, as its location and its CDRs name it (OCPI 2.2.1 §8.3.1, §10.4.5). */
function partnerPlace() {
  const { location } = DEMO_HISTORY.partner;
  return {
    name: location.name,
    address: location.address,
    city: location.city,
    country: "POL",
    coordinates: { latitude: location.latitude, longitude: location.longitude },
  };
}

/** The partner's location, as its CPO publishes it (OCPI 2.2.1 §8.3.1). */
function partnerLocation(updatedAt: string) {
  const { partner } = DEMO_HISTORY;
  return {
    country_code: partner.countryCode,
    party_id: partner.partyId,
    id: partner.location.id,
    publish: true,
    ...partnerPlace(),
    time_zone: "Europe/Warsaw",
    evses: [
      {
        uid: "E1",
        evse_id: `${partner.countryCode}*${partner.partyId}*E1`,
        status: "AVAILABLE",
        connectors: [
          {
            id: "1",
            standard: "IEC_62196_T2_COMBO",
            format: "CABLE",
            power_type: "DC",
            max_voltage: 920,
            max_amperage: 200,
            last_updated: updatedAt,
          },
        ],
        last_updated: updatedAt,
      },
    ],
    last_updated: updatedAt,
  };
}

interface RoamingSession {
  driver: number;
  startAt: number;
  stopAt: number;
  kwh: number;
  /** Minor units, with VAT: what the CDR bills. */
  totalCost: number;
}

/** Money of the partner's CDR in major units, as OCPI carries it (a number, two decimals). */
const major = (minor: number) => Math.round(minor) / 100;

/** The partner's session and CDR of one of our drivers (OCPI 2.2.1 §9.3.1, §10.3.1): completed, 23 % VAT included. */
function roamingObjects(r: RoamingSession, id: string) {
  const { partner } = DEMO_HISTORY;
  const card = DEMO_HISTORY.drivers[r.driver].card;
  const token = {
    country_code: "PL",
    party_id: "PLD",
    uid: card,
    type: "RFID",
    contract_id: `PL-PLD-C${card}`,
  };
  const cost = {
    excl_vat: major(Math.round(r.totalCost / 1.23)),
    incl_vat: major(r.totalCost),
  };
  const start = new Date(r.startAt).toISOString();
  const end = new Date(r.stopAt).toISOString();
  const session = {
    country_code: partner.countryCode,
    party_id: partner.partyId,
    id,
    start_date_time: start,
    end_date_time: end,
    kwh: r.kwh,
    cdr_token: token,
    auth_method: "AUTH_REQUEST",
    location_id: partner.location.id,
    evse_uid: "E1",
    connector_id: "1",
    currency: "PLN",
    total_cost: cost,
    status: "COMPLETED",
    last_updated: end,
  };
  const cdr = {
    country_code: partner.countryCode,
    party_id: partner.partyId,
    id: `CDR-${id}`,
    session_id: id,
    start_date_time: start,
    end_date_time: end,
    cdr_token: token,
    auth_method: "AUTH_REQUEST",
    cdr_location: {
      id: partner.location.id,
      ...partnerPlace(),
      evse_uid: "E1",
      evse_id: `${partner.countryCode}*${partner.partyId}*E1`,
      connector_id: "1",
      connector_standard: "IEC_62196_T2_COMBO",
      connector_format: "CABLE",
      connector_power_type: "DC",
    },
    currency: "PLN",
    charging_periods: [
      {
        start_date_time: start,
        dimensions: [{ type: "ENERGY", volume: r.kwh }],
      },
    ],
    total_cost: cost,
    total_energy_cost: cost,
    total_energy: r.kwh,
    total_time: Math.round(((r.stopAt - r.startAt) / HOUR) * 100) / 100,
    last_updated: new Date(r.stopAt + 10 * MINUTE).toISOString(),
  };
  return { session, cdr };
}

/**
 * The roaming partner, registered: a CPO whose parties and location we know (docs/rules/demo.md
 * "Demo history"). Its handshake cannot run offline, so the history writes what a registration
 * leaves (status, version, the partner's party); it has no token, so it can never call us.
 */
async function ensurePartner(ctx: SystemCtx, env: Env, clock: Clock, firstAt: number): Promise<PartnerCtx> {
  const { partner } = DEMO_HISTORY;
  let [platform] = await ctx.db
    .select()
    .from(ocpiPlatforms)
    .where(owned(ctx, ocpiPlatforms, eq(ocpiPlatforms.name, partner.name)))
    .limit(1);
  const fresh = !platform;
  if (!platform) {
    [platform] = await ctx.db
      .insert(ocpiPlatforms)
      .values(
        ownedRow(ctx, {
          name: partner.name,
          registerStatus: "Registered" as const,
          version: "2.2.1",
          partnerCountryCode: partner.countryCode,
          partnerPartyId: partner.partyId,
          endpoints: [],
          ourTokenKind: "B" as const,
          registeredAt: new Date(firstAt),
        }),
      )
      .returning();
    await ctx.db
      .insert(ocpiParties)
      .values(
        ownedRow(ctx, {
          platformId: platform.id,
          countryCode: partner.countryCode,
          partyId: partner.partyId,
          role: "CPO",
          businessName: partner.name,
          lastUpdated: new Date(firstAt),
        }),
      )
      .onConflictDoNothing();
  }
  const partnerCtx: PartnerCtx = {
    db: ctx.db,
    env,
    lang: "en",
    now: () => clock.at,
    operator: ctx.operator,
    actor: {
      kind: "partner",
      name: `ocpi ${partner.name}`.slice(0, 100),
      platformId: platform.id,
      tokenKind: "B",
    },
    request: requestOf("roaming partner"),
  };
  if (fresh) {
    clock.at = firstAt;
    const updatedAt = new Date(firstAt).toISOString();
    await putLocation(
      partnerCtx,
      {
        countryCode: partner.countryCode,
        partyId: partner.partyId,
        id: partner.location.id,
      },
      partnerLocation(updatedAt),
    );
  }
  return partnerCtx;
}

type HistoryEvent =
  | {
      kind: "session";
      at: number;
      session: PlannedSession & {
        id: number;
        chargerTransactionId: string | null;
      };
      priced: PricedSession | null;
      payer: Payer | null;
    }
  | { kind: "recharge"; at: number; customerId: number; amount: number }
  | { kind: "roaming"; at: number; roaming: RoamingSession; id: string };

/** The billing job runs seconds after the stop. */
const BILLING_DELAY_MS = 4_000;

/**
 * Sessions, top-ups and roaming CDRs of the month, written in the order they happened, so that
 * every bill's balance before and after is the wallet's at that moment. A driver tops up before
 * charging when the balance would not cover the session; one driver once lets it run short, which
 * leaves a PAY_FAIL record for the retry.
 */
async function seedSessions(ctx: SystemCtx, admin: UserCtx, partnerCtx: () => Promise<PartnerCtx>, clock: Clock, queued: { billing: CdrBillingMessage[] }, now: number) {
  const cards = DEMO_HISTORY.drivers.map((d) => d.card);
  const [seeded] = await ctx.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(owned(ctx, transactions, inArray(transactions.idTag, cards)))
    .limit(1);
  if (seeded) return;
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const chargers = await chargersOf(ctx);
  const payers = await Promise.all(cards.map((card) => payerOf(ctx, card)));
  if (payers.some((p) => p === null)) throw new Error("the history's drivers must hold their cards");
  const random = randomFrom(20_260_101);
  const roamingDays = new Map<number, number[]>();
  for (const r of DEMO_HISTORY.partner.sessions) roamingDays.set(r.daysAgo, [...(roamingDays.get(r.daysAgo) ?? []), r.driver]);

  const planned: PlannedSession[] = [];
  for (let daysAgo = DEMO_HISTORY.days; daysAgo >= 1; daysAgo--) {
    const { start, weekday } = dayStartOf(now, daysAgo, settings.timeZone);
    const away = new Set(roamingDays.get(daysAgo) ?? []);
    const drivers = DEMO_HISTORY.drivers.map((d, i) => ({
      dc: d.dc,
      away: away.has(i),
    }));
    for (const s of planDay(random, start, weekday, chargers, drivers)) {
      // Nothing in flight: the car has left well before the history is written.
      if (s.unplugAt < now - 10 * MINUTE) planned.push(s);
    }
  }
  planned.sort((a, b) => a.startAt - b.startAt);
  // A driver charges one car at a time: a session of a driver still charging elsewhere is dropped.
  const driverFreeAt = new Map<number, number>();
  const kept = planned.filter((s) => {
    if (s.driver === null) return true;
    if ((driverFreeAt.get(s.driver) ?? 0) > s.startAt) return false;
    driverFreeAt.set(s.driver, s.unplugAt);
    return true;
  });

  // One session six days ago followed a reservation of its driver's.
  const { start: reservedDay } = dayStartOf(now, 6, settings.timeZone);
  const reservedSession = kept.find((s) => s.driver !== null && s.charger.dc && s.startAt >= reservedDay + 9 * HOUR);
  if (reservedSession)
    reservedSession.reservation = {
      createdAt: reservedSession.startAt - 20 * MINUTE,
    };

  let nextId = await nextTransactionId(ctx.env.DB);
  const events: HistoryEvent[] = kept.map((s) => {
    const payer = s.driver === null ? null : payers[s.driver];
    const priced = s.charger.prices
      ? priceWith(
          tariffOf(settings, s.charger.stationTimeZone, s.charger.prices, payer?.memberLevel ?? "NORMAL"),
          {
            startAt: s.startAt,
            stopAt: s.stopAt,
            meterStartWh: s.meterStartWh,
            meterStopWh: s.meterStopWh,
            samples: s.samples,
            statuses: [],
            reservationStartAt: null,
            unplugAt: s.unplugAt,
          },
          // The history's drivers hold no discount cards (they are made above, without any).
          [],
        )
      : null;
    const id = nextId++;
    const chargerTransactionId = s.charger.ocpp201 ? `H${id.toString(16).padStart(8, "0")}` : null;
    return {
      kind: "session" as const,
      at: s.stopAt + BILLING_DELAY_MS,
      session: { ...s, id, chargerTransactionId },
      priced,
      payer,
    };
  });
  for (const [i, r] of DEMO_HISTORY.partner.sessions.entries()) {
    const { start } = dayStartOf(now, r.daysAgo, settings.timeZone);
    const startAt = start + r.hour * HOUR + 12 * MINUTE;
    const roaming = {
      driver: r.driver,
      startAt,
      stopAt: startAt + Math.round((r.kwh / 55) * HOUR),
      kwh: r.kwh,
      totalCost: Math.round(r.kwh * DEMO_HISTORY.partner.pricePerKwh * 100),
    };
    events.push({
      kind: "roaming",
      at: roaming.stopAt + 10 * MINUTE,
      roaming,
      id: `LBK-${String(i + 1).padStart(4, "0")}`,
    });
  }
  events.sort((a, b) => a.at - b.at);

  // Top-ups: before a session (or a trip) the wallet would not cover, at the counter some time before it.
  const balance = DEMO_HISTORY.drivers.map(() => 0);
  const lastAt = DEMO_HISTORY.drivers.map(() => 0);
  const toppedUp = DEMO_HISTORY.drivers.map(() => 0);
  let leftShort = false;
  const withTopUps: HistoryEvent[] = [];
  for (const e of events) {
    const driver = e.kind === "session" ? e.session.driver : e.kind === "roaming" ? e.roaming.driver : null;
    if (driver === null) {
      withTopUps.push(e);
      continue;
    }
    const cost = e.kind === "session" ? (e.priced?.totalCost ?? 0) : e.kind === "roaming" ? e.roaming.totalCost : 0;
    const startAt = e.kind === "session" ? e.session.startAt : e.kind === "roaming" ? e.roaming.startAt : e.at;
    // One driver lets the wallet run down after the first top-up, until a payment falls short.
    const runsDown = driver === DEMO_HISTORY.lateTopUpDriver && toppedUp[driver] > 0 && !leftShort;
    if (runsDown && balance[driver] < cost) {
      // The payment left short: billing writes a PayFail bill and leaves the balance as it was.
      leftShort = true;
    } else if (runsDown) {
      balance[driver] -= cost;
    } else {
      let amount = 0;
      while (balance[driver] + amount - cost < DEMO_HISTORY.topUpBelow) amount += DEMO_HISTORY.topUp;
      if (amount > 0) {
        withTopUps.push({
          kind: "recharge",
          at: Math.max(lastAt[driver] + MINUTE, startAt - random.int(20, 240) * MINUTE),
          customerId: payers[driver]!.payerId,
          amount,
        });
        balance[driver] += amount;
        toppedUp[driver]++;
      }
      balance[driver] -= cost;
    }
    lastAt[driver] = e.at;
    withTopUps.push(e);
  }

  let pending: BatchItem<"sqlite">[] = [];
  const flush = async () => {
    for (let i = 0; i < pending.length; i += 400) await batchOf(ctx.db, pending.slice(i, i + 400));
    pending = [];
  };
  const reserved = withTopUps.find((e) => e.kind === "session" && e.session.reservation);
  for (const e of withTopUps) {
    clock.at = e.at;
    if (e.kind === "session") {
      pending.push(...sessionStatements(ctx, settings, e.session, e.priced, e.payer));
      if (e === reserved) pending.push(...(await reservationStatements(ctx, e.session)));
      continue;
    }
    await flush();
    if (e.kind === "recharge") {
      await recharge(admin, { customerId: e.customerId, amount: e.amount });
    } else {
      const partner = await partnerCtx();
      const { session, cdr } = roamingObjects(e.roaming, e.id);
      const path = {
        countryCode: DEMO_HISTORY.partner.countryCode,
        partyId: DEMO_HISTORY.partner.partyId,
      };
      clock.at = e.roaming.stopAt;
      await putSession(partner, { ...path, id: e.id }, session);
      clock.at = e.at;
      await postCdr(partner, cdr);
      // The billing queue's consumer bills each stored CDR (workers/jobs/billing.ts).
      for (const message of queued.billing.splice(0)) await billCdr(ctx, message.cdrRowId);
    }
  }
  await flush();
  await lastStatuses(ctx, chargers, kept);
  return {
    sessions: kept.length,
    recharges: withTopUps.filter((e) => e.kind === "recharge").length,
  };
}

/**
 * The reservation one history session used (docs/rules/driver-services.md): made twenty minutes
 * before the start, finished as `used` by the session. Its id comes from the system-wide sequence.
 */
async function reservationStatements(ctx: SystemCtx, s: PlannedSession & { id: number }): Promise<BatchItem<"sqlite">[]> {
  const createdAt = s.reservation!.createdAt;
  const [{ id }] = await ctx.db
    .insert(reservationIds)
    .values({ createdAt: new Date(createdAt) })
    .returning({ id: reservationIds.id });
  const payer = s.driver === null ? null : DEMO_HISTORY.drivers[s.driver];
  const [customer] = payer
    ? await ctx.db
        .select({ id: customers.id })
        .from(customers)
        .where(owned(ctx, customers, eq(customers.email, historyEmail(payer))))
        .limit(1)
    : [];
  return [
    ctx.db.insert(reservations).values(
      ownedRow(ctx, {
        id,
        pointId: s.charger.pointId,
        connectorId: s.charger.connectorNo,
        idTag: s.idTag,
        customerId: customer?.id ?? null,
        status: "finished" as const,
        endReason: "used" as const,
        expiryDate: new Date(createdAt + 30 * MINUTE),
        transactionId: s.id,
        createdAt: new Date(createdAt),
        updatedAt: new Date(s.startAt),
      }),
    ),
    ctx.db
      .update(transactions)
      .set({ reservationId: id })
      .where(owned(ctx, transactions, eq(transactions.id, s.id))),
  ];
}

/**
 * The connectors' last reported status: Available since the history's last car left, where no
 * charger has reported one yet (an offline point's connectors still show no status:
 * docs/rules/monitoring.md "Connector states").
 */
async function lastStatuses(ctx: SystemCtx, chargers: Charger[], sessions: PlannedSession[]) {
  const leftAt = (c: Charger) => Math.max(0, ...sessions.filter((s) => s.charger === c).map((s) => s.unplugAt));
  await batchOf(
    ctx.db,
    chargers.map((c) =>
      ctx.db
        .update(connectors)
        .set({ status: "Available", errorCode: "NoError", statusAt: new Date(leftAt(c)) })
        .where(owned(ctx, connectors, eq(connectors.pointId, c.pointId), eq(connectors.connectorNo, c.connectorNo), sql`${connectors.status} is null`)),
    ),
  );
}

/**
 * Faults the chargers reported during the month (docs/rules/monitoring.md "Alarms"), each cleared
 * since, and the work orders the administrator opened from them, one in each state: closed after
 * its audit, processed and waiting for the audit, sent back by the audit, and new.
 */
const DEMO_ALARMS = [
  {
    serialNumber: "PL002-CP02",
    connectorNo: 2,
    type: "GroundFailure",
    daysAgo: 25,
    hour: 3,
    minutes: 40,
    recovery: "AutoRecovery",
    order: "CLOSE",
  },
  {
    serialNumber: "PL002-CP01",
    connectorNo: 1,
    type: "OverCurrentFailure",
    daysAgo: 17,
    hour: 4,
    minutes: 95,
    recovery: "ManualDisposed",
    order: "PASS",
  },
  {
    serialNumber: "PL002-CP03",
    connectorNo: 2,
    type: "PowerSwitchFailure",
    daysAgo: 11,
    hour: 2,
    minutes: 25,
    recovery: "AutoRecovery",
    order: "ALREADY_AFTER_AUDIT",
  },
  {
    serialNumber: "PL002-CP02",
    connectorNo: 1,
    type: "ConnectorLockFailure",
    daysAgo: 3,
    hour: 5,
    minutes: 15,
    recovery: "AutoRecovery",
    order: "ALREADY",
  },
  {
    serialNumber: "PL002-CP01",
    connectorNo: 2,
    type: "WeakSignal",
    daysAgo: 8,
    hour: 1,
    minutes: 50,
    recovery: "AutoRecovery",
    order: null,
  },
] as const;

const ALARM_MESSAGE = "Reported during the demo's month of history";

async function seedMaintenance(ctx: SystemCtx, admin: UserCtx, clock: Clock, now: number) {
  const [seeded] = await ctx.db
    .select({ id: alarms.id })
    .from(alarms)
    .where(owned(ctx, alarms, eq(alarms.message, ALARM_MESSAGE)))
    .limit(1);
  if (seeded) return;
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const pointRows = await ctx.db
    .select({ id: points.id, serialNumber: points.serialNumber })
    .from(points)
    .where(
      owned(
        ctx,
        points,
        inArray(
          points.serialNumber,
          DEMO_ALARMS.map((a) => a.serialNumber),
        ),
      ),
    );
  const pointOf = new Map(pointRows.map((p) => [p.serialNumber, p.id]));
  for (const a of DEMO_ALARMS) {
    const occurredAt = dayStartOf(now, a.daysAgo, settings.timeZone).start + a.hour * HOUR + 7 * MINUTE;
    const recoveredAt = occurredAt + a.minutes * MINUTE;
    // The alarm as a StatusNotification with this error code raised it, then as it was cleared.
    const [alarm] = await ctx.db
      .insert(alarms)
      .values(
        ownedRow(ctx, {
          pointId: pointOf.get(a.serialNumber)!,
          connectorNo: a.connectorNo,
          level: OCPP_ERROR_LEVEL.has(a.type) ? ("ERROR" as const) : ("WARN" as const),
          type: a.type,
          message: ALARM_MESSAGE,
          status: a.recovery,
          comment: a.recovery === "ManualDisposed" ? "Reset remotely; the charger came back" : null,
          occurredAt: new Date(occurredAt),
          recoveredAt: new Date(recoveredAt),
        }),
      )
      .returning({ id: alarms.id });
    if (a.order === null) continue;
    clock.at = recoveredAt + 2 * HOUR;
    const order = await createWorkOrder(admin, {
      alarmId: alarm.id,
      cause: `${a.type} on connector ${a.connectorNo}`,
      remarks: "Check on the next visit",
    });
    if (a.order === "ALREADY") continue;
    clock.at += 20 * HOUR;
    await processWorkOrder(admin, order.id, {
      handlingProcess: "On site: inspected the connector and the cabling, tightened the terminals, tested a charge",
      opinion: "Fixed",
    });
    if (a.order === "PASS") continue;
    clock.at += 6 * HOUR;
    await auditWorkOrder(
      admin,
      order.id,
      a.order === "CLOSE"
        ? { result: "PASS", opinion: "Confirmed: no fault since" }
        : {
            result: "NO_PASS",
            opinion: "The fault came back once: replace the switch",
          },
    );
  }
}

/**
 * The month's status history of the demo chargers' connectors (docs/rules/monitoring.md "Uptime"),
 * so the reliability screen has outages to show: each connector up (Available) from the first day
 * until the seed ran, Faulted while an ERROR alarm above was open, PL002-CP01's connector 1
 * Unavailable for 26 hours twenty days ago (below 97 % for the month), and PL002-CP03 offline
 * for three hours six days ago, put down to the grid. All closed at `now`: the chargers' own
 * connections open what follows. Written in one batch, once (its grid outage marks it).
 */
const GRID_OUTAGE_NOTE = "Utility outage in the district (demo history)";

async function seedStatusHistory(ctx: SystemCtx, now: number) {
  const [seeded] = await ctx.db
    .select({ id: statusIntervals.id })
    .from(statusIntervals)
    .where(owned(ctx, statusIntervals, eq(statusIntervals.excludedNote, GRID_OUTAGE_NOTE)))
    .limit(1);
  if (seeded) return;
  const { timeZone } = await settingsOf(ctx.db, ctx.operator.id);
  const ports = await ctx.db
    .select({ pointId: connectors.pointId, connectorNo: connectors.connectorNo, serialNumber: points.serialNumber })
    .from(connectors)
    .innerJoin(points, eq(points.id, connectors.pointId))
    .where(owned(ctx, connectors, inArray(points.serialNumber, ["PL002-CP01", "PL002-CP02", "PL002-CP03"])));
  const dayAt = (daysAgo: number, hour: number) => dayStartOf(now, daysAgo, timeZone).start + hour * HOUR;
  const first = dayStartOf(now, DEMO_HISTORY.days, timeZone).start;
  type Outage = { from: number; to: number; status: string; online: boolean; grid?: boolean };
  const outagesOf = (p: (typeof ports)[number]): Outage[] => [
    ...DEMO_ALARMS.filter((a) => a.serialNumber === p.serialNumber && a.connectorNo === p.connectorNo && OCPP_ERROR_LEVEL.has(a.type)).map((a) => {
      const from = dayStartOf(now, a.daysAgo, timeZone).start + a.hour * HOUR + 7 * MINUTE;
      return { from, to: from + a.minutes * MINUTE, status: "Faulted", online: true };
    }),
    ...(p.serialNumber === "PL002-CP01" && p.connectorNo === 1 ? [{ from: dayAt(20, 10), to: dayAt(20, 10) + 26 * HOUR, status: "Unavailable", online: true }] : []),
    ...(p.serialNumber === "PL002-CP03" ? [{ from: dayAt(6, 14), to: dayAt(6, 17), status: "Available", online: false, grid: true }] : []),
  ];
  const rows = ports.flatMap((p) => {
    const out: (typeof statusIntervals.$inferInsert)[] = [];
    let at = first;
    const up = (to: number) => to > at && out.push({ operatorId: ctx.operator.id, pointId: p.pointId, connectorNo: p.connectorNo, status: "Available", online: true, startedAt: new Date(at), endedAt: new Date(to) });
    for (const o of outagesOf(p).sort((a, b) => a.from - b.from)) {
      up(o.from);
      out.push({
        operatorId: ctx.operator.id,
        pointId: p.pointId,
        connectorNo: p.connectorNo,
        status: o.status,
        online: o.online,
        startedAt: new Date(o.from),
        endedAt: new Date(o.to),
        ...(o.grid && { excludedReason: "GRID" as const, excludedNote: GRID_OUTAGE_NOTE, excludedBy: DEMO_HISTORY.administrator, excludedAt: new Date(o.to + HOUR) }),
      });
      at = o.to;
    }
    up(now);
    return out;
  });
  // Twelve columns a row, 100 bound parameters a statement.
  await batchOf(
    ctx.db,
    slices(rows, 8).map((slice) => ctx.db.insert(statusIntervals).values(ownedRows(ctx, slice)).onConflictDoNothing()),
  );
}

/**
 * A firmware version rolled out to Warszawa Centrum twenty days ago (docs/rules/operations.md
 * "Firmware") through the firmware verbs: issued, its wave sent by the firmware queue's verb, each
 * charger accepting and reporting Downloading, Downloaded, Installing and Installed.
 */
async function seedFirmwareRollout(ctx: SystemCtx, admin: UserCtx, clock: Clock, queued: { firmware: FirmwareWaveMessage[] }, now: number) {
  const { firmware } = DEMO_HISTORY;
  const [seeded] = await ctx.db
    .select({ id: firmwares.id })
    .from(firmwares)
    .where(owned(ctx, firmwares, eq(firmwares.version, firmware.version)))
    .limit(1);
  if (seeded) return;
  const settings = await settingsOf(ctx.db, ctx.operator.id);
  const pointRows = await ctx.db
    .select({ id: points.id })
    .from(points)
    .where(owned(ctx, points, inArray(points.serialNumber, ["PL002-CP01", "PL002-CP02", "PL002-CP03"])));
  clock.at = dayStartOf(now, 20, settings.timeZone).start + 2 * HOUR;
  const created = await createFirmware(admin, {
    version: firmware.version,
    location: firmware.location,
    retries: 2,
    retryIntervalS: 60,
    description: firmware.description,
  });
  clock.at += 5 * MINUTE;
  await issueFirmware(admin, created.id, {
    pointIds: pointRows.map((p) => p.id),
  });
  for (const message of queued.firmware.splice(0)) {
    clock.at += MINUTE;
    await sendFirmwareWave(ctx, message);
    for (const status of ["Downloading", "Downloaded", "Installing", "Installed"] as const) {
      clock.at += 3 * MINUTE;
      for (const pointId of message.pointIds) await recordFirmwareStatus(ctx, pointId, status);
    }
  }
}

/**
 * Writes the demo's month of history into D1 once (see the top of this file); `now` dates it.
 * Answers what it wrote this time (nothing on a second run).
 */
export async function seedDemoHistory(workerEnv: Env, now: number = Date.now()) {
  const db = createDb(workerEnv.DB);
  const [operator] = await db.select().from(operators).where(eq(operators.code, DEMO_HISTORY.operator)).limit(1);
  if (!operator) return null;
  const { env, queued } = historyEnv(workerEnv);
  const clock: Clock = { at: now };
  const ctx = systemCtx(env, operator, "demo history", () => clock.at);
  ctx.request = requestOf("system");
  await seedHistoryDrivers(ctx);
  const admin = await administratorCtx(db, env, clock);
  const settings = await settingsOf(db, operator.id);
  const firstTrip = Math.max(...DEMO_HISTORY.partner.sessions.map((s) => s.daysAgo)) + 1;
  let partner: PartnerCtx | undefined;
  const partnerCtx = async () => (partner ??= await ensurePartner(ctx, env, clock, dayStartOf(now, firstTrip, settings.timeZone).start + 9 * HOUR));
  const sessions = await seedSessions(ctx, admin, partnerCtx, clock, queued, now);
  await partnerCtx();
  await seedMaintenance(ctx, admin, clock, now);
  await seedStatusHistory(ctx, now);
  await seedFirmwareRollout(ctx, admin, clock, queued, now);
  return sessions ?? null;
}
