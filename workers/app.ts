import { Hono } from "hono";
import { createRequestHandler } from "react-router";
import { PayloadTooLarge } from "../domain/errors";
import { api, isApiPath } from "./api";
import { BENCH_COUNTERS_PATH, benchCounters } from "./http/bench-counters";
import { DEMO_HISTORY_PATH, demoHistory } from "./http/demo-history";
import { limitBodies, signedInUploads } from "./http/body-limit";
import { withPageErrors } from "./http/page-errors";
import { markPrivate, newNonce, withSecurityHeaders } from "./http/security-headers";
import { requestLanguage, translator } from "./i18n";
import { consumeBilling } from "./jobs/billing";
import { consumeFirmware } from "./jobs/firmware";
import { housekeeping } from "./jobs/housekeeping";
import { consumePush } from "./jobs/push";
import { consumeOutbox } from "./jobs/outbox";
import { connectLive } from "./live/connect";
import { connectCharger } from "./ocpp/connect";
import { isOcpiPath, ocpiApp } from "./ocpi/app";

export { ChargePoint } from "./ocpp/charge-point";
export { ChangeWriter } from "./ocpp/change-writer";
export { TenantHub } from "./live/tenant-hub";

declare module "react-router" {
  export interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext; nonce: string };
  }
}

type PageHandler = ReturnType<typeof createRequestHandler>;

/**
 * React Router's handler of the console's pages. Given the build as a function (Cloudflare's
 * template), React Router derives the route tree again at every request (every route converted,
 * flattened and ranked, remix-run/remix#4733) so that development's hot reload is seen: 5 to 8 ms
 * of the worker's CPU on a page's data (docs/performance.md "A page's routes derived once").
 * Outside development it is given the build itself, imported at the first page request (a
 * charger's or the API's isolate never loads React), and derives the tree once.
 */
const requestHandler: PageHandler =
  import.meta.env.MODE === "development"
    ? createRequestHandler(async () => withPageErrors(await import("virtual:react-router/server-build")), import.meta.env.MODE)
    : handlerOfBuildOnce();

function handlerOfBuildOnce(): PageHandler {
  let handler: PageHandler | undefined;
  return async (request, context) => {
    // The module system keeps the build, and withPageErrors its wrapping: first requests side by
    // side may each make a handler, all alike, and a failed import is tried again by the next.
    handler ??= createRequestHandler(withPageErrors(await import("virtual:react-router/server-build")), import.meta.env.MODE);
    return handler(request, context);
  };
}

/**
 * The console's pages and form actions, their bodies limited before React Router reads them
 * (docs/rules/input.md "Body size"): the login and account-deletion pages as much as any form.
 */
const consolePages = new Hono<{ Bindings: Env }>();
consolePages.use(limitBodies(signedInUploads));
consolePages.onError((error, c) => {
  if (!(error instanceof PayloadTooLarge)) throw error;
  const answer = c.text(translator(requestLanguage(c.req.raw))(error.key, error.params), 413);
  markPrivate(answer.headers);
  return answer;
});
consolePages.all("*", async (c) => {
  const nonce = newNonce();
  // Hono types the Worker's execution context narrower than the runtime's; it is the same object.
  const ctx = c.executionCtx as unknown as ExecutionContext;
  const response = await requestHandler(c.req.raw, { cloudflare: { env: c.env, ctx, nonce } });
  // MODE, not DEV: the worker build of the Cloudflare plugin leaves DEV true.
  return withSecurityHeaders(response, nonce, import.meta.env.MODE === "development");
});

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/ocpp/")) return connectCharger(request, env);
    if (pathname === "/live") return connectLive(request, env);
    if (isOcpiPath(pathname)) return ocpiApp.fetch(request, env, ctx);
    if (pathname === BENCH_COUNTERS_PATH) return benchCounters(env);
    if (pathname === DEMO_HISTORY_PATH) return demoHistory(request, env);
    if (isApiPath(pathname)) return api.fetch(request, env, ctx);
    return consolePages.fetch(request, env, ctx);
  },

  async queue(batch, env) {
    if (batch.queue.startsWith("plugdesk-billing")) await consumeBilling(batch, env);
    else if (batch.queue.startsWith("plugdesk-push")) await consumePush(batch, env);
    else if (batch.queue.startsWith("plugdesk-outbox")) await consumeOutbox(batch, env);
    else if (batch.queue.startsWith("plugdesk-firmware")) await consumeFirmware(batch, env);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(housekeeping(env, controller.cron, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
