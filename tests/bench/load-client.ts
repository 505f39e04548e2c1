/**
 * One load process of `npm run bench:ocpp` (forked by tests/bench/ocpp.ts, several at once so
 * that no single client process is the bottleneck). Light clients of OCPP 1.6 or 2.0.1: plain
 * `ws` sockets, frames built from constant text, answers matched by message id and never
 * schema-checked (the strict ocpp-rpc samples in ocpp.ts check correctness). It takes one command
 * at a time over IPC and answers with its figures.
 */
import { performance } from "node:perf_hooks";
import { loadWs, type WsModule, type WsSocket } from "../peers/ws";
import { SUBPROTOCOLS } from "../../workers/ocpp/protocol";
import { BOOT_STATUSES, type BenchCharger, type ClientCommand, type ClientReport, type OcppVersion } from "./protocol";

const ws = (await loadWs()) as WsModule;

/** One charger's socket: a message counter and the calls waiting for their answer. */
interface Charger {
  serial: string;
  socket: WsSocket;
  dialect: Dialect;
  next: number;
  waiting: Map<string, (answer: unknown[]) => void>;
  status: number;
  /** The transaction its readings belong to, where its version needs one (2.0.1): the charger's id and the last seqNo. */
  transaction?: { id: string; seqNo: number };
}

let chargers: Charger[] = [];
/** A second fleet, connected to the other server, while the two take turns (`swap`). */
let aside: Charger[] = [];
/** The energy register every reading carries; it only grows, across chargers and rounds. */
let registerWh = 1_000_000;

/**
 * What a light charger of one version sends: constant text where only the message id, the time
 * and the register change. Each phase of the bench asks the same of both versions; the frames
 * are the version's own.
 */
interface Dialect {
  boot: string;
  heartbeat: string;
  /** Connector `connectorId` reports Available, or (`n` odd) in use. */
  status(connectorId: number, n: number): string;
  /** One periodic reading with four sampled values (energy register, power, current, voltage). */
  reading(c: Charger): string;
  /** The transaction the readings belong to starts (the answer says whether the id token was accepted) and ends; none in 1.6. */
  begin?(c: Charger, idToken: string): string;
  end?(c: Charger): string;
  /** What it answers the server's CALL of `action`. */
  answer(action: unknown): object;
}

const now = () => new Date().toISOString();
const ACCEPTED = new Set(["RemoteStartTransaction", "RemoteStopTransaction", "RequestStartTransaction", "RequestStopTransaction", "ChangeAvailability"]);
const answerAccepted = (action: unknown) => (typeof action === "string" && ACCEPTED.has(action) ? { status: "Accepted" } : {});

const OCPP16: Dialect = {
  boot: `,"BootNotification",{"chargePointVendor":"Plugdesk","chargePointModel":"Bench"}]`,
  heartbeat: `,"Heartbeat",{}]`,
  status: (connectorId, n) => `,"StatusNotification",{"connectorId":${connectorId},"errorCode":"NoError","status":"${n % 2 ? "Preparing" : "Available"}"}]`,
  reading: () => meterValues16(registerWh),
  answer: answerAccepted,
};

/** A 1.6 MeterValues (OCPP 1.6 §4.7), within a transaction when it names one. */
function meterValues16(register: number, transactionId?: number) {
  return (
    `,"MeterValues",{"connectorId":1,${transactionId === undefined ? "" : `"transactionId":${transactionId},`}"meterValue":[{"timestamp":"${now()}","sampledValue":[` +
    `{"value":"${register}","context":"Sample.Periodic","measurand":"Energy.Active.Import.Register","unit":"Wh"},` +
    `{"value":"11000","measurand":"Power.Active.Import","unit":"W"},{"value":"15.9","measurand":"Current.Import","unit":"A"},` +
    `{"value":"230.0","measurand":"Voltage","unit":"V"}]}]}]`
  );
}

/** The energy register alone, as a 2.0.1 transaction's first and last readings carry it (E01, E06). */
const register201 = (context: string) =>
  `"meterValue":[{"timestamp":"${now()}","sampledValue":[{"value":${registerWh},"context":"${context}","measurand":"Energy.Active.Import.Register","unitOfMeasure":{"unit":"Wh"}}]}]`;

