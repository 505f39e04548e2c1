import { AwsClient } from "aws4fetch";
import { LogLevel, WorkerMailer } from "worker-mailer";
import { OUTGOING_CALL_MS, outgoingCallSignal } from "../../http/outgoing";

/**
 * Sending one mail (docs/rules/settings.md "Mail", docs/decisions/0038-mail-from-the-worker.md):
 * SMTP from the Worker over `cloudflare:sockets` with worker-mailer, or Amazon SES v2 over HTTPS
 * signed with SigV4 (aws4fetch). Whatever the server refuses becomes a `MailRefused` carrying its
 * words, which the test send answers as a 409 and the queue retries.
 */

export interface SmtpTransport {
  type: "SMTP";
  host: string;
  port: number;
  username: string;
  password: string | null;
  tlsMode: "NONE" | "STARTTLS" | "TLS";
  from: string;
}

export interface SesTransport {
  type: "AMAZON";
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  endpoint: string | null;
  from: string;
}

export type MailTransport = SmtpTransport | SesTransport;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export class MailRefused extends Error {
  override name = "MailRefused";
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

async function sendSmtp(t: SmtpTransport, mail: OutgoingMail) {
  let mailer: WorkerMailer | undefined;
  try {
    mailer = await WorkerMailer.connect({
      host: t.host,
      port: t.port,
      secure: t.tlsMode === "TLS",
      startTls: t.tlsMode === "STARTTLS",
      credentials: t.username ? { username: t.username, password: t.password ?? "" } : undefined,
      authType: ["plain", "login", "cram-md5"],
      logLevel: LogLevel.NONE,
      socketTimeoutMs: OUTGOING_CALL_MS,
      responseTimeoutMs: OUTGOING_CALL_MS,
    });
    // worker-mailer goes on in clear when a server does not offer STARTTLS; a mail that was asked
    // to travel encrypted must not (docs/rules/settings.md "Mail").
    if (t.tlsMode === "STARTTLS" && !Reflect.get(mailer, "supportsStartTls")) throw new Error("The server does not offer STARTTLS");
    await mailer.send({ from: t.from, to: mail.to, subject: mail.subject, text: mail.text });
  } catch (error) {
    throw new MailRefused(describe(error));
  } finally {
    await mailer?.close().catch(() => undefined);
  }
}

async function sendSes(t: SesTransport, mail: OutgoingMail) {
  // The queue retries; aws4fetch's own retries would only hold the batch.
  const client = new AwsClient({ accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey, service: "ses", region: t.region, retries: 0 });
  const url = `${(t.endpoint ?? `https://email.${t.region}.amazonaws.com`).replace(/\/$/, "")}/v2/email/outbound-emails`;
  const body = {
    FromEmailAddress: t.from,
    Destination: { ToAddresses: [mail.to] },
    Content: {
      Simple: {
        Subject: { Data: mail.subject, Charset: "UTF-8" },
        Body: { Text: { Data: mail.text, Charset: "UTF-8" } },
      },
    },
  };
  let response: Response;
  try {
    response = await client.fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: outgoingCallSignal(),
    });
  } catch (error) {
    throw new MailRefused(describe(error));
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { message?: string; Message?: string } | null;
    throw new MailRefused(answer?.message ?? answer?.Message ?? `SES answered ${response.status}`);
  }
}

export async function deliver(transport: MailTransport, mail: OutgoingMail): Promise<void> {
  if (transport.type === "SMTP") await sendSmtp(transport, mail);
  else await sendSes(transport, mail);
}
