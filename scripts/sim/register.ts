import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Registration of simulated chargers through the operator API, as an operator would do it in the
 * console: log in, create the points under the first station, enable them and give each a key.
 * Keys are shown once, so they are kept in a JSON file (per server origin) for the next run.
 */

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** An answer that was not code 200, with the HTTP status and the envelope as sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Envelope<unknown> | undefined,
    what: string,
  ) {
    super(`${what}: HTTP ${status} ${body ? `${body.code} ${body.msg}` : ""}`.trim());
  }
}

export interface PointRecord {
  id: number;
  stationId: number;
  serialNumber: string;
  type: "AC" | "DC" | "MIXED";
  ratedPower: number;
  connectorCount: number;
  status: "VALID" | "INVALID";
  online: boolean;
  hasKey: boolean;
  vendor: string | null;
  model: string | null;
  connectors: { connectorId: number; power: number; status: string | null; errorCode: string | null }[];
}

export interface Login {
  operatorCode: string;
  username: string;
  password: string;
}

export const DEMO_LOGIN: Login = { operatorCode: "0PL002", username: "demoadmin", password: "Demo12345" };
/** The development captcha (`DEV_CAPTCHA` in `.dev.vars`). */
const DEV_CAPTCHA = "1234";

/** A Bearer-token client of the Plugdesk API. `request` answers the envelope whatever the status. */
export class Api {
  private token = "";

  constructor(readonly origin: string) {}

  /** The session's Bearer token (also good for the console's `/live` socket). */
  get accessToken(): string {
    return this.token;
  }

