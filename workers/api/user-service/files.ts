import { fileShowQuery } from "../../../domain/schemas/account-service";
import { NotFound } from "../../../domain/errors";
import { contextFromToken, publicCtxOf } from "../../services/context";
import { api, sessionToken } from "../app";

/**
 * GET /user-service/file/show?key= (docs/rules/tenancy.md "Files"): a stored file from R2. Branding
 * under `operators/{id}/public/` (logos on login pages) is public; anything else of an operator is
 * served only to that operator's sessions, and another operator's key answers 404.
 */

api.openAPIRegistry.registerPath({
  method: "get",
  path: "/user-service/file/show",
  summary: "A stored file (logo, image); operator branding is public",
  description: "Public. Branding under `operators/{id}/public/` is public; any other file only to that operator's sessions.",
  tags: ["Account service: files"],
  request: { query: fileShowQuery as never },
  responses: { 200: { description: "The file's bytes with its content type" }, 404: { description: "No such file, or another operator's" } },
});

api.get("/user-service/file/show", async (c) => {
  const { key } = fileShowQuery.parse(c.req.query());
  const owner = Number(key.split("/")[1]);
  if (!key.startsWith(`operators/${owner}/public/`)) {
    const session = sessionToken(c);
    const ctx = session ? await contextFromToken(publicCtxOf(c.req.raw, c.env), session.token).catch(() => null) : null;
    if (!ctx || ctx.operator.id !== owner) throw new NotFound();
  }
  const object = await c.env.FILES.get(key);
  if (!object) throw new NotFound();
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "application/octet-stream",
      "Cache-Control": "private, max-age=300",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
