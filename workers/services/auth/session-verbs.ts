import { and, eq } from "drizzle-orm";
import { accounts, operators, sessions } from "../../../db/schema";
import { changePasswordInput } from "../../../domain/schemas/account-service";
import { Invalid } from "../../../domain/errors";
import { hashPassword, verifyPassword } from "../../auth/password";
import { createSession, invalidateAccountSessions } from "../../auth/session";
import { tokenId } from "../../auth/tokens";
import { auditRow, sessionAuditRow } from "../audit";
import type { Ctx, PublicCtx } from "../context";

/** DELETE /user-service/auth/token/{accessToken}: ends that session, with its LOGOUT log row. */
export async function logout(ctx: PublicCtx, token: string) {
  const [row] = await ctx.db
    .select({ account: accounts, operatorCode: operators.code })
    .from(sessions)
    .innerJoin(accounts, and(eq(accounts.id, sessions.accountId), eq(accounts.operatorId, sessions.operatorId)))
    .innerJoin(operators, eq(operators.id, sessions.operatorId))
    .where(eq(sessions.id, tokenId(token)))
    .limit(1);
  if (!row) return;
  await ctx.db.batch([
    ctx.db.delete(sessions).where(eq(sessions.id, tokenId(token))),
    sessionAuditRow(ctx.db, {
      type: "LOGOUT",
      operator: { id: row.account.operatorId, code: row.operatorCode },
      account: row.account,
      request: ctx.request,
    }),
  ]);
}

/** GET /user-service/auth/token/refresh: a new token for the same session owner; the old one ends. */
export async function refreshToken(ctx: Ctx) {
  const next = await createSession(
    ctx.db,
    { operatorId: ctx.operator.id, accountId: ctx.actor.accountId, ip: ctx.request.ip, userAgent: ctx.request.userAgent },
    ctx.now(),
  );
  await ctx.db.delete(sessions).where(eq(sessions.id, tokenId(ctx.token)));
  return { accessToken: next.token, expiresAt: next.expiresAt.toISOString() };
}

/**
 * PUT /user-service/person/operator/password (SPEC.md §5). After a change every session of
 * the account ends, so the user logs in again with the new password.
 */
export async function changePassword(ctx: Ctx, raw: unknown) {
  const input = changePasswordInput.parse(raw);
  const [account] = await ctx.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, ctx.actor.accountId), eq(accounts.operatorId, ctx.operator.id)))
    .limit(1);
  if (!account || !(await verifyPassword(input.oldPassword, account.passwordHash, ctx.env.PASSWORD_PEPPER))) {
    throw new Invalid("errors.oldPasswordWrong", {}, { oldPassword: "errors.oldPasswordWrong" });
  }
  if (input.oldPassword === input.newPassword) {
    throw new Invalid("validation.passwordUnchanged", {}, { newPassword: "validation.passwordUnchanged" });
  }
  const passwordHash = await hashPassword(input.newPassword, ctx.env.PASSWORD_PEPPER);
  await ctx.db.batch([
    ctx.db
      .update(accounts)
      .set({ passwordHash, mustChangePassword: false, updatedAt: new Date(ctx.now()) })
      .where(and(eq(accounts.id, account.id), eq(accounts.operatorId, ctx.operator.id))),
    invalidateAccountSessions(ctx.db, ctx.operator.id, account.id),
    auditRow(ctx, { table: "accounts", module: "person", type: "UPDATE", newData: { id: account.id, password: "changed" } }),
  ]);
}
