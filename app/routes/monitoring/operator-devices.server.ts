import type { LoaderFunctionArgs } from "react-router";
import { listSubOperatorDevices } from "../../../workers/services/sub-operators/devices";
import { requireCtx } from "../../lib/ctx.server";
import { searchParamsObject } from "../../lib/search-params";

export async function loadOperatorDevices({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  return listSubOperatorDevices(ctx, searchParamsObject(request));
}
