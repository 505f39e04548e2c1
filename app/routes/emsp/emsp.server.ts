import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { listCdrs, listLocations, listSessions, listTariffs } from "../../../workers/services/ocpi/lists";
import {
  createPlatform,
  deletePlatform,
  issuePlatformToken,
  listParties,
  listPlatforms,
  registerPlatform,
  roamingIdentity,
  unregisterPlatform,
  updatePlatform,
} from "../../../workers/services/ocpi/platforms";
import { listTokensForConsole } from "../../../workers/services/ocpi/token-push";
import { pullsOfPlatforms, startPull } from "../../../workers/services/ocpi/pulls";
import { forcePushTokens } from "../../../workers/services/ocpi/token-push";
import { rejectCdr, releaseCdr } from "../../../workers/services/ocpi/cdr-billing";
import { admits } from "../../../workers/services/verb";
import type { UserCtx } from "../../../workers/services/context";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/** Loaders and the platform action of the roaming screens (docs/rules/ocpi.md "Console"). */

const LISTS = {
  location: listLocations,
  session: listSessions,
  cdr: listCdrs,
  tariff: listTariffs,
  token: listTokensForConsole,
  party: listParties,
} as const;
export type RoamingListKind = keyof typeof LISTS;

/** The kind of list a menu URL shows: `/emsp/emspSession` → `session`. */
export const listOfPath = (pathname: string): RoamingListKind => {
  const kind = pathname.replace(/^\/emsp\/emsp/, "").toLowerCase();
  return kind === "partyinfo" ? "party" : (kind as RoamingListKind);
};

type AnyPage = { records: Record<string, unknown>[]; total: number; current: number; size: number };

export async function loadRoamingList({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const kind = listOfPath(new URL(request.url).pathname);
  // Held CDRs are released or rejected only by whom the verbs admit (docs/rules/ocpi.md "What a CDR may bill").
  const mayReview = kind === "cdr" && admits(releaseCdr.access, ctx);
  const platforms = kind === "token" ? [] : (await listPlatforms(ctx, { size: 100 })).records.map((p) => ({ id: p.id, name: p.name }));
  try {
    const list = LISTS[kind] as (ctx: UserCtx, raw: unknown) => Promise<AnyPage>;
    return { kind, platforms, mayReview, page: await list(ctx, searchParamsObject(request)), filterError: null };
  } catch (error) {
    return { kind, platforms, mayReview, page: { records: [], total: 0, current: 1, size: 10 } as AnyPage, filterError: refusal(error, ctx.lang).body.msg };
  }
}

export async function loadPlatforms({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const identity = await roamingIdentity(ctx);
  try {
    const page = await listPlatforms(ctx, searchParamsObject(request));
    // Each platform's pulls, module by module (docs/rules/ocpi.md "Pulls").
    return { identity, page, pulls: await pullsOfPlatforms(ctx, page.records.map((p) => p.id)), filterError: null };
  } catch (error) {
    return { identity, page: { records: [], total: 0, current: 1, size: 10 } as Awaited<ReturnType<typeof listPlatforms>>, pulls: [], filterError: refusal(error, ctx.lang).body.msg };
  }
}

/** One action for the platform screen; `intent` names the verb. */
export async function platformAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  const input = { name: form.get("name") ?? undefined, versionsUrl: form.get("versionsUrl") ?? undefined, token: form.get("token") ?? undefined, role: form.get("role") ?? undefined };
  // Every intent but create names its platform (docs/rules/input.md "Whole numbers").
  const id = () => bodyId(form.get("id"));
  try {
    switch (form.get("intent")) {
      case "create":
        return { ok: true as const, intent: "create", record: await createPlatform(ctx, input), token: null };
      case "update":
        return { ok: true as const, intent: "update", record: await updatePlatform(ctx, id(), input), token: null };
      case "register":
        return { ok: true as const, intent: "register", record: await registerPlatform(ctx, id()), token: null };
      case "unregister":
        return { ok: true as const, intent: "unregister", record: await unregisterPlatform(ctx, id()), token: null };
      case "issueToken":
        return { ok: true as const, intent: "issueToken", record: null, token: await issuePlatformToken(ctx, id()) };
      case "delete":
        await deletePlatform(ctx, id());
        return { ok: true as const, intent: "delete", record: null, token: null };
      case "pull":
        await startPull(ctx, id(), {});
        return { ok: true as const, intent: "pull", record: null, token: null };
      default:
        return { ok: false as const, message: "?", fields: {} };
    }
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The tokens screen's action: push tokens to partners again now (one token, or all). */
export async function tokenPushAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  const uid = form.get("uid");
  try {
    const { queued } = await forcePushTokens(ctx, typeof uid === "string" && uid !== "" ? { uids: [uid] } : {});
    return { ok: true as const, queued };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The CDR screen's review of a held CDR: `intent` release or reject, `id` the CDR's row. */
export async function cdrReviewAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const id = bodyId(form.get("id"));
    const intent = form.get("intent") === "reject" ? "reject" : "release";
    const cdr = intent === "reject" ? await rejectCdr(ctx, id) : await releaseCdr(ctx, id);
    return { ok: true as const, intent, cdr };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
