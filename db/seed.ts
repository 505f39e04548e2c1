import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "./client";
import type { StrategyPrices } from "../domain/pricing/strategy";
import {
  accounts,
  chargeStrategies,
  chargeStrategyVersions,
  connectors,
  contentTexts,
  customerGroups,
  customers,
  discountCards,
  discountStrategies,
  feedback,
  firmwares,
  idTags,
  loadBalancingPoints,
  loadBalancings,
  operatorDomains,
  operators,
  parameterSettings,
  platforms,
  pricePackages,
  points,
  reservationIds,
  reservations,
  rfCards,
  roles,
  stations,
  subOperatorDevices,
  vehicles,
  ocpiPlatforms,
} from "./schema";

/**
 * The demo platform of the README (docs/rules/demo.md "The seed"). Idempotent: every insert skips
 * rows that exist, so a second `npm start` changes nothing and fails on nothing. Passwords are
 * hashed by the caller's function so that the worker's pepper and algorithm stay in one place.
 */
export const DEMO = {
  platform: { code: "PLATFORM", name: "Plugdesk Platform", account: "platform", password: "Platform123" },
  operators: [
    {
      code: "0PL002",
      name: "Plugdesk Polska",
      parent: null,
      timeZone: "Europe/Warsaw",
      currency: { code: "PLN", sign: "zł", decimals: 2 },
      areaCodes: ["48"],
      account: "demoadmin",
      password: "Demo12345",
    },
    {
      code: "0PL002A",
      name: "Plugdesk Kraków",
      parent: "0PL002",
      timeZone: "Europe/Warsaw",
      currency: { code: "PLN", sign: "zł", decimals: 2 },
      areaCodes: ["48"],
      account: "subadmin1",
      password: "Demo12345",
    },
    {
      code: "0DE001",
      name: "Plugdesk Deutschland",
      parent: null,
      timeZone: "Europe/Berlin",
      currency: { code: "EUR", sign: "€", decimals: 2 },
      areaCodes: ["49"],
      account: "deadmin1",
      password: "Demo12345",
    },
  ],
} as const;

/**
 * The demo chargers' key (demo only; docs/rules/demo.md "Demo chargers"): 20 bytes 00…13 as 40 hex
 * characters.
 */
export const DEMO_CHARGER_KEY = "000102030405060708090a0b0c0d0e0f10111213";

/**
 * Demo equipment and id tags (docs/rules/demo.md "Demo chargers", "Demo tags"); serial numbers are
 * the chargers' chargeBoxIds.
 */
export const DEMO_EQUIPMENT = [
  {
    operator: "0PL002",
    station: { name: "Warszawa Centrum", address: "ul. Marszałkowska 100, 00-026 Warszawa", lat: "52.2297", lng: "21.0122", powerLimitW: 150_000 },
    points: [
      { serialNumber: "PL002-CP01", name: "Centrum DC 1", type: "DC" as const, ratedPowerW: 60_000, connectorCount: 2, standard: "IEC1" as const, connectorPowerW: 60_000, chargeSpeed: "QUICK" as const, ocppVersion: "AUTO" as const },
      { serialNumber: "PL002-CP02", name: "Centrum AC 2", type: "AC" as const, ratedPowerW: 22_000, connectorCount: 2, standard: "IEC2" as const, connectorPowerW: 11_000, chargeSpeed: "SLOW" as const, ocppVersion: "AUTO" as const },
      // An OCPP 2.0.1 charger: two EVSEs with one CCS2 connector each, 2 × 75 kW (docs/rules/demo.md "Demo chargers").
      { serialNumber: "PL002-CP03", name: "Centrum DC 3", type: "DC" as const, ratedPowerW: 150_000, connectorCount: 2, standard: "IEC1" as const, connectorPowerW: 75_000, chargeSpeed: "QUICK" as const, ocppVersion: "OCPP201" as const },
    ],
    remoteIdTag: "PLREMOTE",
    /** The demo sub-operator is given this station's points, so that it sees devices from the first start. */
    assignedTo: "0PL002A",
  },
  {
    operator: "0DE001",
    station: { name: "Berlin Mitte", address: "Friedrichstraße 50, 10117 Berlin", lat: "52.5200", lng: "13.4050", powerLimitW: 50_000 },
    points: [
      { serialNumber: "DE001-CP01", name: "Mitte AC 1", type: "AC" as const, ratedPowerW: 22_000, connectorCount: 2, standard: "IEC2" as const, connectorPowerW: 11_000, chargeSpeed: "SLOW" as const, ocppVersion: "AUTO" as const },
    ],
    remoteIdTag: "DEREMOTE",
    assignedTo: null,
  },
];

