import { inject, vi } from "vitest";
import type { Mail as FakeMail } from "./fakes";

/** The local SMTP server the integration tests start (tests/integration/support/fakes.ts), and what it received. */
const { smtpPort, httpOrigin } = inject("fakes");

/** What the local SMTP server accepted for a recipient. */
export async function mailsTo(to: string): Promise<FakeMail[]> {
  return (await fetch(`${httpOrigin}/__fake/mails?to=${encodeURIComponent(to)}`)).json();
}

/** Waits until the local SMTP server has a mail for `to` (the queue delivers it on its own). */
export const arrived = (to: string) =>
  vi.waitFor(
    async () => {
      const mails = await mailsTo(to);
      if (!mails.length) throw new Error(`no mail for ${to} yet`);
      return mails;
    },
    { timeout: 20_000, interval: 100 },
  );

export const smtp = (overrides: Record<string, unknown> = {}) => ({
  type: "SMTP",
  host: "127.0.0.1",
  port: smtpPort,
  username: "mailer",
  password: "mail-secret",
  from: "noreply@plugdesk.example",
  tlsMode: "NONE",
  ...overrides,
});

