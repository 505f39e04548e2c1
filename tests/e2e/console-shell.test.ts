import { beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "../../scripts/sim/register";
import { DEV_CAPTCHA, resentIfReset } from "../support/browser";
import { uncheckedScreens } from "./support/axe";
import { hydrated, logIn, logInThroughForm, pageOfFile, text } from "./support/session";

const baseURL = inject("baseURL");
const t = text.en;
const { page } = await pageOfFile();
const consoleErrors: string[] = [];

beforeAll(async () => {
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
});

/**
 * A page of its own, logged out (a session would send the login page on to the console), whose
 * screens are shown with their scripts held back and so are not checked for accessibility.
 */
async function loggedOutPage() {
  const early = await page.context().newPage();
  uncheckedScreens(early);
  await early.context().clearCookies();
  return early;
}

/** What the browser logged besides the 404 answers these tests ask for on purpose. */
const unexpectedErrors = () => consoleErrors.filter((message) => !message.includes("status of 404"));

describe("console shell", () => {
  it("logs in at /0PL002/login, lands on the first leaf menu, speaks Polish, logs out", async () => {
    await logInThroughForm(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    const sidebar = page.getByRole("complementary", { name: text.en.ui.nav.label });
    await expect.poll(() => sidebar.textContent()).toContain(text.en.menu.monitoring.title);

    await page.getByRole("button", { name: text.en.ui.language.label.replace("{{language}}", "English") }).click();
    await page.getByRole("menuitemradio", { name: "Polski" }).click();
    await expect.poll(() => page.getByRole("complementary", { name: text.pl.ui.nav.label }).textContent()).toContain(text.pl.menu.monitoring.title);
    expect(await page.getByRole("complementary", { name: text.pl.ui.nav.label }).textContent()).toContain(text.pl.menu.carrier.title);
    expect(await page.context().cookies()).toEqual(expect.arrayContaining([expect.objectContaining({ name: "lang", value: "pl" })]));

    await page.getByRole("button", { name: "Demo administrator" }).click();
    await page.getByRole("menuitem", { name: text.pl.ui.account.logout }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: text.pl.ui.account.logout }).click();
    await page.waitForURL(`${baseURL}/0PL002/login`);

    await page.goto(`${baseURL}/home`);
    await page.waitForURL(`${baseURL}/0PL002/login`);
    expect(consoleErrors).toEqual([]);
  });

  it("logs in through the form before its scripts have run, as on a slow connection: the form posts itself", async () => {
    const early = await loggedOutPage();
    try {
      // The page as served, before React hydrates it: none of its scripts load.
      await early.route("**/*.js", (route) => route.abort());
      await early.goto(`${baseURL}/0PL002/login`);
      await early.getByLabel(t.login.username).fill("demoadmin");
      await early.getByLabel(t.login.password, { exact: true }).fill("Demo12345");
      await early.getByLabel(t.login.captcha, { exact: true }).fill(DEV_CAPTCHA);
      await early.getByRole("button", { name: t.login.submit }).click();
      await expect.poll(() => early.url()).toBe(`${baseURL}/home`);
    } finally {
      await early.close();
    }
  });

  it("keeps what was typed into the login form before its scripts had run", async () => {
    const early = await loggedOutPage();
    try {
      let release = () => {};
      const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
      await early.route("**/*.js", async (route) => {
        await scriptsHeld;
        await route.continue();
      });
      await early.goto(`${baseURL}/0PL002/login`, { waitUntil: "commit" });
      await early.getByLabel(t.login.username).fill("demoadmin");
      await early.getByLabel(t.login.password, { exact: true }).fill("Demo12345");
      release();
      await hydrated(early);
      expect(await early.getByLabel(t.login.username).inputValue()).toBe("demoadmin");
      expect(await early.getByLabel(t.login.password, { exact: true }).inputValue()).toBe("Demo12345");
    } finally {
      await early.close();
    }
  });

  it("shows another operator's point or role, and a malformed id, as the 404 page inside the shell", async () => {
    const otherOperator = await Api.login(baseURL, { operatorCode: "0DE001", username: "deadmin1", password: "Demo12345" });
    const [point] = (await otherOperator.get<{ records: { id: number }[] }>("/station-service/point?size=1")).records;
    const [role] = (await otherOperator.get<{ records: { id: number }[] }>("/user-service/role?size=1")).records;
    // An own role's id written any other way than its decimal digits names no page either.
    const [own] = (await (await Api.login(baseURL)).get<{ records: { id: number }[] }>("/user-service/role?size=1")).records;
    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);

    const malformed = [`0x${own.id.toString(16)}`, `${own.id}.0`, `%20${own.id}`].map((id) => `/carrierSystem/role/detail/${id}`);
    for (const path of [`/equipmentManagement/point/pointDetail/${point.id}`, `/carrierSystem/role/detail/${role.id}`, "/carrierSystem/role/detail/abc", ...malformed]) {
      const response = await page.goto(`${baseURL}${path}`);
      expect(response!.status()).toBe(404);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(t.statusPage.notFound);
      expect(await page.title()).toBe(`${t.statusPage.notFound} — Plugdesk Polska`);
      // The shell stays: the menu and the header are there.
      expect(await page.getByRole("complementary", { name: t.ui.nav.label }).count()).toBe(1);
      expect(await page.getByRole("navigation", { name: t.ui.breadcrumb.label }).count()).toBe(1);
    }
    await page.getByRole("link", { name: t.notFound.lost }).click();
    await page.waitForURL(`${baseURL}/home`);
    expect(unexpectedErrors()).toEqual([]);
  });

  it("shows a screen the user's role may not see as the insufficient-permissions page inside the shell", async () => {
    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002A", "subadmin1", "Demo12345");
    await page.waitForURL(/\/suboperators\//);
    await page.goto(`${baseURL}/carrierSystem/role`);
    await page.waitForURL(/\/404\?msg=guard\.insufficient/);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(t.statusPage.forbidden);
    expect(await page.title()).toBe(`${t.statusPage.forbidden} — Plugdesk Kraków`);
    expect(await page.getByRole("complementary", { name: t.ui.nav.label }).count()).toBe(1);
    expect(unexpectedErrors()).toEqual([]);
  });

  it("keeps every menu label readable in Polish and German: long labels wrap instead of being cut off", async () => {
    await page.context().clearCookies();
    await logIn(page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await page.waitForURL(`${baseURL}/home`);
    for (const lang of ["pl", "de"] as const) {
      await page.context().addCookies([{ name: "lang", value: lang, url: baseURL }]);
      await page.reload();
      await hydrated(page);
      const groups = page.locator("aside nav button[aria-expanded=false]");
      while ((await groups.count()) > 0) await groups.first().click();
      const cut = await page.locator("aside").evaluate((aside) => {
        const edge = aside.getBoundingClientRect().right;
        return [...aside.querySelectorAll("nav :is(a, button) > span")]
          .filter((label) => label.scrollWidth > label.clientWidth || label.getBoundingClientRect().right > edge)
          .map((label) => label.textContent);
      });
      expect(cut).toEqual([]);
      const sidebar = page.getByRole("complementary", { name: text[lang].ui.nav.label });
      expect(await sidebar.textContent()).toContain(text[lang].menu.operation.title);
    }
    await page.context().addCookies([{ name: "lang", value: "en", url: baseURL }]);
  });

  it("has no horizontal scroll on the home page on a phone (390 × 844) or a desktop (1440 × 900)", async () => {
    // A location with a long name, as an operator may have: the page cuts it instead of widening.
    const created = await resentIfReset(() =>
      page.request.post(`${baseURL}/station-service/station`, {
        headers: { Origin: baseURL },
        data: {
          name: `Parking wielopoziomowy ${"Galeria ".repeat(6)}`.slice(0, 64),
          address: "ul. Długa 1, Warszawa",
          lat: "52.2300",
          lng: "21.0100",
          parkingFee: false,
          servicePhone: "+48 22 000 00 00",
          maintainer: "Serwis Centrum",
          rank: 0,
          businessHours: "24/7",
          description: "Long-named location of the layout test",
        },
      }),
    );
    expect(created.status()).toBe(200);
    const { data: station } = (await created.json()) as { data: { id: number } };
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${baseURL}/home`);
      // The live socket opens after hydration: on a busy machine that takes longer than expect.poll's default second.
      await expect.poll(() => page.locator('[data-live="on"]').count(), { timeout: 15_000 }).toBe(1);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, `at ${viewport.width} × ${viewport.height}`).toBeLessThanOrEqual(clientWidth);
    }
    // Other tests pick the highest-ranked location: this one leaves no trace.
    expect((await resentIfReset(() => page.request.delete(`${baseURL}/station-service/station/${station.id}`, { headers: { Origin: baseURL } }))).status()).toBe(200);
  });
});
