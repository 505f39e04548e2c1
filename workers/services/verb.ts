import { Forbidden } from "../../domain/errors";
import { actingAs, type TenantCaller } from "../../tenants/scope";
import type { ActorKind, PartnerCtx, PublicCtx, SystemCtx, UserCtx } from "./context";
import { requireMenu } from "./context";

/**
 * A verb declares once who may call it (docs/architecture.md "One door", docs/rules/access.md):
 * which kinds of actor, and for a user which menu codes. The check runs inside the verb, first,
 * so a Hono route, a React Router loader or action, a Durable Object or a job cannot call it
 * around the check; the route's OpenAPI entry reads the same declaration.
 */
export interface VerbAccess {
  actors: readonly ActorKind[];
  /** For a user: one of these menu codes is required; `"session"`: any logged-in user. */
  menu: readonly string[] | "session";
  /** Changes records or commands a charger: a cookie caller must come from the console's origin. */
  mutates: boolean;
  /** Still callable before the initial password is changed. */
  beforePasswordChange: boolean;
  /**
   * Moves money (a balance, a card payment, a debit): its route honours an `Idempotency-Key`
   * (docs/rules/input.md "Idempotency keys").
   */
  movesMoney: boolean;
}

type CtxOf<K extends ActorKind> = K extends "user"
  ? UserCtx
  : K extends "system"
    ? SystemCtx
    : K extends "public"
      ? PublicCtx
      : K extends "partner"
        ? PartnerCtx
        : never;

export type Verb<K extends ActorKind, A extends unknown[], R> = ((ctx: CtxOf<K>, ...args: A) => Promise<R>) & {
  readonly access: VerbAccess;
};

interface VerbSpec<K extends ActorKind> {
  /** Who may call it; a user unless told. */
  actors?: readonly K[];
  /** Required when users may call it. */
  menu?: string | readonly string[] | "session";
  mutates?: boolean;
  beforePasswordChange?: boolean;
  movesMoney?: boolean;
}

/** Refuses a context the declaration does not admit (403). */
export function assertAdmitted(access: VerbAccess, ctx: { actor: { kind: ActorKind } }) {
  const { actor } = ctx;
  if (!access.actors.includes(actor.kind)) throw new Forbidden();
  if (actor.kind !== "user") return;
  const user = ctx as UserCtx;
  if (user.actor.mustChangePassword && !access.beforePasswordChange) throw new Forbidden("errors.changePasswordFirst");
  if (access.menu !== "session") requireMenu(user, access.menu);
}

/** Who a context acts for, as tenants/scope.ts needs to know it. */
function callerOf(ctx: { actor: { kind: ActorKind } }): TenantCaller {
  const user = ctx.actor.kind === "user";
  return { user, platform: user && (ctx as UserCtx).operator.kind === "PLATFORM" };
}

/** Whether a context may call a verb: the console offers what the verb would refuse no button. */
export function admits(access: VerbAccess, ctx: { actor: { kind: ActorKind } }): boolean {
  try {
    assertAdmitted(access, ctx);
    return true;
  } catch (error) {
    if (error instanceof Forbidden) return false;
    throw error;
  }
}

export function verb<K extends ActorKind = "user", A extends unknown[] = [], R = unknown>(
  spec: VerbSpec<K>,
  run: (ctx: CtxOf<K>, ...args: A) => Promise<R>,
): Verb<K, A, R> {
  const actors = spec.actors ?? (["user"] as unknown as readonly K[]);
  if (actors.includes("user" as K) && spec.menu === undefined) {
    throw new Error("A verb that users may call declares its menu codes (or \"session\")");
  }
  const menu = spec.menu === undefined || spec.menu === "session" ? "session" : typeof spec.menu === "string" ? [spec.menu] : spec.menu;
  const access: VerbAccess = {
    actors,
    menu,
    mutates: spec.mutates ?? false,
    beforePasswordChange: spec.beforePasswordChange ?? false,
    movesMoney: spec.movesMoney ?? false,
  };
  const checked = async (ctx: CtxOf<K>, ...args: A) => {
    assertAdmitted(access, ctx);
    // The body runs as its caller, so that a user's verb cannot cross tenants (docs/rules/tenancy.md "Crossing tenants").
    return actingAs(callerOf(ctx), () => run(ctx, ...args));
  };
  return Object.assign(checked, { access });
}
