import { setTimeout as sleep } from "node:timers/promises";

/** The close reason the server gives a socket when the same identity connects again (newest connection wins). */
export const REPLACED = "Replaced by a new connection";

/** The HTTP status ocpp-rpc puts on a refused upgrade, if any. */
export const httpStatus = (error: unknown): number | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
};

/**
 * Why an upgrade was cut off without an HTTP status. The local server (the Cloudflare Vite
 * plugin in front of workerd) drops the socket when the worker refuses an upgrade, so the
 * worker's 401 or 404 never arrives; the same URL without the upgrade answers it.
 */
export async function refusalStatus(error: unknown, endpoint: string, serialNumber: string, key: string): Promise<number | undefined> {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== "ECONNRESET" && !/socket hang up/i.test((error as Error).message)) return undefined;
  const url = `${endpoint.replace(/^ws/, "http")}/${encodeURIComponent(serialNumber)}`;
  const basic = Buffer.from(`${serialNumber}:${key}`).toString("base64");
  try {
    const res = await fetch(url, { headers: { Authorization: `Basic ${basic}` } });
    return res.status === 401 || res.status === 404 ? res.status : undefined;
  } catch {
    return undefined;
  }
}

/** Waits unless `signal` aborts meanwhile (then answers false). */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