type HashPassword = (password: string) => Promise<string>;
type HashChargerKey = (hexKey: string) => string;

async function seedEquipment(db: Db, hashKey: HashChargerKey) {
  for (const demo of DEMO_EQUIPMENT) {
    const [operator] = await db.select().from(operators).where(eq(operators.code, demo.operator));
    let [station] = await db
      .select()
      .from(stations)
      .where(and(eq(stations.operatorId, operator.id), eq(stations.name, demo.station.name)));
    station ??= (
      await db
        .insert(stations)
        .values({ operatorId: operator.id, ...demo.station, status: "VALID", rank: 10 })
        .returning()
    )[0];
    const pointIds: number[] = [];
    for (const [index, p] of demo.points.entries()) {
      await db
        .insert(points)
        .values({
          operatorId: operator.id,
          stationId: station.id,
          serialNumber: p.serialNumber,
          pointNo: String(index + 1).padStart(2, "0"),
          name: p.name,
          type: p.type,
          ratedPowerW: p.ratedPowerW,
          connectorCount: p.connectorCount,
          ocppVersion: p.ocppVersion,
          status: "VALID",
          keyHash: hashKey(DEMO_CHARGER_KEY),
          keySetAt: new Date(),
        })
        .onConflictDoNothing();
      const [point] = await db.select().from(points).where(eq(points.serialNumber, p.serialNumber));
      pointIds.push(point.id);
      await db
        .insert(connectors)
        .values(
          Array.from({ length: p.connectorCount }, (_, i) => i + 1).map((connectorNo) => ({
            operatorId: operator.id,
            pointId: point.id,
            connectorNo,
            name: `${p.name} · ${connectorNo}`,
            standard: p.standard,
            powerW: p.connectorPowerW,
            chargeSpeed: p.chargeSpeed,
          })),
        )
        .onConflictDoNothing();
    }
    await db
      .insert(idTags)
      .values({ operatorId: operator.id, idTag: demo.remoteIdTag, status: "Accepted" as const, kind: "REMOTE" as const })
      .onConflictDoNothing();
    await db
      .update(parameterSettings)
      .set({ remoteIdTag: demo.remoteIdTag })
      .where(and(eq(parameterSettings.operatorId, operator.id), isNull(parameterSettings.remoteIdTag)));
    if (demo.assignedTo) {
      const [sub] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, demo.assignedTo));
      await db
        .insert(subOperatorDevices)
        .values(pointIds.map((pointId) => ({ operatorId: operator.id, subOperatorId: sub.id, pointId })))
        .onConflictDoNothing();
    }
  }
}

/** 0PL002's day and night tariff: energy by four slots, a per-kWh service fee, an idle fee after charging. */
export const DEMO_DAY_AND_NIGHT: StrategyPrices = {
  electricity: {
    slots: [
      { start: "00:00", end: "06:00", price: "0.6500" },
      { start: "06:00", end: "16:00", price: "1.1500" },
      { start: "16:00", end: "21:00", price: "1.4500" },
      { start: "21:00", end: "24:00", price: "0.6500" },
    ],
  },
  service: { unit: "KWH", slots: [{ start: "00:00", end: "24:00", price: "0.2000" }] },
  idle: { before: null, during: null, after: { unit: "MINUTE", price: "0.5000", freeMinutes: 30, capAmount: 6000 } },
  minimumThreshold: null,
  preAuthAmount: null,
  subscriptionPrice: null,
};

/**
 * The demo strategies (docs/rules/demo.md "The seed"): time of use for 0PL002's chargers, a flat
 * price for 0DE001's. Each is made once, by name, and given to the demo chargers that have none,
 * so a change made in the console survives the next `npm start`.
 */
const DEMO_STRATEGIES: { operator: string; name: string; currency: string; serials: string[]; prices: StrategyPrices }[] = [
  {
    operator: "0PL002",
    name: "Taryfa dzienna i nocna",
    currency: "PLN",
    serials: ["PL002-CP01", "PL002-CP02", "PL002-CP03"],
    prices: DEMO_DAY_AND_NIGHT,
  },
  {
    operator: "0DE001",
    name: "Standardtarif",
    currency: "EUR",
    serials: ["DE001-CP01"],
    prices: {
      electricity: { slots: [{ start: "00:00", end: "24:00", price: "0.3900" }] },
      service: { unit: "NONE", slots: [] },
      idle: { before: null, during: null, after: null },
      minimumThreshold: null,
      preAuthAmount: null,
      subscriptionPrice: null,
    },
  },
];

