import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { TestProject } from "vitest/node";
import { stripeApi } from "../../../scripts/stripe-double/api";
import { paypalApi } from "./paypal";

/**
 * Local stand-ins for the servers the product talks to, started in Node before the integration
 * tests (docs/rules/settings.md "Tests"): an SMTP server, and one HTTP server that plays the
 * bill-push receiver, the Serbian invoice system and Amazon SES. Nothing leaves the machine.
 *
 * The tests, running in the Workers runtime, read what arrived and script the next answers
 * through the HTTP server's `/__fake/…` routes:
 * - `GET /__fake/mails?to=` the mails the SMTP server accepted for that recipient;
 * - `GET /__fake/requests?path=` the requests received on that path (method, headers, body);
 * - `POST /__fake/answers?path=` with `[{ status, body }]`: the next answers on that path, in order
 *   (afterwards: 200 `{}`).
 * The SMTP server refuses any recipient whose address starts with `refuse`, with 550, and accepts
 * only the login `mailer` / `mail-secret` when a client authenticates.
 * Under `/stripe/` the HTTP server plays Stripe's API (see `stripe` below), under `/paypal/`
 * PayPal's (tests/integration/support/paypal.ts); scripted answers win.
 */
declare module "vitest" {
  export interface ProvidedContext {
    fakes: { smtpPort: number; httpOrigin: string };
  }
}

export interface Mail {
  from: string;
  to: string[];
  user: string | null;
  data: string;
  /** The Subject header and the text part, decoded (RFC 2047 words, quoted-printable, base64). */
  subject: string;
  text: string;
}

const bytesOfQuoted = (text: string) => {
  const bytes: number[] = [];
  const plain = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < plain.length; i++) {
    if (plain[i] === "=" && /^[0-9A-F]{2}$/i.test(plain.slice(i + 1, i + 3))) {
      bytes.push(parseInt(plain.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(plain[i]));
  }
  return Buffer.from(bytes).toString("utf8");
};

const decodeWords = (header: string) =>
  header.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_all, kind: string, text: string) =>
    kind.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : bytesOfQuoted(text.replace(/_/g, " ")),
  );

function decode(data: string): { subject: string; text: string } {
  const subject = decodeWords((/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(data)?.[1] ?? "").replace(/\r\n[ \t]/g, ""));
  const part = /Content-Type: text\/plain[^\r\n]*\r\nContent-Transfer-Encoding: ([\w-]+)\r\n\r\n([\s\S]*?)\r\n--/i.exec(data);
  if (!part) return { subject, text: "" };
  const [, encoding, body] = part;
  const text = /quoted/i.test(encoding) ? bytesOfQuoted(body) : /base64/i.test(encoding) ? Buffer.from(body, "base64").toString("utf8") : body;
  return { subject, text };
}
interface Received {
  method: string;
  headers: Record<string, string>;
  body: string;
}

const mails: Mail[] = [];
const requests = new Map<string, Received[]>();
const answers = new Map<string, { status: number; body: unknown }[]>();

/** Stripe's API: the logic the local test double shares (scripts/stripe-double/api.ts). */
const stripe = stripeApi();

let smtp: SMTPServer | undefined;
let http: Server | undefined;
let httpOrigin = "";

/** PayPal's REST API (tests/integration/support/paypal.ts). */
const paypal = paypalApi(() => httpOrigin);

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => resolve(text));
  });

/**
 * A local SMTP server on a free port (also started by browser tests): it accepts the login
 * `mailer` / `mail-secret` only, refuses recipients starting with `refuse` (550), and hands every
 * mail it takes, decoded, to `received`.
 */
export async function startSmtp(received: (mail: Mail) => void) {
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "mail-secret") callback(null, { user: auth.username });
      else callback(new Error("535 Authentication failed"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("refuse")) {
        const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      } else callback();
    },
    onData(stream, session, callback) {
      let data = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (data += chunk));
      stream.on("end", () => {
        received({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === "string" ? session.user : null,
          data,
          ...decode(data),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.server.address() as AddressInfo).port };
}

export async function setup(project: TestProject) {
  const started = await startSmtp((mail) => mails.push(mail));
  smtp = started.server;
  const smtpPort = started.port;

  http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = await read(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (url.pathname === "/__fake/mails") return json(200, mails.filter((m) => m.to.includes(url.searchParams.get("to") ?? "")));
    if (url.pathname === "/__fake/requests") return json(200, requests.get(url.searchParams.get("path") ?? "") ?? []);
    if (url.pathname === "/__fake/answers") {
      answers.set(url.searchParams.get("path") ?? "", JSON.parse(body));
      return json(200, {});
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    requests.set(url.pathname, [...(requests.get(url.pathname) ?? []), { method: req.method ?? "", headers, body }]);
    const next = answers.get(url.pathname)?.shift();
    if (!next && url.pathname.startsWith("/stripe/")) {
      const answer = stripe.handle(req.method ?? "", url.pathname.slice("/stripe".length), headers, body);
      return json(answer.status, answer.body);
    }
    if (!next && url.pathname.startsWith("/paypal/")) {
      const answer = paypal.handle(req.method ?? "", url.pathname.slice("/paypal".length), headers, body);
      return json(answer.status, answer.body);
    }
    return json(next?.status ?? 200, next?.body ?? {});
  });
  await new Promise<void>((resolve) => http!.listen(0, "127.0.0.1", resolve));
  const httpPort = (http.address() as AddressInfo).port;
  httpOrigin = `http://127.0.0.1:${httpPort}`;

  project.provide("fakes", { smtpPort, httpOrigin: `http://127.0.0.1:${httpPort}` });
}

export async function teardown() {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
}
