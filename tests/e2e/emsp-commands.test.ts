import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import commandsEn from "../../domain/i18n/locales/en/ocpi-commands.json";
import en from "../../domain/i18n/locales/en/ocpi.json";
import { resentIfReset } from "../support/browser";
import { ocpiLocation } from "../support/ocpi-objects";
import { startFakeCpo, type FakeCpoServer } from "./support/fake-cpo-server";
import { demoAdminPageOfFile, openScreen, text } from "./support/session";
import { exclusively } from "./support/exclusive";

exclusively("settings of 0PL002", "roaming partners of 0PL002");

/**
 * Commands from the roaming screens (docs/rules/ocpi.md "Commands"): a session started on a
 * partner's location from its row, after the dialog, and the commands page showing the partner's
 * answer and then the charger's result. The partner is a CPO on a local port.
 */
const baseURL = inject("baseURL");
const t = { ...text.en, ...en, ...commandsEn };
const OPERATOR = "Plugdesk Polska";
const { page } = await demoAdminPageOfFile(baseURL);
let cpo: FakeCpoServer;
let settings: Record<string, unknown>;
let platformId: number;
const locationId = `E2E${Date.now().toString(36).toUpperCase()}`;

const api = async (method: string, path: string, data?: unknown) => {
  const res = await resentIfReset(() => page.request.fetch(`${baseURL}${path}`, { method, headers: { Origin: baseURL }, data }));
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data;
};

beforeAll(async () => {
  cpo = await startFakeCpo();
  settings = await api("GET", "/system-service/parameter-settings");
  await api("PUT", "/system-service/parameter-settings", { ...settings, ocpi: { countryCode: "PL", partyId: "PLG" } });
  platformId = (await api("POST", "/ocpi-service/platform", { name: `E2E commands ${locationId}`, versionsUrl: cpo.versionsUrl, token: cpo.tokenA })).id;
  await api("PUT", `/ocpi-service/platform/${platformId}/register`);
  const pushed = await cpo.push(`${baseURL}/ocpi/2.2.1/locations/DE/CPO/${locationId}`, ocpiLocation(locationId, { name: "Dworzec Główny" }));
  expect(pushed).toBe(200);
});

afterAll(async () => {
  if (platformId) await api("PUT", `/ocpi-service/platform/${platformId}/unregister`).catch(() => undefined);
  if (settings) await api("PUT", "/system-service/parameter-settings", settings).catch(() => undefined);
  await cpo?.close();
});

describe("roaming commands", () => {
  it("starts a session on a partner's location and shows the partner's answer, then the charger's result", async () => {
    await openScreen(page, `${baseURL}/emsp/emspLocation`, `${t.menu.emsp.location} — ${OPERATOR}`);
    // The listed locations on the map, each a marker named after its EVSEs.
    await expect.poll(() => page.getByRole("group", { name: "Locations" }).getByRole("img").count()).toBeGreaterThan(0);
    const row = page.getByRole("row").filter({ hasText: locationId });
    await row.getByRole("button", { name: t.ocpiCommands.action.START_SESSION }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByRole("heading", { name: t.ocpiCommands.dialog.START_SESSION.title }).count()).toBe(1);
    await dialog.getByLabel(t.ocpiCommands.dialog.evse).selectOption("E1");
    await dialog.getByLabel(t.ocpiCommands.dialog.connector).selectOption("1");
    await dialog.getByLabel(t.ocpiCommands.dialog.token).fill("NO-SUCH-CARD");
    await dialog.getByRole("button", { name: t.ocpiCommands.dialog.START_SESSION.send }).click();
    await expect.poll(() => dialog.getByText(t.ocpiCommands.validation.unknownToken).count()).toBe(1);
    expect(cpo.commands).toHaveLength(0);
    await dialog.getByLabel(t.ocpiCommands.dialog.token).fill("DEMO0001");
    await dialog.getByRole("button", { name: t.ocpiCommands.dialog.START_SESSION.send }).click();
    await expect.poll(() => cpo.commands.length).toBe(1);
    expect(cpo.commands[0]).toMatchObject({ command: "START_SESSION", body: { location_id: locationId, evse_uid: "E1", connector_id: "1", token: { uid: "DEMO0001" } } });
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);

    await openScreen(page, `${baseURL}/emsp/emspSession`, `${t.menu.emsp.session} — ${OPERATOR}`);
    await page.getByRole("link", { name: t.page.emspCommands }).click();
    await expect.poll(() => page.title()).toBe(`${t.page.emspCommands} — ${OPERATOR}`);
    const sent = page.getByRole("row").filter({ hasText: locationId });
    await expect.poll(() => sent.getByText(t.ocpiCommands.response.ACCEPTED, { exact: true }).count()).toBe(1);
    // The result arrives on its own request; the page reads again while it waits for it.
    await expect.poll(() => sent.getByText(t.ocpiCommands.result.ACCEPTED, { exact: true }).count()).toBe(1);
  });
});
