import { DurableObject } from "cloudflare:workers";

/**
 * The bench's yardstick (docs/performance.md): one bare hibernating Durable Object per socket,
 * served by `wrangler dev` like the product, answering each OCPP CALL with the smallest valid
 * CALLRESULT and doing the storage writes the product's design pays for: none for a Heartbeat,
 * one SQLite row for a MeterValues, a TransactionEvent or a StatusNotification. No validation, no
 * log, no D1. It speaks OCPP 2.0.1 to a charger that offers it (the smallest answers of the
 * messages the bench sends are the same words in both versions) and 1.6 otherwise.
 *
 * A remote start's yardstick too: `/start/<charger>` wakes the charger's object, which sends one
 * CALL on its socket and answers with the charger's reply, and `/read` stands for the API read
 * the bench compares a start with. Both first spend the CPU the bench asks for (`spin`, the
 * product's read's, measured in the same run), in `pieces` as its D1 statements cut it, so that
 * this worker's thread is as busy as the product's (docs/performance.md "The remote start's yardstick").
 */
export class EchoPoint extends DurableObject<unknown> {
  /** Made at the first write after a wake-up: a Heartbeat runs no statement at all. */
  private tableMade = false;
  /** The calls sent to the charger, by message id, until its answer. */
  private readonly waiting = new Map<string, (answer: unknown) => void>();

  async fetch(request: Request): Promise<Response> {
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server);
    const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "").split(",").map((p) => p.trim());
    const chosen = ["ocpp2.0.1", "ocpp1.6"].find((p) => offered.includes(p));
    return new Response(null, { status: 101, webSocket: client, headers: chosen ? { "Sec-WebSocket-Protocol": chosen } : undefined });
  }

  /** A RemoteStartTransaction on the charger's socket, and its answer. */
  async start(): Promise<{ ok: boolean; answer?: { status?: string } }> {
    const ws = this.ctx.getWebSockets()[0];
    if (!ws) return { ok: false };
    const id = crypto.randomUUID();
    const answer = new Promise<{ status?: string }>((resolve) => this.waiting.set(id, resolve as (answer: unknown) => void));
    ws.send(JSON.stringify([2, id, "RemoteStartTransaction", { connectorId: 1, idTag: "REMOTE1" }]));
    return { ok: true, answer: await answer };
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    if (typeof message !== "string") return;
    const frame = JSON.parse(message) as [number, string, string, unknown];
    if (frame[0] === 3) {
      this.waiting.get(frame[1])?.(frame[2]);
      this.waiting.delete(frame[1]);
      return;
    }
    if (frame[0] !== 2) return;
    const now = new Date().toISOString();
    let payload: unknown = {};
    if (frame[2] === "BootNotification") payload = { status: "Accepted", currentTime: now, interval: 60 };
    else if (frame[2] === "Heartbeat") payload = { currentTime: now };
    else if (frame[2] === "MeterValues" || frame[2] === "TransactionEvent" || frame[2] === "StatusNotification") {
      const sql = this.ctx.storage.sql;
      if (!this.tableMade) sql.exec("CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, body TEXT NOT NULL)");
      this.tableMade = true;
      sql.exec("INSERT INTO rows (at, body) VALUES (?, ?)", Date.now(), message);
    }
    ws.send(JSON.stringify([3, frame[1], payload]));
  }

  async webSocketClose(ws: WebSocket, code: number) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }
}

/** `spin` steps of arithmetic in `pieces`, each after a turn of the event loop, as I/O would cut them. */
async function busy(spin: number, pieces: number): Promise<number> {
  let x = 1;
  for (let piece = 0; piece < pieces; piece++) {
    if (piece > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    for (let i = 0; i < spin / pieces; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  }
  return x;
}

export default {
  async fetch(request: Request, env: { ECHO_POINT: DurableObjectNamespace<EchoPoint> }) {
    const url = new URL(request.url);
    const { pathname } = url;
    if (pathname === "/read" || pathname.startsWith("/start/")) {
      const spent = await busy(Number(url.searchParams.get("spin") ?? 0), Math.max(1, Number(url.searchParams.get("pieces") ?? 1)));
      if (pathname === "/read") return Response.json({ spent });
      const started = await env.ECHO_POINT.getByName(pathname.slice("/start/".length)).start();
      return Response.json({ spent, ...started }, { status: started.ok ? 200 : 409 });
    }
    if (!pathname.startsWith("/ocpp/")) return new Response("echo", { status: 200 });
    return env.ECHO_POINT.getByName(pathname.slice("/ocpp/".length)).fetch(request);
  },
};
