import { DurableObject } from "cloudflare:workers";
import { checkRequest, errorFrame, MessageType, newMessageId, parseFrame, type OcppRequest, type OcppResponse, type ServerAction } from "../../domain/ocpp";
import { checkRequest201, isServerAction201, type Ocpp201Request, type Ocpp201Response, type ServerAction201 } from "../../domain/ocpp/v201";
import type { CommandTokens } from "../../domain/ocpp/v201/charger-model";
import { tenantHubName, type HubReceipt, type LiveEvent } from "../live/events";
import type { TenantHub } from "../live/tenant-hub";
import { basicCredentials } from "../auth/charger-key";
import { publicCtxOf } from "../services/context";
import { findCharger } from "../services/ocpp/charger-lookup";
import { type ChargerChange } from "../services/ocpp/charger-changes";
import { changeWriterName } from "./change-writer";
import { signedMeterOf } from "./charger-model";
import { CODECS, type Codec } from "./codecs";
import type { Answer, OcppVersion } from "./protocol";
import { commandIn201 } from "./v201/commands";
import { deviceModelPage, learnFromReply, reportRequested } from "./v201/device-model";
import { nextRequestId } from "./v201/transactions";
import { chargerCtx, IDENTITY_HEADER, REGISTRATION_HEADER, STALE_ROUTE_HEADER, registrationOf, type ChargerIdentity } from "./identity";
import { initialState, type ChargerSession, type ChargerState } from "./session";
import { ChargerStore, type LogEntry, type SentCall } from "./store";
import { upgradeVersion } from "./connect";
import { reportError } from "../http/report-error";
import { HotWrites } from "./hot-writes";
import { ChargerOutbox, OUTBOX_FLUSH_MS } from "./outbox";
import { RegistrationCache, type Registration } from "./registration";
import { HubPusher } from "../live/hub-pusher";
import {
  admitConnection,
  DEFAULT_CHARGER_LIMITS,
  floodEnded,
  freshBucket,
  noConnections,
  takeCall,
  type ChargerLimits,
  type ConnectionRecord,
  type FloodBucket,
} from "../../domain/ocpp/resilience";

/** The alarm types a misbehaving charger raises (docs/rules/ocpp.md "A charger that floods", "A charger that keeps reconnecting"). */
export const FLOOD_ALARM = "MessageFlood";
export const QUARANTINE_ALARM = "ReconnectQuarantine";
/** Where a charger's object keeps its recent connections and quarantine (domain/ocpp/resilience.ts `ConnectionRecord`). */
const CONNECTIONS_KEY = "connections";
/**
 * Final costs (I03) a 2.0.1 charger has not taken yet, by its transaction id: sent again on its
 * next connection. Kept a day at most, and at most FINAL_COSTS_KEPT of them.
 */
const FINAL_COSTS_KEY = "finalCosts";
const FINAL_COSTS_KEPT = 32;
const FINAL_COST_KEPT_MS = 24 * 60 * 60 * 1000;
type WaitingCosts = Record<string, { totalCost: number; at: number }>;

/**
 * What the socket carries through hibernation (at most 2 KB): who it is, when it last spoke, the
 * log frames parked with it, and what a call to the charger needs before its frame leaves, so that
 * a remote start after a hibernation opens no storage first (docs/rules/ocpp.md "Hot path").
 * `lastSeen` is rewritten at most every ATTACHMENT_REFRESH_MS; in between it is kept in memory.
 */
interface Attachment {
  connectionId: string;
  lastSeen: number;
  /** Frames of answers that wrote nothing (Heartbeats), not yet in storage (workers/ocpp/hot-writes.ts). */
  log?: LogEntry[];
  /** Who the charger is, so that a Heartbeat after a hibernation needs no storage (absent on sockets accepted before it was kept here). */
  identity?: ChargerIdentity;
  /** The protocol the connection speaks (absent on sockets accepted before 2.0.1: 1.6). */
  version?: OcppVersion;
  /**
   * Whether this socket is the charger's connection: true from its accepting, false once it is
   * replaced, closed or hung up (absent on sockets accepted before it was kept here: storage's
   * `connection` says).
   */
  current?: boolean;
  /** Whether the charger's last boot was accepted, as its state says (absent on sockets accepted before it was kept here: the state says). */
  accepted?: boolean;
  /** The CALLs a second the operator allows (`ChargerLimits.messagesPerSecond`), so that the flood guard of a woken message opens no storage (absent: the registration says). */
  rate?: number;
  /**
   * The last call sent on this connection and not answered, kept past its deadline until the next
   * call or its answer: a late answer after an eviction is recognised by it. Its stored row
   * follows with the next hot flush (workers/ocpp/hot-writes.ts `sentCall`).
   */
  call?: SentCall;
  /** The id of the last outbox row D1 has (workers/ocpp/outbox.ts `LandedMark`): the rows up to it leave with the next write. */
  outboxLanded?: number;
}

/** What a wake-up knows of a socket: its attachment as first met, then kept current in memory. */
type SocketSeen = Pick<Attachment, "connectionId" | "current" | "accepted" | "rate" | "call"> & {
  /** When `lastSeen` was last written to the attachment. */
  attached: number;
  last: number;
  version: OcppVersion;
};

/** How many bytes of log frames a socket's attachment holds at most (its limit is 2 KB with the identity and the rest; `parkedBytes`). */
const PARKED_LOG_BYTES = 1400;

/** The answer of an outgoing call, as the API maps it: the reply, or why there is none. */
export type CallOutcome<A extends ServerAction> =
  | { ok: true; response: OcppResponse<A> }
  | { ok: false; reason: "offline" | "timeout" | "notAccepted" }
  | { ok: false; reason: "error"; code: string; description: string }
  /** The charger speaks 2.0.1 and the command has no 2.0.1 twin (workers/ocpp/v201/commands.ts); no frame went out. */
  | { ok: false; reason: "noTwin"; description: string };

/** Outcomes of either protocol's calls: the action names differ, the shape does not. */
type AnyOutcome = CallOutcome<ServerAction> | CallOutcome201<ServerAction201>;

/** The answer of a 2.0.1 call sent as such (`/command` of a 2.0.1 point). */
export type CallOutcome201<A extends ServerAction201> =
  | { ok: true; response: Ocpp201Response<A> }
  | { ok: false; reason: "offline" | "timeout" | "notAccepted" | "otherVersion" }
  | { ok: false; reason: "error"; code: string; description: string };

