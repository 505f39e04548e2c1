import { execFileSync } from "node:child_process";
import { getPlatformProxy } from "wrangler";
import { createDb } from "../db/client";
import { seedDemo } from "../db/seed";
import { hashChargerKey, keyBytesOf } from "../workers/auth/charger-key";
import { hashPassword } from "../workers/auth/password";

/** Where local D1, Durable Objects, queues and R2 live (`.wrangler/state` unless told). */
export const stateDir = process.env.PLUGDESK_STATE ?? ".wrangler/state";

/** Applies the D1 migrations to the local database. */
export function migrate() {
  execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CI: "true" },
  });
}

/** Seeds the demo platform into the local database through the same bindings the worker gets. */
export async function seed() {
  const proxy = await getPlatformProxy<Env>({ persist: { path: `${stateDir}/v3` } });
  try {
    const { PASSWORD_PEPPER, CHARGER_KEY_PEPPER } = proxy.env;
    await seedDemo(
      createDb(proxy.env.DB),
      (password) => hashPassword(password, PASSWORD_PEPPER),
      (key) => hashChargerKey(keyBytesOf(key)!, CHARGER_KEY_PEPPER),
    );
  } finally {
    await proxy.dispose();
  }
}
