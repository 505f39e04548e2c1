import { z } from "zod";
import { bannerListQuery, bannerOrderInput, bannerStatusInput, bannerUploadQuery, fileListQuery } from "../../../domain/schemas/maintenance";
import { auditBanner, deleteBanner, listBanners, orderBanners, setBannerEnabled, uploadBanner } from "../../services/media/banners";
import { deleteFile, downloadFile, FILE_MENU, listFiles, uploadFile } from "../../services/media/files";
import type { Upload } from "../../services/files/images";
import { api, describeAccess, documentUpload, idParam, userContext } from "../app";
import { resource } from "../resource";
import { ok } from "../envelope";
import type { Context } from "hono";

/** Banners and images, and file management (docs/rules/maintenance.md "Banners and images", "File management"). */
const tag = "System service: banners and files";
const banner = resource(tag, "/system-service/banner");
const files = resource(tag, "/system-service/file");

/** The multipart upload of a request, read only after the checks. */
const uploadOf = (c: Context): Upload => {
  const length = Number(c.req.header("Content-Length"));
  return { declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined, readFile: async () => (await c.req.formData().catch(() => null))?.get("file") };
};

export const bannerRoutes = [
  banner.list("Banners in their order (type, auditStatus)", listBanners, bannerListQuery),
  banner.put("/order", "Order banners: { ids } first, in this order", orderBanners, bannerOrderInput),
  banner.put("/{id}/audit", "Approve a banner: UNAUDITED → AUDITED (409 once approved)", auditBanner),
  banner.put("/{id}/status", "Enable or disable a banner: { enabled }; only an approved one may be enabled (409)", setBannerEnabled, bannerStatusInput),
  banner.remove("Delete a banner and its image", deleteBanner),
];
documentUpload({
  path: "/system-service/banner",
  summary: "Upload a banner (?type=POINT|STATION): JPG/PNG, ≤ 1 MB, ≤ 160×160 px, checked by content; it starts UNAUDITED and disabled",
  tag,
  access: uploadBanner.access,
  query: bannerUploadQuery,
  ok: "`{ code: 200, msg, data: banner }`",
  refused: "Not JPG/PNG, too large in bytes or pixels, no file, or an unknown type",
});
api.post("/system-service/banner", async (c) => {
  const ctx = await userContext(c, uploadBanner.access, true);
  ctx.request.body = { type: c.req.query("type") };
  return ok(c, await uploadBanner(ctx, c.req.query(), uploadOf(c)), ctx.lang);
});

export const fileRoutes = [
  files.list("The operator's files, newest first (name)", listFiles, fileListQuery),
  files.remove("Delete a file", deleteFile),
];
documentUpload({
  path: "/system-service/file",
  summary: "Upload a file: PDF, PNG, JPEG, xlsx/docx/pptx or UTF-8 txt/csv, ≤ 10 MB, checked by content",
  tag,
  access: uploadFile.access,
  query: z.object({}),
  ok: "`{ code: 200, msg, data: file }`",
  refused: "No file, over 10 MB, or a type not accepted",
});
api.post("/system-service/file", async (c) => {
  const ctx = await userContext(c, uploadFile.access, true);
  return ok(c, await uploadFile(ctx, uploadOf(c)), ctx.lang);
});
api.openAPIRegistry.registerPath({
  method: "get",
  path: "/system-service/file/{id}/download",
  summary: "Download one of the operator's files (an attachment)",
  description: describeAccess(downloadFile.access),
  "x-menu": [FILE_MENU],
  tags: [tag],
  security: [{ bearer: [] }],
  request: { params: idParam as never },
  responses: { 200: { description: "The file's bytes" }, 404: { description: "No such file, or another operator's" } },
});
api.get("/system-service/file/:id/download", async (c) => {
  const ctx = await userContext(c, downloadFile.access, false);
  const { id } = idParam.parse(c.req.param());
  const file = await downloadFile(ctx, id);
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
});
