import type { LoaderFunctionArgs } from "react-router";
import { listCpoCommandsForConsole } from "../../../workers/services/ocpi/cpo/console";
import { refusal, requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

/** Loader of the commands partners sent us (docs/rules/ocpi.md "Commands we take"): a page read on the server. */
export async function loadCpoCommands({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    return { page: await listCpoCommandsForConsole(ctx, searchParamsObject(request)), filterError: null };
  } catch (error) {
    return { page: { records: [], total: 0, current: 1, size: 10 }, filterError: refusal(error, ctx.lang).body.msg };
  }
}
