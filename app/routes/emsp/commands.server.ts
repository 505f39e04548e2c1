import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { listCommands, sendCommand } from "../../../workers/services/ocpi/commands";
import { listPlatforms } from "../../../workers/services/ocpi/platforms";
import { admits } from "../../../workers/services/verb";
import { actionError, refusal, requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";
import { loadRoamingList } from "./emsp.server";
import { actionForm } from "../../lib/input.server";

/**
 * The roaming sessions and locations with the commands a user may send from them, and the
 * commands sent with both answers (docs/rules/ocpi.md "Commands").
 */

/** The sessions or locations partners sent, and whether this user may send commands from them. */
export async function loadCommandTargets(args: LoaderFunctionArgs) {
  const ctx = await requireCtx(args.request, args.context);
  // The console offers a command only to a user the verb admits (docs/rules/access.md).
  return { mayCommand: admits(sendCommand.access, ctx), ...(await loadRoamingList(args)) };
}

/** The commands sent, with both answers. */
export async function loadCommands({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const mayCommand = admits(sendCommand.access, ctx);
  const platforms = (await listPlatforms(ctx, { size: 100 })).records.map((p) => ({ id: p.id, name: p.name }));
  try {
    return { mayCommand, platforms, page: await listCommands(ctx, searchParamsObject(request)), filterError: null };
  } catch (error) {
    const empty: Awaited<ReturnType<typeof listCommands>> = { records: [], total: 0, current: 1, size: 10 };
    return { mayCommand, platforms, page: empty, filterError: refusal(error, ctx.lang).body.msg };
  }
}

/** Sends the command the form describes; its fields are those of `POST /ocpi-service/command`. */
export async function commandAction({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const input = Object.fromEntries(await actionForm(request));
  try {
    return { ok: true as const, record: await sendCommand(ctx, input) };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
