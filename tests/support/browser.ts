import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from "playwright-core";
import { TILE_HOSTS } from "../../domain/map-tiles";

/**
 * The browser and login preamble of the browser tests (docs/testing.md "Browser tests"): one
 * Chromium per run, launched by the e2e global setup and reached over its WebSocket; a fresh
 * context (own cookies and storage) per test file; a login that asks the console for a session
 * and hands the browser its cookie instead of filling the form.
 */

/**
 * CHROMIUM_PATH; else, on Linux x64, the headless shell that @sparticuz/chromium ships (unpacked
 * into the temporary folder on first use), which draws the same pages for about a third less CPU
 * than the full browser (docs/testing.md "Where the time goes"); else the system's Chromium.
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (process.platform === "linux" && process.arch === "x64") {
    const { default: headlessShell } = await import("@sparticuz/chromium");
    return headlessShell.executablePath();
  }
  const installed = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((candidate) => existsSync(candidate));
  if (!installed) throw new Error("No Chromium found: set CHROMIUM_PATH");
  return installed;
}

/**
 * Headless, no sandbox (CI runs as root), nothing that phones home while a test runs, and V8
 * without its optimising compilers: a test's page lives seconds, too short for their compiling
 * to pay back, and the renderer took about a quarter less CPU without them (docs/decisions/0118).
 */
const CHROMIUM_ARGS = [
  "--headless",
  "--js-flags=--max-opt=1",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const launchOptions = async (extraArgs: string[]) => ({
  executablePath: await chromiumPath(),
  headless: true,
  args: [...CHROMIUM_ARGS, ...extraArgs],
});

/** The run's Chromium, for the global setup: tests reach it at its `wsEndpoint()`. */
export async function launchChromiumServer(extraArgs: string[] = []): Promise<BrowserServer> {
  return chromium.launchServer(await launchOptions(extraArgs));
}

export const VIEWPORT = { width: 1440, height: 900 };

/**
 * Every test context: the viewport, and reduced motion, which the console honours
 * (app/app.css): no enter, exit or colour transitions to wait out before a check, and no
 * endless pulse or spinner painting frames while a test waits. On two cores that CPU is the
 * browser layer's bound (docs/testing.md "Where the time goes").
 */
const CONTEXT_OPTIONS = { viewport: VIEWPORT, reducedMotion: "reduce" } as const;

let shared: Promise<Browser> | undefined;
let openContexts = 0;

/**
 * A fresh context of the run's Chromium at `wsEndpoint`; with `extraArgs` (a host resolver rule
 * for branded domains) a Chromium of its own, closed with the context. A file's connection to
 * the shared Chromium ends when its last context closes.
 */
export async function newBrowserContext(wsEndpoint: string, extraArgs: string[] = []): Promise<BrowserContext> {
  if (extraArgs.length > 0) {
    const own = await chromium.launch(await launchOptions(extraArgs));
    return closingWith(await withLocalTiles(await own.newContext(CONTEXT_OPTIONS)), () => own.close());
  }
  shared ??= chromium.connect(wsEndpoint);
  const browser = await shared;
  openContexts++;
  return closingWith(await withLocalTiles(await browser.newContext(CONTEXT_OPTIONS)), async () => {
    if (--openContexts > 0) return;
    shared = undefined;
    await browser.close();
  });
}

/** A 1 × 1 transparent PNG. */
export const BLANK_TILE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

/** Chromium's request patterns for the map tile hosts the console's CSP admits (domain/map-tiles.ts `TILE_HOSTS`). */
const TILE_PATTERNS = TILE_HOSTS.map((host) => ({ urlPattern: `${host}/*`, requestStage: "Request" as const }));

const TILE_RESPONSE = {
  responseCode: 200,
  responseHeaders: [
    { name: "Content-Type", value: "image/png" },
    { name: "Access-Control-Allow-Origin", value: "*" },
  ],
  body: BLANK_TILE.toString("base64"),
};

/**
 * There is no network here: every page of the context answers map tiles with a blank tile, so a
 * map draws without failed requests. Not with playwright's `route`: any route makes Chromium hold
 * every request of the context (scripts, styles, API calls) until playwright lets it go, about
 * 0.3 s of Chromium's CPU a navigation (docs/testing.md "Where the time goes"). A DevTools
 * session of the page's own asks Chromium to hold the tile hosts' requests only. `newPage()`
 * resolves once its page answers tiles; a page the console opens itself answers them as soon as
 * its session is ready.
 */
async function withLocalTiles(context: BrowserContext): Promise<BrowserContext> {
  const answering = new WeakMap<Page, Promise<void>>();
  const answerTiles = (page: Page) => {
    if (!answering.has(page)) answering.set(page, answerTilesOn(context, page));
    return answering.get(page)!;
  };
  context.on("page", (page) => void answerTiles(page));
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    await answerTiles(page);
    return page;
  };
  return context;
}

