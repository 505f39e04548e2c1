/**
 * The machine's ceiling for `npm run bench:ocpp`: a bare Node `ws` server in its own process,
 * answering each CALL `[2, id, action, payload]` with `[3, id, {}]` (and a boot with Accepted).
 * It sends its port to the parent over IPC.
 */
import { loadWs, type WsModule } from "../peers/ws";

const ws = (await loadWs()) as WsModule;
const server = new ws.WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: (offered) => (offered.has("ocpp1.6") ? "ocpp1.6" : false) });
server.on("connection", (socket) =>
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString("utf8")) as [number, string, string, unknown];
    if (frame[0] !== 2) return;
    const now = new Date().toISOString();
    const payload = frame[2] === "BootNotification" ? { status: "Accepted", currentTime: now, interval: 60 } : frame[2] === "Heartbeat" ? { currentTime: now } : {};
    socket.send(JSON.stringify([3, frame[1], payload]));
  }),
);
server.on("listening", () => {
  const address = server.address();
  process.send?.(typeof address === "object" && address ? address.port : 0);
});
