import { env, SELF } from "cloudflare:test";
import { IN_LIST, slices } from "../../../db/statements";
import { uniqueTag } from "./drivers";
import { makeCharger } from "./factories";

/**
 * A bare OCPP-J test charger inside the Workers runtime: it speaks raw frames, so tests can
 * send what a real charger would, including what a strict client never would.
 */
export const DEMO_KEY = "000102030405060708090a0b0c0d0e0f10111213";

export const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;

export type Frame = unknown[];

export interface TestCharger {
  ws: WebSocket;
  /** Sends a CALL and resolves with the CALLRESULT payload (or rejects with the CALLERROR). */
  call<T = any>(action: string, payload: unknown): Promise<T>;
  /** Sends raw text and resolves with the next frame the server sends back. */
  raw(text: string): Promise<Frame>;
  /** Answers the server's CALLs with these handlers (action → payload). */
  answer(action: string, reply: (payload: any) => unknown): void;
  /** Resolves with the next CALL the server sends. */
  nextCall(): Promise<Frame>;
  close(): void;
}

/**
 * What a file's chargers leave behind. Their objects keep the socket through hibernation, past
 * `abortAllDurableObjects`, and a socket that closes later wakes its object, which writes the
 * charger offline against the next file's database; a charger closed by its test at the file's end
 * still has that write on its way. The next file's setup closes the sockets left open and waits
 * until every charger the file connected is offline in its database (`closeChargersLeftOpen`,
 * tests/integration/support/setup.ts).
 */
const openSockets = new Set<WebSocket>();
const connectedSerials = new Set<string>();

/**
 * Closes the sockets an earlier file left open and waits until its chargers are offline in its
 * database. Bounded. What an object still does after its landing (its outbox's last round, its
 * alarm's setting) ends when the setup stops every object next, before it empties their storage.
 */