async function answerTilesOn(context: BrowserContext, page: Page): Promise<void> {
  const session = await context.newCDPSession(page);
  session.on("Fetch.requestPaused", ({ requestId }) => {
    // A page closed while its tile was held rejects the answer; nothing waits for that tile.
    session.send("Fetch.fulfillRequest", { requestId, ...TILE_RESPONSE }).catch(() => undefined);
  });
  await session.send("Fetch.enable", { patterns: TILE_PATTERNS });
}

/** The context, whose `close()` also runs `after` before it resolves, so nothing is left pending when a file ends. */
function closingWith(context: BrowserContext, after: () => Promise<void>): BrowserContext {
  const close = context.close.bind(context);
  context.close = async (...args: Parameters<BrowserContext["close"]>) => {
    await close(...args);
    await after();
  };
  return context;
}

/**
 * A call of playwright's request API or Node's `fetch` against the local server, made again when
 * its connection was reset. Both keep connections alive longer than workerd, which closes one idle
 * for 5 s: a call written at that moment is reset before the server reads it, so sending it again
 * is safe (docs/decisions/0114-the-dev-server-sends-a-lost-request-again.md). playwright says
 * ECONNRESET or "socket hang up"; Node's `fetch` says "fetch failed" with undici's
 * UND_ERR_SOCKET "other side closed" as its cause. The browser's own requests need none of this:
 * Chromium sends a request again itself when a reused connection turns out closed.
 */
export async function resentIfReset<T>(call: () => Promise<T>): Promise<T> {
  for (let sent = 1; ; sent++) {
    try {
      return await call();
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? `${error.cause} ${(error.cause as { code?: string }).code ?? ""}` : "";
      if (sent === 3 || !/ECONNRESET|socket hang up|UND_ERR_SOCKET|other side closed/.test(`${error} ${cause}`)) throw error;
    }
  }
}

/** The development captcha (docs/rules/sessions.md "Captcha"; DEV_CAPTCHA in .dev.vars). */
export const DEV_CAPTCHA = "1234";

/**
 * Logs the page's context in without the form: the operator's login page is fetched as a first
 * visit would (it sets the operator and language cookies), the console's own login action is
 * posted with the development captcha (it sets the session cookie), then the page opens the
 * login page, which the route guard turns into the account's first screen (or its password
 * page) exactly as after the form (docs/rules/sessions.md "Login").
 */
export async function logInByCookie(page: Page, baseURL: string, operatorCode: string, username: string, password: string) {
  const request = page.context().request;
  const loginPage = `${baseURL}/${operatorCode}/login`;
  await resentIfReset(() => request.get(loginPage));
  const captcha = await resentIfReset(() => request.get(`${baseURL}/user-service/auth/captcha`));
  const { captchaId } = ((await captcha.json()) as { data: { captchaId: string } }).data;
  const answer = await resentIfReset(() =>
    request.post(loginPage, {
      form: { username, password, captcha: DEV_CAPTCHA, captchaId },
      headers: { Origin: baseURL },
      maxRedirects: 0,
    }),
  );
  if (answer.status() !== 302) throw new Error(`login ${operatorCode}/${username} answered ${answer.status()}: ${(await answer.text()).slice(0, 500)}`);
  await page.goto(loginPage);
}
