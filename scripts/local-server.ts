import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { run, stateDir } from "./local-state";

/**
 * The two ways to serve the product locally. `start` is the production build under
 * `wrangler dev`, which passes the worker's own answer to a WebSocket upgrade through (401, 404,
 * the chosen subprotocol); `dev` is the Vite dev server with hot reload, whose local WebSocket
 * proxy drops a refused upgrade and answers the first subprotocol offered. Both run on the same
 * local state.
 */
export type Mode = "start" | "dev";

/**
 * The production build: `build/client` and `build/server`, with the `wrangler.json` and `.dev.vars`
 * the Cloudflare plugin writes beside the worker. Skipped when the build on disk was made by this
 * function from exactly the sources there are now and has not been touched since (`buildStamp`);
 * `PLUGDESK_BUILD=always` builds regardless. Resolves to whether it built.
 */
export async function build(): Promise<boolean> {
  if (process.env.PLUGDESK_BUILD !== "always" && existsSync(stampFile) && readFileSync(stampFile, "utf8") === buildStamp()) return false;
  // No stamp while the build runs: an interrupted build is never taken for a finished one.
  rmSync(stampFile, { force: true });
  // A production build whoever asks: vitest sets NODE_ENV=test for the browser tests' server, and
  // Vite builds React's development code for any NODE_ENV but production, which made the tests'
  // console twice as slow as the product it stands for (docs/testing.md "Where the time goes").
  await run("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
  writeFileSync(stampFile, buildStamp());
  return true;
}

/**
 * Copies the build in `from` to `to` when `from` is the build of the sources there are now, and
 * stamps the copy, so that `npm start` with PLUGDESK_BUILD_DIR=`to` serves it without building
 * (`npm run chaos` beside the browser tests: a second server on their own folder took their
 * server down, since wrangler dev writes under `<build>/server/.wrangler`). Resolves to whether it
 * copied; when it did not, `npm start` builds as usual.
 */
export function copyBuild(from: string, to: string): boolean {
  if (!existsSync(stampOf(from)) || readFileSync(stampOf(from), "utf8") !== buildStamp(from)) return false;
  rmSync(to, { recursive: true, force: true });
  const skipped = [`${from}/server/.wrangler`, stampOf(from)].map((path) => resolve(path));
  cpSync(from, to, { recursive: true, filter: (path) => !skipped.includes(resolve(path)) });
  writeFileSync(stampOf(to), buildStamp(to));
  return true;
}

/**
 * Where the build goes: `build/` unless `PLUGDESK_BUILD_DIR` says otherwise (react-router.config.ts
 * reads it too), so that `npm run chaos` never rebuilds the folder a running `npm start` serves.
 */
export const buildDir = process.env.PLUGDESK_BUILD_DIR ?? "build";

/** Inside `<build>/server`, which every build empties first, so that any other build drops it. */
const stampOf = (dir: string) => `${dir}/server/.plugdesk-build`;
const stampFile = stampOf(buildDir);

/**
 * Everything the build is made from: the folders the console and the worker import from, the
 * configs the build reads (`wrangler.toml` becomes `build/server/wrangler.json`, `.dev.vars` is
 * copied beside it), what is installed, and the environment Vite and the Cloudflare plugin read.
 */
const buildSources = {
  folders: ["app", "public", "workers", "domain", "db", "tenants"],
  files: [
    "package.json",
    "package-lock.json",
    "node_modules/.package-lock.json",
    "vite.config.ts",
    "react-router.config.ts",
    "tsconfig.json",
    "wrangler.toml",
    "worker-configuration.d.ts",
    ".dev.vars",
  ],
  // Not NODE_ENV: `build` always builds for production.
  env: (name: string) => name === "PLUGDESK_BUILD_DIR" || name.startsWith("VITE_") || name.startsWith("CLOUDFLARE_"),
};

/**
 * A content hash of the build's sources (their paths and bytes, so an added or deleted file
 * counts), of any `.env*` file, of the environment that reaches the build, and of the output's
 * own files with their sizes and times, so that a build someone else made or broke off since
 * (`npm run build`) is never taken for this one. Hashing them takes a fraction of a second.
 */
function buildStamp(dir = buildDir) {
  const hash = createHash("sha256");
  const add = (path: string) => {
    hash.update(`${path}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update("\0");
  };
  for (const folder of buildSources.folders) for (const path of walk(folder)) add(path);
  const dotEnv = readdirSync(".").filter((name) => name.startsWith(".env")).sort();
  for (const path of [...buildSources.files, ...dotEnv]) add(path);
  // The build of `dir` was made with PLUGDESK_BUILD_DIR naming it (unset for `build`).
  const env: Record<string, string | undefined> = { ...process.env, PLUGDESK_BUILD_DIR: dir === "build" ? undefined : dir };
  for (const name of Object.keys(env).filter((name) => buildSources.env(name) && env[name] !== undefined).sort()) hash.update(`${name}=${env[name]}\0`);
  hash.update(process.version);
  // wrangler dev writes its own bundle under build/server/.wrangler; that is not the build.
  for (const path of walk(dir, [`${dir}/server/.wrangler`, stampOf(dir)])) {
    const { size, mtimeMs } = statSync(path);
    hash.update(`${path} ${size} ${mtimeMs}\0`);
  }
  return hash.digest("hex");
}

/** The files under `dir`, sorted, leaving out `skip`. */
function walk(dir: string, skip: string[] = []): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (skip.includes(path)) return [];
      return entry.isDirectory() ? walk(path, skip) : [path];
    });
}

/** The command that serves `mode` on 127.0.0.1:`port`. */
export function serverCommand(mode: Mode, port: number): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  if (mode === "dev") {
    // vite.config.ts reads PLUGDESK_STATE for the plugin's persistState.
    return {
      command: "npx",
      args: ["vite", "dev", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
      env: { ...process.env, PLUGDESK_STATE: stateDir() },
    };
  }
  return {
    command: "npx",
    args: [
      "wrangler",
      "dev",
      "--config",
      `${buildDir}/server/wrangler.json`,
      // The plugin's output says `no_bundle`; bundling it again lets wrangler wrap the built
      // worker with its dev middleware, without which `--test-scheduled` has no `/__scheduled`.
      "--bundle",
      "--test-scheduled",
      "--persist-to",
      stateDir(),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--show-interactive-dev-session=false",
      // The OCPP bench reads the worker's D1 counters (workers/http/bench-counters.ts).
      ...(process.env.PLUGDESK_BENCH_COUNTERS === "on" ? ["--var", "BENCH_COUNTERS:on"] : []),
      // The bench's profile attaches to workerd's inspector (tests/bench/profile.ts).
      ...(process.env.PLUGDESK_INSPECTOR_PORT ? ["--inspector-port", process.env.PLUGDESK_INSPECTOR_PORT] : []),
    ],
    env: process.env,
  };
}

/**
 * The URL that runs the worker's scheduled handler for `cron`: local runtimes never fire cron
 * triggers by themselves. A built worker sits behind the assets router, which does not pass
 * `/cdn-cgi/handler/scheduled` on to it; `--test-scheduled` answers `/__scheduled` in front of it.
 */
export function cronUrl(mode: Mode, origin: string, cron: string) {
  const path = mode === "dev" ? "/cdn-cgi/handler/scheduled" : "/__scheduled";
  return `${origin}${path}?cron=${encodeURIComponent(cron)}`;
}