async function seedStrategies(db: Db) {
  for (const demo of DEMO_STRATEGIES) {
    const [operator] = await db.select().from(operators).where(eq(operators.code, demo.operator));
    const named = and(eq(chargeStrategies.operatorId, operator.id), eq(chargeStrategies.name, demo.name), isNull(chargeStrategies.deletedAt));
    let [strategy] = await db.select().from(chargeStrategies).where(named);
    strategy ??= (await db.insert(chargeStrategies).values({ operatorId: operator.id, name: demo.name, currency: demo.currency }).returning())[0];
    if (strategy.currentVersionId === null) {
      const [version] = await db
        .insert(chargeStrategyVersions)
        .values({ operatorId: operator.id, strategyId: strategy.id, version: 1, name: demo.name, currency: demo.currency, prices: demo.prices, createdBy: "seed" })
        .returning();
      await db.update(chargeStrategies).set({ currentVersionId: version.id }).where(eq(chargeStrategies.id, strategy.id));
    }
    await db
      .update(points)
      .set({ chargeStrategyId: strategy.id })
      .where(and(eq(points.operatorId, operator.id), inArray(points.serialNumber, demo.serials), isNull(points.chargeStrategyId)));
  }
}

async function ensureOperator(
  db: Db,
  platformId: number,
  o: { code: string; name: string; kind: "PLATFORM" | "OPERATOR"; parentId: number | null },
) {
  await db
    .insert(operators)
    .values({
      platformId,
      code: o.code,
      name: o.name,
      kind: o.kind,
      parentId: o.parentId,
      sub: o.parentId ? 1 : 0,
      // The demo operators are authorised for 10 000 AC and DC connectors, so demos are never
      // blocked (docs/rules/demo.md "Demo operators").
      authorizedAcConnectors: 10_000,
      authorizedDcConnectors: 10_000,
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(operators).where(eq(operators.code, o.code));
  return row;
}

async function ensureAdmin(
  db: Db,
  operatorId: number,
  username: string,
  password: string,
  hash: HashPassword,
) {
  await db
    .insert(roles)
    .values({ operatorId, name: "Administrators", code: "ADMIN", type: "SUPER", menuCodes: [] })
    .onConflictDoNothing();
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.operatorId, operatorId), eq(roles.code, "ADMIN")));
  const [existing] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.operatorId, operatorId), eq(accounts.username, username)));
  if (existing) return;
  // Demo accounts are not forced to change their password (docs/rules/demo.md "Demo accounts").
  await db
    .insert(accounts)
    .values({
      operatorId,
      username,
      name: username === "platform" ? "Platform administrator" : "Demo administrator",
      email: `${username}@plugdesk.example`,
      passwordHash: await hash(password),
      adminType: "SUPER",
      roleId: role.id,
      mustChangePassword: false,
    })
    .onConflictDoNothing();
}

/**
 * Operations to show (docs/rules/operations.md): an evening cap on Warszawa Centrum, not yet
 * delivered, and a firmware version whose file name the simulator reports as its new version
 * once installed. Made once; later seeds leave them as the operator changed them.
 */
async function seedOperations(db: Db) {
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const [station] = await db.select().from(stations).where(and(eq(stations.operatorId, operator.id), eq(stations.name, "Warszawa Centrum")));
  const name = "Warszawa evening cap";
  const [existing] = await db.select({ id: loadBalancings.id }).from(loadBalancings).where(and(eq(loadBalancings.operatorId, operator.id), eq(loadBalancings.name, name)));
  if (!existing) {
    const [config] = await db
      .insert(loadBalancings)
      .values({
        operatorId: operator.id,
        stationId: station.id,
        name,
        powerLimitW: 100_000,
        purpose: "ChargePointMaxProfile",
        stackLevel: 1,
        repeat: "Daily",
        slots: [{ start: "17:00", end: "21:00", limitKw: 60 }],
      })
      .returning();
    const demoPoints = await db.select({ id: points.id }).from(points).where(and(eq(points.operatorId, operator.id), eq(points.stationId, station.id)));
    if (demoPoints.length) {
      await db.insert(loadBalancingPoints).values(demoPoints.slice(0, 14).map((p) => ({ operatorId: operator.id, loadBalancingId: config.id, pointId: p.id })));
    }
  }
  await db
    .insert(firmwares)
    .values({ operatorId: operator.id, version: "1.1.0", location: "ftp://firmware.plugdesk.example/sim/1.1.0.bin", retries: 2, retryIntervalS: 60, description: "Simulator firmware: reports 1.1.0 after its reboot" })
    .onConflictDoNothing();
}

