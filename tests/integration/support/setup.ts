import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";
import { createDb } from "../../../db/client";
import { seedDemo } from "../../../db/seed";
import { syncMenus } from "../../../tenants/menu-sync";
import { hashChargerKey, keyBytesOf } from "../../../workers/auth/charger-key";
import { hashPassword } from "../../../workers/auth/password";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await syncMenus(createDb(env.DB));
await seedDemo(
  createDb(env.DB),
  (password) => hashPassword(password, env.PASSWORD_PEPPER),
  (key) => hashChargerKey(keyBytesOf(key)!, env.CHARGER_KEY_PEPPER),
);
