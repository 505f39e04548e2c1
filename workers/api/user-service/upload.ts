import { uploadQuery } from "../../../domain/schemas/stations";
import { uploadStationImage } from "../../services/files/images";
import { api, documentUpload, userContext } from "../app";
import { ok } from "../envelope";

/**
 * POST /user-service/file/upload?kind=logo|mapIcon|image: one image as multipart form data (field
 * `file`), checked by content (docs/rules/input.md "Uploads"), stored in R2 → `{ key, url }`.
 * Declared by hand because `route()` reads JSON bodies; the checks are the same: session, console
 * origin for cookie sessions, then the verb's declaration (initial password changed, menu).
 */
documentUpload({
  path: "/user-service/file/upload",
  summary: "Upload a station logo (JPG/PNG, ≤ 1 MB, ≤ 64×64 px), map icon (≤ 80 KB) or image (≤ 160×160 px)",
  tag: "Account service: files",
  access: uploadStationImage.access,
  query: uploadQuery,
  ok: "`{ code: 200, msg, data: { key, url, kind, width, height, bytes } }`",
  refused: "Not JPG/PNG, too large in bytes or pixels, or no file",
});

api.post("/user-service/file/upload", async (c) => {
  const kind = c.req.query("kind");
  const ctx = await userContext(c, uploadStationImage.access, true);
  ctx.request.body = { kind };
  const length = Number(c.req.header("Content-Length"));
  const stored = await uploadStationImage(ctx, kind, {
    declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined,
    readFile: async () => (await c.req.formData().catch(() => null))?.get("file"),
  });
  return ok(c, stored, ctx.lang);
});
