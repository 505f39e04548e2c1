import { describe, expect, inject, it } from "vitest";
import { axeViolations } from "./support/axe";
import { hydrated, pageOfFile, text } from "./support/session";

const baseURL = inject("baseURL");
const { page } = await pageOfFile();

describe("public pages", () => {
  it("serves the login page with a nonce CSP, nosniff and no framing, and presets the operator's language", async () => {
    const response = await page.goto(`${baseURL}/0DE001/login`);
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(await page.context().cookies()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "lang", value: "en" }),
        expect.objectContaining({ name: "operatorCode", value: "0DE001" }),
      ]),
    );
    await expect.poll(() => page.getByRole("heading", { name: "Plugdesk Deutschland" }).count()).toBe(1);
  });

  it("answers an unknown operator code with the 404 page", async () => {
    const response = await page.goto(`${baseURL}/NOSUCHOP/login`);
    expect(response!.status()).toBe(404);
    await expect.poll(() => page.getByText(text.en.notFound.lost).count()).toBe(1);
  });

  it("sends a visitor of a console page to the remembered operator's login", async () => {
    await page.goto(`${baseURL}/carrierSystem/role`);
    await page.waitForURL(`${baseURL}/0DE001/login`);
  });

  it("sends a visitor with no operator code to homePage with 'no login info'", async () => {
    await page.context().clearCookies();
    await page.goto(`${baseURL}/equipmentManagement/station`);
    await page.waitForURL(/\/homePage\?msg=guard\.noLogin/);
    await expect.poll(() => page.getByText(text.en.guard.noLogin).count()).toBeGreaterThan(0);
  });

  it("shows 'Verification code error' for a wrong captcha and keeps the user on the login page", async () => {
    await page.goto(`${baseURL}/0PL002/login`);
    await page.getByLabel(text.en.login.username).fill("demoadmin");
    await page.getByLabel(text.en.login.password, { exact: true }).fill("Demo12345");
    await page.getByLabel(text.en.login.captcha, { exact: true }).fill("0000");
    await page.getByRole("button", { name: text.en.login.submit }).click();
    await expect.poll(() => page.getByText(text.en.errors.captcha).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe("/0PL002/login");
  });

  it("clears a stale error toast when the page changes", async () => {
    await page.goto(`${baseURL}/homePage`);
    await hydrated(page);
    await page.getByRole("textbox", { name: text.en.homePage.operatorCode }).fill("0PL002");
    await page.getByRole("button", { name: text.en.homePage.go }).click();
    await page.waitForURL(`${baseURL}/0PL002/login`);
    await page.getByLabel(text.en.login.username).fill("demoadmin");
    await page.getByLabel(text.en.login.password, { exact: true }).fill("Demo12345");
    await page.getByLabel(text.en.login.captcha, { exact: true }).fill("0000");
    await page.getByRole("button", { name: text.en.login.submit }).click();
    const stale = page.getByRole("alert").filter({ hasText: text.en.errors.captcha });
    await expect.poll(() => stale.count()).toBe(1);

    await page.goBack();
    await page.getByRole("heading", { name: "Plugdesk", exact: true }).waitFor();
    expect(await stale.count()).toBe(0);
  });

  it("switches the login page's language, fetching the catalogue of the language shown only, and keeps the choice in the language cookie", async () => {
    // The catalogues' chunks by language (domain/i18n/languages/*.ts, one chunk each).
    const fetched: string[] = [];
    const onRequest = (request: { url(): string }) => {
      const chunk = /\/assets\/(zh_TW|pt_BR|zh|en|pl|de)-[\w-]+\.js$/.exec(new URL(request.url()).pathname);
      if (chunk) fetched.push(chunk[1]);
    };
    page.on("request", onRequest);
    // In English to begin with, also when the test runs again after a try that switched.
    await page.context().addCookies([{ name: "lang", value: "en", url: baseURL }]);
    await page.goto(`${baseURL}/0PL002/login`);
    await hydrated(page);
    expect(fetched.filter((language) => language !== "en")).toEqual([]);
    await page.getByRole("button", { name: text.en.ui.language.label.replace("{{language}}", "English") }).click();
    await page.getByRole("menuitemradio", { name: "Polski" }).click();
    await expect.poll(() => page.getByLabel(text.pl.login.username).count()).toBe(1);
    await expect.poll(() => page.getByRole("button", { name: text.pl.login.submit, exact: true }).count()).toBe(1);
    await expect.poll(() => page.title()).toBe(`${text.pl.login.title} — Plugdesk Polska`);
    expect(await page.context().cookies()).toEqual(expect.arrayContaining([expect.objectContaining({ name: "lang", value: "pl" })]));
    expect(fetched).toContain("pl");

    fetched.length = 0;
    await page.reload();
    await hydrated(page);
    expect(await page.getByLabel(text.pl.login.username).count()).toBe(1);
    expect(fetched.filter((language) => language !== "pl")).toEqual([]);
    page.off("request", onRequest);
    await page.getByRole("button", { name: text.pl.ui.language.label.replace("{{language}}", "Polski") }).click();
    await page.getByRole("menuitemradio", { name: "English" }).click();
    await expect.poll(() => page.getByLabel(text.en.login.username).count()).toBe(1);
  });

  it("has an accessibility check that finds text planted with too little contrast, in both themes", async () => {
    // Proves the check in the Chromium the run uses (tests/support/browser.ts `chromiumPath`), whatever it is.
    await page.goto(`${baseURL}/0PL002/login`);
    await hydrated(page);
    await page.evaluate(`document.body.insertAdjacentHTML("afterbegin", '<p id="planted-low-contrast" style="color: #777; background: #888">Grey on grey</p>')`);
    const found = await axeViolations(page);
    expect(found.map(({ theme, violations }) => [theme, violations.map((v) => `${v.id} ${v.nodes.map((node) => node.target.join(" "))}`)])).toEqual([
      ["light", ["color-contrast #planted-low-contrast"]],
      ["dark", ["color-contrast #planted-low-contrast"]],
    ]);
  });
});
