import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/** An opaque token of 20 random bytes (Lucia's session guide). */
export function generateToken(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

/** What is stored instead of the token itself. */
export function tokenId(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
