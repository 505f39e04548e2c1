import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Cron } from "croner";
import { DEMO } from "../db/seed";
import { DEMO_HISTORY_PATH } from "../workers/http/demo-history";
import { build, cronUrl, serverCommand, type Mode } from "./local-server";
import { migrateAndSeed, readWranglerConfig, stateDir } from "./local-state";
import { seedDemoStripeChannel } from "./stripe-double/demo-channel";
import { startStripeDouble } from "./stripe-double/server";

/**
 * `npm start`: migrate and seed the local state, build (unless `build/` is already the build of
 * these sources: scripts/local-server.ts `build`), and serve the production build with
 * `wrangler dev`. `npm run dev` (`--dev`): the same state served by the Vite dev server with hot
 * reload. Nothing listens before the state is migrated and seeded, the logins are printed once
 * the product answers, and the cron schedule of wrangler.toml is fired from here.
 */
const mode: Mode = process.argv.includes("--dev") ? "dev" : "start";
const port = Number(process.env.PORT ?? 8787);
const origin = `http://127.0.0.1:${port}`;

// The Stripe test double on loopback, which the demo operator's Stripe channel points at (docs/rules/payments.md "Ad-hoc payment").
// Its port: PLUGDESK_STRIPE_PORT, else the server's next one, else any free one (the channel follows it).
const stripeDouble = await startStripeDouble(Number(process.env.PLUGDESK_STRIPE_PORT ?? port + 1)).catch(() => startStripeDouble(0));
console.log(`Migrating and seeding ${stateDir()}${mode === "start" ? ", building unless build/ is of these sources" : ""}…`);
// Wrangler's module loads while the migrations and the build run.
const config = readWranglerConfig();
const [, built] = await Promise.all([migrateAndSeed((db) => seedDemoStripeChannel(db, stripeDouble.origin)), mode === "start" ? build() : undefined, config]);
if (built === false) console.log("build/ was built from these very sources: not built again (PLUGDESK_BUILD=always builds anyway).");
console.log(`${stateDir()} is migrated and seeded; starting the server…`);

const { command, args, env } = serverCommand(mode, port);
const server = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"], env });
const stop = () => {
  server.kill("SIGTERM");
  stripeDouble.server.close();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));

async function waitUntilServing() {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
    try {
      const res = await fetch(`${origin}/user-service/operator/login/info/${DEMO.operators[0].code}`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`the server did not answer on ${origin}`);
}

await waitUntilServing();

// The demo's month of history is written by the Worker itself, with the product's own verbs and
// billing (docs/rules/demo.md "Demo history"); once written, later starts add nothing.
const history = await fetch(`${origin}${DEMO_HISTORY_PATH}`, { method: "POST" });
if (!history.ok) {
  stop();
  throw new Error(`the demo history could not be written: ${history.status} ${await history.text()}`);
}
const written = (await history.json()) as { sessions: number; recharges: number } | null;
console.log(written ? `Demo history written: ${written.sessions} sessions and ${written.recharges} top-ups over 30 days.` : "Demo history: already there.");

// PLUGDESK_CRONS=off holds them: the OCPP bench's `--hold-crons` measures the chargers alone.
const crons = process.env.PLUGDESK_CRONS === "off" ? [] : ((await config).triggers.crons ?? []);
for (const cron of crons) {
  new Cron(cron, { timezone: "UTC" }, () => {
    fetch(cronUrl(mode, origin, cron)).catch((e) => console.error(`cron ${cron}: ${e}`));
  });
}

console.log(`
Plugdesk is running at ${origin} (${mode === "start" ? "production build, wrangler dev" : "Vite dev server, hot reload"})

  Platform   ${origin}/${DEMO.platform.code}/login   ${DEMO.platform.account} / ${DEMO.platform.password}
${DEMO.operators.map((o) => `  ${o.code.padEnd(10)} ${origin}/${o.code}/login   ${o.account} / ${o.password}`).join("\n")}

  Captcha in local development: type 1234 (DEV_CAPTCHA in .dev.vars)
  Stripe test double (TEST MODE, card 4242 4242 4242 4242): ${stripeDouble.origin}
  API description: ${origin}/openapi.json
  Local state: ${stateDir()}
  Cron: ${crons.length > 0 ? `${crons.join(", ")} fired locally` : "held (PLUGDESK_CRONS=off)"}
`);
if (process.env.PLUGDESK_READY_FILE) writeFileSync(process.env.PLUGDESK_READY_FILE, origin);
