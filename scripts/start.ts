import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Cron } from "croner";
import { DEMO } from "../db/seed";
import { migrate, seed, stateDir } from "./local-state";

/**
 * `npm start`: migrate and seed local state, serve the whole product with the Vite dev server
 * (workerd inside), and fire the cron schedule, which the local runtime does not do by itself.
 * `--preview` serves a production build instead (the browser tests use it: no hot reload, the
 * deployed CSP, nothing optimised on first visit).
 */
const preview = process.argv.includes("--preview");
const port = Number(process.env.PORT ?? 8787);
const origin = `http://127.0.0.1:${port}`;

migrate();
await seed();
if (preview) execFileSync("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] });

const server = spawn("npx", ["vite", preview ? "preview" : "dev", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, PLUGDESK_STATE: stateDir },
});
server.stdout.pipe(process.stdout);
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));

async function waitUntilServing() {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${origin}/user-service/operator/login/info/${DEMO.operators[0].code}`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer on ${origin}`);
}

await waitUntilServing();

const crons = [...(readFileSync("wrangler.toml", "utf8").match(/crons\s*=\s*\[([^\]]*)\]/)?.[1].matchAll(/"([^"]+)"/g) ?? [])].map(
  (m) => m[1],
);
for (const expression of crons) {
  new Cron(expression, { timezone: "UTC" }, () => {
    fetch(`${origin}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(expression)}`).catch((e) =>
      console.error(`cron ${expression}: ${e}`),
    );
  });
}

console.log(`
Plugdesk is running at ${origin}

  Platform   ${origin}/${DEMO.platform.code}/login   ${DEMO.platform.account} / ${DEMO.platform.password}
${DEMO.operators.map((o) => `  ${o.code.padEnd(10)} ${origin}/${o.code}/login   ${o.account} / ${o.password}`).join("\n")}

  Captcha in local development: type 1234 (DEV_CAPTCHA in .dev.vars)
  API description: ${origin}/openapi.json
  Cron: ${crons.join(", ")} fired locally
`);
if (process.env.PLUGDESK_READY_FILE) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(process.env.PLUGDESK_READY_FILE, origin);
}