export async function seedDemo(db: Db, hash: HashPassword, hashKey: HashChargerKey) {
  await db.insert(platforms).values({ id: 1, name: DEMO.platform.name }).onConflictDoNothing();

  const platform = await ensureOperator(db, 1, {
    code: DEMO.platform.code,
    name: DEMO.platform.name,
    kind: "PLATFORM",
    parentId: null,
  });
  await db
    .insert(parameterSettings)
    .values({ operatorId: platform.id, timeZone: "UTC", currencyCode: "EUR", currencySign: "€", currencyDecimals: 2 })
    .onConflictDoNothing();
  await ensureAdmin(db, platform.id, DEMO.platform.account, DEMO.platform.password, hash);

  // Seeds from before the authorised counts existed get them too.
  await db
    .update(operators)
    .set({ authorizedAcConnectors: 10_000, authorizedDcConnectors: 10_000 })
    .where(and(inArray(operators.code, DEMO.operators.map((o) => o.code)), eq(operators.authorizedAcConnectors, 0)));

  for (const o of DEMO.operators) {
    const parentId = o.parent ? (await ensureOperator(db, 1, { code: o.parent, name: o.parent, kind: "OPERATOR", parentId: null })).id : null;
    const operator = await ensureOperator(db, 1, { code: o.code, name: o.name, kind: "OPERATOR", parentId });
    await db
      .insert(parameterSettings)
      .values({
        operatorId: operator.id,
        defaultLanguage: "en",
        timeZone: o.timeZone,
        currencyCode: o.currency.code,
        currencySign: o.currency.sign,
        currencyDecimals: o.currency.decimals,
        areaCodes: [...o.areaCodes],
      })
      .onConflictDoNothing();
    await ensureAdmin(db, operator.id, o.account, o.password, hash);
  }
  await seedSettings(db);
  await seedEquipment(db, hashKey);
  await seedDrivers(db);
  await seedStrategies(db);
  await seedOperations(db);
  await seedFeedback(db);
  await seedPlatformDemo(db);
  await seedVehicles(db);
  await seedReservations(db);
  await seedDiscounts(db);
  await seedRoaming(db);
  await seedDriverPages(db);
}

/**
 * The drivers' pages of the demo (docs/rules/demo.md "Driver pages"): each main demo operator has
 * a domain of its own under `localhost` (browsers and curl send `*.localhost` to this machine) and
 * its disclaimer and privacy policy published in English and its country's language, so that the
 * public pages open from the operator's domain or `?operatorCode=` without a code to know. Written
 * once; a text the operator changed stays.
 */
