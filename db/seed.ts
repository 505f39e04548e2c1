import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "./client";
import { accounts, connectors, idTags, operators, parameterSettings, platforms, points, pricePackages, roles, stations, subOperatorDevices } from "./schema";

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
      { serialNumber: "PL002-CP01", name: "Centrum DC 1", type: "DC" as const, ratedPowerW: 60_000, standard: "IEC1" as const, connectorPowerW: 60_000, chargeSpeed: "QUICK" as const },
      { serialNumber: "PL002-CP02", name: "Centrum AC 2", type: "AC" as const, ratedPowerW: 22_000, standard: "IEC2" as const, connectorPowerW: 11_000, chargeSpeed: "SLOW" as const },
    ],
    tags: [
      { idTag: "DEMO0001", status: "Accepted" as const, expiryDate: null },
      { idTag: "DEMO0002", status: "Blocked" as const, expiryDate: null },
      { idTag: "DEMO0003", status: "Expired" as const, expiryDate: new Date("2025-01-01T00:00:00Z") },
    ],
    remoteIdTag: "PLREMOTE",
    /** The demo sub-operator is given this station's points, so that it sees devices from the first start. */
    assignedTo: "0PL002A",
  },
  {
    operator: "0DE001",
    station: { name: "Berlin Mitte", address: "Friedrichstraße 50, 10117 Berlin", lat: "52.5200", lng: "13.4050", powerLimitW: 50_000 },
    points: [
      { serialNumber: "DE001-CP01", name: "Mitte AC 1", type: "AC" as const, ratedPowerW: 22_000, standard: "IEC2" as const, connectorPowerW: 11_000, chargeSpeed: "SLOW" as const },
    ],
    tags: [{ idTag: "DEDEMO01", status: "Accepted" as const, expiryDate: null }],
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
          connectorCount: 2,
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
          [1, 2].map((connectorNo) => ({
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
      .values([
        ...demo.tags.map((t) => ({ operatorId: operator.id, ...t, kind: "RFID" as const })),
        { operatorId: operator.id, idTag: demo.remoteIdTag, status: "Accepted" as const, kind: "REMOTE" as const },
      ])
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
  await seedEquipment(db, hashKey);
  await seedPlatformDemo(db);
}

/**
 * The demo operators are `ultimate` (every menu) and run on a default price package that
 * authorises the 10 000 AC and DC connectors they have (docs/rules/demo.md "Demo operators",
 * docs/rules/platform.md "Price packages").
 */
async function seedPlatformDemo(db: Db) {
  const codes = DEMO.operators.map((o) => o.code);
  await db.update(operators).set({ edition: "ultimate" }).where(inArray(operators.code, codes));
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
