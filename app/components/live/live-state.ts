import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { shownStatus } from "../../../domain/connector-status";
import { useLiveEvents, type LiveEvent, type PointLive } from "~/lib/live";

/**
 * Folding the live view over what a loader answered. The loader's figures are the present at the
 * time of the request; the hub's snapshot and events are newer whenever they say something.
 */

/** A point's online state: the live view's once it has heard of the point, else the loader's. */
export const liveOnline = (live: PointLive | undefined, loaded: boolean) => live?.online ?? loaded;

/**
 * A connector's shown status (none while offline, docs/rules/monitoring.md "Connector states"),
 * preferring what the live view heard.
 */
export function liveStatus(live: PointLive | undefined, loadedOnline: boolean, connectorId: number, loadedStatus: string | null) {
  const heard = live?.connectors[connectorId]?.status;
  return shownStatus(liveOnline(live, loadedOnline), heard ?? loadedStatus);
}

/** Live readings of a connector, if the charger has sent any. */
export function liveReadings(live: PointLive | undefined, connectorId: number) {
  const connector = live?.connectors[connectorId];
  return {
    powerW: connector?.powerW,
    currentA: connector?.currentA,
    voltageV: connector?.voltageV,
    soc: connector?.soc,
    /** The energy register, Wh (not the session's energy: subtract its meter start). */
    registerWh: connector?.energyWh,
    transactionId: connector?.transactionId ?? null,
  };
}

/** Energy delivered in a transaction so far (Wh), from the live register, if it belongs to that transaction. */
export function liveEnergyWh(live: PointLive | undefined, connectorId: number, transactionId: number, meterStartWh: number): number | undefined {
  const connector = live?.connectors[connectorId];
  if (!connector || connector.energyWh === undefined || connector.transactionId !== transactionId) return undefined;
  return Math.max(0, connector.energyWh - meterStartWh);
}

/** Sum of live power over some points' connectors, W. */
export function livePowerW(points: ReadonlyMap<number, PointLive>, pointIds: Iterable<number>) {
  let total = 0;
  for (const id of pointIds) {
    const point = points.get(id);
    if (!point || point.online === false) continue;
    for (const connector of Object.values(point.connectors)) total += connector.powerW ?? 0;
  }
  return total;
}

/**
 * Reloads the page's loader when a live event says its list changed (a transaction started,
 * a point went offline…). Driven by events, never by a timer; bursts are folded into one reload
 * at most every `quietMs`.
 */
export function useRevalidateOn(matches: (event: LiveEvent) => boolean, quietMs = 1500) {
  const { revalidate } = useRevalidator();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(0);
  useLiveEvents((event) => {
    if (!matches(event) || timer.current) return;
    const wait = Math.max(0, last.current + quietMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      void revalidate();
    }, wait);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
}

/**
 * The current time, ticking every `everyMs` (for running durations; no request is made). It starts
 * at `from`, the time the loader answered, so the server's and the browser's first render agree.
 */
export function useNow(from: number, everyMs = 1000) {
  const [now, setNow] = useState(from);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}

/** True after the first render in the browser (charts measure the page, which SSR cannot). */
export function useMounted() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
