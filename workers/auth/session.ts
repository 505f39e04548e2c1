import { eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions } from "../../db/schema";
import { acrossTenants, ownedBy, ownedRow } from "../../tenants/scope";
import { generateToken, tokenId } from "./tokens";

/**
 * 7 days; sliding, renewed once less than half remains
 * (docs/rules/sessions.md "Tokens and cookies").
 */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface SessionRow {
  id: string;
  operatorId: number;
  accountId: number;
  expiresAt: Date;
  /** True when this validation pushed the expiry out (the console then renews its cookie). */
  renewed: boolean;
}

export async function createSession(
  db: Db,
  input: { operatorId: number; accountId: number; ip?: string | null; userAgent?: string | null },
  now = Date.now(),
) {
  const token = generateToken();
  const expiresAt = new Date(now + SESSION_LIFETIME_MS);
  await db.insert(sessions).values(
    ownedRow(
      { operator: { id: input.operatorId } },
      { id: tokenId(token), accountId: input.accountId, expiresAt, ip: input.ip ?? null, userAgent: input.userAgent?.slice(0, 200) ?? null },
    ),
  );
  return { token, expiresAt };
}

/**
 * What a found session means at `now`: gone when expired (its row is deleted), renewed when past
 * half its life (its expiry pushed out), otherwise live as it is.
 */
export async function keepSessionAlive(
  db: Db,
  row: Pick<SessionRow, "id" | "operatorId" | "expiresAt">,
  now: number,
): Promise<{ expiresAt: Date; renewed: boolean } | null> {
  if (row.expiresAt.getTime() <= now) {
    await db.delete(sessions).where(ownedBy(row.operatorId, sessions, eq(sessions.id, row.id)));
    return null;
  }
  if (row.expiresAt.getTime() - now < SESSION_LIFETIME_MS / 2) {
    const expiresAt = new Date(now + SESSION_LIFETIME_MS);
    await db.update(sessions).set({ expiresAt }).where(ownedBy(row.operatorId, sessions, eq(sessions.id, row.id)));
    return { expiresAt, renewed: true };
  }
  return { expiresAt: row.expiresAt, renewed: false };
}

export function invalidateAccountSessions(db: Db, operatorId: number, accountId: number) {
  return db.delete(sessions).where(ownedBy(operatorId, sessions, eq(sessions.accountId, accountId)));
}

/** Every session of an operator, when the platform disables it (docs/rules/platform.md "Validity"). */
export function invalidateOperatorSessions(db: Db, operatorId: number) {
  return db.delete(sessions).where(ownedBy(operatorId, sessions));
}

/** Housekeeping of every operator's expired sessions. */
export function purgeExpiredSessions(db: Db, now = Date.now()) {
  return db.delete(sessions).where(acrossTenants("housekeeping ends every operator's expired sessions alike", lt(sessions.expiresAt, new Date(now))));
}