export const DEMO_DRIVER_PAGES = [
  {
    operator: "0PL002",
    domain: "polska.localhost",
    texts: {
      DISCLAIMER: {
        en: "Plugdesk Polska operates the charging points shown in the app. Charging times, prices and availability may change; the price that applies is the one the app and the charger show when you start. We are not responsible for damage caused by vehicles, cables or adapters that are not ours. If a charger does not work, contact us from the app or by phone.",
        pl: "Plugdesk Polska obsługuje punkty ładowania widoczne w aplikacji. Czas ładowania, ceny i dostępność mogą się zmieniać; obowiązuje cena pokazana w aplikacji i na ładowarce w chwili rozpoczęcia. Nie odpowiadamy za szkody spowodowane przez pojazdy, kable lub adaptery, które nie są nasze. Jeśli ładowarka nie działa, skontaktuj się z nami przez aplikację lub telefonicznie.",
      },
      PRIVACY_POLICY: {
        en: "Plugdesk Polska keeps your name, contact details, cards and vehicles to let you charge and to bill your sessions. Charging records and payments are kept as the law requires for accounting. We share data only with payment providers and roaming partners needed for a session. You may ask for a copy of your data or for your account to be deleted at any time.",
        pl: "Plugdesk Polska przechowuje Twoje imię i nazwisko, dane kontaktowe, karty i pojazdy, aby umożliwić ładowanie i rozliczać sesje. Historię ładowań i płatności przechowujemy tak długo, jak wymaga tego prawo dla celów księgowych. Dane udostępniamy tylko operatorom płatności i partnerom roamingowym potrzebnym do sesji. W każdej chwili możesz poprosić o kopię swoich danych lub o usunięcie konta.",
      },
    },
  },
  {
    operator: "0DE001",
    domain: "deutschland.localhost",
    texts: {
      DISCLAIMER: {
        en: "Plugdesk Deutschland operates the charging points shown in the app. Prices and availability may change; the price that applies is the one the app and the charger show when you start. We are not liable for damage caused by vehicles, cables or adapters that are not ours.",
        de: "Plugdesk Deutschland betreibt die in der App angezeigten Ladepunkte. Preise und Verfügbarkeit können sich ändern; es gilt der Preis, den App und Ladesäule beim Start anzeigen. Für Schäden durch Fahrzeuge, Kabel oder Adapter, die nicht uns gehören, haften wir nicht.",
      },
      PRIVACY_POLICY: {
        en: "Plugdesk Deutschland keeps your name, contact details, cards and vehicles to let you charge and to bill your sessions. Records and payments are kept as accounting law requires. You may ask for a copy of your data or for your account to be deleted at any time.",
        de: "Plugdesk Deutschland speichert Ihren Namen, Ihre Kontaktdaten, Karten und Fahrzeuge, um das Laden zu ermöglichen und Ihre Ladevorgänge abzurechnen. Ladevorgänge und Zahlungen bewahren wir so lange auf, wie es das Handelsrecht verlangt. Sie können jederzeit eine Kopie Ihrer Daten oder die Löschung Ihres Kontos verlangen.",
      },
    },
  },
] as const;

async function seedDriverPages(db: Db) {
  for (const demo of DEMO_DRIVER_PAGES) {
    const [operator] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, demo.operator));
    if (!operator) continue;
    await db.insert(operatorDomains).values({ operatorId: operator.id, domain: demo.domain }).onConflictDoNothing();
    const rows = (["DISCLAIMER", "PRIVACY_POLICY"] as const).flatMap((kind) =>
      Object.entries(demo.texts[kind] as Record<string, string>).map(([lang, content]) => ({ operatorId: operator.id, kind, lang, content, updatedBy: "seed" })),
    );
    await db.insert(contentTexts).values(rows).onConflictDoNothing();
  }
}

/**
 * The demo operator's roaming (docs/rules/demo.md "Demo roaming"): its OCPI identity PL*PLD, as
 * a CPO and an eMSP, when it has none, and one unregistered partner platform, so the roaming screens show something before
 * any partner is registered. Never over the operator's own changes.
 */
export const DEMO_OCPI = { operator: "0PL002", countryCode: "PL", partyId: "PLD", roles: ["CPO", "EMSP"], platform: "Demo CPO (not registered)" };

async function seedRoaming(db: Db) {
  const [operator] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, DEMO_OCPI.operator));
  if (!operator) return;
  await db
    .update(parameterSettings)
    .set({ document: sql`json_set(${parameterSettings.document}, '$.ocpi', json(${JSON.stringify({ countryCode: DEMO_OCPI.countryCode, partyId: DEMO_OCPI.partyId, roles: DEMO_OCPI.roles })}))` })
    .where(and(eq(parameterSettings.operatorId, operator.id), sql`json_extract(${parameterSettings.document}, '$.ocpi.countryCode') is null`));
  const [existing] = await db.select({ id: ocpiPlatforms.id }).from(ocpiPlatforms).where(eq(ocpiPlatforms.operatorId, operator.id)).limit(1);
  if (!existing) await db.insert(ocpiPlatforms).values({ operatorId: operator.id, name: DEMO_OCPI.platform });
}

/**
 * A demo voucher of 0PL002 with three cards not given yet (docs/rules/demo.md "Demo discounts"):
 * their codes WELCOME0001…WELCOME0003 can be given from a customer's page.
 */
