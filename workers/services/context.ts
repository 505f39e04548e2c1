import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, roles } from "../../db/schema";
import type { Language } from "../../domain/languages";
import { Forbidden, Unauthorized } from "../../domain/errors";
import type { MenuEntry } from "../../tenants/menu-catalogue";
import { hasMenuCode, menuTreeFor } from "../../tenants/permissions";
import { operatorById, type OperatorRow } from "../../tenants/resolve";
import { validateSessionToken } from "../auth/session";

/** What a service verb knows of the request that called it (for the operation log). */
export interface RequestMeta {
  ip: string;
  url: string;
  method: string;
  userAgent: string | null;
  body?: unknown;
}

/** Context of verbs that run before anyone has logged in (login, captcha, public info). */
export interface PublicCtx {
  db: Db;
  env: Env;
  lang: Language;
  request: RequestMeta;
  now: () => number;
}

export interface Actor {
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

/** Context of every tenant verb: the operator and the actor are required, never optional. */
export interface Ctx extends PublicCtx {
  operator: OperatorRow;
  actor: Actor;
  /** The session token the request carried (for logout and refresh). */
  token: string;
  session: { expiresAt: Date; renewed: boolean };
}

/** Builds the tenant context from a session token: the one function the API and the console share. */
export async function contextFromToken(base: PublicCtx, token: string): Promise<Ctx> {
  const session = await validateSessionToken(base.db, token, base.now());
  if (!session) throw new Unauthorized();
  const [row] = await base.db
    .select({ account: accounts, role: roles })
    .from(accounts)
    .leftJoin(roles, and(eq(roles.id, accounts.roleId), eq(roles.operatorId, accounts.operatorId)))
    .where(and(eq(accounts.id, session.accountId), eq(accounts.operatorId, session.operatorId)))
    .limit(1);
  const operator = await operatorById(base.db, session.operatorId);
  if (!row || !operator || row.account.status !== "VALID" || operator.status !== "VALID") throw new Unauthorized();
  const { account, role } = row;
  const sub = operator.sub === 1 ? 1 : 0;
  const activeRole = role && role.status === "VALID" ? { id: role.id, type: role.type, menuCodes: role.menuCodes } : null;
  return {
    ...base,
    token,
    session: { expiresAt: session.expiresAt, renewed: session.renewed },
    operator,
    actor: {
      accountId: account.id,
      username: account.username,
      name: account.name,
      email: account.email,
      adminType: account.adminType,
      role: activeRole,
      sub,
      mustChangePassword: account.mustChangePassword,
      menu: menuTreeFor({ operatorCode: operator.code, sub, adminType: account.adminType, role: activeRole }),
    },
  };
}

/** The server side of the menu: a verb behind menu entries is refused without one of them (SPEC.md §6). */
export function requireMenu(ctx: Ctx, code: string | string[]) {
  const codes = Array.isArray(code) ? code : [code];
  if (!codes.some((c) => hasMenuCode(ctx.actor.menu, c))) throw new Forbidden("errors.forbidden", { menu: codes.join(",") });
}
