/**
 * One load process of `npm run bench:ocpp` (forked by tests/bench/ocpp.ts, several at once so
 * that no single client process is the bottleneck). Light clients: plain `ws` sockets, frames
 * built from constant text, answers matched by message id and never schema-checked (the strict
 * ocpp-rpc sample in ocpp.ts checks correctness). It takes one command at a time over IPC and
 * answers with its figures.
 */
import { performance } from "node:perf_hooks";
import { loadWs, type WsModule, type WsSocket } from "../peers/ws";
import type { BenchCharger, ClientCommand, ClientReport } from "./protocol";

const ws = (await loadWs()) as WsModule;

/** One charger's socket: a message counter and the calls waiting for their answer. */
interface Charger {
  serial: string;
  socket: WsSocket;
  next: number;
  waiting: Map<string, (answer: unknown[]) => void>;
  status: number;
}

let chargers: Charger[] = [];
/** A second fleet, connected to the other server, while the two take turns (`swap`). */
let aside: Charger[] = [];

/** Constant frame tails: only the message id changes per call. */
const TAILS = {
  BootNotification: `,"BootNotification",{"chargePointVendor":"Plugdesk","chargePointModel":"Bench"}]`,
  Heartbeat: `,"Heartbeat",{}]`,
};
const STATUS = ["Available", "Preparing"].map((status) => (connectorId: number) =>
  `,"StatusNotification",{"connectorId":${connectorId},"errorCode":"NoError","status":"${status}"}]`,
);

/** A MeterValues with four sampled values (energy register, power, current, voltage); only the register and time change. */
function meterTail(registerWh: number, transactionId?: number) {
  return (
    `,"MeterValues",{"connectorId":1,${transactionId === undefined ? "" : `"transactionId":${transactionId},`}"meterValue":[{"timestamp":"${new Date().toISOString()}","sampledValue":[` +
    `{"value":"${registerWh}","context":"Sample.Periodic","measurand":"Energy.Active.Import.Register","unit":"Wh"},` +
    `{"value":"11000","measurand":"Power.Active.Import","unit":"W"},{"value":"15.9","measurand":"Current.Import","unit":"A"},` +
    `{"value":"230.0","measurand":"Voltage","unit":"V"}]}]}]`
  );
}

/** A charger that cannot connect and boot within this counts as failed rather than holding the run. */
const CONNECT_TIMEOUT_MS = 30_000;

function call(c: Charger, tail: string, timeoutMs = 120_000): Promise<unknown[]> {
  const id = String(++c.next);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      c.waiting.delete(id);
      reject(new Error("timeout"));
    }, timeoutMs);
    c.waiting.set(id, (answer) => {
      clearTimeout(timer);
      if (answer[0] === 4) reject(new Error(`CALLERROR ${String(answer[2])}`));
      else resolve(answer);
    });
    try {
      c.socket.send(`[2,"${id}"${tail}`);
    } catch (error) {
      clearTimeout(timer);
      c.waiting.delete(id);
      reject(error as Error);
    }
  });
}

