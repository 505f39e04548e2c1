/**
 * `npm run bench:pages`: what a console page request costs the worker (docs/performance.md "A
 * page's routes derived once"). It serves the product as `npm start` does on its own state
 * (`.wrangler/bench-pages-state`, crons held), logs in as the demo operator's admin through the
 * login form, and sends each path below one after another, 200 times in each of two rounds after
 * a warm-up, printing the workerd CPU per request (user and system time of the server's workerd,
 * from `/proc`) and the wall time. It prints figures only and never fails on speed.
 */
import { DEMO_LOGIN } from "../../scripts/sim/register";
import { DEV_CAPTCHA } from "../support/browser";
import { serveProduct, type ServedProduct } from "../support/serve-product";
import { workerdCpuSeconds } from "./workerd";

const PATHS = [
  // A page's data (React Router's single fetch): the not-found page, a list, a list with its filters.
  "/404.data",
  "/carrierSystem/role.data",
  "/carrierSystem/carrierAcount.data",
  // Whole documents, server-rendered.
  "/404",
  "/carrierSystem/role",
  // An API read, for comparison: no React Router.
  "/user-service/auth/captcha",
];
const WARMUP = 20;
const REQUESTS = 200;
const ROUNDS = 2;

/** The session cookie of the demo operator's admin, logged in through the form as a browser does. */
async function logIn(origin: string): Promise<string> {
  const captcha = (await (await fetch(`${origin}/user-service/auth/captcha`)).json()) as { data: { captchaId: string } };
  const { operatorCode, username, password } = DEMO_LOGIN;
  const answer = await fetch(`${origin}/${operatorCode}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password, captcha: DEV_CAPTCHA, captchaId: captcha.data.captchaId }),
  });
  if (answer.status !== 302) throw new Error(`login answered ${answer.status}`);
  return answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function send(origin: string, path: string, cookie: string, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await fetch(origin + path, { headers: { cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  }
}

const product: ServedProduct = await serveProduct(".wrangler/bench-pages-state", { env: { PLUGDESK_CRONS: "off" } });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void product.stop().finally(() => process.exit(130)));
try {
  const { origin, group } = product;
  const cookie = await logIn(origin);
  console.log("path                                 round  workerd CPU a request  wall a request");
  for (const path of PATHS) {
    await send(origin, path, cookie, WARMUP);
    for (let round = 1; round <= ROUNDS; round++) {
      const cpu = workerdCpuSeconds(group);
      const started = performance.now();
      await send(origin, path, cookie, REQUESTS);
      const wall = (performance.now() - started) / REQUESTS;
      const perRequest = ((workerdCpuSeconds(group) - cpu) * 1000) / REQUESTS;
      console.log(`${path.padEnd(36)} ${String(round).padStart(5)}  ${perRequest.toFixed(2).padStart(18)} ms  ${wall.toFixed(2).padStart(11)} ms`);
    }
  }
} finally {
  await product.stop();
}
