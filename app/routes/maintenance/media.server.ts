import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { confirmAccountDeletion, decideAccountDeletion, deletionPageOperator, listAccountDeletions, requestAccountDeletion } from "../../../workers/services/maintenance/account-deletion";
import { auditBanner, deleteBanner, listBanners, orderBanners, setBannerEnabled, uploadBanner } from "../../../workers/services/media/banners";
import { deleteFile, listFiles, uploadFile } from "../../../workers/services/media/files";
import type { Upload } from "../../../workers/services/files/images";
import { actionError, publicCtx, refusal, requireCtx } from "../../lib/ctx.server";
import { actionForm, bodyId } from "../../lib/input.server";
import { searchParamsObject } from "../../lib/search-params";

/**
 * Banners, file management and account deletion requests (docs/rules/maintenance.md): the screens
 * reach the same verbs as the API; uploads come as multipart posts to the screen's action.
 */
const isUpload = (request: Request) => request.headers.get("Content-Type")?.startsWith("multipart/form-data") ?? false;

function uploadOf(request: Request, form: Promise<FormData>): Upload {
  const length = Number(request.headers.get("Content-Length"));
  return { declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined, readFile: async () => (await form).get("file") };
}

export async function loadBanners({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listBanners(ctx, { size: 100, ...searchParamsObject(request) });
}

export async function bannerAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    if (isUpload(request)) {
      const form = actionForm(request);
      const type = String((await form).get("type") ?? "");
      await uploadBanner(ctx, { type }, uploadOf(request, form));
      return { ok: true as const, intent: "upload" };
    }
    const form = Object.fromEntries(await actionForm(request)) as Record<string, string>;
    const id = () => bodyId(form.id);
    if (form.intent === "audit") await auditBanner(ctx, id());
    else if (form.intent === "enable") await setBannerEnabled(ctx, id(), { enabled: form.enabled === "true" });
    else if (form.intent === "order") await orderBanners(ctx, { ids: form.ids.split(",") });
    else await deleteBanner(ctx, id());
    return { ok: true as const, intent: form.intent };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadFiles({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    return { page: await listFiles(ctx, searchParamsObject(request)), filterError: null };
  } catch (error) {
    return { page: { records: [], total: 0, current: 1, size: 10 } as Awaited<ReturnType<typeof listFiles>>, filterError: refusal(error, ctx.lang).body.msg };
  }
}

export async function fileAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    if (isUpload(request)) {
      await uploadFile(ctx, uploadOf(request, actionForm(request)));
      return { ok: true as const, intent: "upload" };
    }
    const form = await actionForm(request);
    await deleteFile(ctx, bodyId(form.get("id")));
    return { ok: true as const, intent: "delete" };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

export async function loadDeletions({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    return { page: await listAccountDeletions(ctx, searchParamsObject(request)), filterError: null };
  } catch (error) {
    return { page: { records: [], total: 0, current: 1, size: 10 } as Awaited<ReturnType<typeof listAccountDeletions>>, filterError: refusal(error, ctx.lang).body.msg };
  }
}

export async function deletionAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const form = await actionForm(request);
  try {
    const identityConfirmedBy = form.get("identityConfirmedBy");
    await decideAccountDeletion(ctx, bodyId(form.get("id")), { result: form.get("result"), ...(identityConfirmedBy !== null && { identityConfirmedBy }) });
    return { ok: true as const };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}

/** The public page: its operator from the domain or the address's `operatorCode`, else none (the driver chooses it by name). */
export async function loadDeletePage({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { operator: await deletionPageOperator(publicCtx(request, context), url.host, url.searchParams.get("operatorCode")) };
}

/**
 * The page's two steps: the request (`intent` absent), then, when the operator has a mail server,
 * the code mailed to the customer (`intent=confirm`).
 */
export async function requestDeletionAction({ request, context }: ActionFunctionArgs) {
  const { intent, code, ...body } = Object.fromEntries(await actionForm(request));
  // The code stays out of the operation log.
  const ctx = publicCtx(request, context, body);
  try {
    if (intent === "confirm") {
      const confirmed = await confirmAccountDeletion(ctx, { ticket: body.ticket, code });
      return { ok: true as const, step: "done" as const, operatorName: confirmed.operatorName };
    }
    const received = await requestAccountDeletion(ctx, new URL(request.url).host, body);
    return received.confirmation === "CODE"
      ? { ok: true as const, step: "code" as const, operatorName: received.operatorName, ticket: received.ticket, minutes: received.minutes }
      : { ok: true as const, step: "received" as const, operatorName: received.operatorName, message: received.message };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