interface Waiting {
  action: string;
  /** The reply, checked against the response schema of what was sent and read as the caller expects. */
  read: (payload: unknown) => AnyOutcome;
  resolve: (outcome: AnyOutcome) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** What goes on the wire for a call, and how its reply is read. */
interface Outgoing {
  action: string;
  payload: unknown;
  read: (payload: unknown) => AnyOutcome;
}

/** The largest frame a charger may send, as the Workers runtime bounds a WebSocket message (1 MiB). */
const MAX_FRAME_BYTES = 1024 * 1024;

/** Whether a frame is over the limit in UTF-8 bytes; most frames are decided by their length alone. */
function tooLarge(text: string): boolean {
  if (text.length > MAX_FRAME_BYTES) return true;
  if (text.length * 3 <= MAX_FRAME_BYTES) return false;
  return new TextEncoder().encode(text).byteLength > MAX_FRAME_BYTES;
}

/**
 * Whether a text frame arrived with bytes that are not UTF-8. workerd decodes a text frame before
 * the object sees it and puts U+FFFD where the bytes were not UTF-8, so that character is all that
 * is left of them; an OCPP payload has no use for it, and a U+FFFD a charger meant is taken as the
 * same fault (RFC 6455 §8.1 closes the connection, with 1007).
 */
function notUtf8(text: string): boolean {
  return text.includes("\uFFFD");
}

/** Calls a charger takes only once its boot was Accepted (OCPP 1.6 §4.2, 2.0.1 B02: not while Pending or Rejected). */
const IN_SERVICE_ONLY: ReadonlySet<string> = new Set(["RemoteStartTransaction", "RemoteStopTransaction", "RequestStartTransaction", "RequestStopTransaction"]);

/**
 * How often a charger's meter readings go to the live view at most: about once a second while a
 * console page listens to its operator's, and every ten seconds while none does, so that the
 * snapshot a page opens on stays at most that old (docs/rules/monitoring.md "Live values").
 */
const METER_PUSH_MS = 1000;
export const METER_PUSH_UNWATCHED_MS = 10_000;

/**
 * How stale the attachment's `lastSeen` may be: well under the offline grace, so that a Durable
 * Object woken from hibernation never hangs up on a charger that spoke in time.
 */
const ATTACHMENT_REFRESH_MS = 10_000;

/**
 * One charger: its OCPP 1.6J socket (hibernating), the answer to every CALL it sends, the calls
 * the console sends it (one at a time, with a deadline), its meter samples and message log.
 * docs/architecture.md "OCPP edge".
 */
export class ChargePoint extends DurableObject<Env> {
  private readonly store: ChargerStore;
  /** Who this charger is: from the socket's attachment or storage, whichever this wake-up meets first (undefined: not read yet). */
  private identityKnown: ChargerIdentity | null | undefined;
  private stateKnown: ChargerState | undefined;
  private readonly hot: HotWrites;
  private readonly registration: RegistrationCache;
  private readonly outbox: ChargerOutbox;
  private readonly hubPusher: HubPusher;
  private sessionCache: ChargerSession | undefined;
  /** Per socket: when its attachment was last written, when it last spoke, its protocol, and what a call needs. */
  private readonly seen = new WeakMap<WebSocket, SocketSeen>();
  /** Sockets whose attachment holds log frames that are also in memory. */
  private readonly parkedOn = new Set<WebSocket>();
  /** The highest outbox mark the sockets adopted in this wake-up carry (`outboxLanded`). */
  private outboxLandedSeen = 0;
  private readonly waiting = new Map<string, Waiting>();
  private outgoing: Promise<unknown> = Promise.resolve();
  private readonly lastEnergyWh = new Map<number, number>();
  private readonly lastEnergyAt = new Map<number, { wh: number; at: number; reviewed?: boolean }>();
  private lastMeterPush = 0;
  /** Whether a page listens, as the hub last answered (a wake-up assumes one does until told). */
  private watched = true;
  private pendingMeter = new Map<number, Extract<LiveEvent, { type: "meter" }>>();
  private meterTimer: ReturnType<typeof setTimeout> | undefined;
  /** The flood guard's bucket, in memory only: an object made afresh starts with a full one. */
  private flood: FloodBucket | undefined;
  /** Whether final costs wait for this connection: read from storage when a charger connects. */
  private finalCostsWaiting = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Nothing here opens storage: a Heartbeat after a hibernation is answered from memory and the
    // socket's attachment (docs/performance.md "A Heartbeat writes nothing"). The store makes the
    // charger's schema, the outbox's table included, at its first use; changes an eviction left
    // waiting in the outbox go then.
    this.store = new ChargerStore(
      () => ctx.storage.sql,
      () => {
        if (this.outbox.pending()) setTimeout(() => this.drainOutbox(), 0);
      },
    );
    this.hot = new HotWrites(this.store, () => this.releaseParked());
    this.registration = new RegistrationCache(this.store);
    this.outbox = new ChargerOutbox(
      () => this.store.database(),
      (changes) => this.applyChanges(changes),
      () => this.store.outboxIds(),
      { read: () => this.outboxLanded(), write: (id) => this.keepOutboxLanded(id) },
    );
    this.hubPusher = new HubPusher(
      () => {
        if (!this.identity) return undefined;
        const { operatorId } = this.identity;
        // A large operator's chargers publish through a relay of their station (workers/live/shards.ts).
        const shard = this.registration.get()?.liveShard ?? 0;
        const hub = this.env.TENANT_HUB.getByName(tenantHubName(operatorId, shard)) as DurableObjectStub<TenantHub>;
        return async (events) => this.heard(await (shard ? hub.relay(operatorId, events) : hub.publishMany(events)));
      },
      (promise) => this.ctx.waitUntil(promise),
    );
  }

  private get identity(): ChargerIdentity | undefined {
    if (this.identityKnown === undefined) this.identityKnown = this.store.get<ChargerIdentity>("identity") ?? null;
    return this.identityKnown ?? undefined;
  }

  private set identity(identity: ChargerIdentity) {
    this.identityKnown = identity;
  }

  private get state(): ChargerState {
    this.stateKnown ??= this.store.get<ChargerState>("state") ?? initialState();
    return this.stateKnown;
  }

  private get callTimeoutMs() {
    return Number(this.env.OCPP_CALL_TIMEOUT_MS ?? 30_000);
  }

  private get offlineAfterMs() {
    return (this.state.heartbeatIntervalS + Number(this.env.OCPP_OFFLINE_GRACE_S ?? 60)) * 1000;
  }

  /** Whether a socket is the charger's connection: its attachment says, storage only for a socket accepted before it did. */
  private isCurrent(ws: WebSocket): boolean {
    const { current, connectionId } = this.adopt(ws);
    return current ?? connectionId === this.store.get<string>("connection");
  }

  /** The socket no longer speaks for the charger (replaced, closed or hung up): its attachment says so for the next wake-up. */
  private letGo(ws: WebSocket) {
    this.adopt(ws).current = false;
    try {
      this.attach(ws, { current: false });
    } catch {
      // Closed already: the runtime lists it no more.
    }
  }

