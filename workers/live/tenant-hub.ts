import { DurableObject } from "cloudflare:workers";
import { endsFlow, withoutFlow } from "../../domain/ocpp";
import { TRANSIENT_EVENTS, tenantHubName, type HubReceipt, type LiveEvent } from "./events";
import { HubPusher } from "./hub-pusher";
import { RELAY_INTERVAL_MS } from "./shards";

/**
 * Who a browser socket may hear about (docs/rules/access.md "Live view"): its operator, and for a
 * sub-operator its devices.
 */
export interface LiveScope {
  operatorId: number;
  accountId: number;
  /** null: every point of the operator; otherwise only these point ids. */
  pointIds: number[] | null;
}

export const SCOPE_HEADER = "X-Plugdesk-Live-Scope";

/** The snapshot keeps the latest event of each kind per point and connector (0: the point itself). */
const snapshotKey = (event: { type: LiveEvent["type"]; pointId: number; connectorId?: number }) =>
  `${event.pointId}:${event.type}:${event.connectorId ?? 0}`;

/**
 * What a socket carries through hibernation: attachments hold at most 2 KB, so a scope limited to
 * devices keeps its point list in the hub's storage under `scopeId`.
 */
interface Attachment {
  operatorId: number;
  accountId: number;
  scopeId: string | null;
}

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
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS snapshot (key TEXT PRIMARY KEY, point_id INTEGER NOT NULL, event TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS scopes (id TEXT PRIMARY KEY, point_ids TEXT NOT NULL);
    `);
  }

  /** Point ids a socket may hear of, cached per scope for the life of this instance. */
  private readonly scopeCache = new Map<string, Set<number>>();

  private visible(attachment: Attachment, event: LiveEvent): boolean {
    if (attachment.scopeId === null) return true;
    let ids = this.scopeCache.get(attachment.scopeId);
    if (!ids) {
      const row = this.sql.exec<{ point_ids: string }>("SELECT point_ids FROM scopes WHERE id = ?", attachment.scopeId).toArray()[0];
      ids = new Set(row ? (JSON.parse(row.point_ids) as number[]) : []);
      this.scopeCache.set(attachment.scopeId, ids);
    }
    return ids.has(event.pointId);
  }

  async fetch(request: Request): Promise<Response> {
    const scope = JSON.parse(request.headers.get(SCOPE_HEADER) ?? "null") as LiveScope | null;
    if (!scope) return new Response("Missing scope", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server);
    let scopeId: string | null = null;
    if (scope.pointIds !== null) {
      scopeId = crypto.randomUUID();
      this.sql.exec("INSERT INTO scopes (id, point_ids) VALUES (?, ?)", scopeId, JSON.stringify(scope.pointIds));
    }
    const attachment: Attachment = { operatorId: scope.operatorId, accountId: scope.accountId, scopeId };
    server.serializeAttachment(attachment);
    server.send(JSON.stringify({ type: "snapshot", events: this.present(attachment) }));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The latest event of each kind per point and connector. */
  private present(attachment: Attachment): LiveEvent[] {
    return this.sql
      .exec<{ event: string }>("SELECT event FROM snapshot ORDER BY key")
      .toArray()
      .map((row) => JSON.parse(row.event) as LiveEvent)
      .filter((event) => this.visible(attachment, event));
  }

  /** As a relay of a large operator (workers/live/shards.ts): where its events go on to. */
  private relayPusher: HubPusher | undefined;
  /** As a relay: what the operator's hub answered last (a relay just made assumes a page listens). */
  private relayReceipt: HubReceipt = { watched: true };

  /**
   * A relay shard takes the events of its stations' chargers and hands them on to the operator's
   * hub in one request per interval, meter readings thinned to the latest. It keeps no snapshot
   * and no sockets: browsers listen to shard 0 only, and a relay passes on what that hub last
   * answered about them.
   */
  async relay(operatorId: number, events: LiveEvent[]): Promise<HubReceipt> {
    this.relayPusher ??= new HubPusher(
      () => {
        const hub = this.env.TENANT_HUB.getByName(tenantHubName(operatorId));
        return async (batch) => {
          this.relayReceipt = await hub.publishMany(batch);
        };
      },
      (promise) => this.ctx.waitUntil(promise),
      RELAY_INTERVAL_MS,
    );
    this.relayPusher.push(...events);
    return this.relayReceipt;
  }

  async publish(event: LiveEvent) {
    return this.publishMany([event]);
  }

  /**
   * Events of one charger in the order it published them, in one request: the snapshot takes
   * them in one write, and each socket gets them one by one as before. The receipt says whether
   * any page listens (a socket of any scope counts).
   */
  async publishMany(events: LiveEvent[]): Promise<HubReceipt> {
    const sockets = this.ctx.getWebSockets().map((ws) => ({ ws, attachment: ws.deserializeAttachment() as Attachment }));
    for (const event of events) {
      if (!TRANSIENT_EVENTS.has(event.type)) this.remember(event);
      // A stopped session or a connector that stopped charging shows no power, current, voltage or SoC, also to a page opened later.
      if (endsFlow(event) && "connectorId" in event) this.clearFlow(event.pointId, event.connectorId);
      const message = JSON.stringify(event);
      for (const { ws, attachment } of sockets) {
        if (!this.visible(attachment, event)) continue;
        try {
          ws.send(message);
        } catch {
          // A closing socket; its close event tidies up.
        }
      }
    }
    return { watched: sockets.length > 0 };
  }

  private remember(event: LiveEvent) {
    this.sql.exec(
      "INSERT INTO snapshot (key, point_id, event) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET event = excluded.event",
      snapshotKey(event),
      event.pointId,
      JSON.stringify(event),
    );
  }

  private clearFlow(pointId: number, connectorId: number) {
    const key = snapshotKey({ type: "meter", pointId, connectorId });
    const row = this.sql.exec<{ event: string }>("SELECT event FROM snapshot WHERE key = ?", key).toArray()[0];
    if (!row) return;
    const meter = JSON.parse(row.event) as Extract<LiveEvent, { type: "meter" }>;
    this.sql.exec("UPDATE snapshot SET event = ? WHERE key = ?", JSON.stringify(withoutFlow(meter)), key);
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    // The browser only listens; a ping is answered so proxies keep the socket open.
    if (message === "ping") ws.send("pong");
  }

  async webSocketClose(ws: WebSocket, code: number) {
    const { scopeId } = (ws.deserializeAttachment() as Attachment | null) ?? { scopeId: null };
    if (scopeId) {
      this.sql.exec("DELETE FROM scopes WHERE id = ?", scopeId);
      this.scopeCache.delete(scopeId);
    }
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }
}
