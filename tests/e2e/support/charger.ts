import { RPCClient, type IHandlersOption } from "ocpp-rpc";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { openBrowser } from "./browser";
import { logIn } from "./session";
import type { OcppRequest } from "../../../domain/ocpp";

/**
 * A simulated charger on ocpp-rpc's strict client, which checks every message both ways against
 * the OCPP 1.6 schemas: it accepts a remote start, then charges with rising power until stopped.
 * It keeps the remote starts it was sent, as a charger's log would.
 */
export function simulatedCharger(baseURL: string, serialNumber: string, key: string) {
  const options: Partial<ConstructorParameters<typeof RPCClient>[0]> = {
    endpoint: `${baseURL.replace(/^http/, "ws")}/ocpp`,
    identity: serialNumber,
    password: key,
    protocols: ["ocpp1.6"],
    strictMode: true,
    reconnect: false,
  };
  const client = new RPCClient(options as ConstructorParameters<typeof RPCClient>[0]);
  const failures: unknown[] = [];
  client.on("strictValidationFailure", (failure: unknown) => failures.push(failure));
  let closing = false;
  // Work a real charger does on its own timers: once the test closes it, calls in flight are
  // aborted, which is expected; any other failure is kept for the test to see.
  const onItsOwn = (work: () => Promise<unknown>) =>
    void work().catch((error: unknown) => {
      if (!closing) failures.push(error);
    });
  const now = () => new Date().toISOString();
  const status = (connectorId: number, value: OcppRequest<"StatusNotification">["status"]) =>
    client.call("StatusNotification", { connectorId, errorCode: "NoError", status: value, timestamp: now() });
  const remoteStarts: OcppRequest<"RemoteStartTransaction">[] = [];
  let session: { transactionId: number; connectorId: number; registerWh: number; powerW: number; timer: ReturnType<typeof setInterval> } | undefined;
  /** A session starts with a tag (OCPP 1.6 §4.8): Preparing, StartTransaction, Charging, metering every second. */
  const startWith = async (idTag: string, connectorId: number) => {
    await status(connectorId, "Preparing");
    const started = (await client.call("StartTransaction", { connectorId, idTag, meterStart: 5000, timestamp: now() })) as { transactionId: number };
    session = { transactionId: started.transactionId, connectorId, registerWh: 5000, powerW: 0, timer: setInterval(() => onItsOwn(meter), 1000) };
    await status(connectorId, "Charging");
    await meter();
  };

  const meter = async () => {
    if (!session) return;
    session.powerW += 1500;
    session.registerWh += Math.round(session.powerW / 3600);
    await client.call("MeterValues", {
      connectorId: session.connectorId,
      transactionId: session.transactionId,
      meterValue: [
        {
          timestamp: now(),
          sampledValue: [
            { value: String(session.registerWh), measurand: "Energy.Active.Import.Register", unit: "Wh" },
            { value: String(session.powerW), measurand: "Power.Active.Import", unit: "W" },
            { value: (session.powerW / 230).toFixed(1), measurand: "Current.Import", unit: "A" },
            { value: "230", measurand: "Voltage", unit: "V" },
          ],
        },
      ],
    });
  };

  // Strict mode has checked every CALL against the OCPP 1.6 schema before a handler sees it.
  client.handle("RemoteStartTransaction", async ({ params }: IHandlersOption) => {
    const request = params as OcppRequest<"RemoteStartTransaction">;
    remoteStarts.push(request);
    // The start follows the answer, as a real charger's would.
    setTimeout(() => onItsOwn(() => startWith(request.idTag, request.connectorId ?? 1)), 100);
    return { status: "Accepted" };
  });
  client.handle("RemoteStopTransaction", async ({ params }: IHandlersOption) => {
    const ending = session;
    if (!ending || ending.transactionId !== (params as OcppRequest<"RemoteStopTransaction">).transactionId) return { status: "Rejected" };
    session = undefined;
    clearInterval(ending.timer);
    setTimeout(() => onItsOwn(async () => {
      await client.call("StopTransaction", { transactionId: ending.transactionId, meterStop: ending.registerWh, timestamp: now(), reason: "Remote" });
      await status(ending.connectorId, "Finishing");
      await status(ending.connectorId, "Available");
    }), 100);
    return { status: "Accepted" };
  });
  client.handle("ChangeAvailability", async () => ({ status: "Accepted" }));

  return {
    client,
    failures,
    remoteStarts,
    /** The running session's transaction, once the server has answered StartTransaction. */
    get transactionId() {
      return session?.transactionId;
    },
    /** A driver's RFID card held to the reader: Authorize (OCPP 1.6 §4.2), and a session when the server accepts it. */
    async tap(idTag: string, connectorId = 1) {
      const answer = (await client.call("Authorize", { idTag })) as { idTagInfo: { status: string } };
      if (answer.idTagInfo.status === "Accepted") await startWith(idTag, connectorId);
      return answer.idTagInfo.status;
    },
    async start() {
      await client.connect();
      await client.call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "E2E strict" });
      await status(0, "Available");
      await status(1, "Available");
      await status(2, "Available");
    },
    /** Ends a running session as a charger switched off would (StopTransaction, Local), then closes. */
    async close() {
      const ending = session;
      session = undefined;
      if (ending) {
        clearInterval(ending.timer);
        await client.call("StopTransaction", { transactionId: ending.transactionId, meterStop: ending.registerWh, timestamp: now(), reason: "Local" });
        await status(ending.connectorId, "Available");
      }
      closing = true;
      await client.close({ code: 1000 });
    },
  };
}

/**
 * A test file's console page, logged in as the demo operator's admin, and the simulated chargers
 * its tests start: after each test no charger saw a schema failure and the page threw nothing;
 * at the end each charger ends its session (its tag is free again for other files).
 */
export function consoleWithChargers(baseURL: string) {
  const state = { page: undefined as unknown as Page, chargers: [] as ReturnType<typeof simulatedCharger>[] };
  const pageErrors: string[] = [];
  let browser: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await openBrowser();
    state.page = await browser.newPage();
    state.page.on("pageerror", (error) => pageErrors.push(error.message));
    await logIn(state.page, baseURL, "0PL002", "demoadmin", "Demo12345");
    await state.page.waitForURL(`${baseURL}/home`);
  });
  afterEach(() => {
    for (const sim of state.chargers) expect(sim.failures).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
  afterAll(async () => {
    await Promise.allSettled(state.chargers.map((sim) => sim.close()));
    await browser?.close();
  });
  return state;
}
