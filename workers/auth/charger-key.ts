import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { keyFromChars, keyFromHex } from "../../domain/ocpp/authorization-key";

/**
 * Charger keys (OCPP 1.6 security profiles 1 and 2): 20 random bytes, shown once as 40 hex
 * characters, stored only as HMAC-SHA-256 under a secret pepper: high entropy needs no slow hash,
 * and a leaked table gives nothing to log in with
 * (docs/decisions/0008-charger-keys-as-keyed-hmac.md). A key the operator chose (16 to 40 bytes,
 * `domain/ocpp/authorization-key.ts`) is kept the same way.
 */
export function generateChargerKeyBytes(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(20));
}

export function generateChargerKey(): string {
  return encodeHexLowerCase(generateChargerKeyBytes());
}

export function hashChargerKey(key: Uint8Array, pepper: string): string {
  return encodeHexLowerCase(hmac(SHA256, new TextEncoder().encode(pepper), key));
}

/** The bytes of a key given as hex digits (as the server shows it), else of a string that is the key's own bytes. */
export function keyBytesOf(key: string): Uint8Array | null {
  return keyFromHex(key) ?? keyFromChars(key);
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

/**
 * The keys a Basic-auth password may stand for (16 to 40 bytes): its characters as the key's
 * bytes, as a charger sends the key it holds, and its hex digits decoded, as chargers that send
 * the AuthorizationKey value as it was given do. A password that reads both ways is tried both ways.
 */
function keysOfPassword(password: string): Uint8Array[] {
  return [keyFromHex(password), keyFromChars(password)].filter((bytes) => bytes !== null);
}

export function chargerKeyMatches(password: string, storedHash: string | null, pepper: string): boolean {
  if (!storedHash) return false;
  const stored = new TextEncoder().encode(storedHash);
  // Every reading is hashed and compared, so the time taken does not say which one matched.
  return keysOfPassword(password).reduce((matched, bytes) => constantTimeEqual(new TextEncoder().encode(hashChargerKey(bytes, pepper)), stored) || matched, false);
}
