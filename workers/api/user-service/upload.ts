import { z } from "zod";
import { uploadQuery } from "../../../domain/schemas/stations";
import { uploadStationImage } from "../../services/files/images";
import { api, describeAccess, userContext } from "../app";
import { ok } from "../envelope";

/**
 * POST /user-service/file/upload?kind=logo|mapIcon|image: one image as multipart form data (field
 * `file`), checked by content (docs/rules/input.md "Uploads"), stored in R2 → `{ key, url }`.
 * Declared by hand because `route()` reads JSON bodies; the checks are the same: session, console
 * origin for cookie sessions, then the verb's declaration (initial password changed, menu).
 */
api.openAPIRegistry.registerPath({
  method: "post",
  path: "/user-service/file/upload",
  summary: "Upload a station logo (JPG/PNG, ≤ 1 MB, ≤ 64×64 px), map icon (≤ 80 KB) or image (≤ 160×160 px)",
  description: describeAccess(uploadStationImage.access),
  "x-menu": [...(uploadStationImage.access.menu === "session" ? [] : uploadStationImage.access.menu)],
  tags: ["Account service: files"],
  security: [{ bearer: [] }],
  request: {
    query: uploadQuery as never,
    body: { content: { "multipart/form-data": { schema: z.object({ file: z.string().meta({ format: "binary" }) }) as never } } },
  },
  responses: {
    200: { description: "`{ code: 200, msg, data: { key, url, kind, width, height, bytes } }`" },
    400: { description: "Not JPG/PNG, too large in bytes or pixels, or no file" },
    401: { description: "No session" },
    403: { description: "No permission" },
  },
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
