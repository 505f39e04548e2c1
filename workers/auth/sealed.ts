import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

/**
 * Secrets at rest (docs/rules/settings.md "Secrets at rest",
 * docs/decisions/0036-secrets-sealed-with-aes-gcm.md): passwords the product must later use in
 * clear (SMTP, SES, the invoice system) and the bill-push signature key are
 * sealed with AES-256-GCM under the deployment's `SECRETS_KEY`. The additional data names the
 * operator and the purpose, so a sealed value copied into another operator's row, or into another
 * field, does not open.
 */

const VERSION = "v1";
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new Error("SECRETS_KEY is not configured: set it with `wrangler secret put SECRETS_KEY`");
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(secret))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(secret, key);
  }
  return key;
}

/** What a sealed value is bound to: its operator and its field. */
export const sealContext = (operatorId: number, purpose: string) => `operator:${operatorId}:${purpose}`;

export async function sealBytes(env: Pick<Env, "SECRETS_KEY">, context: string, plain: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) }, await keyOf(env.SECRETS_KEY), plain);
  const out = new Uint8Array(12 + cipher.byteLength);
  out.set(iv);
  out.set(new Uint8Array(cipher), 12);
  return out;
}

export async function openBytes(env: Pick<Env, "SECRETS_KEY">, context: string, sealed: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: sealed.slice(0, 12), additionalData: new TextEncoder().encode(context) },
    await keyOf(env.SECRETS_KEY),
    sealed.slice(12),
  );
  return new Uint8Array(plain);
}

/** A text secret as `v1.<base64url of iv and ciphertext>`. */
export async function seal(env: Pick<Env, "SECRETS_KEY">, context: string, plain: string): Promise<string> {
  return `${VERSION}.${encodeBase64urlNoPadding(await sealBytes(env, context, new TextEncoder().encode(plain)))}`;
}

export async function unseal(env: Pick<Env, "SECRETS_KEY">, context: string, sealed: string): Promise<string> {
  const [version, body] = sealed.split(".");
  if (version !== VERSION || !body) throw new Error("not a sealed value");
  return new TextDecoder().decode(await openBytes(env, context, decodeBase64urlIgnorePadding(body)));
}

/**
 * The stored value after a write-only secret field of a body: a string seals a new secret, ""
 * removes it, null or absent keeps what is stored.
 */
export async function nextSecret(env: Pick<Env, "SECRETS_KEY">, context: string, given: string | null | undefined, stored: string | null) {
  if (given === undefined || given === null) return stored;
  if (given === "") return null;
  return seal(env, context, given);
}
