import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from "react";
import { endsFlow, withoutFlow } from "../../domain/ocpp/meter-values";
import type { LiveEvent } from "../../workers/live/events";

/**
 * The console's live view (docs/architecture.md "Live view"): one WebSocket to `/live` per tab, opened by the console
 * layout, kept in a small store that pages read with hooks. No polling: the operator's
 * TenantHub pushes connector status, meter readings, transactions, online state and alarms, and
 * sends a snapshot of the present when the socket opens.
 */
export type { LiveEvent };

/** The readings of a connector's latest meter event, and when the connector last changed. */
type MeterReadings = Omit<Extract<LiveEvent, { type: "meter" }>, "type" | "pointId" | "serialNumber" | "connectorId">;

/** A connector as the console knows it now: its last status and its latest readings. */
export interface ConnectorLive extends MeterReadings {
  status: string | null;
  errorCode: string | null;
}

export interface PointLive {
  pointId: number;
  serialNumber: string;
  /**
   * Whether the charger is connected, as its online events say; undefined until one is heard
   * (then the loader's word stands). Only those events set it: a status reaches the live view
   * once D1 has it, about a second after the charger sent it, so one may arrive after the
   * charger went offline and says nothing of its connection (docs/rules/monitoring.md "Live values").
   */
  online?: boolean;
  connectors: Record<number, ConnectorLive>;
}

type Listener = () => void;
type EventListener = (event: LiveEvent) => void;

const emptyConnector = (): ConnectorLive => ({ status: null, errorCode: null, transactionId: null, at: 0 });

export class LiveStore {
  private points = new Map<number, PointLive>();
  private snapshot: ReadonlyMap<number, PointLive> = new Map();
  private readonly listeners = new Set<Listener>();
  private readonly eventListeners = new Set<EventListener>();
  /** The points changed since the snapshot was made. */
  private changed = false;
  /** A call of the listeners is on its way. */
  private notifying = false;
  connected = false;

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  onEvent(listener: EventListener) {
    this.eventListeners.add(listener);
    return () => {
      this.eventListeners.delete(listener);
    };
  }

  /** The present, made again only when read after a change: a burst of events costs one copy of the points, not one each. */
  getSnapshot = () => {
    if (this.changed) {
      this.snapshot = new Map(this.points);
      this.changed = false;
    }
    return this.snapshot;
  };

  /**
   * Readers hear of changes once a frame at most, however many events the frame brought (a
   * storm's statuses, a fleet's readings): the pages that read every point (the map, the lists)
   * render once a frame, not once an event. Event listeners hear each event at once.
   */
  private changedNow() {
    this.changed = true;
    if (this.notifying) return;
    this.notifying = true;
    const notify = () => {
      this.notifying = false;
      for (const listener of this.listeners) listener();
    };
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(notify);
    else notify();
  }

  private point(event: LiveEvent): PointLive {
    const existing = this.points.get(event.pointId);
    const next: PointLive = existing ? { ...existing, connectors: { ...existing.connectors } } : { pointId: event.pointId, serialNumber: event.serialNumber, connectors: {} };
    this.points.set(event.pointId, next);
    return next;
  }

  /** Folds one event into the present state. */
  apply(event: LiveEvent, notify = true) {
    const point = this.point(event);
    switch (event.type) {
      case "point":
        point.online = event.online;
        break;
      case "connector": {
        const connector = { ...(point.connectors[event.connectorId] ?? emptyConnector()) };
        connector.status = event.status;
        connector.errorCode = event.errorCode;
        connector.at = event.at;
        point.connectors[event.connectorId] = endsFlow(event) ? withoutFlow(connector) : connector;
        break;
      }
      case "meter": {
        const { energyWh, powerW, currentA, voltageV, soc, transactionId, at } = event;
        point.connectors[event.connectorId] = {
          ...(point.connectors[event.connectorId] ?? emptyConnector()),
          ...(energyWh !== undefined && { energyWh }),
          ...(powerW !== undefined && { powerW }),
          ...(currentA !== undefined && { currentA }),
          ...(voltageV !== undefined && { voltageV }),
          ...(soc !== undefined && { soc }),
          transactionId,
          at,
        };
        break;
      }
      case "transaction": {
        const connector = { ...(point.connectors[event.connectorId] ?? emptyConnector()) };
        connector.transactionId = event.phase === "start" ? event.transactionId : null;
        point.connectors[event.connectorId] = endsFlow(event) ? withoutFlow(connector) : connector;
        break;
      }
      case "alarm":
      case "delivery":
      case "firmware":
        break;
    }
    if (notify) this.publish([event]);
  }

  applySnapshot(events: LiveEvent[]) {
    for (const event of events) this.apply(event, false);
    this.publish(events);
  }

  private publish(events: LiveEvent[]) {
    this.changedNow();
    for (const event of events) for (const listener of this.eventListeners) listener(event);
  }

  setConnected(connected: boolean) {
    this.connected = connected;
    this.changedNow();
  }
}

const LiveContext = createContext<LiveStore | null>(null);

/** Opens `/live` for the console and reconnects with back-off when the socket drops. */
export function LiveProvider({ children, enabled = true }: { children: ReactNode; enabled?: boolean }) {
  const store = useMemo(() => new LiveStore(), []);
  const attempt = useRef(0);
  useEffect(() => {
    // A user whose menus listen to nothing live opens no socket it would be refused.
    if (!enabled) return;
    let socket: WebSocket | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      socket = new WebSocket(`${window.location.origin.replace(/^http/, "ws")}/live`);
      socket.addEventListener("open", () => {
        attempt.current = 0;
        store.setConnected(true);
      });
      socket.addEventListener("message", (message) => {
        if (typeof message.data !== "string" || message.data === "pong") return;
        const data = JSON.parse(message.data) as LiveEvent | { type: "snapshot"; events: LiveEvent[] };
        if (data.type === "snapshot") store.applySnapshot(data.events);
        else store.apply(data);
      });
      socket.addEventListener("close", () => {
        store.setConnected(false);
        if (stopped) return;
        // Back off up to half a minute, so a restarting server is not hammered.
        const delay = Math.min(30_000, 1000 * 2 ** attempt.current++);
        timer = setTimeout(open, delay);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [store, enabled]);
  return <LiveContext value={store}>{children}</LiveContext>;
}

function useStore(): LiveStore {
  const store = useContext(LiveContext);
  if (!store) throw new Error("useLive… must be used inside <LiveProvider>");
  return store;
}

/** Live state of every point heard of so far (id → state); re-renders on each change. */
export function useLivePoints(): ReadonlyMap<number, PointLive> {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/**
 * Live state of one point, or undefined until the hub has said something of it. Re-renders only
 * when that point changes: the store makes a new object for the point an event names and keeps the
 * others, so a page of a hundred panels renders one of them per meter reading, not all of them.
 */
export function useLivePoint(pointId: number | undefined): PointLive | undefined {
  const store = useStore();
  const ofPoint = useCallback(() => (pointId === undefined ? undefined : store.getSnapshot().get(pointId)), [store, pointId]);
  return useSyncExternalStore(store.subscribe, ofPoint, ofPoint);
}

/** Whether the live socket is open now. */
export function useLiveConnected(): boolean {
  const store = useStore();
  return useSyncExternalStore(
    store.subscribe,
    () => store.connected,
    () => false,
  );
}

/** Calls back on every live event (for counters, toasts, refreshing a list on transaction events). */
export function useLiveEvents(listener: (event: LiveEvent) => void) {
  const store = useStore();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => store.onEvent((event) => latest.current(event)), [store]);
}
