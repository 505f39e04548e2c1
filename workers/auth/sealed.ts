import { decodeBase64, encodeBase64 } from "@oslojs/encoding";

/**
 * Secrets the product must use later but never show again (an operator's EIPA password):
 * AES-256-GCM with a key derived by HKDF from the platform's secret pepper, a fresh 12-byte
 * nonce each time, stored as `aes-gcm$<nonce b64>$<ciphertext b64>`
 * (docs/decisions/0034-operator-secrets-sealed-with-the-pepper.md).
 */
const encoder = new TextEncoder();

async function sealingKey(pepper: string, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(pepper), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("plugdesk sealed v1"), info: encoder.encode(purpose) },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

export async function seal(plain: string, pepper: string, purpose: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(pepper, purpose), encoder.encode(plain));
  return `aes-gcm$${encodeBase64(iv)}$${encodeBase64(new Uint8Array(cipher))}`;
}

export async function unseal(sealed: string, pepper: string, purpose: string): Promise<string> {
  const [scheme, iv, cipher] = sealed.split("$");
  if (scheme !== "aes-gcm" || !iv || !cipher) throw new Error("Not a sealed value");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: new Uint8Array(decodeBase64(iv)) },
    await sealingKey(pepper, purpose),
    new Uint8Array(decodeBase64(cipher)),
  );
  return new TextDecoder().decode(plain);
}
