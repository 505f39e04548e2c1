import { readFileSync } from "node:fs";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO, DEMO_CHARGER_KEY } from "../../db/seed";
import { cronUrl } from "../../scripts/local-server";
import { readWranglerConfig } from "../../scripts/local-state";
import { Api } from "../../scripts/sim/register";
import { DEMO_HISTORY_PATH } from "../../workers/http/demo-history";
import { baseURL, closeClients, strictClient, until } from "./support";
import { exclusively } from "../e2e/support/exclusive";
import { resentIfReset } from "../support/browser";

exclusively("charger DE001-CP01");

/**
 * The server `npm start` runs (the e2e global setup starts it exactly that way) answers on the
 * wire what the worker decides: a refused upgrade keeps its status, the chosen subprotocol is the
 * worker's, cron reaches the built worker's scheduled handler, and the demo is alive at once.
 */
const serverLog = inject("serverLog");

/** The HTTP status an upgrade was refused with (ocpp-rpc reports it as the error's `code`). */
async function refusedWith(connecting: Promise<unknown>) {
  const error = await connecting.then(
    () => undefined,
    (e: unknown) => e as { code?: unknown; message?: string },
  );
  expect(error, "the upgrade was accepted").toBeDefined();
  return error!.code ?? error!.message;
}

describe("npm start on the wire", () => {
  afterEach(closeClients);

  it("listens only once the local state is migrated and seeded", () => {
    const printed = readFileSync(serverLog, "utf8");
    const seeded = printed.indexOf("is migrated and seeded; starting the server");
    expect(seeded).toBeGreaterThan(-1);
    expect(printed.indexOf("Ready on http://127.0.0.1:")).toBeGreaterThan(seeded);
  });

  it("prints no warning about internal Durable Objects, and the demo logins of the README", () => {
    const printed = readFileSync(serverLog, "utf8");
    expect(printed).not.toMatch(/internal Durable Object/i);
    expect(printed).not.toMatch(/no such Durable Object class/i);
    // README.md "Demo logins": each login page with its account and password.
    for (const login of [
      /\/PLATFORM\/login\s+platform \/ Platform123/,
      /\/0PL002\/login\s+demoadmin \/ Demo12345/,
      /\/0PL002A\/login\s+subadmin1 \/ Demo12345/,
      /\/0DE001\/login\s+deadmin1 \/ Demo12345/,
    ]) {
      expect(printed).toMatch(login);
    }
  });

  it("writes the demo's month of history before it prints the logins, and adds nothing when asked again (docs/rules/demo.md \"Demo history\")", async () => {
    const printed = readFileSync(serverLog, "utf8");
    const history = printed.search(/Demo history (written: \d+ sessions|: already there)/);
    expect(history).toBeGreaterThan(-1);
    expect(printed.indexOf("/0PL002/login")).toBeGreaterThan(history);
    const again = await fetch(`${baseURL}${DEMO_HISTORY_PATH}`, { method: "POST" });
    expect(again.status).toBe(200);
    expect(await again.json()).toBeNull();
    expect((await fetch(`${baseURL}${DEMO_HISTORY_PATH}`)).status).toBe(404);
  });

  it("refuses an unknown charger with 404 and a wrong key with 401", async () => {
    expect(await refusedWith(strictClient("NO-SUCH-CHARGER", DEMO_CHARGER_KEY).connect())).toBe(404);
    expect(await refusedWith(strictClient("DE001-CP01", "ffffffffffffffffffffffffffffffffffffffff").connect())).toBe(401);
  });

  it("answers ocpp1.6 to a charger that offers ocpp1.5 first", async () => {
    const client = strictClient("DE001-CP01", DEMO_CHARGER_KEY, { protocols: ["ocpp1.5", "ocpp1.6"], strictMode: false });
    await client.connect();
    expect(client.protocol).toBe("ocpp1.6");
    expect((await client.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "two offers" })).status).toBe("Accepted");
  });

  it("runs the built worker's scheduled handler for a cron of wrangler.toml", async () => {
    const cron = (await readWranglerConfig()).triggers.crons![0];
    const done = `housekeeping (${cron}) done`;
    const runs = () => readFileSync(serverLog, "utf8").split(done).length - 1;
    const before = runs();
    const res = await resentIfReset(() => fetch(cronUrl("start", baseURL, cron)));
    expect(res.status).toBe(200);
    await until(async () => runs() > before, "the housekeeping log line");
  });

  it("serves React's production build, its files kept a year by the browser and the pages not (docs/performance.md \"Built files kept by the browser\")", async () => {
    const page = await resentIfReset(() => fetch(`${baseURL}/0PL002/login`));
    expect(page.headers.get("cache-control") ?? "").not.toMatch(/immutable/);
    const modules = [...new Set([...(await page.text()).matchAll(/\/assets\/[\w.-]+\.js/g)].map(([path]) => path))];
    expect(modules.length).toBeGreaterThan(5);
    for (const path of modules) {
      const file = await resentIfReset(() => fetch(`${baseURL}${path}`));
      expect(file.headers.get("cache-control"), path).toBe("public, max-age=31536000, immutable");
      // react-dom's development build greets the console so; the tests' server once served it (NODE_ENV=test).
      expect(await file.text(), path).not.toContain("Download the React DevTools");
    }
    // The rules file itself is not served.
    expect((await resentIfReset(() => fetch(`${baseURL}/_headers`))).status).toBe(404);
  });

  it("shows the demo sub-operator the first station's chargers at once", async () => {
    const sub = DEMO.operators.find((o) => o.parent)!;
    const api = await Api.login(baseURL, { operatorCode: sub.code, username: sub.account, password: sub.password });
    const points = await api.get<{ records: { serialNumber: string }[] }>("/station-service/sub-operator/point?size=100");
    expect(points.records.map((p) => p.serialNumber)).toEqual(expect.arrayContaining(["PL002-CP01", "PL002-CP02"]));
  });
});
