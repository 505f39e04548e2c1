import { and, eq } from "drizzle-orm";
import { createDb, type Db } from "../../db/client";
import { accounts, roles } from "../../db/schema";
import type { Language } from "../../domain/languages";
import { Forbidden, Unauthorized } from "../../domain/errors";
import { inService } from "../../domain/operator-validity";
import type { MenuEntry } from "../../tenants/menu-catalogue";
import { catalogueKeyOf, hasMenuCode, menuTreeFor } from "../../tenants/permissions";
import { operatorById, platformOperator, type OperatorRow } from "../../tenants/resolve";
import { owned } from "../../tenants/scope";
import { validateSessionToken } from "../auth/session";
import { clientAddress } from "../http/client";
import { requestLanguage } from "../i18n";
import { reportError } from "../http/report-error";

/**
 * The one door (docs/architecture.md "One door"): every caller reaches the records through a
 * verb that takes a `ctx`, whoever it is. The actor says who acts: a `user` of the console or
 * the API, the `system` (a charger's Durable Object, a queue consumer, cron), later an OCPI
 * `partner`, or the `public` (login, captcha, driver pages).
 */

/** What a verb knows of the request that called it (for the operation log). */
export interface RequestMeta {
  ip: string;
  /** Scheme, host and port the request came to (links in mails); absent for the system. */
  origin?: string;
  url: string;
  method: string;
  userAgent: string | null;
  body?: unknown;
}

export type ActorKind = "user" | "system" | "partner" | "public";

export interface UserActor {
  kind: "user";
  accountId: number;
  username: string;
  name: string;
  email: string | null;
  adminType: "SUPER" | "NORMAL";
  role: { id: number; type: "SUPER" | "NORMAL" | "MAINTAINER"; menuCodes: string[] } | null;
  sub: 0 | 1;
  menu: MenuEntry[];
  mustChangePassword: boolean;
}

/** The product acting on its own: `charger PL002-CP01`, `billing`, `cron`. */
export interface SystemActor {
  kind: "system";
  name: string;
}

export interface PublicActor {
  kind: "public";
}

/**
 * An OCPI roaming partner, known by the token it sent (docs/rules/ocpi.md "Tokens and
 * registration"): `tokenKind` A admits only the credentials handshake (OCPI 2.2.1 §7.1).
 */
export interface PartnerActor {
  kind: "partner";
  name: string;
  platformId: number;
  tokenKind: "A" | "B";
}

interface BaseCtx {
  db: Db;
  env: Env;
  lang: Language;
  request: RequestMeta;
  now: () => number;
  /**
   * Runs work after the answer, within the request's lifetime (the Worker's `waitUntil`), where
   * the caller has one; without it, the work is awaited.
   */
  afterAnswer?: (work: Promise<unknown>) => void;
}

/** Context of verbs that run before anyone has logged in (login, captcha, public info). */
export interface PublicCtx extends BaseCtx {
  actor: PublicActor;
}

/** What a system context knows of its operator (a charger knows its operator's id and code). */
export type OperatorRef = Pick<OperatorRow, "id" | "code" | "sub" | "parentId">;

/** A logged-in user: the operator and the actor are required, never optional. */
export interface UserCtx extends BaseCtx {
  operator: OperatorRow;
  actor: UserActor;
  /** The session token the request carried (for logout and refresh). */
  token: string;
  session: { expiresAt: Date; renewed: boolean };
}

/** The system acting for one operator. */
export interface SystemCtx extends BaseCtx {
  operator: OperatorRef;
  actor: SystemActor;
}

/** A roaming partner acting for one operator: the operator comes from its token, never its body. */
export interface PartnerCtx extends BaseCtx {
  operator: OperatorRef;
  actor: PartnerActor;
}

/** Any context that acts within one operator. */
export type Ctx = UserCtx | SystemCtx | PartnerCtx;

