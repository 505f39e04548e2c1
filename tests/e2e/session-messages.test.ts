import type { BrowserContext, Page, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { resentIfReset } from "../support/browser";
import { openBrowser } from "./support/browser";
import { hydrated, logIn, text } from "./support/session";

/**
 * The console's message catalogue as a user meets it (docs/rules/console.md "Messages and
 * toasts", docs/rules/sessions.md "Session messages"): one error toast at a time, a refused
 * session announced once on the login page, 'system busy' when nothing answers and 'Loading
 * timeout' when the answer is too slow. The failures are staged at the browser's network layer
 * on the operator picker of homePage, a public page whose search calls the API as the console
 * does; an ended session is a real one.
 */
const baseURL = inject("baseURL");
const t = text.en;
const PICKER = "**/user-service/operator/homepage?**";
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await page?.close();
});

/** homePage, hydrated, with the browser remembering operator 0PL002 from its login page. */
async function openPicker() {
  page = await browser.newPage();
  await page.goto(`${baseURL}/0PL002/login`);
  await page.goto(`${baseURL}/homePage`);
  await hydrated(page);
  return page.getByRole("textbox", { name: t.homePage.operatorCode });
}

/** Holds the picker's requests until `count` of them wait, then answers them all at once with `answer`. */
function holdRequests(count: number, answer: (route: Route) => Promise<void>) {
  const held: Route[] = [];
  return page.route(PICKER, async (route) => {
    held.push(route);
    if (held.length === count) await Promise.all(held.map(answer));
  });
}

/** Types one character at a time, each after the picker's 250 ms pause, so that each sends a request. */
async function searchEachOf(box: ReturnType<Page["getByRole"]>, chars: string) {
  for (const char of chars) {
    const sent = page.waitForRequest(PICKER);
    await box.press(char);
    await sent;
  }
}

const alerts = () => page.getByRole("alert");

describe("session messages and the message catalogue", () => {
  it("shows one error toast at a time: a newer failure replaces the one shown", async () => {
    const box = await openPicker();
    let answered = 0;
    await page.route(PICKER, (route) => route.fulfill({ status: answered++ === 0 ? 503 : 502, body: "" }));
    await searchEachOf(box, "0");
    await expect.poll(() => alerts().filter({ hasText: t.http["503"] }).count()).toBe(1);
    await searchEachOf(box, "P");
    await expect.poll(() => alerts().filter({ hasText: t.http["502"] }).count()).toBe(1);
    expect(await alerts().count()).toBe(1);
  });

  it("announces a refused session once, on the operator's login page, however many requests it refused", async () => {
    const box = await openPicker();
    const refused = { code: 401, msg: t.errors.sessionExpired, data: { reason: "errors.sessionExpired" } };
    await holdRequests(3, (route) => route.fulfill({ status: 401, contentType: "application/json", body: JSON.stringify(refused) }));
    await searchEachOf(box, "0PL");
    await page.waitForURL(`${baseURL}/0PL002/login?msg=errors.sessionExpired`);
    await expect.poll(() => alerts().filter({ hasText: t.errors.sessionExpired }).count()).toBe(1);
    expect(await alerts().count()).toBe(1);
  });

  it("says the sign-in expired when a console page is opened with an ended session", async () => {
    page = await browser.newPage();
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    const session = (await browser.cookies(baseURL)).find((cookie) => cookie.name === "plugdesk_session")!;
    // The session ends elsewhere (logged out from another tab) while the page still holds its cookie.
    expect((await resentIfReset(() => page.request.delete(`${baseURL}/user-service/auth/token/${session.value}`, { headers: { Origin: baseURL } }))).status()).toBe(200);

    await page.goto(`${baseURL}/home`);
    await page.waitForURL(`${baseURL}/0PL002/login?msg=errors.sessionExpired`);
    await expect.poll(() => alerts().filter({ hasText: t.errors.sessionExpired }).count()).toBe(1);
    expect((await browser.cookies(baseURL)).some((cookie) => cookie.name === "plugdesk_session" && cookie.value !== "")).toBe(false);
  });

  it("shows the server's own message for a server failure, and the catalogue's when it sent none", async () => {
    const box = await openPicker();
    const failure = { code: 500, msg: t.errors.serverContact, data: null };
    let answered = 0;
    await page.route(PICKER, (route) =>
      answered++ === 0 ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify(failure) }) : route.fulfill({ status: 500, body: "" }),
    );
    await searchEachOf(box, "0");
    await expect.poll(() => alerts().filter({ hasText: t.errors.serverContact }).count()).toBe(1);
    await searchEachOf(box, "P");
    await expect.poll(() => alerts().filter({ hasText: t.http["500"] }).count()).toBe(1);
    expect(await alerts().count()).toBe(1);
  });

  it("says 'system busy' when no answer comes at all", async () => {
    const box = await openPicker();
    await page.route(PICKER, (route) => route.abort("connectionrefused"));
    await searchEachOf(box, "0");
    await expect.poll(() => alerts().filter({ hasText: t.http.none }).count()).toBe(1);
  });

  it("says 'Loading timeout' when the answer takes longer than the client waits (30 s)", async () => {
    page = await browser.newPage();
    const start = Date.now();
    await page.clock.install({ time: start });
    await page.goto(`${baseURL}/homePage`);
    await hydrated(page);
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(start + 120_000);
    // The request is held and never answered: only the client's own time-out ends it.
    await page.route(PICKER, () => undefined);
    const sent = page.waitForRequest(PICKER);
    await page.getByRole("textbox", { name: t.homePage.operatorCode }).press("0");
    await page.clock.runFor(300);
    await sent;
    await page.clock.runFor(29_000);
    expect(await alerts().filter({ hasText: t.http.timeout }).count()).toBe(0);
    await page.clock.runFor(1_500);
    await expect.poll(() => alerts().filter({ hasText: t.http.timeout }).count()).toBe(1);
  });
});
