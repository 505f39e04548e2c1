import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { eventually } from "../../support/eventually";

/** A console's `/live` socket for the token's account, once its snapshot has arrived; `events` collects every message after it too. */
export async function listenLive(token: string) {
  const response = await SELF.fetch("http://localhost/live", { headers: { Upgrade: "websocket", Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const events: any[] = [];
  ws.addEventListener("message", (event) => {
    if (typeof event.data === "string" && event.data !== "pong") events.push(JSON.parse(event.data));
  });
  await eventually(async () => events, (received) => received.length > 0);
  return { ws, events };
}