async function seedDiscounts(db: Db) {
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const name = "Welcome voucher";
  let [strategy] = await db.select().from(discountStrategies).where(and(eq(discountStrategies.operatorId, operator.id), eq(discountStrategies.name, name)));
  strategy ??= (
    await db
      .insert(discountStrategies)
      .values({ operatorId: operator.id, name, type: "VOUCHER", unit: "MONEY", quota: 2_000, months: 12, activationCode: "WELCOME", generateNumber: 3 })
      .returning()
  )[0];
  await db
    .insert(discountCards)
    .values([1, 2, 3].map((n) => ({ operatorId: operator.id, strategyId: strategy.id, code: `WELCOME000${n}`, status: "INVALID" as const, remaining: strategy.quota })))
    .onConflictDoNothing();
}

/**
 * Demo drivers (docs/rules/demo.md "Demo drivers and cards"): customers, their RFID cards and a
 * group, so that the demo tags answer Authorize as before: DEMO0001 Accepted (Anna's card),
 * DEMO0002 Blocked and DEMO0003 Expired (Jan's), DEDEMO01 Accepted.
 */
export const DEMO_DRIVERS = [
  {
    operator: "0PL002",
    customers: [
      {
        firstName: "Anna",
        lastName: "Nowak",
        gender: "FEMALE" as const,
        email: "anna.nowak@plugdesk.example",
        phone: "+48 600 100 200",
        country: "PL",
        city: "Warszawa",
        zipCode: "00-026",
        street: "Marszałkowska",
        houseNumber: "100",
        evModel: "Volkswagen ID.3",
        carPlate: "WA 12345",
      },
      {
        firstName: "Jan",
        lastName: "Kowalski",
        gender: "MALE" as const,
        email: "jan.kowalski@plugdesk.example",
        phone: "+48 600 300 400",
        country: "PL",
        city: "Kraków",
        zipCode: "30-001",
        evModel: "Skoda Enyaq",
        carPlate: "KR 54321",
      },
    ],
    cards: [
      { idTag: "DEMO0001", cardName: "Anna's card", owner: "anna.nowak@plugdesk.example", status: "VALID" as const, expiryDate: null },
      { idTag: "PLCARD0002", cardName: "Jan's card", owner: "jan.kowalski@plugdesk.example", status: "VALID" as const, expiryDate: null },
      { idTag: "DEMO0002", cardName: "Jan's old card", owner: "jan.kowalski@plugdesk.example", status: "BLOCKED" as const, expiryDate: null },
      {
        idTag: "DEMO0003",
        cardName: "Jan's expired card",
        owner: "jan.kowalski@plugdesk.example",
        status: "EXPIRED" as const,
        expiryDate: new Date("2025-01-01T00:00:00Z"),
      },
    ],
    group: { name: "Nowak family", code: "NOWAKFAM", leader: "anna.nowak@plugdesk.example", members: ["anna.nowak@plugdesk.example"] },
  },
  {
    operator: "0DE001",
    customers: [
      {
        firstName: "Lukas",
        lastName: "Schmidt",
        gender: "MALE" as const,
        email: "lukas.schmidt@plugdesk.example",
        phone: "+49 151 2345678",
        country: "DE",
        city: "Berlin",
        zipCode: "10117",
        evModel: "BMW i4",
        carPlate: "B-PD 1001",
      },
    ],
    cards: [{ idTag: "DEDEMO01", cardName: "Lukas' card", owner: "lukas.schmidt@plugdesk.example", status: "VALID" as const, expiryDate: null }],
    group: null,
  },
];

async function seedDrivers(db: Db) {
  for (const demo of DEMO_DRIVERS) {
    const [operator] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, demo.operator));
    await db
      .insert(customers)
      .values(demo.customers.map((c) => ({ operatorId: operator.id, ...c })))
      .onConflictDoNothing();
    const rows = await db
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(and(eq(customers.operatorId, operator.id), inArray(customers.email, demo.customers.map((c) => c.email))));
    const idOf = new Map(rows.map((r) => [r.email, r.id]));
    // Seeds from before the card registry kept these tags in id_tags: the cards replace them.
    await db.delete(idTags).where(and(eq(idTags.operatorId, operator.id), eq(idTags.kind, "RFID"), inArray(idTags.idTag, demo.cards.map((c) => c.idTag))));
    await db
      .insert(rfCards)
      .values(
        demo.cards.map(({ owner, ...card }) => ({
          operatorId: operator.id,
          ...card,
          customerId: idOf.get(owner)!,
          bindStatus: "BIND" as const,
          deliveryType: "TAKE" as const,
        })),
      )
      .onConflictDoNothing();
    if (!demo.group) continue;
    const leaderId = idOf.get(demo.group.leader)!;
    await db
      .insert(customerGroups)
      .values({ operatorId: operator.id, name: demo.group.name, code: demo.group.code, leaderId })
      .onConflictDoNothing();
    const [group] = await db
      .select({ id: customerGroups.id })
      .from(customerGroups)
      .where(and(eq(customerGroups.operatorId, operator.id), eq(customerGroups.code, demo.group.code)));
    await db
      .update(customers)
      .set({ groupId: group.id })
      .where(and(eq(customers.operatorId, operator.id), isNull(customers.groupId), inArray(customers.id, demo.group.members.map((m) => idOf.get(m)!))));
  }
}

