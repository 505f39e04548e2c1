import { spawn, type SpawnOptions } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { createDb, type Db } from "../db/client";
import { seedDemo } from "../db/seed";
import { syncMenus } from "../tenants/menu-sync";
import { hashChargerKey, keyBytesOf } from "../workers/auth/charger-key";
import { hashPassword, hashPasswordAt } from "../workers/auth/password";
import { applyMigrations } from "./d1-migrations";
import { openLocalD1 } from "./local-d1";

/**
 * Where local D1, Durable Objects, queues and R2 live: `.wrangler/state` unless told. `npm start`
 * (`wrangler dev --persist-to`) and `npm run dev` (the Vite plugin's `persistState`) both keep
 * their data in its `v3` folder, so they see the same data. Read when asked, not when this module
 * loads: the bench and chaos name their own folder after importing it (tests/bench/fleet.ts).
 */
export const stateDir = () => process.env.PLUGDESK_STATE ?? ".wrangler/state";

/** wrangler.toml as wrangler reads it. Wrangler's module takes seconds to load: only when asked. */
export async function readWranglerConfig() {
  const { unstable_readConfig } = await import("wrangler");
  return unstable_readConfig({ config: "wrangler.toml" });
}

/** Runs a command to its end; rejects when it fails. */
export function run(command: string, args: string[], options: SpawnOptions = {}) {
  return new Promise<void>((done, fail) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"], ...options });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

/**
 * Applies the D1 migrations the local database lacks, as `wrangler d1 migrations apply DB --local`
 * would (`npm run db:migrate`), through one binding instead of a runtime per migration
 * (scripts/d1-migrations.ts).
 */
export function migrate() {
  return withLocalD1(applyMigrations);
}

/**
 * Runs `work` with the local D1 database alone, where `wrangler dev` keeps it
 * (scripts/local-d1.ts): a platform proxy of the whole wrangler.toml would also bind the worker's
 * Durable Objects, which it cannot run.
 */
export function withLocalD1<T>(work: (d1: D1Database) => Promise<T>): Promise<T> {
  return withD1(resolve(stateDir(), "v3", "d1"), work);
}

/** Runs `work` with wrangler.toml's D1 database kept under `persist`, or an empty one in memory when it is false. */
export async function withD1<T>(persist: string | false, work: (d1: D1Database) => Promise<T>): Promise<T> {
  const { compatibility_date, d1_databases } = await readWranglerConfig();
  const [{ database_id }] = d1_databases;
  if (!database_id || !compatibility_date) throw new Error("wrangler.toml must name a D1 database_id and a compatibility_date");
  const { d1, dispose } = await openLocalD1({ databaseId: database_id, compatibilityDate: compatibility_date, persist });
  try {
    return await work(d1);
  } finally {
    await dispose();
  }
}

type Peppers = { PASSWORD_PEPPER: string; CHARGER_KEY_PEPPER: string };

/** Runs `work` on the local database, with the peppers the worker reads locally (`.dev.vars`). */
export function withLocalDb<T>(work: (db: Db, peppers: Peppers, d1: D1Database) => Promise<T>): Promise<T> {
  return withLocalD1(async (d1) => {
    const { PASSWORD_PEPPER, CHARGER_KEY_PEPPER } = parseEnv(readFileSync(".dev.vars", "utf8"));
    if (!PASSWORD_PEPPER || !CHARGER_KEY_PEPPER) throw new Error(".dev.vars must set PASSWORD_PEPPER and CHARGER_KEY_PEPPER");
    return work(createDb(d1), { PASSWORD_PEPPER, CHARGER_KEY_PEPPER }, d1);
  });
}

/** Seeds the demo platform into the local database. */
export function seed() {
  // Not `withLocalDb(seedDemoPlatform)`: its third argument, the D1 binding, would be taken for the work factor.
  return withLocalDb((db, peppers) => seedDemoPlatform(db, peppers));
}

/**
 * Migrates the local database, seeds the demo platform into it and runs `then` on it, through one
 * binding (`npm start`, `npm run db:seed`): each binding starts a runtime of its own.
 */
export function migrateAndSeed(then: (db: Db) => Promise<void> = async () => undefined) {
  return withLocalDb(async (db, peppers, d1) => {
    await applyMigrations(d1);
    await seedDemoPlatform(db, peppers);
    await then(db);
  });
}

/**
 * The menus synced and the demo seeded, its passwords and charger keys hashed with `peppers` (the
 * integration project's database too, which hashes the passwords at a lower work factor:
 * `passwordIterations`, workers/auth/password.ts `hashPasswordAt`).
 */
export async function seedDemoPlatform(db: Db, { PASSWORD_PEPPER, CHARGER_KEY_PEPPER }: Peppers, passwordIterations?: number) {
  await syncMenus(db);
  await seedDemo(
    db,
    (password) => (passwordIterations ? hashPasswordAt(passwordIterations, password, PASSWORD_PEPPER) : hashPassword(password, PASSWORD_PEPPER)),
    (key) => hashChargerKey(keyBytesOf(key)!, CHARGER_KEY_PEPPER),
  );
}
