/**
 * The console's client of a desktop RF reader bridge (docs/rf-reader-bridge.md): a small program
 * on the operator's computer that drives a USB card reader and listens on
 * `ws://127.0.0.1:<port>`. One read per connection: the console sends `{"type":"read","id"}`, the
 * bridge answers `{"type":"card","id","uid"}` when a card is presented, or `{"type":"error","id","reason"}`.
 */

export const DEFAULT_RF_READER_PORT = 18888;
const PORT_KEY = "plugdesk.rfReaderPort";
/** How long a read waits for a card to be presented. */
export const READ_TIMEOUT_MS = 15_000;

/** Why a read failed: the bridge could not be reached, or it could not read a card. */
export type RfReadFailure = "connectionFailed" | "readFailed";

export class RfReaderError extends Error {
  constructor(readonly reason: RfReadFailure) {
    super(reason);
  }
}

/** A card's id as an OCPP id token: 1 to 20 printable ASCII characters (OCPP 1.6 §7.28 IdToken). */
const ID_TOKEN = /^[\x21-\x7E]{1,20}$/;

export const validPort = (port: number) => Number.isInteger(port) && port >= 1 && port <= 65535;

/** The bridge's port on this computer, as last set (it belongs to the desk, not to the account). */
export function readerPort(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): number {
  const stored = Number(storage?.getItem(PORT_KEY));
  return validPort(stored) ? stored : DEFAULT_RF_READER_PORT;
}

export function rememberReaderPort(port: number, storage: Pick<Storage, "setItem"> | undefined = globalThis.localStorage) {
  if (validPort(port)) storage?.setItem(PORT_KEY, String(port));
}

type Socket = Pick<WebSocket, "send" | "close" | "addEventListener">;

/**
 * Reads one card through the bridge: resolves with its id tag (upper case, as readers print
 * UIDs), or rejects with `RfReaderError` (`connectionFailed` when the bridge is not there,
 * `readFailed` when it answers an error, something unreadable, or nothing in time).
 */
export function readCard(
  port: number,
  options: { open?: (url: string) => Socket; timeoutMs?: number } = {},
): Promise<string> {
  const open = options.open ?? ((url: string) => new WebSocket(url));
  const id = Math.random().toString(36).slice(2, 10);
  return new Promise((resolve, reject) => {
    let opened = false;
    let settled = false;
    let socket: Socket;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        socket.close();
      } catch {
        // Already closed.
      }
      outcome();
    };
    const fail = (reason: RfReadFailure) => finish(() => reject(new RfReaderError(reason)));
    const timer = setTimeout(() => fail(opened ? "readFailed" : "connectionFailed"), options.timeoutMs ?? READ_TIMEOUT_MS);
    try {
      socket = open(`ws://127.0.0.1:${port}`);
    } catch {
      clearTimeout(timer);
      reject(new RfReaderError("connectionFailed"));
      return;
    }
    socket.addEventListener("open", () => {
      opened = true;
      socket.send(JSON.stringify({ type: "read", id }));
    });
    socket.addEventListener("message", (event) => {
      let message: { type?: unknown; id?: unknown; uid?: unknown };
      try {
        message = JSON.parse(String((event as MessageEvent).data));
      } catch {
        return fail("readFailed");
      }
      if (message.id !== id) return;
      const uid = typeof message.uid === "string" ? message.uid.trim().toUpperCase() : "";
      if (message.type === "card" && ID_TOKEN.test(uid)) finish(() => resolve(uid));
      else fail("readFailed");
    });
    socket.addEventListener("error", () => fail(opened ? "readFailed" : "connectionFailed"));
    socket.addEventListener("close", () => fail(opened ? "readFailed" : "connectionFailed"));
  });
}
