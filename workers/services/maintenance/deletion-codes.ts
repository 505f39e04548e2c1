import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { generateRandomString, type RandomReader } from "@oslojs/crypto/random";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { count, eq, gt } from "drizzle-orm";
import { deletionCodes } from "../../../db/schema";
import { TooManyAttempts } from "../../../domain/errors";
import { acrossTenants, owned } from "../../../tenants/scope";
import { UNKNOWN_CLIENT } from "../../http/client";
import { publicCode } from "../charge-records/lifecycle";
import type { SystemCtx } from "../context";
import { sendMail } from "../mail/mail";

/**
 * The confirmation code of a deletion request (docs/rules/maintenance.md "Account deletion"): when
 * the operator has a mail server and the customer an e-mail, six digits are mailed to that address
 * and the request reaches the operator only once they are typed on the page. Requests are limited
 * per operator and contact and per client address; no answer tells whether the contact is known.
 */

/** How long a mailed code stays good. */
export const CODE_MINUTES = 15;
/** Requests allowed per operator and contact, and per client address, within `LIMIT_WINDOW_MS`. */
export const REQUEST_LIMIT = 5;
export const LIMIT_WINDOW_MS = 60 * 60 * 1000;
/** Wrong codes a ticket takes before it is spent. */
export const CODE_TRIES = 5;

const random: RandomReader = { read: (bytes) => void crypto.getRandomValues(bytes as Uint8Array<ArrayBuffer>) };
const newCode = () => generateRandomString(random, "0123456789", 6);

/** The code is short: it is kept only as an HMAC under the server's pepper, bound to its ticket. */
const codeHash = (pepper: string, ticket: string, code: string) =>
  encodeHexLowerCase(hmac(SHA256, new TextEncoder().encode(pepper), new TextEncoder().encode(`${ticket}.${code}`)));

/** Contacts compare as the customer lookup does: e-mails without case. */
export const contactKey = (contact: string) => (contact.includes("@") ? contact.toLowerCase() : contact);

/**
 * 429 when the operator and contact, or the client, asked `REQUEST_LIMIT` times within the hour.
 * Where nothing vouches for the client's address (docs/rules/sessions.md), every client is one, so
 * only the contact counts.
 */
export async function assertUnderLimit(system: SystemCtx, contact: string, client: string) {
  const since = new Date(system.now() - LIMIT_WINDOW_MS);
  const [[byContact], [byClient]] = await system.db.batch([
    system.db.select({ n: count() }).from(deletionCodes).where(owned(system, deletionCodes, eq(deletionCodes.contact, contact), gt(deletionCodes.createdAt, since))),
    system.db.select({ n: count() }).from(deletionCodes).where(acrossTenants("one client asking many operators for deletion codes is still one client", eq(deletionCodes.client, client), gt(deletionCodes.createdAt, since))),
  ]);
  if (byContact.n >= REQUEST_LIMIT || (client !== UNKNOWN_CLIENT && byClient.n >= REQUEST_LIMIT)) {
    throw new TooManyAttempts("mail.errors.tooManyDeletionRequests", { minutes: LIMIT_WINDOW_MS / 60_000 });
  }
}

/** The row every request leaves (what the limits count), to stamp with its operator; `code` when one is mailed. */
export function deletionCodeRow(
  system: SystemCtx,
  request: { contact: string; client: string; customerId: number | null; reason: string | null; code: string | null },
) {
  const ticket = publicCode();
  const now = system.now();
  return {
    ticket,
    row: {
      ticket,
      contact: request.contact,
      client: request.client,
      customerId: request.customerId,
      reason: request.reason,
      codeHash: request.code === null ? null : codeHash(system.env.PASSWORD_PEPPER, ticket, request.code),
      expiresAt: new Date(now + CODE_MINUTES * 60_000),
      createdAt: new Date(now),
    },
  };
}

/** Mails a fresh code to the customer; answers it so that the row can keep its hash. */
export async function mailDeletionCode(system: SystemCtx, to: string) {
  const code = newCode();
  const { queued } = await sendMail(system, { to, template: "deletionCode", params: { code, minutes: CODE_MINUTES } });
  return queued ? code : null;
}

/** Whether `code` is the one mailed for `ticket` (compared in constant time). */
export function codeMatches(pepper: string, ticket: string, code: string, hash: string) {
  return constantTimeEqual(new TextEncoder().encode(codeHash(pepper, ticket, code)), new TextEncoder().encode(hash));
}

/** Whether a ticket can still be confirmed: a code was sent, unused, unexpired, tries left. */
export const usable = (row: typeof deletionCodes.$inferSelect | undefined, now: number): row is typeof deletionCodes.$inferSelect =>
  row !== undefined && row.codeHash !== null && row.confirmedAt === null && row.attempts < CODE_TRIES && row.expiresAt.getTime() > now;