  private socket(): WebSocket | undefined {
    return this.ctx.getWebSockets().find((ws) => this.isCurrent(ws));
  }

  /** Brings back the frames parked with the current socket, before a flush that did not start with a message. */
  private adoptCurrent() {
    const ws = this.socket();
    if (ws) this.adopt(ws);
  }

  // ── connection ────────────────────────────────────────────────────────────────────────────

  /**
   * A charger connects: the Worker found its point (404 before this) and hands over the upgrade
   * with the point's identity, and with its registration when it has just read it from D1. The
   * key is checked here against the registration this object keeps (docs/rules/ocpp.md
   * "Connection"); D1 is read only when it keeps none.
   */
  async fetch(request: Request): Promise<Response> {
    const identity = JSON.parse(request.headers.get(IDENTITY_HEADER) ?? "null") as ChargerIdentity | null;
    if (!identity) return new Response("Missing charger identity", { status: 400 });
    const fresh = JSON.parse(request.headers.get(REGISTRATION_HEADER) ?? "null") as Registration | null;
    if (fresh) this.registration.set(fresh);
    let registration = this.registration.get();
    if (!registration || registration.pointId !== identity.pointId) {
      const row = await findCharger(publicCtxOf(request, this.env), identity.serialNumber);
      // The Worker's route is out of date (the point was deleted, or made again elsewhere).
      if (!row || row.point.id !== identity.pointId) return new Response("Unknown charge point", { status: 404, headers: { [STALE_ROUTE_HEADER]: "1" } });
      registration = registrationOf(row);
      this.registration.set(registration);
    }
    const credentials = basicCredentials(request.headers.get("Authorization"));
    if (credentials?.username !== identity.serialNumber || !this.registration.keyMatches(credentials.password, this.env.CHARGER_KEY_PEPPER)) {
      return new Response("Unauthorized", { status: 401, headers: { "Content-Type": "text/plain", "WWW-Authenticate": 'Basic realm="OCPP", charset="UTF-8"' } });
    }
    const upgrade = upgradeVersion(request, registration.ocppVersion);
    if ("refused" in upgrade) return upgrade.refused;
    const { version } = upgrade;

    const known = { ...identity, enabled: registration.enabled };
    if (JSON.stringify(known) !== JSON.stringify(this.identity)) {
      this.identity = known;
      this.sessionCache = undefined;
      this.store.put("identity", known);
    }

    const refused = this.countConnection();
    if (refused) return refused;

    // The newest connection wins; the old socket is closed (docs/rules/ocpp.md "Connection").
    for (const old of this.ctx.getWebSockets()) {
      // Frames parked with it come back to memory first, so closing it loses none.
      this.letGo(old);
      old.close(1000, "Replaced by a new connection");
    }

    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    const connectionId = crypto.randomUUID();
    this.ctx.acceptWebSocket(server);
    const now = Date.now();
    const { accepted } = this.state;
    const rate = this.limits.messagesPerSecond;
    server.serializeAttachment({ connectionId, lastSeen: now, identity: known, version, current: true, accepted, rate } satisfies Attachment);
    this.seen.set(server, { attached: now, last: now, connectionId, version, current: true, accepted, rate });
    this.store.put("connection", connectionId);
    this.finalCostsWaiting = version === "2.0.1" && Object.keys(this.store.get<WaitingCosts>(FINAL_COSTS_KEY) ?? {}).length > 0;
    this.markOnline(true, version);
    await this.scheduleAlarm(now + this.offlineAfterMs);
    return new Response(null, { status: 101, webSocket: client, headers: { "Sec-WebSocket-Protocol": CODECS[version].subprotocol } });
  }

  private get limits(): ChargerLimits {
    return this.registration.get()?.limits ?? DEFAULT_CHARGER_LIMITS;
  }

  /** The operator's rate for a connection's CALLs: its socket carries it (a woken message opens no storage); the registration for a socket accepted before it did. */
  private rateOn(ws: WebSocket): Pick<ChargerLimits, "messagesPerSecond"> {
    const { rate } = this.adopt(ws);
    return rate === undefined ? this.limits : { messagesPerSecond: rate };
  }

  /**
   * Counts a connection whose key was accepted (docs/rules/ocpp.md "A charger that keeps
   * reconnecting"): in this object's storage, which survives an eviction, one write per connect.
   * A quarantined charger is answered 429 with `Retry-After`; the connection that goes over the
   * operator's limit starts the quarantine, mirrored to D1 and raising an alarm through the outbox.
   */
  private countConnection(): Response | undefined {
    const now = Date.now();
    const kept = this.store.get<ConnectionRecord>(CONNECTIONS_KEY) ?? noConnections();
    const verdict = admitConnection(kept, this.limits, now);
    this.store.put(CONNECTIONS_KEY, verdict.record);
    if (verdict.admitted) {
      if (verdict.released) this.quarantineEnded(now);
      return undefined;
    }
    if (verdict.started) {
      const { until } = verdict;
      this.record({ kind: "quarantine", until, connections: verdict.record.connections, at: now });
      this.record({ kind: "alarm", alarm: { connectorId: 0, type: QUARANTINE_ALARM, raised: true, message: `${verdict.record.connections}`, at: now } });
    }
    return new Response("Too many connections: this charge point is quarantined", {
      status: 429,
      headers: { "Content-Type": "text/plain", "Retry-After": String(verdict.retryAfterS) },
    });
  }

  private quarantineEnded(now: number) {
    this.record({ kind: "quarantine", until: null, connections: null, at: now });
    this.record({ kind: "alarm", alarm: { connectorId: 0, type: QUARANTINE_ALARM, raised: false, at: now } });
  }

  /**
   * An operator lifts the quarantine (`DELETE /station-service/point/{id}/quarantine`): the count
   * starts afresh, and the mirror and the alarm are cleared in D1 before this answers, after any
   * change queued before them. Answers whether the charger was quarantined.
   */
  async liftQuarantine(): Promise<boolean> {
    const now = Date.now();
    const kept = this.store.get<ConnectionRecord>(CONNECTIONS_KEY) ?? noConnections();
    const was = kept.quarantinedUntil !== null && kept.quarantinedUntil > now;
    this.store.put(CONNECTIONS_KEY, noConnections());
    if (this.identity && kept.quarantinedUntil !== null) this.quarantineEnded(now);
    await this.changesLanded();
    return was;
  }

  /**
   * An operator closed one of this charger's transactions as a suspect session
   * (docs/rules/monitoring.md "Suspect sessions"): it no longer runs here, so readings that come
   * on its connector are not counted to it. A late stop from the charger is still answered as usual.
   */
  async suspectClosed(transactionId: number) {
    if (!this.identity) return;
    const running = this.state.activeTransactions;
    const connectors = Object.keys(running).filter((c) => running[c] === transactionId);
    if (connectors.length === 0) return;
    for (const c of connectors) delete running[c];
    this.saveState();
    this.lastEnergyWh.delete(transactionId);
  }