  static async login(origin: string, login: Login = DEMO_LOGIN): Promise<Api> {
    const api = new Api(origin);
    const captcha = await api.get<{ captchaId: string }>("/user-service/auth/captcha");
    const session = await api.post<{ accessToken: string }>("/user-service/auth/login/operator", {
      ...login,
      captchaId: captcha.captchaId,
      captcha: DEV_CAPTCHA,
    });
    api.token = session.accessToken;
    return api;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(`${this.origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let envelope: Envelope<T>;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      envelope = { code: res.status, msg: text.slice(0, 200), data: undefined as T };
    }
    return { status: res.status, body: envelope };
  }

  /** The `data` of a successful answer; anything else throws an `ApiError`. */
  async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request<T>(method, path, body);
    if (res.status !== 200 || res.body.code !== 200) throw new ApiError(res.status, res.body, `${method} ${path}`);
    return res.body.data;
  }

  get<T>(path: string) {
    return this.ok<T>("GET", path);
  }
  post<T>(path: string, body: unknown = {}) {
    return this.ok<T>("POST", path, body);
  }
  put<T>(path: string, body: unknown = {}) {
    return this.ok<T>("PUT", path, body);
  }

  /** The highest-ranked enabled location: a point can be enabled only under an enabled one. */
  async firstStationId(): Promise<number> {
    const page = await this.get<{ records: { id: number; status: string }[] }>("/station-service/station?size=100");
    const enabled = page.records.find((station) => station.status === "VALID");
    if (!enabled) throw new Error("the operator has no enabled station to put chargers under");
    return enabled.id;
  }

  /** Points whose serial number contains `serialNumber` (the list filters with LIKE). */
  async findPoints(serialNumber: string, size = 100, current = 1) {
    return this.get<{ records: PointRecord[]; total: number }>(
      `/station-service/point?serialNumber=${encodeURIComponent(serialNumber)}&size=${size}&current=${current}`,
    );
  }

  async findPoint(serialNumber: string): Promise<PointRecord | undefined> {
    const page = await this.findPoints(serialNumber);
    return page.records.find((p) => p.serialNumber === serialNumber);
  }

  createPoint(input: { stationId: number; name: string; serialNumber: string; pointNo: string; type: "AC" | "DC" | "MIXED"; ratedPower: number; connectorCount: number; ocppVersion?: "AUTO" | "OCPP16" | "OCPP201" }) {
    return this.post<PointRecord>("/station-service/point", input);
  }

  enablePoint(id: number) {
    return this.put<{ status: string }>(`/station-service/point/${id}/valid`, { status: "VALID" });
  }

  async rotateKey(id: number): Promise<string> {
    return (await this.post<{ key: string }>(`/station-service/point/${id}/key`, {})).key;
  }
}

/** Keys of simulated chargers, per server origin: `{ "<origin>": { "<serialNumber>": "<key>" } }`. */
export class KeyFile {
  private readonly all: Record<string, Record<string, string>>;

  constructor(
    private readonly path: string,
    private readonly origin: string,
  ) {
    this.all = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, Record<string, string>>) : {};
  }

  get(serialNumber: string): string | undefined {
    return this.all[this.origin]?.[serialNumber];
  }

  set(serialNumber: string, key: string) {
    (this.all[this.origin] ??= {})[serialNumber] = key;
  }

  save() {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, `${JSON.stringify(this.all, null, 2)}\n`);
  }
}

export interface SimPoint {
  id: number;
  serialNumber: string;
  key: string;
  connectors: number;
  /** Per connector, in W. */
  connectorPowerW: number;
  type: "AC" | "DC";
}

export const simSerial = (n: number) => `SIM-${String(n).padStart(5, "0")}`;

/** The shape of every simulated point: AC, 22 kW, two connectors of 11 kW. */
const SIM_SHAPE = { type: "AC" as const, ratedPower: 22, connectorCount: 2 };

/** Runs `work` over `items` with at most `limit` in flight; answers in input order. */
export async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Makes sure `SIM-00001`…`SIM-<count>` exist under the operator, enabled and with a key this
 * process knows: missing points are created, disabled ones enabled, and a point whose key is not
 * in `keys` gets a new one. `onProgress` is told after each point.
 */
export async function registerSimChargers(
  api: Api,
  count: number,
  keys: KeyFile,
  options: { concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<SimPoint[]> {
  const stationId = await api.firstStationId();
  const existing = new Map<string, PointRecord>();
  // Every SIM point the operator has, a page at a time. Pages of 50: a page of 100 points binds
  // 101 parameters in the server's connector query, one more than D1 allows.
  const pageSize = 50;
  for (let page = 1; ; page++) {
    const { records, total } = await api.findPoints("SIM-", pageSize, page);
    for (const p of records) existing.set(p.serialNumber, p);
    if (page * pageSize >= total || records.length === 0) break;
  }
  let done = 0;
  const serials = Array.from({ length: count }, (_, i) => simSerial(i + 1));
  const points = await inBatches(serials, options.concurrency ?? 8, async (serialNumber, index) => {
    let point = existing.get(serialNumber);
    point ??= await api.createPoint({
      stationId,
      name: `Simulator ${index + 1}`,
      serialNumber,
      pointNo: `S${String(index + 1).padStart(5, "0")}`,
      ...SIM_SHAPE,
    });
    if (point.status !== "VALID") await api.enablePoint(point.id);
    let key = point.hasKey ? keys.get(serialNumber) : undefined;
    if (!key) {
      key = await api.rotateKey(point.id);
      keys.set(serialNumber, key);
    }
    options.onProgress?.(++done, count);
    const connectors = point.connectors.length || point.connectorCount;
    const powerW = Math.round(((point.connectors[0]?.power ?? point.ratedPower / connectors) || 11) * 1000);
    return { id: point.id, serialNumber, key, connectors, connectorPowerW: powerW, type: point.type === "DC" ? ("DC" as const) : ("AC" as const) };
  });
  keys.save();
  return points;
}

/** A fresh key for one point (when the stored one is refused), remembered in `keys`. */
export async function renewKey(api: Api, serialNumber: string, keys: KeyFile): Promise<string> {
  const point = await api.findPoint(serialNumber);
  if (!point) throw new Error(`${serialNumber} is not a point of this operator`);
  const key = await api.rotateKey(point.id);
  keys.set(serialNumber, key);
  keys.save();
  return key;
}
