import { afterAll, describe, expect, inject, it } from "vitest";
import en from "../../domain/i18n/locales/en/resilience.json";
import { closeClients, newCharger, ocppEndpoint } from "../peers/support";
import { loadWs } from "../peers/ws";
import { demoAdminPageOfFile, hydrated, visit } from "./support/session";

/**
 * A misbehaving charger in the console (docs/rules/ocpp.md "A charger that keeps reconnecting"):
 * the point page shows the quarantine with its reason and lifts it.
 */
const baseURL = inject("baseURL");
const r = en.resilience;
const { page } = await demoAdminPageOfFile(baseURL);

afterAll(async () => {
  await closeClients();
});

/** One WebSocket handshake of the charger: the HTTP status it was answered with (101 when taken). */
async function handshake(serialNumber: string, key: string): Promise<number> {
  const ws = await loadWs();
  if (!ws) throw new Error("the ws package is not installed");
  const socket = new ws.WebSocket(`${ocppEndpoint}/${serialNumber}`, "ocpp1.6", {
    headers: {
      Authorization: `Basic ${Buffer.from(`${serialNumber}:${key}`).toString("base64")}`,
    },
  });
  return new Promise((resolve, reject) => {
    socket.on("open", () => {
      socket.close(1000, "bye");
      resolve(101);
    });
    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
    socket.on("error", (error) => reject(error));
  });
}

describe("resilience in the console", () => {
  it("shows a quarantined charger on its point page with the reason, and lifts it", async () => {
    const { id, serialNumber, key } = await newCharger();
    for (let i = 0; i < 60; i++) expect(await handshake(serialNumber, key)).toBe(101);
    expect(await handshake(serialNumber, key)).toBe(429);

    const card = page.getByTestId("point-quarantine");
    // The quarantine reaches D1 with the charger's next batch of changes.
    await expect
      .poll(
        async () => {
          await visit(page, `${baseURL}/equipmentManagement/point/pointDetail/${id}`);
          await hydrated(page);
          return card.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await expect.poll(() => card.textContent()).toContain("61");
    await card.getByRole("button", { name: r.quarantine.lift }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: r.quarantine.lift }).click();
    await expect.poll(() => page.getByText(r.quarantine.lifted).count()).toBeGreaterThan(0);
    await expect.poll(() => card.count()).toBe(0);
    expect(await handshake(serialNumber, key)).toBe(101);
  });
});