  /** The operator changed its limits (docs/rules/ocpp.md "A charger that floods"): they apply from the next message. */
  async limitsChanged(limits: ChargerLimits) {
    this.registration.limitsChanged(limits);
    this.flood = undefined;
    const ws = this.socket();
    if (!ws) return;
    this.adopt(ws).rate = limits.messagesPerSecond;
    this.attach(ws, { rate: limits.messagesPerSecond });
  }

  /**
   * Whether a CALL is taken under the operator's rate (a token bucket in memory: no storage, no
   * D1). A flood episode's first refusal and its end each queue one alarm change.
   */
  private takeCall(ws: WebSocket): { taken: boolean; episodeStarted: boolean } {
    const now = Date.now();
    const limits = this.rateOn(ws);
    this.flood ??= freshBucket(limits, now);
    const taken = takeCall(this.flood, limits, now);
    if (taken.episodeStarted) this.record({ kind: "alarm", alarm: { connectorId: 0, type: FLOOD_ALARM, raised: true, message: `> ${limits.messagesPerSecond}/s`, at: now } });
    if (taken.episodeEnded) this.floodOver(now);
    return taken;
  }

  private floodOver(now: number) {
    this.record({ kind: "alarm", alarm: { connectorId: 0, type: FLOOD_ALARM, raised: false, at: now } });
  }

  /** The key was rotated (docs/rules/equipment.md "Charger keys"): before the change, nothing is kept; after it, the new hash. */
  async forgetRegistration() {
    this.registration.forget();
  }

  async keyChanged(keyHash: string) {
    this.registration.keyChanged(keyHash);
  }

  /** Resolves once every change queued so far has reached D1 (for a reader that needs it now). */
  async changesLanded() {
    if (this.outbox.pending()) await this.outbox.drain();
  }

