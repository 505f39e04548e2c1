import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { constantTimeEqual } from "@oslojs/crypto/subtle";

/**
 * Human passwords: salted PBKDF2-SHA-256 at 100 000 iterations, the Workers cap in production
 * (docs/architecture.md "Toolchain"), with a secret pepper (docs/rules/sessions.md "Passwords").
 * Stored as `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>` so the count can grow later.
 */
const ITERATIONS = 100_000;
const encoder = new TextEncoder();

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number, pepper: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password + "\u0000" + pepper), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export function hashPassword(password: string, pepper: string): Promise<string> {
  return hashPasswordAt(ITERATIONS, password, pepper);
}

/**
 * A hash at a chosen work factor. The product hashes at ITERATIONS only (`hashPassword`); the
 * integration tests hash cheaper, as Rails and Django do in theirs, so that their many logins do
 * not spend about 33 ms each (docs/testing.md "Integration tests"). `verifyPassword` reads the
 * count from the hash.
 */
export async function hashPasswordAt(iterations: number, password: string, pepper: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, iterations, pepper);
  return `pbkdf2-sha256$${iterations}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string, pepper: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterations || !salt || !hash) return false;
  const actual = await derive(password, new Uint8Array(decodeBase64(salt)), Number(iterations), pepper);
  return constantTimeEqual(actual, decodeBase64(hash));
}

/** A throwaway hash so that an unknown username costs as much time as a wrong password. */
export const DUMMY_HASH =
  "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/**
 * Initial passwords for new accounts: letters and digits, a valid password
 * (docs/rules/sessions.md "Initial password").
 */
export function generateInitialPassword(length = 12): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  // Keep at least one digit and one letter.
  return /\d/.test(out) && /[A-Za-z]/.test(out) ? out : generateInitialPassword(length);
}
