import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { operatorDomains, operators, parameterSettings } from "../db/schema";
import { parseLanguage } from "../domain/languages";
import { readParameterSettings, type ParameterSettings } from "../domain/schemas/settings";
import { acrossTenants, ownedBy } from "./scope";

export type OperatorRow = typeof operators.$inferSelect;
export type SettingsRow = typeof parameterSettings.$inferSelect;
/** An operator's settings: the row, and the whole parameter document read with its defaults. */
export type Settings = SettingsRow & { parameters: ParameterSettings };

/**
 * Hosts that are the platform's own and never name an operator
 * (docs/rules/tenancy.md "Operator domains").
 */
const NEUTRAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export async function operatorByCode(db: Db, code: string): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.code, code)).limit(1);
  return row;
}

export async function operatorById(db: Db, id: number): Promise<OperatorRow | undefined> {
  const [row] = await db.select().from(operators).where(eq(operators.id, id)).limit(1);
  return row;
}

/** The platform's own tenant (kind PLATFORM): the system acts for it across operators. */
export async function platformOperator(db: Db): Promise<OperatorRow> {
  const [row] = await db.select().from(operators).where(eq(operators.kind, "PLATFORM")).limit(1);
  if (!row) throw new Error("No platform tenant: seed or provision the platform first");
  return row;
}

/** The operator whose branded domain the request came through, if any. */
export async function operatorByHost(db: Db, host: string): Promise<OperatorRow | undefined> {
  const name = host.toLowerCase().replace(/:\d+$/, "");
  if (NEUTRAL_HOSTS.has(name)) return undefined;
  const [row] = await db
    .select({ operator: operators })
    .from(operatorDomains)
    .innerJoin(operators, eq(operators.id, operatorDomains.operatorId))
    .where(acrossTenants("a host names at most one operator: the lookup that finds the tenant", eq(operatorDomains.domain, name)))
    .limit(1);
  return row?.operator;
}

/**
 * Every module reads an operator's settings here (docs/rules/settings.md "Reading the settings"):
 * the row's columns (language, time zone, main currency, area codes, OCPP answers) and the
 * parameter document with a default for each item the operator never set. An operator without a
 * row reads the defaults.
 */
export async function settingsOf(db: Db, operatorId: number): Promise<Settings> {
  const [stored] = await db.select().from(parameterSettings).where(ownedBy(operatorId, parameterSettings)).limit(1);
  const row: SettingsRow = stored ?? {
    operatorId,
    defaultLanguage: "en",
    timeZone: "UTC",
    currencyCode: "USD",
    currencySign: "$",
    currencyDecimals: 0,
    areaCodes: ["86"],
    heartbeatIntervalS: 300,
    disabledPointBoot: "Pending",
    remoteIdTag: null,
    document: {},
    updatedAt: new Date(0),
  };
  const currency = { code: row.currencyCode, sign: row.currencySign, decimals: row.currencyDecimals };
  const parameters = readParameterSettings(row.document, {
    timeZone: row.timeZone,
    defaultLanguage: parseLanguage(row.defaultLanguage) ?? "en",
    areaCodes: row.areaCodes,
    mainCurrency: currency.code,
    currencies: [currency],
    decimals: currency.decimals,
  });
  return { ...row, parameters };
}