  async webSocketClose(ws: WebSocket, code: number) {
    this.adopt(ws);
    this.hot.flush();
    // A socket that was already replaced says nothing about the charger
    // (docs/rules/ocpp.md "Connection").
    if (this.isCurrent(ws)) {
      this.store.put("connection", null);
      this.markOnline(false);
    }
    this.letGo(ws);
    // workerd refuses to echo 1005/1006 (docs/rules/ocpp.md "Connection").
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
    } catch {
      // already closed
    }
  }

  async webSocketError(ws: WebSocket) {
    await this.webSocketClose(ws, 1006);
  }

  /** Ends a connection from this side: its charger is offline from now on, whatever the peer does next. */
  private hangUp(ws: WebSocket, code: number, reason: string) {
    if (this.isCurrent(ws)) {
      this.store.put("connection", null);
      this.markOnline(false);
    }
    this.letGo(ws);
    try {
      ws.close(code, reason);
    } catch {
      // already closing
    }
  }

  /** The connection's protocol comes with its coming online: a charger that reconnects in the other version is recorded again. */
  private markOnline(online: boolean, version?: OcppVersion) {
    if (!this.identity) return;
    const was = this.store.get<boolean>("online") ?? false;
    const wasVersion = this.store.get<OcppVersion>("version") ?? "1.6";
    if (was === online && (!online || wasVersion === version)) return;
    this.store.put("online", online);
    if (version) this.store.put("version", version);
    const now = Date.now();
    this.record({ kind: "online", online, at: now, ...(online && version && { version }) });
    const { pointId, serialNumber } = this.identity;
    this.publish({ type: "point", pointId, serialNumber, online, at: now });
  }

  // ── changes for D1, in batches (docs/rules/ocpp.md "Hot path") ─────────────────────────────

  /**
   * Queues a change for D1 in this object's storage, in the same write as the state it goes
   * with. The first change of a batch arms an in-memory timer; an object with a timer pending
   * does not hibernate. After an eviction the batch goes when the object is next made (a
   * reconnect, a call, the offline alarm that is always set while a charger is connected):
   * setting the alarm per batch cost every first status of a batch a storage round trip.
   */
  private record(change: ChargerChange) {
    if (this.outbox.add(change)) setTimeout(() => this.ctx.waitUntil(this.drainOutbox().then(() => this.restIfGone())), OUTBOX_FLUSH_MS);
    this.hot.wrote();
  }

  private drainOutbox() {
    const drained = this.outbox.drain().catch((e: unknown) => reportError("ocpp changes to D1", e, { serialNumber: this.identity?.serialNumber }));
    this.ctx.waitUntil(drained);
    return drained;
  }

  /**
   * A charger gone (its close, or the alarm's hang-up, queued its offline flag), whose changes
   * D1 now has, with no call waiting and no flood episode open: its offline alarm would only wake
   * the object minutes later to find that, so it goes (docs/rules/ocpp.md "Connection"). Behind
   * the other settings of the alarm, so a reconnect's is never undone.
   */
  private restIfGone(): Promise<void> {
    const run = this.alarmSetting.then(async () => {
      if (this.socket() || this.outbox.pending() || this.store.nextPendingDeadline() !== undefined || this.flood?.episodeSince != null) return;
      await this.ctx.storage.deleteAlarm();
    });
    this.alarmSetting = run.catch(() => undefined);
    return run;
  }

  private async applyChanges(changes: ChargerChange[]) {
    const identity = this.identity;
    if (!identity) return;
    // With the batches of the operator's other chargers, in one D1 batch (workers/ocpp/change-writer.ts).
    const raised = await this.env.CHANGE_WRITER.getByName(changeWriterName(identity.operatorId)).apply(identity, changes);
    const { pointId, serialNumber } = identity;
    for (const alarm of raised) {
      this.publish({ type: "alarm", pointId, serialNumber, connectorId: alarm.connectorId, level: alarm.level, alarmType: alarm.type, at: alarm.at });
    }
  }

  // ── messages from the charger ─────────────────────────────────────────────────────────────

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    // OCPP-J messages are text frames (OCPP-J 1.6 §4.1.1): anything else ends the connection, every time.
    if (typeof message !== "string") return this.hangUp(ws, 1003, "OCPP-J uses text frames");
    if (tooLarge(message)) return this.hangUp(ws, 1009, `Frames are limited to ${MAX_FRAME_BYTES} bytes`);
    if (notUtf8(message)) return this.hangUp(ws, 1007, "Text frames must be UTF-8");
    this.touch(ws);
    const codec = this.codecOf(ws);
    const parsed = parseFrame(message, codec.dialect);
    if (!parsed.ok) {
      const reply = parsed.messageType === MessageType.CALLRESULT || parsed.messageType === MessageType.CALLERROR;
      this.log("IN", parsed.messageType === MessageType.CALLERROR ? "CALLERROR" : reply ? "CALLRESULT" : "CALL", null, parsed.id, message);
      // A broken answer is never answered (OCPP-J 1.6 §4.2.3), but the call it answers has failed.
      if (reply) return this.fail(ws, parsed.id, parsed.code, parsed.description);
      return this.reply(ws, errorFrame(parsed.id, parsed.code as never, parsed.description), parsed.id, "CALLERROR", null);
    }
    const frame = parsed.frame;
    if (frame[0] === MessageType.CALLRESULT || frame[0] === MessageType.CALLERROR) {
      this.log("IN", frame[0] === MessageType.CALLRESULT ? "CALLRESULT" : "CALLERROR", this.waiting.get(frame[1])?.action ?? null, frame[1], message, true);
      if (frame[0] === MessageType.CALLERROR) this.fail(ws, frame[1], frame[2], frame[3]);
      else this.settle(ws, frame[1], frame[2]);
      // Nothing answers an answer: its frames and its call's are parked with the socket as a
      // Heartbeat's are, so that a remote start writes nothing (docs/rules/ocpp.md "Hot path").
      return this.framesAnswered(ws);
    }
    const [, id, action, payload] = frame;
    const call = this.takeCall(ws);
    if (!call.taken) {
      // Over the rate: refused without a handler, a D1 read or a write; the first refusal of a
      // flood is logged, the rest would only flood the log (docs/rules/ocpp.md "A charger that floods").
      const refusal = errorFrame(id, codec.dialect.throttled as never, `More than ${this.rateOn(ws).messagesPerSecond} messages a second: throttled`);
      if (!call.episodeStarted) {
        try {
          ws.send(refusal);
        } catch {
          // gone meanwhile
        }
        return;
      }
      this.log("IN", "CALL", action, id, message, true);
      return this.reply(ws, refusal, id, "CALLERROR", action);
    }
    this.log("IN", "CALL", action, id, message, true);
    const answer = await this.answerInOrder(codec, action, payload);
    this.reply(ws, answer.frame(id), id, answer.type, action);
    // The first call answered on a new connection of an accepted charger: the final costs it missed go now.
    if (this.finalCostsWaiting && this.state.accepted) {
      this.finalCostsWaiting = false;
      this.ctx.waitUntil(this.resendFinalCosts());
    }
  }

  /** The codec of a socket's protocol: memory while awake, its attachment after hibernation (1.6 on sockets from before 2.0.1). */
  private codecOf(ws: WebSocket): Codec {
    return CODECS[this.adopt(ws).version];
  }

  /**
   * Handlers that write D1 themselves (the "after-writes" ones of workers/ocpp/answer-paths.ts)
   * come after the changes queued before them: a charger whose queued changes D1 does not take now
   * gets an InternalError to retry later, never a reply that would land out of order, and never
   * silence (OCPP-J 1.6 §4.2.3, 2.0.1 Part 4 §4.2).
   */
  private async answerInOrder(codec: Codec, action: string, payload: unknown): Promise<Answer> {
    if (!codec.answersFromOwnState(action, payload) && this.outbox.pending()) {
      try {
        await this.outbox.drain();
      } catch (error) {
        reportError("ocpp changes to D1 before a handler", error, { action, serialNumber: this.identity?.serialNumber });
        return { type: "CALLERROR", frame: (id) => errorFrame(id, "InternalError", "The server could not handle this message now") };
      }
    }
    return codec.answer(this.session(), action, payload);
  }

  /**
   * A socket's attachment as this wake-up first meets it: what it says is kept in memory, and the
   * frames parked with it before a hibernation come back to the log waiting in memory.
   */
  private adopt(ws: WebSocket) {
    let seen = this.seen.get(ws);
    if (seen) return seen;
    const attachment = ws.deserializeAttachment() as Attachment | null;
    seen = {
      attached: attachment?.lastSeen ?? 0,
      last: attachment?.lastSeen ?? 0,
      connectionId: attachment?.connectionId ?? "",
      version: attachment?.version ?? "1.6",
      current: attachment?.current,
      accepted: attachment?.accepted,
      rate: attachment?.rate,
      call: attachment?.call,
    };
    this.outboxLandedSeen = Math.max(this.outboxLandedSeen, attachment?.outboxLanded ?? 0);
    this.seen.set(ws, seen);
    if (this.identityKnown === undefined && attachment?.identity) this.identityKnown = attachment.identity;
    if (attachment?.log?.length) {
      this.hot.restore(attachment.log);
      this.parkedOn.add(ws);
    }
    return seen;
  }

  /** The socket spoke now: kept in memory, and in its attachment when that is older than ATTACHMENT_REFRESH_MS. */
  private touch(ws: WebSocket) {
    const now = Date.now();
    const seen = this.adopt(ws);
    seen.last = now;
    if (now - seen.attached < ATTACHMENT_REFRESH_MS) return;
    this.attach(ws, { lastSeen: now });
    seen.attached = now;
  }

  /** Rewrites part of a socket's attachment, the rest as it is (no storage: docs/rules/ocpp.md "Hot path"). */
  private attach(ws: WebSocket, change: Partial<Attachment>) {
    ws.serializeAttachment({ ...(ws.deserializeAttachment() as Attachment), ...change } satisfies Attachment);
  }

  /**
   * Parks the frames waiting with the socket just answered, so that a Heartbeat's answer writes no
   * storage (docs/performance.md "A Heartbeat writes nothing"); false when they do not fit.
   */
  private park(ws: WebSocket, frames: readonly LogEntry[], bytes: number): boolean {
    if (bytes > PARKED_LOG_BYTES) return false;
    const seen = this.adopt(ws);
    const now = Date.now();
    this.attach(ws, { lastSeen: now, log: [...frames] });
    seen.attached = now;
    this.parkedOn.add(ws);
    return true;
  }

  /** The parked frames reached storage: the sockets let go of them (a wake-up must not log them twice). */
  private releaseParked() {
    for (const ws of this.parkedOn) {
      try {
        const { log: _written, ...kept } = ws.deserializeAttachment() as Attachment;
        ws.serializeAttachment(kept satisfies Attachment);
      } catch {
        // A socket closed meanwhile keeps nothing.
      }
    }
    this.parkedOn.clear();
  }

  /** The outbox's mark of what D1 has, as the sockets met in this wake-up keep it (0: none does). */
  private outboxLanded(): number {
    for (const ws of this.ctx.getWebSockets()) this.adopt(ws);
    return this.outboxLandedSeen;
  }

  /** Keeps the outbox's mark with every socket, which costs no storage write; false when there is none. */
  private keepOutboxLanded(id: number): boolean {
    let kept = false;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        this.adopt(ws);
        this.attach(ws, { outboxLanded: id });
        kept = true;
      } catch {
        // A socket closed meanwhile keeps nothing.
      }
    }
    return kept;
  }

  /** When the socket last spoke: memory while awake, its attachment after hibernation. */
  private lastSeen(ws: WebSocket): number {
    return this.seen.get(ws)?.last ?? (ws.deserializeAttachment() as Attachment).lastSeen;
  }

  private reply(ws: WebSocket, frame: string, id: string, type: LogEntry["type"], action: string | null) {
    try {
      ws.send(frame);
    } catch {
      // The socket went away meanwhile; the charger will retry its CALL.
    }
    this.log("OUT", type, action, id, frame, true);
    this.framesAnswered(ws);
  }

  /** The frames of an exchange that has ended on this socket go to storage with a write, or are parked with it (`park`). */
  private framesAnswered(ws: WebSocket) {
    this.hot.answered((frames, bytes) => this.park(ws, frames, bytes));
  }

  /** The handlers' view of this charger, made once per identity: a message builds nothing of it. */
  private session(): ChargerSession {
    const identity = this.identity;
    if (!identity) throw new Error("ChargePoint without identity");
    if (this.sessionCache?.identity === identity) return this.sessionCache;
    const ctx = chargerCtx(this.env, identity);
    const state = () => this.state;
    this.sessionCache = {
      identity,
      env: this.env,
      ctx,
      store: this.store,
      // Read from storage by the first handler that needs it, not by every session made.
      get state() {
        return state();
      },
      saveState: () => this.saveState(),
      now: Date.now,
      publish: (event) => this.publish(event),
      publishMeter: (event) => this.publishMeter(event),
      flushReadings: () => this.flushMeter(),
      lastEnergyWh: this.lastEnergyWh,
      lastEnergyAt: this.lastEnergyAt,
      connectorPowerW: (connectorId) => this.registration.get()?.connectorPowerW?.[String(connectorId)],
      waitUntil: (promise) => this.ctx.waitUntil(promise.catch((e) => reportError("ocpp after answer", e))),
      registration: () => this.currentRegistration(),
      record: (change) => this.record(change),
      writeSamples: (samples) => this.hot.addSamples(samples),
    };
    return this.sessionCache;
  }

  /**
   * Writes the charger's state; whether its boot was accepted rides with its socket too, so that a
   * remote start after a hibernation is sent or refused without opening storage.
   */
  private saveState() {
    this.store.put("state", this.state);
    const ws = this.socket();
    if (!ws) return;
    const seen = this.adopt(ws);
    if (seen.accepted === this.state.accepted) return;
    seen.accepted = this.state.accepted;
    this.attach(ws, { accepted: seen.accepted });
  }

  /**
   * Whether the charger's last boot was accepted: its state once this wake-up has read it, else
   * what its socket carries; storage only for a socket accepted before it carried that.
   */
  private acceptedOn(ws: WebSocket): boolean {
    return this.stateKnown?.accepted ?? this.adopt(ws).accepted ?? this.state.accepted;
  }

  /** The registration this object keeps, read from D1 when it keeps none (after the API changed it). */
  private async currentRegistration(): Promise<Registration> {
    const kept = this.registration.get();
    if (kept) return kept;
    const identity = this.identity!;
    const row = await findCharger(chargerCtx(this.env, identity), identity.serialNumber);
    if (!row) throw new Error(`point ${identity.pointId} is gone`);
    const registration = registrationOf(row);
    this.registration.set(registration);
    return registration;
  }

  // ── live view ─────────────────────────────────────────────────────────────────────────────

  /**
   * Events reach the hub in the order they are published: each call waits for the one before it
   * (calls left to run side by side were seen to overtake each other under load). The meter
   * readings waiting for their pace ride along, ahead of the event: they are older, and the push
   * costs the hub its request anyway. So a late reading never brings stale power back after the
   * event that ends its connector's flow either.
   */
  private publish(event: LiveEvent) {
    if (!this.identity) return;
    this.toHub([...this.takeReadings(), event]);
  }

  private toHub(events: LiveEvent[]) {
    if (events.length > 0) this.hubPusher.push(...events);
  }

  /**
   * Meter readings at most about once a second per charger while a page listens, every
   * METER_PUSH_UNWATCHED_MS while none does, or sooner with another event (an RPC nobody reads is
   * most of a MeterValues' cost otherwise: docs/performance.md "Readings nobody watches"); the
   * latest per connector wins.
   */
  private publishMeter(event: Extract<LiveEvent, { type: "meter" }>) {
    this.pendingMeter.set(event.connectorId, event);
    this.scheduleMeter();
  }

  private scheduleMeter() {
    const wait = this.lastMeterPush + (this.watched ? METER_PUSH_MS : METER_PUSH_UNWATCHED_MS) - Date.now();
    if (wait <= 0) return this.flushMeter();
    this.meterTimer ??= setTimeout(() => this.flushMeter(), wait);
  }

  /** The readings waiting, for the push about to leave; their pace starts again from now. */
  private takeReadings(): LiveEvent[] {
    clearTimeout(this.meterTimer);
    this.meterTimer = undefined;
    if (this.pendingMeter.size === 0) return [];
    const readings = [...this.pendingMeter.values()];
    this.pendingMeter.clear();
    this.lastMeterPush = Date.now();
    return readings;
  }

  /**
   * The hub answered a push: a page opened meanwhile gets the reading held back at once. A hub
   * that says nothing (a version from before receipts, during a gradual deployment) counts as
   * watched: readings then go at the faster pace, as they did.
   */
  private heard(receipt: HubReceipt | undefined) {
    const watched = receipt?.watched ?? true;
    if (watched === this.watched) return;
    this.watched = watched;
    if (!this.watched || this.meterTimer === undefined) return;
    clearTimeout(this.meterTimer);
    this.meterTimer = undefined;
    this.scheduleMeter();
  }

  private flushMeter() {
    this.toHub(this.takeReadings());
  }

  // ── the log ───────────────────────────────────────────────────────────────────────────────

  /** `answerFollows`: an answer goes out right after (`reply`), which decides where the frame goes. */
  private log(direction: LogEntry["direction"], type: LogEntry["type"], action: string | null, messageId: string, message: string, answerFollows = false) {
    // Written with the next write, or parked with the socket (docs/rules/ocpp.md "Hot path").
    const entry = { at: Date.now(), direction, type, action, messageId, message: message.length > 8000 ? message.slice(0, 8000) : message };
    this.hot.frame(entry, answerFollows);
  }

  async operationLog(page: { current: number; size: number; action?: string }) {
    this.adoptCurrent();
    this.hot.flush();
    const { records, total } = this.store.logPage(page.current, page.size, page.action);
    return {
      records: records.map((r) => ({
        id: r.id,
        time: new Date(r.at).toISOString(),
        action: r.action,
        type: r.type,
        sender: r.direction === "IN" ? "CHARGER" : "SERVER",
        messageId: r.message_id,
        message: r.message,
      })),
      total,
      current: page.current,
      size: page.size,
    };
  }

  // ── the alarm: offline detection, call deadlines, log flushing ────────────────────────────

  /** Sets the alarm to `at` unless it is due sooner; one at a time, so two callers never undo each other. */
  private scheduleAlarm(at: number): Promise<void> {
    const run = this.alarmSetting.then(async () => {
      const current = await this.ctx.storage.getAlarm();
      if (current === null || at < current) await this.ctx.storage.setAlarm(at);
    });
    this.alarmSetting = run.catch(() => undefined);
    return run;
  }

  private alarmSetting: Promise<void> = Promise.resolve();

  async alarm() {
    const now = Date.now();
    this.adoptCurrent();
    this.hot.flush();
    // The log is cut here, about once per heartbeat interval, not at the first flush after every
    // wake-up (docs/performance.md "Waking up").
    this.store.pruneLog(now);
    this.store.expirePendingCalls(now);
    this.outbox.removeLanded();
    if (this.flood && floodEnded(this.flood, now)) this.floodOver(now);
    // Changes still queued (an eviction, a failed batch) go now; a failure is tried again.
    await this.drainOutbox();
    const ws = this.socket();
    if (ws) {
      const lastSeen = this.lastSeen(ws);
      if (now - lastSeen > this.offlineAfterMs) {
        // No message within the heartbeat interval plus grace: the charger is gone.
        this.hangUp(ws, 1001, "No message within the heartbeat interval");
      } else {
        await this.ctx.storage.setAlarm(lastSeen + this.offlineAfterMs);
      }
    } else {
      this.markOnline(false);
    }
    const deadline = this.store.nextPendingDeadline();
    if (deadline !== undefined) await this.scheduleAlarm(deadline);
    if (this.outbox.pending()) await this.scheduleAlarm(Date.now() + 2 * OUTBOX_FLUSH_MS);
  }

  // ── calls to the charger ──────────────────────────────────────────────────────────────────

  /**
   * The waiting call an answer belongs to; a late answer is recognised and logged, by the call its
   * socket keeps (which outlives an eviction) or, for an older one, by its stored row.
   */
  private claim(ws: WebSocket, id: string): Waiting | undefined {
    const waiting = this.waiting.get(id);
    const seen = this.adopt(ws);
    const sent = seen.call?.id === id ? seen.call : undefined;
    if (sent) {
      seen.call = undefined;
      this.attach(ws, { call: undefined });
    }
    if (!waiting) {
      const late = sent ?? this.store.settlePendingCall(id);
      if (sent) this.hot.settledCall(id);
      if (late) console.warn(`late answer to ${late.action} (${id})`);
      return undefined;
    }
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    // Its stored row, if the hot flush wrote one, goes with the next: a write here would hold the
    // reply to the API behind its commit (Durable Object output gate; docs/performance.md "Remote start").
    this.hot.settledCall(id);
    return waiting;
  }

  private fail(ws: WebSocket, id: string, code: string, description: string) {
    this.claim(ws, id)?.resolve({ ok: false, reason: "error", code, description });
  }

  private settle(ws: WebSocket, id: string, payload: unknown) {
    const waiting = this.claim(ws, id);
    if (waiting) waiting.resolve(waiting.read(payload));
  }

  /**
   * Sends a CALL in the product's command words (OCPP 1.6's, which every verb speaks) and waits for
   * its answer. For a 2.0.1 connection the command goes as its 2.0.1 twin and the reply is read back
   * into the 1.6 answer (workers/ocpp/v201/commands.ts); a word with no twin is answered NotSupported
   * without a frame. The payload must pass its request schema before it leaves. `tokens`: the
   * 2.0.1 types of the tags it names, which 1.6's words do not carry.
   */
  async send<A extends ServerAction>(action: A, payload: OcppRequest<A>, tokens?: CommandTokens): Promise<CallOutcome<A>> {
    const checked = checkRequest(action, payload);
    if (!checked.ok) return { ok: false, reason: "error", code: checked.code, description: checked.description };
    return this.queueCall(action, (codec) => {
      if (codec.version === "1.6") return { action, payload: checked.value, read: (reply) => this.readReply(codec, action, reply) };
      const translated = commandIn201(this.session(), action, checked.value, tokens);
      if (!translated.ok) return { refusal: { ok: false, reason: "noTwin", description: translated.description } };
      return {
        action: translated.action,
        payload: translated.payload,
        read: (reply) => {
          const read = this.readReply(codec, translated.action, reply, translated.payload);
          if (!read.ok) return read;
          const back = translated.reply(read.response);
          return back.ok ? back : { ok: false, reason: "error", code: back.code, description: back.description };
        },
      };
    }) as Promise<CallOutcome<A>>;
  }

  /**
   * Sends a 2.0.1 message as such (the console's `/command` for a 2.0.1 point): refused without a
   * frame when the charger is connected in 1.6 meanwhile.
   */
  async send201<A extends ServerAction201>(action: A, payload: Ocpp201Request<A>): Promise<CallOutcome201<A>> {
    if (!isServerAction201(action)) return { ok: false, reason: "error", code: "NotSupported", description: `${action} is not sent to a charging station` };
    const checked = checkRequest201(action, payload);
    if (!checked.ok) return { ok: false, reason: "error", code: checked.code, description: checked.description };
    return this.queueCall(action, (codec) =>
      codec.version === "2.0.1"
        ? { action, payload: checked.value, read: (reply) => this.readReply(codec, action, reply, checked.value) }
        : { refusal: { ok: false, reason: "otherVersion" } },
    ) as Promise<CallOutcome201<A>>;
  }

  /**
   * The protocol the charger is connected with now, null when it is not: `/command` writes in it.
   * D1's `connected_version` trails a new connection by a batch; this does not.
   */
  async connectedVersion(): Promise<OcppVersion | null> {
    const ws = this.socket();
    return ws ? this.codecOf(ws).version : null;
  }

  /**
   * A reply against the response schema of what was sent, in the connection's dialect. A 2.0.1
   * reply of GetVariables or SetVariables keeps the device model current (`request`: what was sent).
   */
  private readReply(codec: Codec, action: string, reply: unknown, request?: unknown): AnyOutcome {
    const checked = codec.checkReply(action, reply);
    if (checked.ok && codec.version === "2.0.1") learnFromReply(this.store, action, request, checked.value);
    return checked.ok
      ? ({ ok: true, response: checked.value } as AnyOutcome)
      : { ok: false, reason: "error", code: checked.code, description: checked.description };
  }

  /**
   * At most one call is unanswered per charger; the others queue in order. What goes out is decided
   * when the call's turn comes, by the protocol of the connection then; a charger not accepted at
   * its last boot (or never booted here) gets no remote start or stop.
   */
  private queueCall(name: string, build: (codec: Codec) => Outgoing | { refusal: AnyOutcome }): Promise<AnyOutcome> {
    const run = async (): Promise<AnyOutcome> => {
      const ws = this.socket();
      if (!ws) return { ok: false, reason: "offline" };
      if (IN_SERVICE_ONLY.has(name) && !this.acceptedOn(ws)) return { ok: false, reason: "notAccepted" };
      // Frames parked before a hibernation come first in the log.
      const codec = this.codecOf(ws);
      const outgoing = build(codec);
      if ("refusal" in outgoing) return outgoing.refusal;
      const id = newMessageId();
      const deadline = Date.now() + this.callTimeoutMs;
      const frame = JSON.stringify([MessageType.CALL, id, outgoing.action, outgoing.payload]);
      const outcome = new Promise<AnyOutcome>((resolve) => {
        const timer = setTimeout(() => {
          this.waiting.delete(id);
          resolve({ ok: false, reason: "timeout" });
        }, this.callTimeoutMs);
        this.waiting.set(id, { action: outgoing.action, read: outgoing.read, resolve, timer });
      });
      // The frame leaves before anything is written, and nothing opens storage on its way: a frame
      // sent after a write waits for its commit (output gate). The call rides with its socket,
      // which outlives an eviction, before anything can answer it; its row follows with the next
      // hot flush, and not at all when its answer comes first.
      ws.send(frame);
      const sent: SentCall = { id, action: outgoing.action, deadline };
      this.adopt(ws).call = sent;
      this.attach(ws, { call: sent });
      this.hot.sentCall(sent);
      this.log("OUT", "CALL", outgoing.action, id, frame);
      return outcome;
    };
    const result = this.outgoing.then(run, run);
    this.outgoing = result.catch(() => undefined);
    return result;
  }

  /** A page of an OCPP 2.0.1 charger's device model as it last reported it (B07; read-only, empty until a report has come). */
  async deviceModel(page: { current: number; size: number; search?: string }) {
    return deviceModelPage(this.store, page, this.state.v201?.plugs);
  }

  /**
   * The requestId of a new GetBaseReport (B07), remembered with its base so that the report it
   * brings lands as it should (workers/ocpp/v201/device-model.ts); null for a charger never connected.
   */
  async deviceModelRequest(reportBase: "FullInventory" | "ConfigurationInventory"): Promise<number | null> {
    if (!this.identity) return null;
    const requestId = nextRequestId(this.session());
    reportRequested(this.store, requestId, reportBase);
    return requestId;
  }

  /**
   * The final cost billing priced for one of this charger's 2.0.1 transactions (Part 2 I03), sent as
   * CostUpdated under the charger's own transaction id after this returns: billing never waits on
   * the charger. A charger offline or silent now is sent it again on its next connection, once it
   * has been answered a call (docs/rules/pricing.md "Running and final cost"); one that refuses it,
   * or is on 1.6 meanwhile, is not.
   */
  async finalCost(transactionId: string, totalCost: number) {
    this.ctx.waitUntil(this.deliverFinalCost(transactionId, totalCost));
  }

  /** Sends one final cost; keeps it for the next connection when the charger could not take it. */
  private async deliverFinalCost(transactionId: string, totalCost: number, pricedAt = Date.now()): Promise<boolean> {
    const outcome = await this.send201("CostUpdated", { transactionId, totalCost });
    const missed = !outcome.ok && (outcome.reason === "offline" || outcome.reason === "timeout" || outcome.reason === "notAccepted");
    const now = Date.now();
    const kept = Object.entries(this.store.get<WaitingCosts>(FINAL_COSTS_KEY) ?? {}).filter(([id, cost]) => id !== transactionId && now - cost.at < FINAL_COST_KEPT_MS);
    if (missed && now - pricedAt < FINAL_COST_KEPT_MS) kept.push([transactionId, { totalCost, at: pricedAt }]);
    this.store.put(FINAL_COSTS_KEY, Object.fromEntries(kept.slice(-FINAL_COSTS_KEPT)));
    return !missed;
  }

  /** The final costs kept while the charger was away, oldest first, until one is missed again. */
  private async resendFinalCosts() {
    const waiting = Object.entries(this.store.get<WaitingCosts>(FINAL_COSTS_KEY) ?? {}).sort(([, a], [, b]) => a.at - b.at);
    for (const [transactionId, { totalCost, at }] of waiting) {
      if (!(await this.deliverFinalCost(transactionId, totalCost, at))) return;
    }
  }

  /** The connector statuses reported while a transaction ran, oldest first, for its billing (read-only). */
  async sessionStatuses(transactionId: number) {
    return this.store.sessionStatusesOf(transactionId);
  }

  /** One transaction's meter samples, oldest first, for the console's meter curve (read-only). */
  async meterSamples(transactionId: number) {
    // Samples are stored before their answer leaves (workers/ocpp/hot-writes.ts): nothing to flush.
    return this.store.samplesOf(transactionId, 20_000);
  }

  /** A transaction's kept signed readings, its start's and its end's, for its CDR (read-only; docs/rules/ocpi.md "Sessions and CDRs we send"). */
  async signedMeter(transactionId: number) {
    return signedMeterOf(this.store, transactionId);
  }

  /**
   * The oldest frames, MeterValues rows and session statuses past the operator's retention, for
   * housekeeping to archive to R2 before it asks this object to forget them
   * (docs/rules/settings.md "Retention"). Session statuses go with the meter samples' cut-off.
   * Frames still in memory are written first, so the log read is whole.
   */
  async retentionBatch(page: { framesBefore: number; samplesBefore: number; limit: number }) {
    this.adoptCurrent();
    this.hot.flush();
    return {
      frames: this.store.framesBefore(page.framesBefore, page.limit),
      samples: this.store.samplesBefore(new Date(page.samplesBefore).toISOString(), page.limit),
      statuses: this.store.sessionStatusesBefore(page.samplesBefore, page.limit),
    };
  }

  /** Forgets what housekeeping archived: frames up to an id (only those before the cut-off), samples and session statuses by id. */
  async retentionForget(archived: { framesThrough: number | null; framesBefore: number; sampleIds: number[]; statusIds: number[] }) {
    if (archived.framesThrough !== null) this.store.forgetFrames(archived.framesThrough, archived.framesBefore);
    this.store.forgetSamples(archived.sampleIds);
    this.store.forgetSessionStatuses(archived.statusIds);
  }
}
