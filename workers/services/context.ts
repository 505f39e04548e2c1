import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { createDb, type Db } from "../../db/client";
import { accounts, operators, roles, sessions } from "../../db/schema";
import type { Language } from "../../domain/languages";
import { Forbidden, Unauthorized } from "../../domain/errors";
import { inService } from "../../domain/operator-validity";
import type { MenuEntry } from "../../tenants/menu-catalogue";
import { catalogueKeyOf, hasMenuCode, menuTreeFor } from "../../tenants/permissions";
import { platformOperator, type OperatorRow } from "../../tenants/resolve";
import { acrossTenants } from "../../tenants/scope";
import { keepSessionAlive } from "../auth/session";
import { tokenId } from "../auth/tokens";
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

/**
 * Whom the system acts for: an operator as a query found it, or as a charger's identity or a job's
 * message names it (`operatorId`, `operatorCode`). Chargers and jobs act for the operator that owns
 * the equipment, which is never a sub-operator (docs/rules/tenancy.md "Sub-operators").
 */
export type SystemOperator = OperatorRef | Pick<OperatorRef, "id" | "code"> | { operatorId: number; operatorCode: string };

const operatorRefOf = (operator: SystemOperator): OperatorRef =>
  "operatorId" in operator
    ? { id: operator.operatorId, code: operator.operatorCode, sub: 0, parentId: null }
    : "sub" in operator
      ? operator
      : { id: operator.id, code: operator.code, sub: 0, parentId: null };

/**
 * A system context for one operator (a charger, a job, cron); `name` names it in the log. The one
 * place a system context is built (docs/architecture.md "One door"): `tests/unit/system-context.test.ts`
 * fails on a context or an operator reference written by hand elsewhere.
 */
export function systemCtx(env: Env, operator: SystemOperator, name: string, now: () => number = Date.now): SystemCtx {
  return {
    db: createDb(env.DB),
    env,
    lang: "en",
    now,
    operator: operatorRefOf(operator),
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

/** Sub-operators' parents, joined to the session's operator. */
const parentOperators = alias(operators, "parent_operator");

/**
 * Builds the user context from a session token: the one function the API, the console and
 * `/live` share. The session, its account and role, its operator and a sub-operator's parent come
 * in one query: every authenticated request starts here, and each D1 query is a round trip
 * (docs/performance.md "An authenticated request").
 */
export async function contextFromToken(base: PublicCtx, token: string): Promise<UserCtx> {
  const now = base.now();
  const [row] = await base.db
    .select({
      session: { id: sessions.id, operatorId: sessions.operatorId, expiresAt: sessions.expiresAt },
      // Only the columns the context keeps: building and reading each column costs every request.
      account: {
        id: accounts.id,
        username: accounts.username,
        name: accounts.name,
        email: accounts.email,
        adminType: accounts.adminType,
        mustChangePassword: accounts.mustChangePassword,
        status: accounts.status,
      },
      role: { id: roles.id, type: roles.type, menuCodes: roles.menuCodes, status: roles.status },
      operator: operators,
      parent: { status: parentOperators.status, validFrom: parentOperators.validFrom, validUntil: parentOperators.validUntil },
    })
    .from(sessions)
    // The session names its operator; its account and the account's role are that operator's.
    .innerJoin(accounts, and(eq(accounts.id, sessions.accountId), eq(accounts.operatorId, sessions.operatorId)))
    .leftJoin(roles, and(eq(roles.id, accounts.roleId), eq(roles.operatorId, accounts.operatorId)))
    .innerJoin(operators, eq(operators.id, sessions.operatorId))
    .leftJoin(parentOperators, eq(parentOperators.id, operators.parentId))
    .where(acrossTenants("the token names its session, the session its operator: the lookup that finds the tenant", eq(sessions.id, tokenId(token))))
    .limit(1);
  if (!row) throw new Unauthorized();
  const { account, role, operator, parent } = row;
  // An operator out of service ends its sessions at their next request (docs/rules/platform.md "Validity").
  if (account.status !== "VALID" || !inService(operator, now)) throw new Unauthorized();
  if (operator.sub === 1 && operator.parentId && (!parent || !inService(parent, now))) throw new Unauthorized();
  const session = await keepSessionAlive(base.db, row.session, now);
  // A session found but past its expiry says so (docs/rules/sessions.md "Session messages").
  if (!session) throw new Unauthorized("errors.sessionExpired");
  const activeRole = role && role.status === "VALID" ? { id: role.id, type: role.type, menuCodes: role.menuCodes } : null;
  return { ...base, token, session, operator, actor: userActorOf(account, operator, activeRole) };
}

/**
 * The user actor of an account of `operator`, acting with `role` (null when it has none or it is
 * disabled): its menu follows from the operator's edition, the admin type and the role.
 */
export function userActorOf(
  account: Pick<UserActor, "username" | "name" | "email" | "adminType" | "mustChangePassword"> & { id: number },
  operator: OperatorRow,
  role: UserActor["role"],
): UserActor {
  return {
    kind: "user",
    accountId: account.id,
    username: account.username,
    name: account.name,
    email: account.email,
    adminType: account.adminType,
    role,
    sub: operator.sub === 1 ? 1 : 0,
    mustChangePassword: account.mustChangePassword,
    menu: menuTreeFor({ ...catalogueKeyOf(operator), adminType: account.adminType, role }),
  };
}

/** The server side of the menu: a user without one of these menu codes is refused (403). */
export function requireMenu(ctx: UserCtx, code: string | readonly string[]) {
  const codes = typeof code === "string" ? [code] : code;
  if (!codes.some((c) => hasMenuCode(ctx.actor.menu, c))) throw new Forbidden("errors.forbidden", { menu: codes.join(",") });
}
