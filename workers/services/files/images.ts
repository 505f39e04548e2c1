import { Invalid } from "../../../domain/errors";
import { checkImage, formatByteLimit, IMAGE_LIMITS, tooLarge, type ImageKind } from "../../../domain/images";
import { imageKind, stationFilesPrefix } from "../../../domain/schemas/stations";
import { auditRow } from "../audit";
import type { UserCtx } from "../context";
import { verb } from "../verb";

/**
 * Images of the Locations screen (station logos, map icons, pictures) into R2, checked by
 * content (docs/rules/input.md "Uploads"). They are public branding, served by
 * GET /user-service/file/show under `operators/{id}/public/`.
 */

const FOLDERS: Record<ImageKind, string> = { logo: "logos", mapIcon: "map-icons", image: "images" };

/** The message of each refusal, with the limit it broke. */
function refusal(kind: ImageKind, problem: "empty" | "type" | "bytes" | "pixels"): Invalid {
  const limits = IMAGE_LIMITS[kind];
  const [key, params] =
    problem === "empty"
      ? ["stations.validation.fileRequired", {}]
      : problem === "type"
        ? ["stations.validation.imageType", {}]
        : problem === "bytes"
          ? ["stations.validation.imageBytes", { max: formatByteLimit(limits.maxBytes) }]
          : ["stations.validation.imagePixels", { width: limits.maxPixels?.width, height: limits.maxPixels?.height }];
  return new Invalid(key, params, { file: key });
}

/** An upload as it arrives: the request's declared length (a little more than the file's) and its form data. */
export interface Upload {
  declaredBytes?: number;
  readFile: () => Promise<unknown>;
}

/** Multipart framing adds well under 1 KB around the file. */
export const FRAMING_BYTES = 1024;

/**
 * Reads an uploaded image and checks it for its kind (docs/rules/input.md "Uploads"): refused
 * before the body is read when the declared length already breaks the limit, then by content.
 */
export async function readImage(kind: ImageKind, upload: Upload) {
  if (upload.declaredBytes !== undefined && tooLarge(kind, upload.declaredBytes - FRAMING_BYTES)) throw refusal(kind, "bytes");
  const file = await upload.readFile();
  if (!(file instanceof File) || file.size === 0) throw refusal(kind, "empty");
  if (tooLarge(kind, file.size)) throw refusal(kind, "bytes");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const checked = checkImage(kind, bytes);
  if (!checked.ok) throw refusal(kind, checked.problem);
  return { bytes, checked };
}

/** POST /user-service/file/upload?kind=logo|mapIcon|image, multipart field `file`. */
export const uploadStationImage = verb({ menu: "equipment.station", mutates: true }, async (ctx, rawKind: unknown, upload: Upload) => {
  const kind = imageKind.parse(rawKind);
  return storeImage(ctx, kind, upload, `${stationFilesPrefix(ctx.operator.id)}${FOLDERS[kind]}/`, "station");
});

/**
 * Checks an uploaded image for its kind and stores it in R2 under `folder` (one of the operator's
 * `operators/{id}/public/` folders), with the log row. Answers its key and the URL that shows it.
 */
export async function storeImage(ctx: UserCtx, kind: ImageKind, upload: Upload, folder: string, module: string) {
  const { bytes, checked } = await readImage(kind, upload);
  const key = `${folder}${crypto.randomUUID()}.${checked.extension}`;
  await ctx.env.FILES.put(key, bytes, {
    httpMetadata: { contentType: checked.contentType },
    customMetadata: { kind, width: String(checked.width), height: String(checked.height), uploadedBy: ctx.actor.username },
  });
  const stored = { key, kind, width: checked.width, height: checked.height, bytes: bytes.length };
  await auditRow(ctx, { table: "files", module, type: "CREATE", newData: stored });
  return { ...stored, url: `/user-service/file/show?key=${encodeURIComponent(key)}` };
}
