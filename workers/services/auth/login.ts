import { and, count, eq, gt, isNotNull, lt, or, sql } from "drizzle-orm";
import { accounts, loginAttempts } from "../../../db/schema";
import { loginInput } from "../../../domain/schemas/account-service";
import { Forbidden, Invalid, TooManyAttempts } from "../../../domain/errors";
import { VALIDITY_ERRORS, validityOf } from "../../../domain/operator-validity";
import { operatorByCode, operatorById, type OperatorRow } from "../../../tenants/resolve";
import { acrossTenants, owned, ownedRow } from "../../../tenants/scope";
import { DUMMY_HASH, verifyPassword } from "../../auth/password";
import { createSession } from "../../auth/session";
import { contextFromToken, type PublicCtx } from "../context";
import { verb } from "../verb";
import { sessionAuditRow } from "../audit";
import { consumeCaptcha } from "./captcha";
import { userInfo } from "./user-info";

/**
 * Ten failures in fifteen minutes lock the account for that client; where nothing vouches for the
 * client's address, for every client (docs/rules/sessions.md).
 */
export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;

/**
 * POST /user-service/auth/login/operator. An account logs in only through its own operator:
 * the operator comes from the code (or the branded domain the request came through), and the
 * account is looked up inside it, by username or e-mail. Wrong username and wrong password give
 * one message.
 */
export const login = verb({ actors: ["public"] }, async (ctx, raw: unknown, domainOperator?: OperatorRow) => {
  const input = loginInput.parse(raw);
  await consumeCaptcha(ctx, input.captchaId, input.captcha);

  const operator = await operatorByCode(ctx.db, input.operatorCode);
  const wrongDomain = domainOperator && domainOperator.id !== operator?.id;
  if (!operator || wrongDomain) {
    await verifyPassword(input.password, DUMMY_HASH, ctx.env.PASSWORD_PEPPER);
    throw new Invalid("errors.badCredentials");
  }
  await assertInService(ctx, operator);

  const tenant = { operator };
  // The identifier is a username or an e-mail address; a username match wins over another
  // account's e-mail (docs/rules/sessions.md "Login"). `email IS NOT NULL` lets the e-mail side
  // use the partial index accounts_operator_email_uq.
  const identifier = input.username;
  const [account] = await ctx.db
    .select()
    .from(accounts)
    .where(owned(tenant, accounts, or(eq(accounts.username, identifier), and(isNotNull(accounts.email), sql`lower(${accounts.email}) = lower(${identifier})`))))
    .orderBy(sql`${accounts.username} = ${identifier} desc`)
    .limit(1);
  // Failures count against the account found, however it was named, else against the identifier
  // lowercased, so neither switching case nor switching to the e-mail earns more attempts
  // (docs/rules/sessions.md "Lockout"). Both paths cost the same queries.
  const lockKey = (account?.username ?? identifier).toLowerCase();
  const attemptKey = owned(tenant, loginAttempts, eq(loginAttempts.username, lockKey), eq(loginAttempts.client, ctx.request.ip));
  const [{ failures }] = await ctx.db
    .select({ failures: count() })
    .from(loginAttempts)
    .where(owned(tenant, loginAttempts, attemptKey, gt(loginAttempts.createdAt, new Date(ctx.now() - LOCKOUT_WINDOW_MS))));
  if (failures >= LOCKOUT_FAILURES) throw new TooManyAttempts("errors.locked", { minutes: 15 });

  const passwordOk = await verifyPassword(input.password, account?.passwordHash ?? DUMMY_HASH, ctx.env.PASSWORD_PEPPER);
  if (!account || !passwordOk) {
    await ctx.db.insert(loginAttempts).values(ownedRow(tenant, { username: lockKey, client: ctx.request.ip, createdAt: new Date(ctx.now()) }));
    throw new Invalid("errors.badCredentials");
  }
  if (account.status !== "VALID") throw new Forbidden("errors.accountDisabled");

  const { token, expiresAt } = await createSession(
    ctx.db,
    { operatorId: operator.id, accountId: account.id, ip: ctx.request.ip, userAgent: ctx.request.userAgent },
    ctx.now(),
  );
  await ctx.db.batch([
    ctx.db.delete(loginAttempts).where(attemptKey),
    ctx.db.update(accounts).set({ lastLoginAt: new Date(ctx.now()) }).where(owned(tenant, accounts, eq(accounts.id, account.id))),
    sessionAuditRow(ctx.db, { type: "LOGIN", operator, account, request: ctx.request }),
  ]);
  const tenantCtx = await contextFromToken(ctx, token);
  return { accessToken: token, expiresAt: expiresAt.toISOString(), user: await userInfo(tenantCtx) };
});

/**
 * A disabled operator, one past its end or before its beginning, cannot log in, each with its
 * own message; nor can a sub-operator whose parent is out of service
 * (docs/rules/platform.md "Validity").
 */
async function assertInService(ctx: PublicCtx, operator: OperatorRow) {
  const owners = [operator];
  if (operator.sub === 1 && operator.parentId) {
    const parent = await operatorById(ctx.db, operator.parentId);
    if (parent) owners.push(parent);
  }
  for (const owner of owners) {
    const validity = validityOf(owner, ctx.now());
    if (validity !== "valid") {
      throw new Forbidden(VALIDITY_ERRORS[validity], { date: (validity === "future" ? owner.validFrom : owner.validUntil)?.toISOString().slice(0, 10) ?? "" });
    }
  }
}

/** Housekeeping of every operator's old failures. */
export function purgeOldLoginAttempts(ctx: Pick<PublicCtx, "db" | "now">) {
  return ctx.db.delete(loginAttempts).where(acrossTenants("housekeeping forgets every operator's old login failures alike", lt(loginAttempts.createdAt, new Date(ctx.now() - LOCKOUT_WINDOW_MS))));
}
