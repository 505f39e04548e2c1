import { spawn, type SpawnOptions } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseEnv } from "node:util";
import { createDb, type Db } from "../db/client";
import { seedDemo } from "../db/seed";
import { syncMenus } from "../tenants/menu-sync";
import { hashChargerKey, keyBytesOf } from "../workers/auth/charger-key";
import { hashPassword } from "../workers/auth/password";
import { applyMigrations } from "./d1-migrations";

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
 * Runs `work` with the local D1 database alone: a platform proxy of the whole wrangler.toml would
 * also bind the worker's Durable Objects, which it cannot run, and wrangler and workerd would
 * warn about them.
 */
export async function withLocalD1<T>(work: (d1: D1Database) => Promise<T>): Promise<T> {
  const { getPlatformProxy } = await import("wrangler");
  const { name, compatibility_date, compatibility_flags, d1_databases } = await readWranglerConfig();
  const dir = mkdtempSync(join(tmpdir(), "plugdesk-seed-"));
  const configPath = join(dir, "wrangler.json");
  writeFileSync(configPath, JSON.stringify({ name, compatibility_date, compatibility_flags, d1_databases }));
  const proxy = await getPlatformProxy<Pick<Env, "DB">>({ configPath, persist: { path: resolve(stateDir(), "v3") }, remoteBindings: false });
  try {
    return await work(proxy.env.DB);
  } finally {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
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
  return withLocalDb(seedDemoPlatform);
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

/** The menus synced and the demo seeded, its passwords and charger keys hashed with `peppers` (the integration project's database too). */
export async function seedDemoPlatform(db: Db, { PASSWORD_PEPPER, CHARGER_KEY_PEPPER }: Peppers) {
  await syncMenus(db);
  await seedDemo(
    db,
    (password) => hashPassword(password, PASSWORD_PEPPER),
    (key) => hashChargerKey(keyBytesOf(key)!, CHARGER_KEY_PEPPER),
  );
}
