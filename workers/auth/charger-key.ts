import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeHex, encodeHexLowerCase } from "@oslojs/encoding";

/**
 * Charger keys (OCPP 1.6 security profiles 1 and 2): 20 random bytes, shown once as 40 hex
 * characters, stored only as HMAC-SHA-256 under a secret pepper: high entropy needs no slow hash,
 * and a leaked table gives nothing to log in with
 * (docs/decisions/0008-charger-keys-as-keyed-hmac.md).
 */
export function generateChargerKey(): string {
  return encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(20)));
}

export function hashChargerKey(key: Uint8Array, pepper: string): string {
  return encodeHexLowerCase(hmac(SHA256, new TextEncoder().encode(pepper), key));
}

/** The key bytes of a Basic-auth password: 40 hex characters, or the 20 raw bytes some chargers send. */
export function keyBytesOf(password: string): Uint8Array | null {
  if (/^[0-9a-fA-F]{40}$/.test(password)) return decodeHex(password.toLowerCase());
  if (password.length === 20 && [...password].every((c) => c.charCodeAt(0) < 256)) {
    return Uint8Array.from(password, (c) => c.charCodeAt(0));
  }
  return null;
}

/**
 * Reads `Authorization: Basic …` as OCPP 1.6 security profile 1 sends it: the username is the
 * chargeBoxId; the password may hold any byte, so only the first colon splits.
 */
export function basicCredentials(header: string | null): { username: string; password: string } | null {
  if (!header?.startsWith("Basic ")) return null;
  let decoded: string;
  try {
    decoded = atob(header.slice(6).trim());
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function chargerKeyMatches(password: string, storedHash: string | null, pepper: string): boolean {
  const bytes = keyBytesOf(password);
  if (!bytes || !storedHash) return false;
  return constantTimeEqual(new TextEncoder().encode(hashChargerKey(bytes, pepper)), new TextEncoder().encode(storedHash));
}
