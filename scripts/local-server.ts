import { run, stateDir } from "./local-state";

/**
 * The two ways to serve the product locally. `start` is the production build under
 * `wrangler dev`, which passes the worker's own answer to a WebSocket upgrade through (401, 404,
 * the chosen subprotocol); `dev` is the Vite dev server with hot reload, whose local WebSocket
 * proxy drops a refused upgrade and answers the first subprotocol offered. Both run on the same
 * local state.
 */
export type Mode = "start" | "dev";

/** The production build: `build/client` and `build/server`, with the `wrangler.json` and `.dev.vars` the Cloudflare plugin writes beside the worker. */
export function build() {
  return run("npx", ["react-router", "build"], { stdio: ["ignore", "ignore", "inherit"] });
}

/** The command that serves `mode` on 127.0.0.1:`port`. */
export function serverCommand(mode: Mode, port: number): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  if (mode === "dev") {
    // vite.config.ts reads PLUGDESK_STATE for the plugin's persistState.
    return {
      command: "npx",
      args: ["vite", "dev", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
      env: { ...process.env, PLUGDESK_STATE: stateDir },
    };
  }
  return {
    command: "npx",
    args: [
      "wrangler",
      "dev",
      "--config",
      "build/server/wrangler.json",
      // The plugin's output says `no_bundle`; bundling it again lets wrangler wrap the built
      // worker with its dev middleware, without which `--test-scheduled` has no `/__scheduled`.
      "--bundle",
      "--test-scheduled",
      "--persist-to",
      stateDir,
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
