import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import { stationForm, toStationInput } from "../../../domain/schemas/stations";
import { uploadStationImage } from "../../../workers/services/files/images";
import { operatorInfo, supportedCurrency } from "../../../workers/services/operators/public-info";
import { createStation, stationDetail, stationOptions, updateStation } from "../../../workers/services/stations/stations";
import type { UserCtx } from "../../../workers/services/context";
import { actionError, requireCtx } from "../../lib/ctx.server";
import { actionForm, actionJson, routeId } from "../../lib/input.server";

/** The station named by `?id=`, if any: the form edits it, else it adds one; a malformed id names no station. */
const editedId = (request: Request) => {
  const id = new URL(request.url).searchParams.get("id");
  return id ? routeId(id) : null;
};

/** Amounts are typed in the operator's currency, with its number of decimals. */
const currencyDecimals = async (ctx: UserCtx) => (await supportedCurrency(ctx))[0].decimals;

export async function loadStationForm({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireCtx(request, context);
  const id = editedId(request);
  const [station, others, decimals, { timeZone }] = await Promise.all([
    id ? stationDetail(ctx, id) : null,
    stationOptions(ctx),
    currencyDecimals(ctx),
    operatorInfo(ctx),
  ]);
  return { station, others: others.filter((o) => o.id !== station?.id), decimals, operatorTimeZone: timeZone };
}

/** Uploads the logo or the map icon (a multipart post), or creates or updates the station from the form's JSON. */
export async function saveStation({ request, context }: ActionFunctionArgs) {
  const ctx = await requireCtx(request, context);
  try {
    if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
      const length = Number(request.headers.get("Content-Length"));
      // The logo, or with ?kind=mapIcon the map icon (docs/rules/equipment.md "Images").
      const kind = new URL(request.url).searchParams.get("kind") === "mapIcon" ? "mapIcon" : "logo";
      const stored = await uploadStationImage(ctx, kind, {
        declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined,
        readFile: async () => (await actionForm(request)).get("file"),
      });
      return { ok: true as const, intent: "upload" as const, kind, key: stored.key, url: stored.url, id: null };
    }
    const id = editedId(request);
    const decimals = await currencyDecimals(ctx);
    const input = toStationInput(stationForm(decimals).parse(await actionJson(request)), decimals);
    const station = id ? await updateStation(ctx, id, input) : await createStation(ctx, input);
    return { ok: true as const, intent: "save" as const, kind: null, key: null, url: null, id: station.id };
  } catch (error) {
    return actionError(error, ctx.lang);
  }
}
