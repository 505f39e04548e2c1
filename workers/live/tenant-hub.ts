import { DurableObject } from "cloudflare:workers";
import type { LiveEvent } from "./events";

/** Who a browser socket may hear about (ARCHITECTURE.md §5): its operator, and for a sub-operator its devices. */
export interface LiveScope {
  operatorId: number;
  accountId: number;
  /** null: every point of the operator; otherwise only these point ids. */
  pointIds: number[] | null;
}

export const SCOPE_HEADER = "X-Plugdesk-Live-Scope";

const visible = (scope: LiveScope, event: LiveEvent) => scope.pointIds === null || scope.pointIds.includes(event.pointId);

/**
 * One operator's live view: browser sockets (hibernating) and a snapshot of the present, so a
 * page opened now sees the current state at once. ChargePoints publish here after they have
 * answered their charger.
 */
export class TenantHub extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec("CREATE TABLE IF NOT EXISTS snapshot (key TEXT PRIMARY KEY, point_id INTEGER NOT NULL, event TEXT NOT NULL)");
  }

  async fetch(request: Request): Promise<Response> {
    const scope = JSON.parse(request.headers.get(SCOPE_HEADER) ?? "null") as LiveScope | null;
    if (!scope) return new Response("Missing scope", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(scope);
    server.send(JSON.stringify({ type: "snapshot", events: this.present(scope) }));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The latest event of each kind per point and connector. */
  private present(scope: LiveScope): LiveEvent[] {
    return this.sql
      .exec<{ event: string }>("SELECT event FROM snapshot ORDER BY key")
      .toArray()
      .map((row) => JSON.parse(row.event) as LiveEvent)
      .filter((event) => visible(scope, event));
  }

  async publish(event: LiveEvent) {
    if (event.type !== "alarm") {
      const connector = "connectorId" in event ? event.connectorId : 0;
      this.sql.exec(
        "INSERT INTO snapshot (key, point_id, event) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET event = excluded.event",
        `${event.pointId}:${event.type}:${connector}`,
        event.pointId,
        JSON.stringify(event),
      );
    }
    const message = JSON.stringify(event);
    for (const ws of this.ctx.getWebSockets()) {
      const scope = ws.deserializeAttachment() as LiveScope;
      if (!visible(scope, event)) continue;
      try {
        ws.send(message);
      } catch {
        // A closing socket; its close event tidies up.
      }
    }
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    // The browser only listens; a ping is answered so proxies keep the socket open.
    if (message === "ping") ws.send("pong");
  }

  async webSocketClose(ws: WebSocket, code: number) {
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }
}