/** The public context of a request: the database, the language, the request for the log. */
export function publicCtxOf(request: Request, env: Env, body?: unknown, afterAnswer?: BaseCtx["afterAnswer"]): PublicCtx {
  return {
    db: createDb(env.DB),
    env,
    afterAnswer,
    lang: requestLanguage(request),
    now: Date.now,
    actor: { kind: "public" },
    request: {
      ip: clientAddress(request, env),
      origin: new URL(request.url).origin,
      url: new URL(request.url).pathname,
      method: request.method,
      userAgent: request.headers.get("User-Agent"),
      body,
    },
  };
}

/** Writes `work` after the answer when the caller allows it, else before (docs/performance.md "What changed"). */
export async function afterAnswer(ctx: Pick<BaseCtx, "afterAnswer">, work: PromiseLike<unknown>, what: string) {
  const running = Promise.resolve(work);
  if (!ctx.afterAnswer) return void (await running);
  ctx.afterAnswer(running.catch((error: unknown) => reportError(what, error)));
}

/** A system context for one operator (a charger, a job, cron); `what` names it in the log. */
export function systemCtx(env: Env, operator: OperatorRef, name: string, now: () => number = Date.now): SystemCtx {
  return {
    db: createDb(env.DB),
    env,
    lang: "en",
    now,
    operator,
    actor: { kind: "system", name },
    request: { ip: "system", url: name.slice(0, 200), method: "SYSTEM", userAgent: null },
  };
}

/**
 * The system acting for the platform itself (cron's housekeeping across operators): its
 * operator is the platform's own tenant, so whatever it logs lands with the platform.
 */
export async function platformCtx(env: Env, name: string, now: () => number = Date.now): Promise<SystemCtx> {
  const platform = await platformOperator(createDb(env.DB));
  return systemCtx(env, platform, name, now);
}

/** Builds the user context from a session token: the one function the API, the console and `/live` share. */
export async function contextFromToken(base: PublicCtx, token: string): Promise<UserCtx> {
  const session = await validateSessionToken(base.db, token, base.now());
  if (!session) throw new Unauthorized();
  const scope = { operator: { id: session.operatorId } };
  const [row] = await base.db
    .select({ account: accounts, role: roles })
    .from(accounts)
    .leftJoin(roles, and(eq(roles.id, accounts.roleId), eq(roles.operatorId, accounts.operatorId)))
    .where(owned(scope, accounts, eq(accounts.id, session.accountId)))
    .limit(1);
  const operator = await operatorById(base.db, session.operatorId);
  // An operator out of service ends its sessions at their next request (docs/rules/platform.md "Validity").
  if (!row || !operator || row.account.status !== "VALID" || !inService(operator, base.now())) throw new Unauthorized();
  if (operator.sub === 1 && operator.parentId) {
    const parent = await operatorById(base.db, operator.parentId);
    if (!parent || !inService(parent, base.now())) throw new Unauthorized();
  }
  const { account, role } = row;
  const sub = operator.sub === 1 ? 1 : 0;
  const activeRole = role && role.status === "VALID" ? { id: role.id, type: role.type, menuCodes: role.menuCodes } : null;
  return {
    ...base,
    token,
    session: { expiresAt: session.expiresAt, renewed: session.renewed },
    operator,
    actor: {
      kind: "user",
      accountId: account.id,
      username: account.username,
      name: account.name,
      email: account.email,
      adminType: account.adminType,
      role: activeRole,
      sub,
      mustChangePassword: account.mustChangePassword,
      menu: menuTreeFor({ ...catalogueKeyOf(operator), adminType: account.adminType, role: activeRole }),
    },
  };
}

/** The server side of the menu: a user without one of these menu codes is refused (403). */
export function requireMenu(ctx: UserCtx, code: string | readonly string[]) {
  const codes = typeof code === "string" ? [code] : code;
  if (!codes.some((c) => hasMenuCode(ctx.actor.menu, c))) throw new Forbidden("errors.forbidden", { menu: codes.join(",") });
}