/** Opens one socket as a charger with HTTP Basic auth and the ocpp1.6 subprotocol. */
function open(url: string, charger: BenchCharger): Promise<Charger> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${charger.serial}:${charger.key}`).toString("base64");
    const socket = new ws.WebSocket(`${url}/${charger.serial}`, ["ocpp1.6"], { headers: { Authorization: `Basic ${auth}` }, handshakeTimeout: CONNECT_TIMEOUT_MS });
    const c: Charger = { serial: charger.serial, socket, next: 0, waiting: new Map(), status: 0 };
    socket.on("open", () => resolve(c));
    socket.on("error", (error) => reject(error));
    socket.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on("close", () => {
      for (const settle of c.waiting.values()) settle([4, "", "closed"]);
      c.waiting.clear();
    });
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString("utf8")) as unknown[];
      if (frame[0] === 2) {
        // The server's calls (a remote start, a change of availability): answered at once.
        const answer = frame[2] === "RemoteStartTransaction" || frame[2] === "RemoteStopTransaction" || frame[2] === "ChangeAvailability" ? { status: "Accepted" } : {};
        socket.send(JSON.stringify([3, frame[1], answer]));
        return;
      }
      c.waiting.get(frame[1] as string)?.(frame);
      c.waiting.delete(frame[1] as string);
    });
  });
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function lanes<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

async function timed(samples: number[], run: () => Promise<unknown>) {
  const start = performance.now();
  await run();
  samples.push(performance.now() - start);
}

async function handle(command: ClientCommand): Promise<ClientReport> {
  const samples: number[] = [];
  let failed = 0;
  let done = 0;
  let firstError: string | undefined;
  const failure = (error: unknown) => {
    failed++;
    firstError ??= error instanceof Error ? error.message : String(error);
  };
  switch (command.kind) {
    case "connect": {
      // A charger's start: connect, BootNotification, then its connectors' StatusNotifications (0, 1, 2).
      const opened: Charger[] = [];
      await lanes(command.chargers, command.inFlight, async (charger) => {
        try {
          const c = await open(command.url, charger);
          await call(c, TAILS.BootNotification, CONNECT_TIMEOUT_MS);
          for (const connectorId of [0, 1, 2]) await call(c, STATUS[0](connectorId), CONNECT_TIMEOUT_MS);
          opened.push(c);
          done++;
        } catch (error) {
          failure(error);
        }
      });
      chargers = opened;
      break;
    }
    case "heartbeats":
      // `count` round trips spread over the chargers, `inFlight` at a time.
      await lanes(
        Array.from({ length: command.count }, (_, i) => chargers[i % chargers.length]),
        command.inFlight,
        (c) => timed(samples, () => call(c, TAILS.Heartbeat)).then(() => void done++, failure),
      );
      break;
    case "burst":
      // `count` chargers at once: one Heartbeat, or a StatusNotification that changes its status.
      await Promise.all(
        chargers.slice(0, command.count).map((c) => {
          const tail = command.action === "Heartbeat" ? TAILS.Heartbeat : STATUS[++c.status % 2](1);
          return timed(samples, () => call(c, tail)).then(() => void done++, failure);
        }),
      );
      break;
    case "steady": {
      // Each charger heartbeats every `intervalS`, starting at a random moment of the first interval.
      const end = performance.now() + command.durationS * 1000;
      await Promise.all(
        chargers.map(async (c) => {
          await new Promise((r) => setTimeout(r, Math.random() * command.intervalS * 1000));
          while (performance.now() < end) {
            const started = performance.now();
            await timed(samples, () => call(c, TAILS.Heartbeat)).then(() => void done++, failure);
            await new Promise((r) => setTimeout(r, Math.max(0, command.intervalS * 1000 - (performance.now() - started))));
          }
        }),
      );
      break;
    }
    case "meter": {
      // Every charger sends MeterValues back to back for `seconds`.
      const end = performance.now() + command.seconds * 1000;
      let register = 1_000_000;
      await Promise.all(
        chargers.map(async (c) => {
          while (performance.now() < end) {
            register += 10;
            await call(c, meterTail(register)).then(() => void done++, failure);
          }
        }),
      );
      break;
    }
    case "transactions": {
      // A session on the first `count` chargers, as a charger runs one: Authorize, Preparing,
      // StartTransaction, Charging, a MeterValues, StopTransaction, Finishing, Available.
      await lanes(chargers.slice(0, command.count), command.inFlight, async (c) => {
        try {
          const status = (s: string) => `,"StatusNotification",{"connectorId":2,"errorCode":"NoError","status":"${s}"}]`;
          await call(c, `,"Authorize",{"idTag":"${command.idTag}"}]`);
          await call(c, status("Preparing"));
          const start = new Date().toISOString();
          const answer = await call(c, `,"StartTransaction",{"connectorId":2,"idTag":"${command.idTag}","meterStart":1000,"timestamp":"${start}"}]`);
          const transactionId = (answer[2] as { transactionId: number }).transactionId;
          await call(c, status("Charging"));
          await call(c, meterTail(2000, transactionId));
          await call(c, `,"StopTransaction",{"transactionId":${transactionId},"meterStop":3000,"timestamp":"${new Date().toISOString()}","reason":"Local"}]`);
          await call(c, status("Finishing"));
          await call(c, status("Available"));
          done++;
        } catch (error) {
          failure(error);
        }
      });
      break;
    }
    case "swap":
      [chargers, aside] = [aside, chargers];
      break;
    case "close":
      for (const c of chargers) c.socket.close(1000);
      chargers = [];
      break;
  }
  return { samples, done, failed, firstError };
}

process.on("message", (command: ClientCommand) => {
  void handle(command).then((report) => process.send?.(report));
});
process.send?.({ samples: [], done: 0, failed: 0 } satisfies ClientReport);
