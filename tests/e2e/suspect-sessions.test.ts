import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/resilience.json";
import { CHAOS_ID_TAG } from "../../scripts/chaos/chargers";
import { answering, api, bootedClient, closeClients, newCharger, until } from "../peers/support";
import { hydrated, openDemoAdmin, visit } from "./support/session";

/**
 * A stuck session found and closed in the console (docs/rules/monitoring.md "Suspect sessions"):
 * flagged on the Charging screen, closed from Charging › Suspect sessions with the charger's last
 * reading offered, confirmed by a toast, gone from the list and billed once. The charger is
 * ocpp-rpc's strict client.
 */
const baseURL = inject("baseURL");
const r = en.resilience.suspect;
let browser: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  ({ browser, page } = await openDemoAdmin(baseURL));
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await closeClients();
  await browser?.close();
});

type Suspect = { transactionId: number; serialNumber: string; reason: string };

describe("suspect sessions in the console", () => {
  it("flags a stuck session on the Charging screen and closes it with the charger's last reading, billed once", async () => {
    const { serialNumber, key } = await newCharger();
    const { client } = await bootedClient(serialNumber, key);
    const triggers = answering(client, "TriggerMessage", { status: "Accepted" });
    // Started 30 h ago by the charger's clock, past the demo operator's 24 h threshold; the
    // remote-start tag takes any number of sessions at once, so no other test's tag is held.
    const startedAt = new Date(Date.now() - 30 * 3_600_000).toISOString();
    await client.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Charging", timestamp: new Date().toISOString() });
    const { transactionId } = await client.call("StartTransaction", { connectorId: 1, idTag: CHAOS_ID_TAG, meterStart: 1000, timestamp: startedAt });
    await client.call("MeterValues", {
      connectorId: 1,
      transactionId,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: "4321", measurand: "Energy.Active.Import.Register", unit: "Wh" }] }],
    });
    const a = await api();
    const suspects = () => a.get<{ records: Suspect[]; total: number }>(`/station-service/charge/suspect?size=100&serialNumber=${serialNumber}`);
    // The start reaches D1 with the charger's next batch of changes.
    await until(async () => (await suspects()).records.some((s) => s.transactionId === transactionId && s.reason === "NO_STOP"), "the session listed as suspect", 15_000);

    await visit(page, `${baseURL}/systemMonitoring/charging`);
    await hydrated(page);
    const flag = page.getByTestId("suspect-flag");
    await flag.waitFor();
    await flag.getByRole("link", { name: r.review }).click();
    await page.waitForURL(/\/systemMonitoring\/charging\/suspect/);
    await hydrated(page);

    await visit(page, `${baseURL}/systemMonitoring/charging/suspect?serialNumber=${serialNumber}`);
    await hydrated(page);
    const row = page.getByRole("row").filter({ hasText: `#${transactionId}` });
    await row.waitFor();
    await row.getByRole("link", { name: r.close }).click();
    const form = page.getByTestId("suspect-close");
    await form.waitFor();
    expect(await form.getByLabel(r.meterStop).inputValue()).toBe("4321");
    await form.getByRole("button", { name: r.closeSubmit }).click();

    await page.getByText(r.closed.replace("{{id}}", String(transactionId)), { exact: true }).waitFor({ timeout: 15_000 });
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => row.count()).toBe(0);
    // The close's own navigation drops `?close`; the revalidation after the action may land first.
    await expect.poll(() => new URL(page.url()).searchParams.has("close")).toBe(false);
    expect((await suspects()).total).toBe(0);

    const record = await until(async () => {
      const { records } = await a.get<{ records: { transactionId: number; energyWh: number | null; status: string }[]; total: number }>(`/station-service/charge/record?transactionId=${transactionId}`);
      return records.length > 0 ? records : undefined;
    }, "the charge record", 30_000);
    expect(record).toHaveLength(1);
    expect(record[0]).toMatchObject({ transactionId, energyWh: 3321 });
    // The charger is asked for its status once the close is answered.
    expect(await triggers.next()).toEqual({ requestedMessage: "StatusNotification", connectorId: 1 });
    expect(pageErrors).toEqual([]);
  });
});