const OCPP201: Dialect = {
  boot: `,"BootNotification",{"reason":"PowerUp","chargingStation":{"vendorName":"Plugdesk","model":"Bench"}}]`,
  heartbeat: `,"Heartbeat",{}]`,
  // G01: a connector of EVSE `evseId`.
  status: (evseId, n) => `,"StatusNotification",{"timestamp":"${now()}","connectorStatus":"${n % 2 ? "Occupied" : "Available"}","evseId":${evseId},"connectorId":1}]`,
  // E02 with J02: the readings of a running transaction, MeterValuePeriodic, no id token (nothing to authorise).
  reading(c) {
    if (!c.transaction) throw new Error(`${c.serial} has no transaction for its readings`);
    const at = now();
    return (
      `,"TransactionEvent",{"eventType":"Updated","timestamp":"${at}","triggerReason":"MeterValuePeriodic","seqNo":${++c.transaction.seqNo},` +
      `"transactionInfo":{"transactionId":"${c.transaction.id}"},"meterValue":[{"timestamp":"${at}","sampledValue":[` +
      `{"value":${registerWh},"context":"Sample.Periodic","measurand":"Energy.Active.Import.Register","unitOfMeasure":{"unit":"Wh"}},` +
      `{"value":11000,"context":"Sample.Periodic","measurand":"Power.Active.Import","unitOfMeasure":{"unit":"W"}},` +
      `{"value":15.9,"context":"Sample.Periodic","measurand":"Current.Import","unitOfMeasure":{"unit":"A"}},` +
      `{"value":230,"context":"Sample.Periodic","measurand":"Voltage","unitOfMeasure":{"unit":"V"}}]}]}]`
    );
  },
  // E03: a card-first start on EVSE 1.
  begin(c, idToken) {
    c.transaction = { id: crypto.randomUUID(), seqNo: 0 };
    return (
      `,"TransactionEvent",{"eventType":"Started","timestamp":"${now()}","triggerReason":"Authorized","seqNo":0,` +
      `"transactionInfo":{"transactionId":"${c.transaction.id}","chargingState":"Charging"},"idToken":{"idToken":"${idToken}","type":"Central"},` +
      `"evse":{"id":1,"connectorId":1},${register201("Transaction.Begin")}}]`
    );
  },
  // E06: stopped at the station.
  end(c) {
    const tx = c.transaction!;
    c.transaction = undefined;
    return (
      `,"TransactionEvent",{"eventType":"Ended","timestamp":"${now()}","triggerReason":"StopAuthorized","seqNo":${tx.seqNo + 1},` +
      `"transactionInfo":{"transactionId":"${tx.id}","chargingState":"Idle","stoppedReason":"Local"},${register201("Transaction.End")}}]`
    );
  },
  answer: answerAccepted,
};

const DIALECTS: Record<OcppVersion, Dialect> = { "1.6": OCPP16, "2.0.1": OCPP201 };

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

/** Opens one socket as a charger with HTTP Basic auth, offering its version's subprotocol alone, and holds the server to it. */
function open(url: string, charger: BenchCharger, version: OcppVersion): Promise<Charger> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${charger.serial}:${charger.key}`).toString("base64");
    const socket = new ws.WebSocket(`${url}/${charger.serial}`, [SUBPROTOCOLS[version]], { headers: { Authorization: `Basic ${auth}` }, handshakeTimeout: CONNECT_TIMEOUT_MS });
    const c: Charger = { serial: charger.serial, socket, dialect: DIALECTS[version], next: 0, waiting: new Map(), status: 0 };
    socket.on("open", () => (socket.protocol === SUBPROTOCOLS[version] ? resolve(c) : reject(new Error(`the server chose "${socket.protocol}"`))));
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
        socket.send(JSON.stringify([3, frame[1], c.dialect.answer(frame[2])]));
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
      // A charger's start: connect and BootNotification (each charger's time is a sample), then its
      // connectors' StatusNotifications (BOOT_STATUSES).
      const opened: Charger[] = [];
      await lanes(command.chargers, command.inFlight, async (charger) => {
        try {
          const start = performance.now();
          const c = await open(command.url, charger, command.version);
          await call(c, c.dialect.boot, CONNECT_TIMEOUT_MS);
          samples.push(performance.now() - start);
          for (const connectorId of BOOT_STATUSES[command.version]) await call(c, c.dialect.status(connectorId, 0), CONNECT_TIMEOUT_MS);
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
        (c) => timed(samples, () => call(c, c.dialect.heartbeat)).then(() => void done++, failure),
      );
      break;
    case "burst":
      // `count` chargers at once: one Heartbeat, or a StatusNotification that changes its status.
      await Promise.all(
        chargers.slice(0, command.count).map((c) => {
          const tail = command.action === "Heartbeat" ? c.dialect.heartbeat : c.dialect.status(1, ++c.status);
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
            await timed(samples, () => call(c, c.dialect.heartbeat)).then(() => void done++, failure);
            await new Promise((r) => setTimeout(r, Math.max(0, command.intervalS * 1000 - (performance.now() - started))));
          }
        }),
      );
      break;
    }
    case "meter": {
      // Every charger sends its version's readings back to back for `seconds`.
      const end = performance.now() + command.seconds * 1000;
      await Promise.all(
        chargers.map(async (c) => {
          while (performance.now() < end) {
            registerWh += 10;
            let frame: string;
            try {
              frame = c.dialect.reading(c);
            } catch (error) {
              failure(error);
              return;
            }
            await call(c, frame).then(() => void done++, failure);
          }
        }),
      );
      break;
    }
    case "begin":
      // Each charger's transaction starts, 10 at a time (each waits for its write in D1); the id token must be accepted.
      await lanes(chargers, 10, async (c) => {
        if (!c.dialect.begin) return;
        try {
          const answer = await call(c, c.dialect.begin(c, command.idToken));
          const status = (answer[2] as { idTokenInfo?: { status?: string } }).idTokenInfo?.status;
          // The echo DO answers {} (no registry); the product must accept the operator's token.
          if (status !== undefined && status !== "Accepted") throw new Error(`idToken ${status}`);
          done++;
        } catch (error) {
          c.transaction = undefined;
          failure(error);
        }
      });
      break;
    case "end":
      await lanes(chargers, 10, async (c) => {
        if (!c.dialect.end || !c.transaction) return;
        await call(c, c.dialect.end(c)).then(() => void done++, failure);
      });
      break;
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
          await call(c, meterValues16(2000, transactionId));
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
