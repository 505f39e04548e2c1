import { decodeHex } from "@oslojs/encoding";

/**
 * A charger's key, the Basic-auth password of security profiles 1 and 2, which the server sets in
 * the configuration key AuthorizationKey as hex digits (OCPP 1.6 security whitepaper): 16 to 40
 * bytes. A generated key is 20 random bytes; a chosen one (a charger delivered with its key) is
 * given as hex or as printable text (docs/rules/equipment.md "Charger keys").
 */
export const KEY_FORMATS = ["hex", "text"] as const;
export type KeyFormat = (typeof KEY_FORMATS)[number];

const HEX_KEY = /^(?:[0-9a-fA-F]{2}){16,40}$/;

/** Printable ASCII without the space (0x21 to 0x7E): what survives being typed, copied and sent as a password. */
const PRINTABLE = /^[\x21-\x7e]*$/;

/** A key's bytes from its hex digits (an even number, 32 to 80), or null. */
export function keyFromHex(hex: string): Uint8Array | null {
  return HEX_KEY.test(hex) ? decodeHex(hex.toLowerCase()) : null;
}

/** A key's bytes from a string whose characters are its bytes (16 to 40 of them, each below 256), or null. */
export function keyFromChars(chars: string): Uint8Array | null {
  if (chars.length < 16 || chars.length > 40) return null;
  const bytes = Uint8Array.from(chars, (c) => c.charCodeAt(0));
  return bytes.every((byte, i) => byte === chars.charCodeAt(i)) ? bytes : null;
}

/** The bytes of a key an operator chose: hex digits, or 16 to 40 printable characters without spaces; null when it is neither. */
export function chosenKeyBytes(key: string, format: KeyFormat): Uint8Array | null {
  if (format === "hex") return keyFromHex(key);
  return PRINTABLE.test(key) ? keyFromChars(key) : null;
}