export async function closeChargersLeftOpen() {
  const closed = [...openSockets].map(
    (ws) =>
      new Promise<void>((resolve) => {
        ws.addEventListener("close", () => resolve());
        ws.close(1000, "file ended");
        setTimeout(resolve, 2_000);
      }),
  );
  openSockets.clear();
  await Promise.all(closed);
  const serials = [...connectedSerials];
  connectedSerials.clear();
  if (serials.length === 0) return;
  // A failure is the last file's: a file may have left its writer refusing D1 on purpose.
  const online = async () => {
    let count = 0;
    for (const slice of slices(serials, IN_LIST)) {
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM points WHERE online = 1 AND serial_number IN (${slice.map(() => "?").join(", ")})`)
        .bind(...slice)
        .first<{ n: number }>();
      count += row?.n ?? 0;
    }
    return count;
  };
  // Each round lands what the objects hold (their offline flags wait a second for company otherwise).
  const until = Date.now() + 5_000;
  const drained = () => Promise.race([landed().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1_000))]);
  while (Date.now() < until) {
    await drained();
    if ((await online().catch(() => 0)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function connect(
  serialNumber: string,
  options: { key?: string; path?: string; protocols?: string; user?: string } = {},
): Promise<{ status: number; charger?: TestCharger; response: Response }> {
  const headers: Record<string, string> = {
    Upgrade: "websocket",
    "Sec-WebSocket-Protocol": options.protocols ?? "ocpp1.6",
  };
  if (options.key !== "") headers.Authorization = basic(options.user ?? serialNumber, options.key ?? DEMO_KEY);
  const response = await SELF.fetch(`http://localhost${options.path ?? `/ocpp/${serialNumber}`}`, { headers });
  const ws = response.webSocket;
  if (!ws) return { status: response.status, response };
  ws.accept();
  openSockets.add(ws);
  connectedSerials.add(serialNumber);
  ws.addEventListener("close", () => openSockets.delete(ws));
  const inbox: Frame[] = [];
  const waiters: ((frame: Frame) => void)[] = [];
  const callWaiters: ((frame: Frame) => void)[] = [];
  const pending = new Map<string, { resolve: (v: any) => void; reject: (e: unknown) => void }>();
  const handlers = new Map<string, (payload: any) => unknown>();
  ws.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data as string) as Frame;
    if (frame[0] === 2) {
      const reply = handlers.get(frame[2] as string);
      if (reply) return ws.send(JSON.stringify([3, frame[1], reply(frame[3])]));
      const waiter = callWaiters.shift();
      return waiter ? waiter(frame) : undefined;
    }
    const waitingCall = pending.get(frame[1] as string);
    if (waitingCall) {
      pending.delete(frame[1] as string);
      return frame[0] === 3 ? waitingCall.resolve(frame[2]) : waitingCall.reject(Object.assign(new Error(String(frame[3])), { code: frame[2], details: frame[4] }));
    }
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else inbox.push(frame);
  });
  let counter = 0;
  const charger: TestCharger = {
    ws,
    call(action, payload) {
      const id = `t${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify([2, id, action, payload]));
      });
    },
    raw(text) {
      return new Promise((resolve) => {
        waiters.push(resolve);
        ws.send(text);
      });
    },
    answer(action, reply) {
      handlers.set(action, reply);
    },
    nextCall() {
      return new Promise((resolve) => callWaiters.push(resolve));
    },
    close() {
      openSockets.delete(ws);
      ws.close(1000, "bye");
    },
  };
  return { status: response.status, charger, response };
}

export const boot = (charger: TestCharger) =>
  charger.call("BootNotification", { chargePointVendor: "Plugdesk", chargePointModel: "TestCharger", firmwareVersion: "1.0.0" });

export const now = () => new Date().toISOString();

/** An Accepted tag of the point's operator that no other test is charging with. */
export async function freshTag(pointId: number) {
  const idTag = uniqueTag("V");
  await env.DB.prepare("INSERT INTO id_tags (operator_id, id_tag, status) SELECT operator_id, ?, 'Accepted' FROM points WHERE id = ?").bind(idTag, pointId).run();
  return idTag;
}

/** A 1.6J charger of this point, connected with its key and booted. */
export async function online16(point: { serialNumber: string; key: string }) {
  const charger = (await connect(point.serialNumber, { key: point.key })).charger!;
  await boot(charger);
  return charger;
}

/** A fresh enabled charger of the operator (`makeCharger`), connected as 1.6J and booted. */
export async function bootedCharger(operatorCode = "0PL002") {
  const made = await makeCharger(operatorCode);
  return { ...made, charger: await online16(made) };
}

/** The same charger on its own new station, both connectors Available and landed in D1. */
export async function availableCharger(operatorCode = "0PL002") {
  const made = await bootedCharger(operatorCode);
  await landed();
  for (const connectorId of [1, 2]) {
    await made.charger.call("StatusNotification", { connectorId, errorCode: "NoError", status: "Available", timestamp: now() });
    await landed();
  }
  const station = await env.DB.prepare("SELECT station_id FROM points WHERE id = ?").bind(made.pointId).first<{ station_id: number }>();
  return { ...made, stationId: station!.station_id };
}

/** Records every CALL of this action a charger gets, answering each with `reply`. */
export function recording(charger: TestCharger, action: string, reply: Record<string, unknown>) {
  const seen: Record<string, any>[] = [];
  charger.answer(action, (payload) => {
    seen.push(payload);
    return reply;
  });
  return seen;
}

/** Charger effects reach D1 in batches, at most about two seconds behind (docs/rules/ocpp.md "Hot path"). */
export { eventually } from "../../support/eventually";

/** A point changed straight in D1, as the API's verbs tell its charger's object (docs/decisions/0016-charger-registration-kept-by-the-charger.md). */
export async function pointChanged(operatorId: number, serialNumber: string) {
  const { env } = await import("cloudflare:test");
  const { chargePointName } = await import("../../../workers/ocpp/identity");
  await env.CHARGE_POINT.getByName(chargePointName(operatorId, serialNumber)).forgetRegistration();
}

/** Waits until every charger's queued changes (online flag, boot, statuses) have reached D1. */
export async function landed() {
  const { env, listDurableObjectIds } = await import("cloudflare:test");
  const ids = await listDurableObjectIds(env.CHARGE_POINT);
  await Promise.all(ids.map((id) => env.CHARGE_POINT.get(id).changesLanded()));
}