/** A demo city's map view on OpenStreetMap's keyless tiles. */
const osmMap = (lat: string, lng: string) => ({ provider: "osm", keys: { bing: null, google: null }, centre: { lat, lng }, zoom: 11, endpoint: null });
const WARSAW = osmMap("52.2297", "21.0122");
const ZLOTY = { mainCurrency: "PLN", currencies: [{ code: "PLN", sign: "zł", decimals: 2 }], decimals: 2 };

/**
 * The demo operators' parameter documents (docs/rules/demo.md "Demo operators",
 * docs/rules/settings.md "Defaults"): their currency set, tax, membership levels and the map view
 * of their city on OpenStreetMap's keyless tiles (map keys are the operator's own). Written
 * once, never over an operator's own changes.
 */
const DEMO_SETTINGS: Record<string, Record<string, unknown>> = {
  "0PL002": {
    ...ZLOTY,
    // No tax rate on the demo: the pricing demo reads as plain net amounts (docs/rules/demo.md).
    tax: { mark: "VAT", inclusive: true, rate: "0" },
    membership: { silverFee: 5000, goldFee: 10000, silverDiscount: 5, goldDiscount: 10 },
    rechargeParameter: { presets: [2000, 5000, 10000] },
    minimumRecharge: 1000,
    balancePayment: true,
    map: WARSAW,
  },
  "0PL002A": { ...ZLOTY, map: WARSAW },
  "0DE001": {
    mainCurrency: "EUR",
    currencies: [{ code: "EUR", sign: "€", decimals: 2 }],
    decimals: 2,
    tax: { mark: "MwSt", inclusive: true, rate: "0" },
    membership: { silverFee: 1000, goldFee: 2500, silverDiscount: 3, goldDiscount: 8 },
    rechargeParameter: { presets: [1000, 2500, 5000] },
    minimumRecharge: 500,
    balancePayment: true,
    map: osmMap("52.52", "13.405"),
  },
};

async function seedSettings(db: Db) {
  for (const [code, document] of Object.entries(DEMO_SETTINGS)) {
    const [operator] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, code));
    if (!operator) continue;
    await db
      .update(parameterSettings)
      .set({ document })
      .where(and(eq(parameterSettings.operatorId, operator.id), eq(parameterSettings.document, {})));
  }
}

/**
 * The demo operators are `ultimate` (every menu) and run on a default price package that
 * authorises the 10 000 AC and DC connectors they have (docs/rules/demo.md "Demo operators",
 * docs/rules/platform.md "Price packages").
 */
async function seedPlatformDemo(db: Db) {
  const codes = DEMO.operators.map((o) => o.code);
  // They join roaming too, so the demo shows the ocpi area (docs/rules/platform.md "Roaming").
  await db.update(operators).set({ edition: "ultimate", joinOcpi: true }).where(inArray(operators.code, codes));
  for (const o of DEMO.operators.filter((d) => !d.parent)) {
    const [operator] = await db.select({ id: operators.id }).from(operators).where(eq(operators.code, o.code));
    const [existing] = await db.select({ id: pricePackages.id }).from(pricePackages).where(eq(pricePackages.operatorId, operator.id)).limit(1);
    if (existing) continue;
    await db.insert(pricePackages).values({
      operatorId: operator.id,
      type: "default",
      status: "effective",
      acPrice: "0.10",
      dcPrice: "0.50",
      currency: o.currency.code,
      currencyDecimals: o.currency.decimals,
      acConnectors: 10_000,
      dcConnectors: 10_000,
      beginAt: new Date("2025-01-01T00:00:00Z"),
      endAt: new Date("2035-01-01T00:00:00Z"),
    });
  }
}

