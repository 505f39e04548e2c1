import { eq } from "drizzle-orm";
import { accounts, operators, sessions } from "../../../db/schema";
import { changePasswordInput } from "../../../domain/schemas/account-service";
import { Invalid } from "../../../domain/errors";
import { acrossTenants, owned, ownedBy } from "../../../tenants/scope";
import { hashPassword, verifyPassword } from "../../auth/password";
import { createSession, invalidateAccountSessions } from "../../auth/session";
import { tokenId } from "../../auth/tokens";
import { auditRow, sessionAuditRow } from "../audit";
import { verb } from "../verb";

/**
 * DELETE /user-service/auth/token/{accessToken}: ends that session, with its LOGOUT log row.
 * Whoever holds a token may end it; the token names its own session and operator.
 */
export const logout = verb({ actors: ["public"] }, async (ctx, token: string) => {
  const [row] = await ctx.db
    .select({ session: sessions, account: accounts, operatorCode: operators.code })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .innerJoin(operators, eq(operators.id, sessions.operatorId))
    .where(acrossTenants("the token names its session, the session its operator: logout before any tenant is known", eq(sessions.id, tokenId(token)), eq(accounts.operatorId, sessions.operatorId)))
    .limit(1);
  if (!row) return null;
  await ctx.db.batch([
    ctx.db.delete(sessions).where(ownedBy(row.session.operatorId, sessions, eq(sessions.id, tokenId(token)))),
    sessionAuditRow(ctx.db, {
      type: "LOGOUT",
      operator: { id: row.account.operatorId, code: row.operatorCode },
      account: row.account,
      request: ctx.request,
    }),
  ]);
  return null;
});

/**
 * GET /user-service/auth/token/refresh: a new token for the same session owner; the old one
 * ends. Ending a session is a change, so a cookie caller must come from the console's origin.
 */
export const refreshToken = verb({ menu: "session", mutates: true, beforePasswordChange: true }, async (ctx) => {
  const next = await createSession(
    ctx.db,
    { operatorId: ctx.operator.id, accountId: ctx.actor.accountId, ip: ctx.request.ip, userAgent: ctx.request.userAgent },
    ctx.now(),
  );
  await ctx.db.delete(sessions).where(owned(ctx, sessions, eq(sessions.id, tokenId(ctx.token))));
  return { accessToken: next.token, expiresAt: next.expiresAt.toISOString() };
});

/**
 * PUT /user-service/person/operator/password. After a change every session of the account
 * ends, so the user logs in again with the new password.
 */
export const changePassword = verb({ menu: "session", mutates: true, beforePasswordChange: true }, async (ctx, raw: unknown) => {
  const input = changePasswordInput.parse(raw);
  const [account] = await ctx.db.select().from(accounts).where(owned(ctx, accounts, eq(accounts.id, ctx.actor.accountId))).limit(1);
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
      .where(owned(ctx, accounts, eq(accounts.id, account.id))),
    invalidateAccountSessions(ctx.db, ctx.operator.id, account.id),
    auditRow(ctx, { table: "accounts", module: "person", type: "UPDATE", newData: { id: account.id, password: "changed" } }),
  ]);
  return null;
});
