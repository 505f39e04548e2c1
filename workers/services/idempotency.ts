import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { eq, lt, type SQL } from "drizzle-orm";
import { idempotencyKeys } from "../../db/schema";
import { Conflict, Invalid } from "../../domain/errors";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_PARAM } from "../../domain/idempotency";
import { acrossTenants, owned, ownedRow } from "../../tenants/scope";
import type { SystemCtx, UserCtx } from "./context";

/**
 * Idempotency keys of money-moving requests (docs/rules/input.md "Idempotency keys"). A request
 * that carries a key claims it first, by an insert that only one of two requests at once can make
 * (docs/decisions/0002-d1-without-interactive-transactions.md); the winner runs and keeps its
 * answer, a repeat with the same request answers it again and moves nothing, a repeat while the
 * first still runs and the same key with another request are 409. A refused or failed request
 * keeps nothing: nothing moved, so the same key may be sent again.
 */

/** How long a key's first answer is kept and answered again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const PRINTABLE_KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's key, if it sent one; 400 unless 1 to 255 printable ASCII characters. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get(IDEMPOTENCY_HEADER) ?? new URL(request.url).searchParams.get(IDEMPOTENCY_PARAM);
  if (key === null) return undefined;
  if (!PRINTABLE_KEY.test(key)) throw new Invalid("errors.idempotencyKeyInvalid");
  return key;
}

/** What "the same request" means: method, path and body (the language and other search parameters do not count). */
function fingerprintOf(request: Request, body: unknown): string {
  const text = `${request.method.toUpperCase()} ${new URL(request.url).pathname}\n${JSON.stringify(body ?? null)}`;
  return encodeHexLowerCase(sha256(new TextEncoder().encode(text)));
}

/** A key of this account and operator, whatever its age. */
const keyFilter = (ctx: UserCtx, key: string, ...more: SQL[]) =>
  owned(ctx, idempotencyKeys, eq(idempotencyKeys.accountId, ctx.actor.accountId), eq(idempotencyKeys.key, key), ...more);

/** Claims the key (dropping its expired use first); the row id, or undefined when it is taken. */
async function claim(ctx: UserCtx, key: string, fingerprint: string): Promise<number | undefined> {
  const now = ctx.now();
  const [, claimed] = await ctx.db.batch([
    ctx.db.delete(idempotencyKeys).where(keyFilter(ctx, key, lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_TTL_MS)))),
    ctx.db
      .insert(idempotencyKeys)
      .values(ownedRow(ctx, { accountId: ctx.actor.accountId, key, fingerprint, createdAt: new Date(now) }))
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id }),
  ]);
  return claimed[0]?.id;
}

/**
 * Runs a money-moving request once per key: `run` when the request carries no key or claims it,
 * the first answer again (`replayed`) when the same request comes back within 24 h.
 */
export async function once<T>(ctx: UserCtx, request: Request, body: unknown, run: () => Promise<T>): Promise<{ value: T; replayed: boolean }> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return { value: await run(), replayed: false };
  const fingerprint = fingerprintOf(request, body);
  // Twice at most: the row found taken may expire or be released between the claim and the read.
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = await claim(ctx, key, fingerprint);
    if (id !== undefined) return { value: await runClaimed(ctx, id, run), replayed: false };
    const [first] = await ctx.db.select().from(idempotencyKeys).where(keyFilter(ctx, key));
    if (!first) continue;
    if (first.fingerprint !== fingerprint) throw new Conflict("errors.idempotencyKeyReused");
    if (first.answer === null) throw new Conflict("errors.idempotencyKeyInFlight");
    return { value: JSON.parse(first.answer) as T, replayed: true };
  }
  throw new Conflict("errors.idempotencyKeyInFlight");
}

async function runClaimed<T>(ctx: UserCtx, id: number, run: () => Promise<T>): Promise<T> {
  let value: T;
  try {
    value = await run();
  } catch (error) {
    await ctx.db.delete(idempotencyKeys).where(owned(ctx, idempotencyKeys, eq(idempotencyKeys.id, id)));
    throw error;
  }
  await ctx.db
    .update(idempotencyKeys)
    .set({ answer: JSON.stringify(value ?? null) })
    .where(owned(ctx, idempotencyKeys, eq(idempotencyKeys.id, id)));
  return value;
}

/** Housekeeping: keys older than 24 h are forgotten, as a statement of its batch. */
export function purgeIdempotencyKeys(ctx: Pick<SystemCtx, "db" | "now">) {
  // Every operator's keys expire alike; the sweep reads by age alone (idempotency_keys_created_idx).
  return ctx.db.delete(idempotencyKeys).where(acrossTenants("every operator's idempotency keys expire alike, read by age alone", lt(idempotencyKeys.createdAt, new Date(ctx.now() - IDEMPOTENCY_TTL_MS))));
}
