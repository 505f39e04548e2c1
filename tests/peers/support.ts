import { inject } from "vitest";
import type { OcppRequest, OcppResponse, ServerAction } from "../../domain/ocpp";
import { Api } from "../../scripts/sim/register";
import { OcppClient, type ClientOptions } from "../../scripts/sim/rpc";
import { eventually } from "../support/eventually";
import { loadWs, type WsSocket } from "./ws";

/**
 * Peer tests: ocpp-rpc's strict `RPCClient` as an independent charger against the product served
 * by the e2e global setup. Chargers that a test changes are created through the API for that test.
 */
export const baseURL = inject("baseURL");
export const ocppEndpoint = `${baseURL.replace(/^http/, "ws")}/ocpp`;

let session: Promise<Api> | undefined;
/** demoadmin of 0PL002, logged in once per test file. */
export const api = () => (session ??= Api.login(baseURL));

let serial = 0;

/** A new point of 0PL002 (AC, 22 kW, two connectors), enabled unless told, with a fresh key. */
export async function newCharger(options: { enabled?: boolean } = {}) {
  const a = await api();
  const stationId = await a.firstStationId();
  const serialNumber = `PEER-${Date.now().toString(36)}-${process.pid}-${serial++}`.toUpperCase();
  const point = await a.createPoint({
    stationId,
    name: serialNumber,
    serialNumber,
    pointNo: serialNumber.slice(-16),
    type: "AC",
    ratedPower: 22,
    connectorCount: 2,
  });
  if (options.enabled ?? true) await a.enablePoint(point.id);
  const key = await a.rotateKey(point.id);
  return { id: point.id, serialNumber, key };
}

/**
 * A new location of 0PL002 in central Warsaw, not yet enabled (a location is enabled once it has a
 * point); `extra` adds fields such as a load power.
 */
export async function newLocation(name: string, extra: Record<string, unknown> = {}) {
  const a = await api();
  return a.post<{ id: number }>("/station-service/station", {
    name,
    address: "ul. Marszałkowska 1, 00-001 Warszawa",
    lat: "52.2297",
    lng: "21.0122",
    parkingFee: false,
    servicePhone: "+48 22 123 45 67",
    maintainer: "E2E",
    rank: 1,
    businessHours: "00:00-24:00",
    description: "A location made by a test",
    ...extra,
  });
}

const clients = new Set<OcppClient>();

/** A strict ocpp-rpc client for `identity`; closed by `closeClients()`. */
export function strictClient(identity: string, key: string, options: Partial<ClientOptions> = {}) {
  const client = new OcppClient({ endpoint: ocppEndpoint, identity, password: key, strictMode: true, callTimeoutMs: 15_000, ...options });
  clients.add(client);
  return client;
}

/** Connected, booted and every connector reported Available. */
export async function bootedClient(identity: string, key: string, connectors = 2) {
  const client = strictClient(identity, key);
  await client.connect();
  const boot = await client.call("BootNotification", { chargePointVendor: "PeerTest", chargePointModel: "ocpp-rpc strict" });
  for (let connectorId = 0; connectorId <= connectors; connectorId++) {
    await client.call("StatusNotification", { connectorId, errorCode: "NoError", status: "Available", timestamp: new Date().toISOString() });
  }
  return { client, boot };
}

export async function closeClients() {
  await Promise.allSettled([...clients].map((c) => c.close()));
  clients.clear();
}

/** Records the payloads of one server action and answers each with `answer`. */
export function answering<A extends ServerAction>(client: OcppClient, action: A, answer: OcppResponse<A> | ((p: OcppRequest<A>) => OcppResponse<A>)) {
  const received: OcppRequest<A>[] = [];
  const waiters: ((p: OcppRequest<A>) => void)[] = [];
  client.handle(action, (payload) => {
    received.push(payload);
    waiters.splice(0).forEach((w) => w(payload));
    return typeof answer === "function" ? answer(payload) : answer;
  });
  return {
    received,
    /** The next call of this action (or the first one, if it came already and nothing waited). */
    next: (timeoutMs = 10_000) =>
      received.length && !waiters.length
        ? Promise.resolve(received[received.length - 1])
        : new Promise<OcppRequest<A>>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no ${action} within ${timeoutMs} ms`)), timeoutMs);
            waiters.push((p) => {
              clearTimeout(timer);
              resolve(p);
            });
          }),
  };
}

/** Polls `probe` (tests/support/eventually.ts) until it answers something truthy; fails naming `what` otherwise. */
export async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const value = await eventually(probe, Boolean, timeoutMs);
  if (!value) throw new Error(`timed out waiting for ${what}`);
  return value;
}

export interface LiveEvent {
  type: string;
  serialNumber?: string;
  connectorId?: number;
  transactionId?: number | null;
  energyWh?: number;
  powerW?: number;
  currentA?: number;
  voltageV?: number;
  soc?: number;
  phase?: string;
  meterWh?: number;
  status?: string;
  online?: boolean;
}

/** The console's live socket (`/live`), opened with the API's Bearer token. */
export async function openLive(token: string) {
  const ws = await loadWs();
  if (!ws) throw new Error("the ws package cannot be imported");
  const events: LiveEvent[] = [];
  const socket: WsSocket = new ws.WebSocket(`${baseURL.replace(/^http/, "ws")}/live`, [], { headers: { Authorization: `Bearer ${token}` } });
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString("utf8")) as LiveEvent & { events?: LiveEvent[] };
    if (message.type === "snapshot") events.push(...(message.events ?? []));
    else events.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.on("open", resolve);
    socket.on("error", reject);
  });
  return {
    events,
    waitFor: (predicate: (e: LiveEvent) => boolean, what: string, timeoutMs = 10_000) =>
      until(async () => events.find(predicate), what, timeoutMs),
    close: () => socket.close(),
  };
}
