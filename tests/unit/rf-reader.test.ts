import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_RF_READER_PORT, readCard, readerPort, rememberReaderPort, RfReaderError } from "../../app/lib/rf-reader";
import { loadWs, type WsServer, type WsSocket } from "../peers/ws";

/**
 * The console's RF reader client against a fake desktop bridge speaking the protocol of
 * docs/rf-reader-bridge.md over ws://127.0.0.1:<port>.
 */
const servers: WsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(() => done(undefined)))));
});

/** A fake bridge that answers each `read` with what `reply` returns (nothing: it stays silent). */
async function bridge(reply: (request: { type: string; id: string }) => unknown) {
  const ws = (await loadWs())!;
  const server = new ws.WebSocketServer({ host: "127.0.0.1", port: 0 });
  servers.push(server);
  const received: unknown[] = [];
  server.on("connection", (socket: WsSocket) =>
    socket.on("message", (data) => {
      const request = JSON.parse(String(data));
      received.push(request);
      const answer = reply(request);
      // An array is several messages, sent one after the other.
      for (const message of Array.isArray(answer) ? answer : answer === undefined ? [] : [answer]) {
        socket.send(typeof message === "string" ? message : JSON.stringify(message));
      }
    }),
  );
  await new Promise<void>((ready) => server.on("listening", () => ready()));
  return { port: (server.address() as { port: number }).port, received };
}

const open = async () => {
  const ws = (await loadWs())!;
  return (url: string) => new ws.WebSocket(url) as unknown as WebSocket;
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof RfReaderError ? error.reason : String(error)),
  );

describe("the RF reader bridge client", () => {
  it("asks the bridge for one read and fills in the card's id in upper case", async () => {
    const fake = await bridge((request) => ({ type: "card", id: request.id, uid: "04a1b2c3d4" }));
    expect(await readCard(fake.port, { open: await open() })).toBe("04A1B2C3D4");
    expect(fake.received).toEqual([{ type: "read", id: expect.any(String) }]);
  });

  it("says the connection failed when no bridge listens on the port", async () => {
    const fake = await bridge(() => undefined);
    const port = fake.port;
    await new Promise((done) => servers.pop()!.close(() => done(undefined)));
    expect(await failure(readCard(port, { open: await open() }))).toBe("connectionFailed");
  });

  it("says the read failed when the bridge reports an error, sends an unusable id or nothing in time", async () => {
    const error = await bridge((request) => ({ type: "error", id: request.id, reason: "no card" }));
    expect(await failure(readCard(error.port, { open: await open() }))).toBe("readFailed");
    const spaces = await bridge((request) => ({ type: "card", id: request.id, uid: "not a tag" }));
    expect(await failure(readCard(spaces.port, { open: await open() }))).toBe("readFailed");
    const garbage = await bridge(() => "not json");
    expect(await failure(readCard(garbage.port, { open: await open() }))).toBe("readFailed");
    const silent = await bridge(() => undefined);
    expect(await failure(readCard(silent.port, { open: await open(), timeoutMs: 200 }))).toBe("readFailed");
  });

  it("ignores answers to another read", async () => {
    const fake = await bridge((request) => [{ type: "card", id: "other", uid: "AAAA" }, { type: "card", id: request.id, uid: "BBBB" }]);
    expect(await readCard(fake.port, { open: await open() })).toBe("BBBB");
  });

  it("remembers the bridge's port per computer, falling back to the default", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(readerPort(storage)).toBe(DEFAULT_RF_READER_PORT);
    rememberReaderPort(9000, storage);
    expect(readerPort(storage)).toBe(9000);
    rememberReaderPort(70000, storage);
    expect(readerPort(storage)).toBe(9000);
  });
});
