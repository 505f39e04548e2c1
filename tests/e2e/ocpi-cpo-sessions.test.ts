import { describe, expect, inject, it } from "vitest";
import { presetRange } from "../../domain/date-range";
import en from "../../domain/i18n/locales/en/ocpi-cpo-sessions.json";
import { api } from "../peers/support";
import { demoAdminPageOfFile, openScreen } from "./support/session";

/**
 * The screens of partners' drivers at our chargers (docs/rules/ocpi.md "Sessions and CDRs we
 * send"): each titled "screen — operator" and checked with axe-core on arrival; the CDR screen
 * shows the month's settlement with its xlsx export, and another month on asking.
 */
const MANY_SCREENS_MS = 300_000;
const baseURL = inject("baseURL");
const OPERATOR = "Plugdesk Polska";
const { page } = await demoAdminPageOfFile(baseURL);

describe("roaming drivers' screens", () => {
  it(
    "titles the sessions, CDRs and tokens screens and shows the month's settlement on the CDR screen",
    async () => {
      const menu = en.menu.cpo;
      for (const [path, screen] of [
        ["/cpo/cpoSession", menu.session],
        ["/cpo/cpoToken", menu.token],
        ["/cpo/cpoCdr", menu.cdr],
      ]) {
        await openScreen(page, `${baseURL}${path}`, `${screen} — ${OPERATOR}`);
      }
      // The current month in the operator's zone, which is not UTC's around midnight on the 1st.
      const { timeZone } = await (await api()).get<{ timeZone: string }>("/system-service/parameter-settings");
      const month = presetRange("thisMonth", Date.now(), timeZone).from.slice(0, 7);
      await expect.poll(() => page.getByRole("heading", { name: en.ocpiCpoSessions.settlement.title.replace("{{month}}", month) }).count()).toBe(1);
      await openScreen(page, `${baseURL}/cpo/cpoCdr?month=2020-01`, `${menu.cdr} — ${OPERATOR}`);
      await expect.poll(() => page.getByRole("heading", { name: en.ocpiCpoSessions.settlement.title.replace("{{month}}", "2020-01") }).count()).toBe(1);
      await expect.poll(() => page.getByText(en.ocpiCpoSessions.settlement.empty).count()).toBe(1);
      expect(await page.getByRole("button", { name: en.ocpiCpoSessions.settlement.export }).isDisabled()).toBe(true);
    },
    MANY_SCREENS_MS,
  );
});