/** The demo drivers' cars (docs/rules/demo.md "Demo drivers and cards"): each one's default vehicle. */
export const DEMO_VEHICLES = [
  { operator: "0PL002", owner: "anna.nowak@plugdesk.example", name: "Anna's ID.3", plate: "WA 12345", brand: "Volkswagen", model: "ID.3" },
  { operator: "0PL002", owner: "jan.kowalski@plugdesk.example", name: "Jan's Enyaq", plate: "KR 54321", brand: "Skoda", model: "Enyaq" },
  { operator: "0DE001", owner: "lukas.schmidt@plugdesk.example", name: "Lukas' i4", plate: "B-PD 1001", brand: "BMW", model: "i4" },
];

async function demoCustomerId(db: Db, operatorCode: string, email: string) {
  const [row] = await db
    .select({ id: customers.id, operatorId: customers.operatorId })
    .from(customers)
    .innerJoin(operators, eq(operators.id, customers.operatorId))
    .where(and(eq(operators.code, operatorCode), eq(customers.email, email)));
  return row;
}

async function seedVehicles(db: Db) {
  for (const { operator, owner, ...vehicle } of DEMO_VEHICLES) {
    const customer = await demoCustomerId(db, operator, owner);
    if (!customer) continue;
    const [existing] = await db.select({ id: vehicles.id }).from(vehicles).where(and(eq(vehicles.operatorId, customer.operatorId), eq(vehicles.customerId, customer.id))).limit(1);
    if (existing) continue;
    await db.insert(vehicles).values({ operatorId: customer.operatorId, customerId: customer.id, ...vehicle, isDefault: true });
  }
}

/**
 * Past demo reservations on PL002-CP01 for Anna's card, one used by nobody until it expired and
 * one canceled, so that the reservation screen has history. None is held: a held reservation
 * lives on the charger too, which only ReserveNow puts there. Their ids come from the system-wide
 * sequence (docs/decisions/0041-reservations.md).
 */
export const DEMO_RESERVATIONS = [
  { serialNumber: "PL002-CP01", connectorId: 1, owner: "anna.nowak@plugdesk.example", idTag: "DEMO0001", status: "finished" as const, endReason: "expired" as const, expiryDate: new Date("2025-06-01T10:00:00Z") },
  { serialNumber: "PL002-CP01", connectorId: 2, owner: "anna.nowak@plugdesk.example", idTag: "DEMO0001", status: "canceled" as const, endReason: null, expiryDate: new Date("2025-06-15T18:00:00Z") },
];

async function seedReservations(db: Db) {
  for (const { serialNumber, owner, ...reservation } of DEMO_RESERVATIONS) {
    const customer = await demoCustomerId(db, "0PL002", owner);
    const [point] = await db.select({ id: points.id, operatorId: points.operatorId }).from(points).where(eq(points.serialNumber, serialNumber)).limit(1);
    if (!customer || !point) continue;
    const [existing] = await db
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.operatorId, point.operatorId), eq(reservations.pointId, point.id), eq(reservations.expiryDate, reservation.expiryDate)))
      .limit(1);
    if (existing) continue;
    const created = new Date(reservation.expiryDate.getTime() - 30 * 60_000);
    const [{ id }] = await db.insert(reservationIds).values({ createdAt: created }).returning({ id: reservationIds.id });
    await db.insert(reservations).values({
      id,
      operatorId: point.operatorId,
      pointId: point.id,
      customerId: customer.id,
      parentIdTag: "NOWAKFAM",
      ...reservation,
      createdAt: created,
      updatedAt: reservation.expiryDate,
    });
  }
}

/**
 * Drivers' feedback of 0PL002 waiting for a reply, so the feedback screen has something to answer
 * (docs/rules/content.md "Feedback"); written once.
 */
async function seedFeedback(db: Db) {
  const [operator] = await db.select().from(operators).where(eq(operators.code, "0PL002"));
  const [existing] = await db.select({ id: feedback.id }).from(feedback).where(and(eq(feedback.operatorId, operator.id), eq(feedback.creator, "Demo driver Anna")));
  if (existing) return;
  await db.insert(feedback).values([
    { operatorId: operator.id, creator: "Demo driver Anna", content: "The cable of PL002-CP01 is hard to reach from the second parking bay." },
    { operatorId: operator.id, creator: "Demo driver Marek", content: "Could the app show when a connector was last used?" },
    { operatorId: operator.id, creator: "Demo driver Ewa", content: "The card reader of PL002-CP02 needs two taps." },
  ]);
}
