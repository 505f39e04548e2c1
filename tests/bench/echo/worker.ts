import { DurableObject } from "cloudflare:workers";

/**
 * The bench's yardstick (docs/performance.md): one bare hibernating Durable Object per socket,
 * served by `wrangler dev` like the product, answering each OCPP CALL with the smallest valid
 * CALLRESULT and doing the storage writes the product's design pays for: none for a Heartbeat,
 * one SQLite row for a MeterValues or a StatusNotification. No validation, no log, no D1.
 */
export class EchoPoint extends DurableObject<unknown> {
  /** Made at the first write after a wake-up: a Heartbeat runs no statement at all. */
  private tableMade = false;

  async fetch(request: Request): Promise<Response> {
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server);
    const offered = request.headers.get("Sec-WebSocket-Protocol") ?? "";
    return new Response(null, { status: 101, webSocket: client, headers: offered.includes("ocpp1.6") ? { "Sec-WebSocket-Protocol": "ocpp1.6" } : undefined });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    if (typeof message !== "string") return;
    const frame = JSON.parse(message) as [number, string, string, unknown];
    if (frame[0] !== 2) return;
    const now = new Date().toISOString();
    let payload: unknown = {};
    if (frame[2] === "BootNotification") payload = { status: "Accepted", currentTime: now, interval: 60 };
    else if (frame[2] === "Heartbeat") payload = { currentTime: now };
    else if (frame[2] === "MeterValues" || frame[2] === "StatusNotification") {
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

export default {
  async fetch(request: Request, env: { ECHO_POINT: DurableObjectNamespace<EchoPoint> }) {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith("/ocpp/")) return new Response("echo", { status: 200 });
    return env.ECHO_POINT.getByName(pathname.slice("/ocpp/".length)).fetch(request);
  },
};
