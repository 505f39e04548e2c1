import { z } from "zod";
import { uploadCustomerAvatar } from "../../services/drivers/avatar";
import { api, documentUpload, userContext } from "../app";
import { ok } from "../envelope";

/**
 * POST /customer-service/customer/avatar: one image as multipart form data (field `file`), checked
 * by content → `{ key, url }`; the key goes to the customer's `avatarKey`. Declared by hand like the
 * station images' upload (workers/api/user-service/upload.ts), with the same checks.
 */
documentUpload({
  path: "/customer-service/customer/avatar",
  summary: "Upload a customer's avatar (JPG/PNG, ≤ 1 MB, ≤ 160×160 px)",
  tag: "Customer service",
  access: uploadCustomerAvatar.access,
  query: z.object({}),
  ok: "`{ code: 200, msg, data: { key, url, kind, width, height, bytes } }`",
  refused: "Not JPG/PNG, too large in bytes or pixels, or no file",
});

api.post("/customer-service/customer/avatar", async (c) => {
  const ctx = await userContext(c, uploadCustomerAvatar.access, true);
  const length = Number(c.req.header("Content-Length"));
  const stored = await uploadCustomerAvatar(ctx, {
    declaredBytes: Number.isFinite(length) && length > 0 ? length : undefined,
    readFile: async () => (await c.req.formData().catch(() => null))?.get("file"),
  });
  return ok(c, stored, ctx.lang);
});
