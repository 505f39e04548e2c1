import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A CPO on a local port for the browser tests (docs/rules/ocpi.md "Commands"): its versions, its
 * credentials module, and a commands receiver that answers ACCEPTED at once and posts the
 * charger's ACCEPTED to the command's `response_url` a moment later, as a CPO does. The product,
 * served by wrangler, calls it over the loopback network; nothing leaves the machine.
 */
const base64 = (text: string) => Buffer.from(text).toString("base64");

export interface FakeCpoServer {
  versionsUrl: string;
  tokenA: string;
  /** The commands its receiver took, in order. */
  commands: { command: string; body: Record<string, any> }[];
  /** PUT of an object to our receivers, with the token our credentials gave it. */
  push: (url: string, body: unknown) => Promise<number>;
  close: () => Promise<void>;
}

export async function startFakeCpo(): Promise<FakeCpoServer> {
  const n = Date.now().toString(36);
  const tokenA = `e2e-cpo-a-${n}`;
  const tokenC = `e2e-cpo-c-${n}`;
  let ourToken: string | undefined;
  const commands: FakeCpoServer["commands"] = [];
  let origin = "";

  const send = (res: ServerResponse, data: unknown, status = 200, code = 1000) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ ...(data !== undefined && { data }), status_code: code, timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, "Z") }));
  };
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    return text ? JSON.parse(text) : undefined;
  };
  const callUs = (url: string, method: string, body: unknown) =>
    fetch(url, { method, headers: { Authorization: `Token ${base64(ourToken ?? "")}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? "/", origin).pathname;
      const body = await read(req);
      if (![tokenA, tokenC].map((t) => `Token ${base64(t)}`).includes(req.headers.authorization ?? "")) return send(res, undefined, 401, 2000);
      if (path === "/ocpi/versions") return send(res, [{ version: "2.2.1", url: `${origin}/ocpi/2.2.1` }]);
      if (path === "/ocpi/2.2.1") {
        const endpoints = [
          ["credentials", "RECEIVER"],
          ["commands", "RECEIVER"],
          ["locations", "SENDER"],
        ].map(([identifier, role]) => ({ identifier, role, url: `${origin}/ocpi/2.2.1/${identifier}` }));
        return send(res, { version: "2.2.1", endpoints });
      }
      if (path === "/ocpi/2.2.1/credentials" && req.method === "POST") {
        ourToken = body.token;
        return send(res, { token: tokenC, url: `${origin}/ocpi/versions`, roles: [{ role: "CPO", business_details: { name: "E2E CPO" }, party_id: "CPO", country_code: "DE" }] });
      }
      const command = /^\/ocpi\/2\.2\.1\/commands\/([A-Z_]+)$/.exec(path);
      if (command && req.method === "POST") {
        commands.push({ command: command[1], body });
        send(res, { result: "ACCEPTED", timeout: 30 });
        // The charger's answer comes later, on its own request (OCPI 2.2.1 §13.1).
        setTimeout(() => void callUs(body.response_url, "POST", { result: "ACCEPTED" }).catch(() => undefined), 300);
        return;
      }
      send(res, undefined, 404, 2000);
    })().catch(() => send(res, undefined, 500, 3000));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    versionsUrl: `${origin}/ocpi/versions`,
    tokenA,
    commands,
    push: async (url, body) => (await callUs(url, "PUT", body)).status,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
